extension StringProtocol {
  /// The text with every control character written as a visible escape,
  /// `\u{1B}` for an escape character, so that text from a user or a file can
  /// go to a terminal as data, never as control.
  ///
  /// This is the one visible form TextUI uses: ``ScreenRenderer`` draws
  /// control characters so, and ``Swift/Character/displayWidth`` measures
  /// them so, whatever writes the text.
  ///
  /// Control characters are those of Unicode's *Cc* category: C0 (U+0000 to
  /// U+001F, including tab, carriage return and line feed), DELETE (U+007F)
  /// and C1 (U+0080 to U+009F). Each is written as `\u{` and two uppercase
  /// hexadecimal digits and `}`, as in a Swift string literal, six columns
  /// wide. A backslash stays a backslash: the escape form is for reading, not
  /// for parsing back.
  ///
  /// ```swift
  /// "red\u{1B}[31m".withVisibleControlCharacters   // "red\\u{1B}[31m"
  /// "a\rb".withVisibleControlCharacters             // "a\\u{0D}b"
  /// ```
  ///
  /// - Complexity: O(*n*); text without control characters is returned as
  ///   it is after one scan of its UTF-8.
  public var withVisibleControlCharacters: String {
    // Every control character's UTF-8 starts with a byte below 0x20, 0x7F,
    // or (C1) 0xC2; the lead byte 0xC2 also starts U+00A0...U+00BF, which
    // only costs the slower path.
    let needsEscaping = utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }
    guard needsEscaping else { return String(self) }
    var result = ""
    result.reserveCapacity(utf8.count)
    for scalar in unicodeScalars {
      if scalar.isControlCharacter {
        result += scalar.visibleEscape
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }
}

extension Unicode.Scalar {
  /// Whether the scalar is a control character (Unicode's *Cc* category):
  /// C0, DELETE or C1.
  var isControlCharacter: Bool {
    value < 0x20 || (0x7F...0x9F).contains(value)
  }

  /// How a control character is shown: `\u{1B}`; always two digits, since
  /// every control character is below U+0100.
  var visibleEscape: String {
    let hex = String(value, radix: 16, uppercase: true)
    return "\\u{" + String(repeating: "0", count: Swift.max(0, 2 - hex.count)) + hex + "}"
  }

  /// The columns ``visibleEscape`` takes.
  static let visibleEscapeWidth = 6
}

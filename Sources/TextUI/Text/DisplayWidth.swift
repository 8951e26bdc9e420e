extension Character {
  /// How many terminal columns the character takes as TextUI draws it: 2
  /// for East Asian wide and fullwidth characters (CJK, Hangul, kana) and
  /// for emoji, 0 for a mark or format character that stands alone, 6 for a
  /// control character, which is drawn as its visible escape (`\u{1B}`, see
  /// ``Swift/StringProtocol/withVisibleControlCharacters``), 1 otherwise.
  ///
  /// A `Character` is a whole grapheme cluster, so a letter with combining
  /// marks (`"e\u{301}"`), a flag or an emoji joined with zero-width joiners
  /// is one character, as wide as its first part. CR LF is one character
  /// too, drawn as two escapes.
  ///
  /// ```swift
  /// Character("a").displayWidth          // 1
  /// Character("漢").displayWidth         // 2
  /// Character("👍").displayWidth         // 2
  /// Character("e\u{301}").displayWidth   // 1
  /// Character("\u{1B}").displayWidth    // 6, drawn as \u{1B}
  /// ```
  public var displayWidth: Int {
    let scalars = unicodeScalars
    guard let first = scalars.first else { return 0 }
    if first.isControlCharacter {
      // A control character stands alone in its grapheme cluster, but for
      // CR LF.
      return scalars.count * Unicode.Scalar.visibleEscapeWidth
    }
    if first.value < 0x7F {
      return 1
    }
    switch first.properties.generalCategory {
    case .nonspacingMark, .enclosingMark, .format:
      return 0
    default:
      break
    }
    if scalars.contains(where: \.properties.isEmojiPresentation) {
      return 2
    }
    // A text-style emoji with the emoji variation selector (U+FE0F), ☀️.
    if first.properties.isEmoji && scalars.contains("\u{FE0F}") {
      return 2
    }
    return _isWide(first) ? 2 : 1
  }
}

extension StringProtocol {
  /// How many terminal columns the text takes: the sum of its characters'
  /// ``Swift/Character/displayWidth``.
  ///
  /// ```swift
  /// "漢字 ok".displayWidth   // 7
  /// ```
  ///
  /// - Complexity: O(*n*).
  public var displayWidth: Int {
    if utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
      return utf8.count
    }
    var width = 0
    for character in self {
      width += character.displayWidth
    }
    return width
  }

  /// The text cut to fit a number of columns, ending with an ellipsis when
  /// it was cut.
  ///
  /// Characters are never split: a wide character that would straddle the
  /// limit is left out, so the result can be a column narrower than `width`.
  ///
  /// ```swift
  /// "hello world".truncated(toWidth: 8)   // "hello w…"
  /// "漢字漢字".truncated(toWidth: 6)        // "漢字…"
  /// "short".truncated(toWidth: 8)         // "short"
  /// ```
  ///
  /// - Parameters:
  ///   - width: The number of columns available.
  ///   - ellipsis: What marks a cut; one column wide by default.
  /// - Returns: The text itself if it fits, otherwise its longest prefix
  ///   that fits together with the ellipsis.
  /// - Complexity: O(*m*), where *m* is the length of the prefix that fits:
  ///   a long text is not measured to its end.
  public func truncated(toWidth width: Int, ellipsis: Character = "…") -> String {
    var result = ""
    guard width > 0 else { return result }
    let room = width - ellipsis.displayWidth
    var used = 0
    // The end of the longest prefix that leaves room for the ellipsis.
    var fitsWithEllipsis = startIndex
    var index = startIndex
    while index < endIndex {
      used += self[index].displayWidth
      if used > width {
        guard room >= 0 else { return result }
        result = String(self[startIndex..<fitsWithEllipsis])
        result.append(ellipsis)
        return result
      }
      index = self.index(after: index)
      if used <= room {
        fitsWithEllipsis = index
      }
    }
    return String(self)
  }
}

/// Whether a scalar is East Asian Wide or Fullwidth: the blocks of CJK
/// ideographs, kana, Hangul, fullwidth forms and CJK punctuation.
func _isWide(_ scalar: Unicode.Scalar) -> Bool {
  let value = scalar.value
  guard value >= 0x1100 else { return false }
  var low = 0
  var high = _wideRanges.count - 1
  while low <= high {
    let middle = (low + high) / 2
    let range = _wideRanges[middle]
    if value < range.lowerBound {
      high = middle - 1
    } else if value > range.upperBound {
      low = middle + 1
    } else {
      return true
    }
  }
  return false
}

/// East Asian Wide (W) and Fullwidth (F) ranges of Unicode 15, sorted; emoji
/// are recognized by their emoji presentation property instead.
private let _wideRanges: [ClosedRange<UInt32>] = [
  0x1100...0x115F,  // Hangul Jamo initial consonants
  0x2329...0x232A,  // angle brackets
  0x2E80...0x303E,  // CJK radicals, Kangxi, CJK symbols and punctuation
  0x3041...0x33FF,  // kana, Bopomofo, Hangul compatibility Jamo, CJK compatibility
  0x3400...0x4DBF,  // CJK extension A
  0x4E00...0x9FFF,  // CJK unified ideographs
  0xA000...0xA4CF,  // Yi
  0xA960...0xA97F,  // Hangul Jamo extended A
  0xAC00...0xD7A3,  // Hangul syllables
  0xF900...0xFAFF,  // CJK compatibility ideographs
  0xFE10...0xFE19,  // vertical forms
  0xFE30...0xFE6F,  // CJK compatibility forms, small forms
  0xFF00...0xFF60,  // fullwidth forms
  0xFFE0...0xFFE6,  // fullwidth signs
  0x16FE0...0x16FE4,  // ideographic symbols
  0x17000...0x18CFF,  // Tangut, Khitan
  0x1B000...0x1B2FF,  // kana supplement and extensions, Nushu
  0x1F200...0x1F2FF,  // enclosed ideographic supplement
  0x20000...0x2FFFD,  // CJK extensions B-F
  0x30000...0x3FFFD,  // CJK extensions G-H
]

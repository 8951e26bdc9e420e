import TextUI

extension TextOutputStream {
  /// Writes a line of text and a line feed, with every control character in
  /// the text shown as a visible escape (`\u{1B}`, see
  /// `withVisibleControlCharacters` in TextUI).
  ///
  /// Everything the app writes to standard output and standard error in
  /// script mode goes through here: screens, help and `error:` lines. What a
  /// script, a file or an argument holds is data, so a carriage return or an
  /// escape sequence in it never reaches the terminal as control, and a line
  /// feed in it cannot split one line in two.
  ///
  /// - Parameter line: The text, without its line feed.
  mutating func writeVisibleLine(_ line: some StringProtocol) {
    // One write, so that a line reaches standard error whole.
    write(line.withVisibleControlCharacters + "\n")
  }

  /// Writes `error: <message>` as one line (see ``writeVisibleLine(_:)``).
  ///
  /// - Parameter message: What went wrong.
  mutating func writeErrorLine(_ message: some StringProtocol) {
    writeVisibleLine("error: \(message)")
  }
}

/// One line of a script, split into its command word and its argument, with
/// the argument checks that every feature shares.
///
/// The word is the line's first word. The argument is everything after the
/// first space that follows the word, kept exactly — spaces included — so
/// that `text  two spaces ` sets the text ` two spaces `:
///
/// ```swift
/// let command = ScriptCommand(line: "toggle 2")
/// command?.word       // "toggle"
/// command?.argument   // "2"
/// try command?.rowNumber(usage: "toggle N", rowCount: 3)   // 2
/// ```
public struct ScriptCommand: Hashable, Sendable {
  /// The command's word, such as `toggle`.
  public var word: String

  /// Everything after the first space that follows the word, or `nil` if no
  /// space follows it.
  public var argument: String?

  /// Creates a command directly.
  ///
  /// - Parameters:
  ///   - word: The command's word.
  ///   - argument: Its argument, if any.
  public init(word: String, argument: String? = nil) {
    self.word = word
    self.argument = argument
  }

  /// Reads a command from a line of a script, or fails for a blank line or
  /// a comment.
  ///
  /// Spaces and tabs before the word are skipped, and a carriage return at
  /// the end (a script written on Windows) is dropped. A comment is a line
  /// whose first character after any indentation is `#`. The word ends at
  /// the first space, even one that a combining mark follows (`add ◌̀x`
  /// adds "◌̀x").
  ///
  /// - Parameter line: A line, without its line feed.
  public init?(line: some StringProtocol) {
    // Unicode scalars, not characters: a space followed by a combining mark
    // is one character, and the mark belongs to what follows the space.
    var scalars = Substring(line).unicodeScalars
    if scalars.last == "\r" { scalars.removeLast() }
    scalars = scalars.drop { $0 == " " || $0 == "\t" }
    guard let first = scalars.first, first != "#" else { return nil }
    if let space = scalars.firstIndex(of: " ") {
      word = String(scalars[..<space])
      argument = String(scalars[scalars.index(after: space)...])
    } else {
      word = String(scalars)
      argument = nil
    }
  }

  /// The argument with the spaces around it removed; `nil` if it is absent
  /// or blank.
  public var trimmedArgument: String? {
    guard let argument else { return nil }
    let trimmed = argument.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()
    return trimmed.isEmpty ? nil : String(trimmed)
  }

  /// Checks that the command has no argument (spaces alone are allowed).
  ///
  /// - Throws: ``ScriptError`` naming the unexpected argument.
  public func expectNoArgument() throws(ScriptError) {
    if let extra = trimmedArgument {
      throw ScriptError("\(word) takes no argument, got '\(extra)': use '\(word)' alone")
    }
  }

  /// The command's argument, which must be there; it may be empty when the
  /// line ends with the space after the word.
  ///
  /// - Parameters:
  ///   - what: What the argument is, for the error: `the new text`.
  ///   - usage: How to write the command: `text TEXT`.
  /// - Returns: The argument, exactly.
  /// - Throws: ``ScriptError`` if the line has nothing after the word.
  public func requiredArgument(_ what: String, usage: String) throws(ScriptError) -> String {
    guard let argument else {
      throw ScriptError("\(word) needs \(what): \(usage)")
    }
    return argument
  }

  /// The row number the argument names, checked against the rows shown.
  ///
  /// Rows are numbered from 1 as displayed.
  ///
  /// - Parameters:
  ///   - usage: How to write the command: `toggle N`.
  ///   - rowCount: How many rows are shown.
  /// - Returns: The row number, from 1 through `rowCount`.
  /// - Throws: ``ScriptError`` if the argument is missing, is not a whole
  ///   number, or is out of range; the message gives the accepted range.
  public func rowNumber(usage: String, rowCount: Int) throws(ScriptError) -> Int {
    let accepted = rowCount == 0 ? "the list is empty" : "1-\(rowCount)"
    guard let text = trimmedArgument else {
      throw ScriptError("\(word) needs a row number: \(usage) (\(accepted))")
    }
    guard let row = Int(text) else {
      throw ScriptError("'\(text)' is not a row number: \(usage) (\(accepted))")
    }
    guard rowCount > 0, (1...rowCount).contains(row) else {
      throw ScriptError(
        "row \(row) is out of range: \(rowCount == 0 ? accepted : "rows \(accepted)")")
    }
    return row
  }
}

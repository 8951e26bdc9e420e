/// A script command that was refused: what was wrong, and what is accepted.
///
/// The runner prints it as one line, `error: <message>`, on standard error;
/// the command changes nothing and the script goes on.
public struct ScriptError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong and what is accepted, such as
  /// `row 5 is out of range: rows 1-2`.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: What was wrong and what is accepted.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }

  /// A word that no screen of the feature knows.
  ///
  /// - Parameters:
  ///   - word: The command's word.
  ///   - screen: The screen showing.
  /// - Returns: `unknown command 'foo'; on the list screen use: …`.
  public static func unknownCommand(_ word: String, on screen: ScriptScreen) -> ScriptError {
    ScriptError("unknown command '\(word)'; on the \(screen.name) screen use: \(screen.usageList)")
  }

  /// A command of another screen.
  ///
  /// - Parameters:
  ///   - word: The command's word.
  ///   - home: The screen that takes it.
  ///   - screen: The screen showing.
  /// - Returns: `'add' is a list command; on the detail screen use: …`.
  public static func misplacedCommand(
    _ word: String, belongingTo home: ScriptScreen, on screen: ScriptScreen
  ) -> ScriptError {
    let article = home.name.first.map { "aeiou".contains($0) } == true ? "an" : "a"
    return ScriptError(
      "'\(word)' is \(article) \(home.name) command; on the \(screen.name) screen use: "
        + screen.usageList)
  }
}

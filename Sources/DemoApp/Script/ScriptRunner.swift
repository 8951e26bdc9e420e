/// Script mode: reads one command per line, performs it on a feature and
/// prints the screen after it.
///
/// - Blank lines and lines starting with `#` are skipped.
/// - After every command that succeeds, the current screen is printed to
///   the output, separated from the previous printout by a blank line. With
///   ``isQuiet``, only `render` prints the screen (and `help` its commands),
///   so a long script costs nothing to print until it asks.
/// - A bad command prints one line, `error: …`, to the error stream, saying
///   what was wrong and what is accepted; it changes nothing, and the script
///   goes on.
/// - `render`, `help` and `quit` work on every screen; the feature performs
///   the rest.
/// - A line ends at a line feed; a carriage return before it is dropped. A
///   carriage return on its own ends no line: it is part of the line.
/// - What a script or a file holds is data: every control character in a
///   printed screen, help or error line is shown as a visible escape
///   (`\u{1B}`, `\u{0D}`), so nothing typed can move the cursor or change
///   the terminal, and every error is one line. Views keep the text as
///   typed.
///
/// The script ends at `quit` or at the end of the input. Its exit status is
/// 0 if every command succeeded and 1 otherwise.
///
/// A command's work finishes before its screen is printed and the next line
/// is read (``DemoFeature/settle()``), so scripts of features that load data
/// print the same output every time.
@MainActor
public struct ScriptRunner {
  /// Whether only `render` and `help` print.
  public var isQuiet: Bool

  /// Creates a runner.
  ///
  /// - Parameter isQuiet: Whether only `render` and `help` print.
  public init(isQuiet: Bool = false) {
    self.isQuiet = isQuiet
  }

  /// Runs a script.
  ///
  /// - Parameters:
  ///   - feature: The feature the commands drive.
  ///   - lines: The script's lines, without line feeds; read as they come,
  ///     so standard input works line by line.
  ///   - output: Where screens and help go.
  ///   - error: Where `error: …` lines go.
  /// - Returns: 0 if every command succeeded, 1 otherwise.
  public func run(
    _ feature: some DemoFeature, lines: some Sequence<String>,
    output: inout some TextOutputStream, error: inout some TextOutputStream
  ) async -> Int32 {
    var printer = Printer()
    var failed = false
    for line in lines {
      guard let command = ScriptCommand(line: line) else { continue }
      do throws(ScriptError) {
        switch command.word {
        case "render":
          try command.expectNoArgument()
          printer.print(feature.lines, to: &output)
        case "help":
          try command.expectNoArgument()
          printer.print(Self.help(for: feature.currentScreen), to: &output)
        case "quit":
          try command.expectNoArgument()
          return failed ? 1 : 0
        default:
          try perform(command, on: feature)
          await feature.settle()
          if !isQuiet {
            printer.print(feature.lines, to: &output)
          }
        }
      } catch let scriptError {
        error.writeErrorLine(scriptError.message)
        failed = true
      }
    }
    return failed ? 1 : 0
  }

  private func perform(_ command: ScriptCommand, on feature: some DemoFeature)
    throws(ScriptError)
  {
    let screen = feature.currentScreen
    guard screen.accepts(command.word) else {
      let feature = type(of: feature)
      if let home = feature.screens.first(where: { $0.accepts(command.word) }) {
        throw .misplacedCommand(command.word, belongingTo: home, on: screen)
      }
      throw .unknownCommand(command.word, on: screen)
    }
    try feature.perform(command)
  }

  /// The commands of a screen, one per line, their usages aligned.
  ///
  /// - Parameter screen: The screen.
  /// - Returns: The lines of the help.
  public static func help(for screen: ScriptScreen) -> [String] {
    let commands = screen.allCommands
    let width = commands.map(\.usage.count).max() ?? 0
    return ["Commands on the \(screen.name) screen:"]
      + commands.map { command in
        "  " + command.usage + String(repeating: " ", count: width - command.usage.count + 2)
          + command.summary
      }
  }

  /// Prints blocks of lines with a blank line between them.
  private struct Printer {
    var hasPrinted = false

    mutating func print(_ lines: [String], to output: inout some TextOutputStream) {
      if hasPrinted {
        output.write("\n")
      }
      hasPrinted = true
      for line in lines {
        // Text from the user or a file is data: it never reaches the
        // terminal as control characters.
        output.writeVisibleLine(line)
      }
    }
  }
}

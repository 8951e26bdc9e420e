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
/// - `render`, `graph [dot]`, `trace on|off`, `wait DURATION`, `help` and
///   `quit` work on every screen; the feature performs the rest. Time is
///   virtual: the runner owns a ``VirtualClock``, which features get
///   through ``FeatureEnvironment/clock``, and only `wait 300ms` or
///   `wait 1s` moves it, waking the timers due meanwhile (a search's
///   debounce, a delayed sort) before the screen prints. `graph` prints the
///   screen's live binding graph (as Graphviz DOT with `dot`), even with
///   ``isQuiet``. After `trace on`, each command that changes something
///   prints every step of its propagations, one a line starting with
///   `trace: `, before its screen, until `trace off` or the end of the
///   script.
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

  /// The script's time, which only `wait` moves; give it to the feature
  /// through ``FeatureEnvironment/clock``.
  public let clock = VirtualClock()

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
    let trace = TraceLog()
    defer { trace.stop() }
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
        case "graph":
          printer.print(try Self.graph(of: feature, command), to: &output)
        case "trace":
          try Self.switchTrace(trace, command)
        case "quit":
          try command.expectNoArgument()
          return failed ? 1 : 0
        case "wait":
          let duration = try Self.duration(of: command)
          trace.beginStep(of: feature)
          await clock.advance(by: duration)
          await feature.settle()
          if !trace.lines.isEmpty {
            printer.print(trace.lines, to: &output)
          }
          if !isQuiet {
            printer.print(feature.lines, to: &output)
          }
        default:
          trace.beginStep(of: feature)
          try perform(command, on: feature)
          await feature.settle()
          if !trace.lines.isEmpty {
            printer.print(trace.lines, to: &output)
          }
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

  /// The current screen's live binding graph: indented text, or DOT with
  /// the argument `dot`.
  ///
  /// - Parameters:
  ///   - feature: The feature showing the screen.
  ///   - command: The `graph` command.
  /// - Returns: The lines of the graph.
  /// - Throws: ``ScriptError`` for another argument.
  static func graph(of feature: some DemoFeature, _ command: ScriptCommand) throws(ScriptError)
    -> [String]
  {
    switch command.trimmedArgument {
    case nil: return feature.graphLines()
    case "dot": return feature.graphLines(dot: true)
    case let other?:
      throw ScriptError("graph takes nothing or 'dot', got '\(other)': use 'graph' or 'graph dot'")
    }
  }

  /// The duration of a `wait` command.
  private static func duration(of command: ScriptCommand) throws(ScriptError) -> Duration {
    guard let text = command.trimmedArgument else {
      throw ScriptError("wait takes a duration: use 'wait 300ms' or 'wait 1s'")
    }
    guard let duration = VirtualClock.duration(from: text) else {
      throw ScriptError(
        "wait takes a duration such as 300ms, 1s or 1.5s (at most 3600s), got '\(text)'")
    }
    return duration
  }

  /// Performs `trace on` or `trace off`.
  private static func switchTrace(_ trace: TraceLog, _ command: ScriptCommand)
    throws(ScriptError)
  {
    switch command.trimmedArgument {
    case "on":
      trace.start()
    case "off":
      trace.stop()
    case let other:
      throw ScriptError(
        "trace takes 'on' or 'off', got \(other.map { "'\($0)'" } ?? "nothing"): "
          + "use 'trace on' or 'trace off'")
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

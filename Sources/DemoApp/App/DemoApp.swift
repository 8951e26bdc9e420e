import Foundation
import POMVVM
import TextUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The sample app, `pomvvm-demo`: its features, and its two modes.
///
/// The executable only calls ``main()``. Tests call
/// ``run(arguments:input:output:error:isTerminal:terminal:)`` with their
/// own streams and compare what comes out whole.
///
/// ```swift
/// var output = ""
/// var error = ""
/// let status = await DemoApp.run(
///   arguments: ["--clock", "2026-11-21T10:00:00Z"], input: ["add first", "toggle 1"],
///   output: &output, error: &error, isTerminal: false)
/// // status == 0, output holds two screens
/// ```
public enum DemoApp {
  /// Every feature, the default first.
  @MainActor
  public static let features: [any DemoFeature.Type] = [
    MasterDetailFeature.self, LoginFeature.self, ToDoFeature.self, MoviesFeature.self,
  ]

  /// Runs the app with the process's arguments and standard streams, then
  /// exits with its status.
  ///
  /// - Returns: Never; the process exits.
  @MainActor
  public static func main() async -> Never {
    var output = StandardOutput()
    var error = StandardError()
    // Past a file-size limit (`ulimit -f`), SIGXFSZ would kill the app in
    // the middle of a save, losing the change and saying nothing. Ignored,
    // the write fails with EFBIG instead, and the store reports it like a
    // full disk: the file untouched, the change kept in memory.
    signal(SIGXFSZ, SIG_IGN)
    SignalFlush.install()
    // A script stops at the first line after a write to standard output
    // failed: nothing would show its screens.
    let (status, feature) = await start(
      arguments: Array(CommandLine.arguments.dropFirst()),
      input: StandardInputLines().lazy.prefix { _ in StandardOutput.failure == nil },
      output: &output, error: &error, isTerminal: POSIXTerminal.isTerminal(STDIN_FILENO),
      terminal: POSIXTerminal())
    let exitStatus = Self.exitStatus(status, outputFailure: StandardOutput.flush(), error: &error)
    // Exit with the feature alive: tearing down the bindings of 10,000 rows
    // one by one would only delay the exit.
    withExtendedLifetime(feature) {
      exit(exitStatus)
    }
  }

  /// The status that ends the process: the run's, unless writing standard
  /// output failed.
  ///
  /// A closed pipe (`EPIPE`: the reader, such as `head -1`, has what it
  /// wanted) ends the run quietly with 141, the status a shell shows for a
  /// program that `SIGPIPE` ended, whether or not the signal is ignored.
  /// Any other failure (`ENOSPC` on a full disk, `EIO`) is an error: one
  /// line on standard error, and status 74 (`EX_IOERR`).
  ///
  /// - Parameters:
  ///   - status: The run's status.
  ///   - outputFailure: The `errno` code of the first failed write to
  ///     standard output, if any.
  ///   - error: Where the error line goes.
  /// - Returns: The status to exit with.
  static func exitStatus(
    _ status: Int32, outputFailure: Int32?, error: inout some TextOutputStream
  ) -> Int32 {
    guard let outputFailure else { return status }
    if outputFailure == EPIPE {
      return 128 + SIGPIPE
    }
    error.writeErrorLine(
      "cannot write to standard output: \(String(cString: strerror(outputFailure)))")
    return 74
  }

  /// Runs the app: parses the arguments, then runs the chosen feature in
  /// interactive mode (a terminal, unless `--script`) or script mode.
  ///
  /// - Parameters:
  ///   - arguments: The arguments, without the program's name.
  ///   - input: The script's lines, read lazily (script mode only).
  ///   - output: Where screens and help go.
  ///   - error: Where errors go.
  ///   - isTerminal: Whether standard input is a terminal.
  ///   - terminal: The terminal for interactive mode; made only if needed.
  /// - Returns: The exit status: 0 on success, 1 if a script command
  ///   failed or the terminal failed, 2 for bad arguments, 130 if the user
  ///   pressed Ctrl-C. (``main()`` adds 74 and 141 for a failed write to
  ///   standard output.)
  @MainActor
  public static func run(
    arguments: [String], input: some Sequence<String>, output: inout some TextOutputStream,
    error: inout some TextOutputStream, isTerminal: Bool,
    terminal: @autoclosure () -> any TerminalDevice = POSIXTerminal()
  ) async -> Int32 {
    await start(
      arguments: arguments, input: input, output: &output, error: &error, isTerminal: isTerminal,
      terminal: terminal()
    ).status
  }

  /// Runs the app, and returns the feature it ran with the status.
  @MainActor
  private static func start(
    arguments: [String], input: some Sequence<String>, output: inout some TextOutputStream,
    error: inout some TextOutputStream, isTerminal: Bool,
    terminal: @autoclosure () -> any TerminalDevice
  ) async -> (status: Int32, feature: (any DemoFeature)?) {
    let options: DemoOptions
    do {
      options = try DemoOptions.parse(arguments)
    } catch let usageError {
      error.writeErrorLine(usageError.message)
      error.write("\(DemoOptions.usage)\n  See 'pomvvm-demo --help' for more information.\n")
      return (2, nil)
    }
    if options.showsHelp {
      output.write(DemoOptions.help)
      return (0, nil)
    }
    var environment = FeatureEnvironment(storeURL: options.storeURL, latency: options.latency)
    if let fixed = options.clock {
      environment.now = { fixed }
    }
    let isInteractive = isTerminal && !options.forcesScript
    // In a script, time is virtual: the runner's clock moves on `wait`.
    let runner = ScriptRunner(isQuiet: options.isQuiet)
    if !isInteractive {
      environment.clock = runner.clock
    }
    let feature: any DemoFeature
    do {
      feature = try options.feature.init(environment: environment)
    } catch let startError {
      error.writeErrorLine(startError.message)
      return (1, nil)
    }
    let status: Int32
    if isInteractive {
      status = await runInteractive(feature, on: terminal(), error: &error)
    } else {
      status = await runner.run(feature, lines: input, output: &output, error: &error)
    }
    feature.finish()
    return (status, feature)
  }

  /// Runs a feature full-screen until the user quits.
  ///
  /// Kit diagnostics would write over the screen, so they are held until
  /// the terminal is restored.
  @MainActor
  private static func runInteractive(
    _ feature: some DemoFeature, on terminal: some TerminalDevice,
    error: inout some TextOutputStream
  ) async -> Int32 {
    var status: Int32 = 0
    let reports = await Diagnostics.capturingReports {
      do throws(TerminalError) {
        let end = try await FullScreenSession(device: terminal).run(
          InteractiveShell(feature: feature))
        status = end == .interrupted ? 130 : 0
      } catch let terminalError {
        error.writeErrorLine(terminalError.description)
        status = 1
      }
    }
    for report in reports {
      error.writeVisibleLine("POMVVM: \(report)")
    }
    return status
  }
}

import Foundation

/// The command line of `pomvvm-demo`, parsed.
///
/// ```
/// pomvvm-demo [FEATURE] [--script] [--quiet] [--clock DATE] [--store FILE] [--latency MS]
/// pomvvm-demo --help
/// ```
@MainActor
public struct DemoOptions {
  /// The feature to run; the first of ``DemoApp/features`` by default.
  public var feature: any DemoFeature.Type

  /// Whether to read a script even when standard input is a terminal.
  public var forcesScript = false

  /// Whether script mode prints the screen only for `render`.
  public var isQuiet = false

  /// The fixed time for new items, or `nil` for the real clock.
  public var clock: Date?

  /// The file the feature keeps its data in, from `--store FILE`.
  public var storeURL: URL?

  /// How long every simulated request takes, from `--latency MS`.
  public var latency: Duration = .zero

  /// Whether to print the help and exit.
  public var showsHelp = false

  /// Options with every default: the default feature, no flags.
  public init() {
    feature = DemoApp.features[0]
  }

  /// Parses the program's arguments.
  ///
  /// `--help` (or `-h`) anywhere asks for the help, whatever else is there.
  /// `--clock` takes an ISO 8601 date and time, as its next argument or
  /// after `=`: `--clock 2026-11-21T10:00:00Z`, `--clock=2026-11-21T11:00:00+01:00`.
  ///
  /// - Parameter arguments: The arguments, without the program's name.
  /// - Returns: The options.
  /// - Throws: ``UsageError`` for an unknown option or feature, a missing
  ///   or invalid date, an extra argument, or `--store` for a feature that
  ///   keeps no file (``DemoFeature/keepsAStoreFile``).
  public static func parse(_ arguments: [String]) throws(UsageError) -> DemoOptions {
    var options = DemoOptions()
    if arguments.contains(where: { $0 == "--help" || $0 == "-h" }) {
      options.showsHelp = true
      return options
    }
    var featureName: String?
    var remaining = arguments[...]
    while let argument = remaining.popFirst() {
      let (name, attached) = split(argument)
      switch name {
      case "--script":
        try expectNoValue(attached, for: name)
        options.forcesScript = true
      case "--quiet":
        try expectNoValue(attached, for: name)
        options.isQuiet = true
      case "--clock":
        guard let value = attached ?? remaining.popFirst() else {
          throw UsageError("--clock needs a date, such as --clock \(exampleDate)")
        }
        guard let date = try? Date(value, strategy: .iso8601) else {
          throw UsageError(
            "'\(value)' is not a date: --clock takes ISO 8601, such as --clock \(exampleDate)")
        }
        options.clock = date
      case "--store":
        guard let value = attached ?? remaining.popFirst(), !value.isEmpty else {
          throw UsageError("--store needs a file, such as --store todo.json")
        }
        options.storeURL = URL(fileURLWithPath: value)
      case "--latency":
        guard let value = attached ?? remaining.popFirst() else {
          throw UsageError("--latency needs milliseconds, such as --latency 300")
        }
        guard let milliseconds = Int(value), milliseconds >= 0 else {
          throw UsageError(
            "'\(value)' is not a number of milliseconds: --latency takes a whole number, such as --latency 300"
          )
        }
        options.latency = .milliseconds(milliseconds)
      case _ where argument.hasPrefix("-") && argument != "-":
        throw UsageError("unknown option '\(argument)'")
      default:
        guard featureName == nil else {
          throw UsageError("unexpected argument '\(argument)': name one feature at most")
        }
        guard let feature = DemoApp.features.first(where: { $0.name == argument }) else {
          throw UsageError(
            "unknown feature '\(argument)'; features: "
              + DemoApp.features.map { $0.name }.joined(separator: ", "))
        }
        featureName = argument
        options.feature = feature
      }
    }
    if options.storeURL != nil && !options.feature.keepsAStoreFile {
      // Ignored, the file would silently not be kept.
      let keepers = DemoApp.features.filter { $0.keepsAStoreFile }.map { $0.name }
      throw UsageError(
        "--store: \(options.feature.name) keeps no file; only \(keepers.joined(separator: ", ")) "
          + "\(keepers.count == 1 ? "does" : "do"), as in '\(keepers.first ?? "todo") --store FILE'"
      )
    }
    return options
  }

  private static let exampleDate = "2026-11-21T10:00:00Z"

  /// Splits `--name=value` into its name and value.
  private static func split(_ argument: String) -> (name: String, value: String?) {
    guard argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") else {
      return (argument, nil)
    }
    return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
  }

  private static func expectNoValue(_ value: String?, for name: String) throws(UsageError) {
    if let value {
      throw UsageError("\(name) takes no value, got '\(value)'")
    }
  }

  /// The synopsis line.
  public static let usage =
    "USAGE: pomvvm-demo [FEATURE] [--script] [--quiet] [--clock DATE] [--store FILE] [--latency MS]"

  /// The text that `--help` prints.
  public static var help: String {
    let features = DemoApp.features
    let width = max(features.map { $0.name.count }.max() ?? 0, 12)
    let featureLines = features.map { feature in
      "  " + feature.name + String(repeating: " ", count: width - feature.name.count + 2)
        + feature.summary
    }
    return """
      pomvvm-demo: the POMVVM sample app, rendered as text.

      \(usage)

      With standard input on a terminal, a full-screen terminal UI opens (it needs
      a window of 20×3 or more; Ctrl-Z suspends it where job control is on, and
      'fg' brings it back). Otherwise (or with --script), standard input is a
      script: one command per line, and the screen is printed after each, so an
      empty script prints nothing: 'render' prints the screen as it is. Type
      'help' in a script for the commands of the current screen.

      FEATURES (default: \(features[0].name)):
      \(featureLines.joined(separator: "\n"))

      OPTIONS:
        --script        read a script from standard input, even from a terminal
        --quiet         in a script, print the screen only for 'render'
        --clock DATE    fix the clock to an ISO 8601 date: --clock \(exampleDate)
        --store FILE    keep the to-do list in FILE, a SQLite database, saved as it
                        changes; todo.json moves into todo.sqlite on the first run
                        (todo only: the other features refuse it)
        --latency MS    make every request of the movie catalog take MS milliseconds
        -h, --help      show this help

      SHEETS AND ALERTS (drawn under the screen they belong to):
        master-detail  'delete' on a detail asks first: 'yes' or 'no' (keys: d, then
                       left/right and enter, esc for no)
        todo           'edit N' opens a sheet with a draft: 'title TEXT', 'toggle',
                       then 'done' (one undoable step) or 'cancel' (keys: e, enter, esc)
        movies         a detail that fails to load shows an alert: 'retry' or 'cancel'
                       (keys: r, c or esc)

      STORE FILE (--store):
        A SQLite database, saved after every change, atomically, and before the
        app exits. A name ending in .json is a JSON store file of an earlier
        version: the first run moves its items into the same name ending in
        .sqlite and leaves the JSON file as it is. Several apps may share one
        database: each one's changes show in the others by themselves. An item
        that another app changed since this one read it is never saved over:
        the change fails, both are kept. A file with a field this version does
        not know is refused. A save that fails (a full disk, a file-size limit)
        shows its error and keeps the change in memory; the next save that
        succeeds writes it.

      EXIT STATUS:
        0    success
        1    a script command failed, or the terminal failed
        2    bad arguments
        74   standard output could not be written (a full disk, say)
        130  Ctrl-C
        141  standard output was closed, as by '| head': the run ends quietly

      """
  }
}

/// A bad command line: the program prints it with the usage and exits
/// with status 2.
public struct UsageError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What was wrong.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: What was wrong.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}

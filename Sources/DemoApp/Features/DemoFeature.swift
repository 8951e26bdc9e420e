import Foundation
import TextUI

/// One feature of the sample app — Master-Detail, and later the login form,
/// the to-do list, the movie catalog — with its screens, in both of the
/// app's modes.
///
/// A feature owns its view models and its views (`BindableView`s from the
/// sample's library targets), and knows which of its screens is showing.
/// Everything it shows comes from what those views observe. The modes
/// differ only in input and output:
///
/// - script mode prints ``lines`` and feeds ``perform(_:)`` one command per
///   line (``ScriptRunner`` handles `render`, `help` and `quit`, and the
///   errors for commands the current screen does not take);
/// - interactive mode draws ``body(size:)`` above a help line showing
///   ``keyHelp``, and feeds ``handle(_:)`` the keys (``InteractiveShell``).
///
/// Adding a feature is adding one type that conforms, and listing it in
/// ``DemoApp/features``.
@MainActor
public protocol DemoFeature: AnyObject {
  /// The name that selects the feature on the command line, such as
  /// `master-detail`.
  static var name: String { get }

  /// What the feature shows, in a few words, for `--help`.
  static var summary: String { get }

  /// Whether the feature keeps its data in the file that `--store FILE`
  /// names; the command line refuses `--store` for one that does not.
  static var keepsAStoreFile: Bool { get }

  /// Every screen of the feature with its script commands, so that an error
  /// can say on which screen a misplaced command belongs.
  static var screens: [ScriptScreen] { get }

  /// Creates the feature on its first screen.
  ///
  /// - Parameter environment: What the feature may depend on, such as the
  ///   clock.
  /// - Throws: ``FeatureError`` if the feature cannot start (a data file it
  ///   cannot read, say); the app then exits with status 1.
  init(environment: FeatureEnvironment) throws(FeatureError)

  /// The screen showing now: one of ``screens``.
  var currentScreen: ScriptScreen { get }

  /// The current screen as text, as script mode prints it.
  var lines: [String] { get }

  /// Performs a command of the current screen.
  ///
  /// The runner calls it only with commands whose word the current screen
  /// lists; the feature checks the arguments.
  ///
  /// - Parameter command: The command.
  /// - Throws: ``ScriptError`` saying what was wrong and what is accepted;
  ///   the feature then changes nothing.
  func perform(_ command: ScriptCommand) throws(ScriptError)

  /// The current screen for a terminal, without the help line.
  ///
  /// - Parameter size: The space for the screen: the terminal's width, and
  ///   its height less the help line.
  /// - Returns: The lines to draw, and where the cursor shows if the user
  ///   is typing text.
  func body(size: TerminalSize) -> Frame

  /// The keys of the current screen, for the help line, such as
  /// `↑/↓ move  space toggle  q quit`.
  var keyHelp: String { get }

  /// Reacts to a key on the current screen.
  ///
  /// - Parameter key: The key.
  /// - Returns: Whether to go on or quit.
  func handle(_ key: Key) -> KeyResponse

  /// Waits until the work the last command or key started has finished
  /// (requests, effects), so that script mode prints its outcome and reads
  /// the next command only then.
  func settle() async

  /// Where the current screen's live binding graph starts: its view models
  /// and views (`graph` in script mode, Ctrl-G in interactive mode).
  var graphRoots: [Any] { get }

  /// Whether work a command or key started is still under way; the terminal
  /// redraws until it is done.
  var hasPendingWork: Bool { get }

  /// Whether changes may come from outside while the terminal waits for a
  /// key (another process's, to a shared database); the terminal then
  /// looks for them every few milliseconds, as for pending work.
  var watchesForOutsideChanges: Bool { get }

  /// Finishes what must not be lost before the app exits, however the run
  /// ended: `quit`, the end of the script or of the input, Ctrl-C.
  func finish()
}

// MARK: - Default implementations

extension DemoFeature {
  /// No store file: the feature keeps its data in memory.
  public static var keepsAStoreFile: Bool { false }

  /// The feature itself: its view models and views are found in its
  /// stored properties.
  public var graphRoots: [Any] { [self] }

  /// Nothing to wait for: the feature's work is synchronous.
  public func settle() async {}

  /// No pending work: the feature's work is synchronous.
  public var hasPendingWork: Bool { false }

  /// Nothing comes from outside: the feature's data is its own.
  public var watchesForOutsideChanges: Bool { false }

  /// Nothing to finish: the feature keeps nothing that could be lost.
  public func finish() {}
}

/// What a feature may depend on, injected so that scripts and tests are
/// reproducible.
public struct FeatureEnvironment: Sendable {
  /// The time: the real clock, or a fixed date from `--clock`.
  public var now: @Sendable () -> Date

  /// The file a feature keeps its data in, from `--store FILE`; `nil` keeps
  /// it in memory.
  public var storeURL: URL?

  /// How long every request of a feature's simulated services takes, from
  /// `--latency MS`.
  public var latency: Duration

  /// The clock the view models' timers wait on (a search's debounce, a
  /// delayed sort): real time in the terminal, the script runner's
  /// ``VirtualClock`` in script mode, which `wait` advances.
  public var clock: any Clock<Duration>

  /// Creates an environment.
  ///
  /// - Parameters:
  ///   - now: The clock.
  ///   - storeURL: The file a feature keeps its data in, if any.
  ///   - latency: How long every simulated request takes.
  ///   - clock: The clock timers wait on.
  public init(
    now: @escaping @Sendable () -> Date = { Date() }, storeURL: URL? = nil,
    latency: Duration = .zero, clock: any Clock<Duration> = ContinuousClock()
  ) {
    self.now = now
    self.storeURL = storeURL
    self.latency = latency
    self.clock = clock
  }
}

/// Why a feature could not start.
public struct FeatureError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong, as the app prints it after `error: `.
  public var message: String

  /// Creates an error.
  ///
  /// - Parameter message: What went wrong.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}

/// A screen of a feature, and the script commands it takes.
public struct ScriptScreen: Hashable, Sendable {
  /// The screen's name, as errors and help say it: `list`, `detail`.
  public var name: String

  /// The commands of this screen, besides `render`, `help` and `quit`,
  /// which every screen takes.
  public var commands: [CommandHelp]

  /// Creates a screen.
  ///
  /// - Parameters:
  ///   - name: The screen's name.
  ///   - commands: Its own commands.
  public init(name: String, commands: [CommandHelp]) {
    self.name = name
    self.commands = commands
  }

  /// Whether the screen takes a command word (its own commands only).
  ///
  /// - Parameter word: The command's first word.
  /// - Returns: `true` if one of ``commands`` starts with it.
  public func accepts(_ word: String) -> Bool {
    commands.contains { $0.word == word }
  }

  /// Every command of the screen, the shared ones last.
  public var allCommands: [CommandHelp] {
    commands + CommandHelp.shared
  }

  /// The usage of every command, as an error lists them:
  /// `on, off, toggle, text TEXT, …, render, help, quit`.
  public var usageList: String {
    allCommands.map(\.usage).joined(separator: ", ")
  }
}

/// A script command's usage and what it does.
public struct CommandHelp: Hashable, Sendable {
  /// How to write the command, such as `toggle N` or `add [TEXT]`.
  public var usage: String

  /// What the command does.
  public var summary: String

  /// Creates a command's help.
  ///
  /// - Parameters:
  ///   - usage: How to write the command; its first word is the command.
  ///   - summary: What the command does.
  public init(_ usage: String, _ summary: String) {
    self.usage = usage
    self.summary = summary
  }

  /// The command's word: the first word of its usage.
  public var word: String {
    String(usage.prefix { $0 != " " })
  }

  /// The commands every screen takes, which ``ScriptRunner`` performs.
  public static let shared = [
    CommandHelp("render", "print the screen"),
    CommandHelp("graph [dot]", "print the screen's live binding graph (dot: for Graphviz)"),
    CommandHelp("trace on|off", "print every step of the propagations of later commands"),
    CommandHelp("help", "print the commands of this screen"),
    CommandHelp("quit", "end the script"),
  ]
}

import DemoApp
import TextUI

/// The smallest feature: a counter with a second screen.
///
/// It shows that a feature is one type, and lets the runner's tests avoid
/// depending on Master-Detail.
@MainActor
final class Counter: DemoFeature {
  static let name = "counter"
  static let summary = "a number that goes up"
  static let counterScreen = ScriptScreen(
    name: "counter",
    commands: [CommandHelp("up [N]", "count up by N, or 1"), CommandHelp("settings", "go")])
  static let settingsScreen = ScriptScreen(
    name: "settings", commands: [CommandHelp("done", "go back")])
  static var screens: [ScriptScreen] { [counterScreen, settingsScreen] }

  var count = 0
  var isOnSettings = false

  init(environment: FeatureEnvironment) {}

  var currentScreen: ScriptScreen { isOnSettings ? Self.settingsScreen : Self.counterScreen }

  var lines: [String] { isOnSettings ? ["Settings"] : ["Count: \(count)"] }

  func perform(_ command: ScriptCommand) throws(ScriptError) {
    switch command.word {
    case "up":
      guard let text = command.trimmedArgument else {
        count += 1
        return
      }
      guard let step = Int(text) else { throw ScriptError("'\(text)' is not a number: up [N]") }
      count += step
    case "settings": isOnSettings = true
    case "done": isOnSettings = false
    default: throw .unknownCommand(command.word, on: currentScreen)
    }
  }

  func body(size: TerminalSize) -> Frame {
    Frame(lines: lines.map { Frame.Line($0) })
  }

  var keyHelp: String { "+ up  q quit" }

  func handle(_ key: Key) -> KeyResponse {
    switch key {
    case .character("+"): count += 1
    case .character("q"): return .quit
    default: break
    }
    return .continue
  }
}

/// Lines that record how far they were read.
struct RecordingLines: Sequence, IteratorProtocol {
  final class Progress {
    var linesRead = 0
  }

  var lines: [String]
  let progress = Progress()

  mutating func next() -> String? {
    guard progress.linesRead < lines.count else { return nil }
    defer { progress.linesRead += 1 }
    return lines[progress.linesRead]
  }
}

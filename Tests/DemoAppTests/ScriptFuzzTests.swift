import DemoApp
import Foundation
import TestSupport
import Testing
import TextUI

/// A seeded fuzzer of script mode over the four screens.
///
/// Each run feeds one feature a random script as bytes: real commands of
/// any of its screens and junk, with random arguments, control characters,
/// NUL, bytes that are not UTF-8, huge lines, and the three line endings
/// (`\n`, `\r\n`, and `\r`, which ends no line and so joins two commands
/// into one line). The bytes are split into lines as standard input splits
/// them, and every line is followed by `render`. The runner runs in-process.
///
/// Every run must end (no crash, no hang), and for every line:
/// - it writes at most one `error:` line, a single line; a line that is
///   certainly bad (a word the screen showing does not take, or an argument
///   to `render` or `help`) writes exactly one;
/// - a line that was refused leaves the screen as it was;
/// - nothing written to the output or the error stream holds a control
///   character other than the line feeds;
/// - the terminal UI's screen for the feature's state, drawn by
///   ``TextUI/ScreenRenderer`` on a virtual terminal of a random size, holds
///   no control character outside the renderer's own sequences and nothing
///   past the right edge.
///
/// The exit status is 1 exactly when some line was refused. A failure names
/// the feature, the run and the lines, so that it replays.
@MainActor
// The limit catches a hang. It is generous because under the thread
// sanitizer the four runs take a few seconds alone and far longer while the
// rest of the suite shares the machine's two cores and the main actor: each
// of the runs' awaits waits for every main-actor test queued before it, and
// on a busy machine the whole suite's main-actor work under the sanitizer
// comes near five minutes.
@Suite("Script fuzzing", .timeLimit(.minutes(10)))
struct ScriptFuzzTests {
  static let features: [any DemoFeature.Type] = [
    MasterDetailFeature.self, LoginFeature.self, ToDoFeature.self, MoviesFeature.self,
  ]
  static let runsPerFeature = 100
  static let linesPerRun = 12

  @Test(arguments: 0..<4)
  func randomScriptsKeepTheRules(featureIndex: Int) async throws {
    let featureType = Self.features[featureIndex]
    // The screens' own words three times as often as `render` and `help`.
    let own = Set(featureType.screens.flatMap { $0.commands.map(\.word) }).sorted()
    let words = own + own + own + ["render", "help"]
    var random = RandomScript(seed: 0x5EED_0000 + UInt64(featureIndex), words: words)
    var tally = Tally()
    var failingRuns = 0
    for run in 0..<Self.runsPerFeature {
      let environment = FeatureEnvironment(
        now: { Date(timeIntervalSince1970: 1_795_255_200) }, latency: .zero)
      let feature = try featureType.init(environment: environment)
      let script = random.script(lines: Self.linesPerRun)
      let lines = standardInputLines(script)
      let size = TerminalSize(width: 1 + random.below(70), height: 1 + random.below(16))
      let failures = await check(
        feature, lines: lines, isQuiet: random.below(2) == 0, size: size, tally: &tally)
      guard !failures.isEmpty else { continue }
      failingRuns += 1
      // The first few runs that fail say enough, and keep the log readable.
      if failingRuns <= 3 {
        let context = "\(featureType.name), run \(run), \(size.width)×\(size.height)"
        Issue.record(
          "\(context): \(failures.prefix(5).joined(separator: "\n"))\nlines: \(abbreviated(lines))")
      }
    }
    #expect(failingRuns == 0, "\(failingRuns) of \(Self.runsPerFeature) runs broke a rule")
    #expect(tally.lines == Self.runsPerFeature * (2 * Self.linesPerRun + 1))
    #expect(tally.refused > 0, "the fuzzer exercised refusals")
    #expect(tally.certainlyBad > 0, "the fuzzer checked lines that must be refused")
    #expect(tally.performed > 0, "the fuzzer exercised the features' commands")
  }

  /// What the fuzzer ran through, over all runs.
  struct Tally {
    var lines = 0
    var refused = 0
    var certainlyBad = 0
    var performed = 0
  }

  /// Runs one script and returns every rule it broke.
  private func check(
    _ feature: some DemoFeature, lines: [String], isQuiet: Bool, size: TerminalSize,
    tally: inout Tally
  ) async -> [String] {
    var failures: [String] = []
    let position = LinePosition()
    let shell = InteractiveShell(feature: feature)
    let terminal = VirtualTerminal(reads: [], size: size) { failures.append("terminal UI: \($0)") }
    var renderer = ScreenRenderer()
    // Before each line, and after the last: the screen showing, what it
    // says, and the terminal UI's drawing of it.
    var screens: [ScriptScreen] = []
    var texts: [[String]] = []
    func observe() {
      screens.append(feature.currentScreen)
      texts.append(feature.lines)
      terminal.write(renderer.update(to: shell.frame(size: size), size: size))
    }
    var output = RecordingStream(position: position)
    var error = RecordingStream(position: position)
    let status = await ScriptRunner(isQuiet: isQuiet).run(
      feature, lines: TrackedLines(lines: lines, position: position, willRead: observe),
      output: &output, error: &error)
    observe()

    let errors = error.writes(byLine: lines.count)
    for (index, line) in lines.enumerated() {
      tally.lines += 1
      let messages = errors[index]
      let expected = expectedErrors(for: line, on: screens[index])
      if !expected.contains(messages.count) {
        failures.append("line \(index) wrote \(messages.count) errors, not \(expected)")
      }
      if expected == 1...1 { tally.certainlyBad += 1 }
      if let message = messages.first {
        tally.refused += 1
        if !message.hasPrefix("error: ") || message.dropLast().contains("\n")
          || !message.hasSuffix("\n")
        {
          failures.append("line \(index)'s error is not one line: \(message.debugDescription)")
        }
        if texts[index] != texts[index + 1] || screens[index] != screens[index + 1] {
          failures.append("refused line \(index) changed the screen")
        }
      } else if ScriptCommand(line: line).map({ !["render", "help"].contains($0.word) }) == true {
        tally.performed += 1
      }
    }
    let refused = errors.contains { !$0.isEmpty }
    if status != (refused ? 1 : 0) {
      failures.append("exit status \(status), refused lines: \(refused)")
    }
    for text in output.all + error.all where text.containsControlCharacter {
      failures.append("raw control character written: \(text.prefix(200).debugDescription)")
    }
    return failures
  }

  /// The lines as a literal, each cut to 100 characters.
  private func abbreviated(_ lines: [String]) -> String {
    lines.map { line in
      line.count <= 100 ? line : line.prefix(100) + "…(\(line.count - 100) more)"
    }.debugDescription
  }

  /// How many `error:` lines a line may write on a screen: exactly one when
  /// it is certainly bad, none when it is blank or a comment, and otherwise
  /// one at most, since whether the feature takes the argument depends on
  /// its state.
  private func expectedErrors(for line: String, on screen: ScriptScreen) -> ClosedRange<Int> {
    guard let command = ScriptCommand(line: line) else { return 0...0 }
    switch command.word {
    case "render", "help":
      return command.trimmedArgument == nil ? 0...0 : 1...1
    case let word where !screen.accepts(word):
      return 1...1
    default:
      return 0...1
    }
  }
}

/// The lines of a script as `readLine(strippingNewline: true)` reads them
/// from standard input: split after each line feed, the line feed (and a
/// carriage return before it) dropped, then decoded as UTF-8 with invalid
/// bytes replaced by U+FFFD; a last line without a line feed counts unless
/// it is empty.
func standardInputLines(_ bytes: [UInt8]) -> [String] {
  var lines: [String] = []
  var start = 0
  while start < bytes.count {
    let lineFeed = bytes[start...].firstIndex(of: 0x0A)
    var end = lineFeed ?? bytes.count
    if lineFeed != nil && end > start && bytes[end - 1] == 0x0D {
      end -= 1
    }
    lines.append(String(decoding: bytes[start..<end], as: UTF8.self))
    start = (lineFeed ?? bytes.count) + 1
  }
  return lines
}

extension String {
  /// Whether the text holds a control character other than a line feed.
  fileprivate var containsControlCharacter: Bool {
    unicodeScalars.contains { $0 != "\n" && $0.properties.generalCategory == .control }
  }
}

/// The number of the script line being run, shared by the lines and the
/// streams.
@MainActor
final class LinePosition {
  var current = 0
}

/// Script lines that record which one the runner is on, and call back
/// before handing each one out (the runner has finished the one before).
struct TrackedLines: Sequence, IteratorProtocol {
  let lines: [String]
  let position: LinePosition
  let willRead: @MainActor () -> Void
  var index = 0

  init(lines: [String], position: LinePosition, willRead: @escaping @MainActor () -> Void = {}) {
    self.lines = lines
    self.position = position
    self.willRead = willRead
  }

  mutating func next() -> String? {
    guard index < lines.count else { return nil }
    let current = index
    index += 1
    // The runner reads its lines on the main actor.
    MainActor.assumeIsolated {
      position.current = current
      willRead()
    }
    return lines[current]
  }
}

/// A stream that records each write with the script line that made it.
struct RecordingStream: TextOutputStream {
  let position: LinePosition
  var writes: [(line: Int, text: String)] = []

  mutating func write(_ string: String) {
    let line = MainActor.assumeIsolated { position.current }
    writes.append((line, string))
  }

  var all: [String] { writes.map(\.text) }

  /// What each line wrote, one write each, by line number.
  func writes(byLine count: Int) -> [[String]] {
    var grouped = [[String]](repeating: [], count: count)
    for write in writes where grouped.indices.contains(write.line) {
      grouped[write.line].append(write.text)
    }
    return grouped
  }
}

/// A seeded generator of random scripts, as bytes.
struct RandomScript {
  private var generator: SplitMix64
  private let words: [String]

  /// Creates a generator.
  ///
  /// - Parameters:
  ///   - seed: The seed; the same seed makes the same scripts.
  ///   - words: The command words to use most of the time.
  init(seed: UInt64, words: [String]) {
    generator = SplitMix64(seed: seed)
    self.words = words
  }

  mutating func below(_ bound: Int) -> Int {
    Int(generator.next() % UInt64(bound))
  }

  private mutating func pick<T>(_ choices: [T]) -> T {
    choices[below(choices.count)]
  }

  /// A script of `count` random lines, each followed by a line feed (or a
  /// carriage return and a line feed) and `render`, after a first `render`.
  ///
  /// A random line may hold carriage returns alone: they end no line, so
  /// the commands around them are one line. It holds no line feed.
  mutating func script(lines count: Int) -> [UInt8] {
    var script = Array("render\n".utf8)
    for _ in 0..<count {
      var line = self.line()
      while below(8) == 0 {
        line += [0x0D] + self.line()
      }
      script += line + pick([[0x0A], [0x0D, 0x0A]]) + Array("render\n".utf8)
    }
    return script
  }

  /// A random line: mostly a real command, half the time with a random
  /// argument, sometimes junk; sometimes indented, commented out, or
  /// carrying bytes that are not UTF-8.
  private mutating func line() -> [UInt8] {
    var line: String
    switch below(10) {
    case 0: line = fragment()
    case 1: line = pick(words) + fragment()
    default: line = pick(words)
    }
    if below(2) == 0 {
      line += pick([" ", " ", " ", " ", "  ", "\t", " \u{300}"]) + argument()
    }
    if below(12) == 0 {
      line = pick([" ", "\t", "# ", "\u{0}", "\u{1B}"]) + line
    }
    var bytes = Array(line.utf8)
    if below(10) == 0 {
      bytes.insert(contentsOf: invalidUTF8(), at: below(bytes.count + 1))
    }
    return bytes
  }

  /// A random argument: a row number (in range or not), a word, a long or
  /// huge text, or text with control characters.
  private mutating func argument() -> String {
    switch below(20) {
    case 0..<6: return String(below(5))
    case 6..<9: return pick(["milk", "alice", "secret123", "Buy 牛乳", "a b"])
    case 9: return String(Int64(bitPattern: generator.next()))
    case 10: return "-\(below(3))"
    case 11:
      return String(repeating: pick(["x", "漢", "👍", "\u{0}", "\u{1B}[2J"]), count: below(3_000))
    // A huge line, now and then.
    case 12 where below(20) == 0:
      return String(repeating: pick(["y", "\u{7}", "\r"]), count: 100_000 + below(100_000))
    default: return fragment()
    }
  }

  /// Random text with control characters, NUL, marks and wide characters.
  private mutating func fragment() -> String {
    let pieces = [
      "a", "Z", "7", " ", "é", "\u{300}", "漢", "👍", "\u{0}", "\u{1B}", "\u{1B}[31m",
      "\u{1B}]0;title\u{7}", "\u{7}", "\u{8}", "\u{7F}", "\u{85}", "\u{9B}", "\r", "\t", "#",
      "'", "\"", "\\", "\u{200B}", "\u{202E}",
    ]
    var text = ""
    for _ in 0..<(1 + below(12)) {
      text += pick(pieces)
    }
    return text
  }

  /// Bytes that are not UTF-8 (stray continuation bytes, a lead byte cut
  /// short, bytes never used), never a line feed.
  private mutating func invalidUTF8() -> [UInt8] {
    switch below(4) {
    case 0: return [UInt8(0x80 + below(0x40))]
    case 1: return [pick([0xC3, 0xE6, 0xF0] as [UInt8])]
    case 2: return [pick([0xC0, 0xC1, 0xF5, 0xFE, 0xFF] as [UInt8])]
    default: return (0..<(1 + below(4))).map { _ in UInt8(0x80 + below(0x80)) }
    }
  }
}

import Testing
import TextUI

/// What happened, in order: the terminal's calls and the keys the
/// application received.
@MainActor
private final class Log {
  var entries: [String] = []
}

/// A terminal that replays scripted reads and logs every call.
@MainActor
private final class ScriptedTerminal: TerminalDevice {
  let log: Log
  var reads: [TerminalInput]
  var writes: [String] = []
  var screenSize = TerminalSize(width: 20, height: 3)
  var failsWrites = false
  /// Whether ``suspend()`` suspends: false where job control is off.
  var suspends = true

  init(log: Log, reads: [TerminalInput]) {
    self.log = log
    self.reads = reads
  }

  func enterFullScreen() { log.entries.append("enter") }
  func leaveFullScreen() { log.entries.append("leave") }
  func size() -> TerminalSize { screenSize }

  func read(timeout: Duration?) -> TerminalInput {
    log.entries.append(timeout.map { "read, waiting \($0)" } ?? "read")
    return reads.isEmpty ? .endOfInput : reads.removeFirst()
  }

  func suspend() -> Bool {
    log.entries.append(suspends ? "suspend, then continue" : "cannot suspend")
    return suspends
  }

  func write(_ text: String) throws(TerminalError) {
    if failsWrites { throw TerminalError("the terminal went away") }
    writes.append(text)
    log.entries.append(text.contains("\u{1B}[2J") ? "draw all" : "draw changes")
  }
}

/// An application that shows how many keys it received and quits on `q`.
@MainActor
private final class KeyCounter: TerminalApplication {
  let log: Log
  var count = 0

  init(log: Log) { self.log = log }

  func frame(size: TerminalSize) -> Frame {
    Frame(lines: [Frame.Line("keys: \(count)")])
  }

  func handle(_ key: Key) -> KeyResponse {
    log.entries.append("key \(key)")
    count += 1
    return key == .character("q") ? .quit : .continue
  }
}

@MainActor
@Suite("Full-screen session")
struct FullScreenSessionTests {
  private func run(_ reads: [TerminalInput]) async throws -> (end: SessionEnd, log: [String]) {
    let log = Log()
    let terminal = ScriptedTerminal(log: log, reads: reads)
    let end = try await FullScreenSession(device: terminal).run(KeyCounter(log: log))
    return (end, log.entries)
  }

  private static func bytes(_ text: String) -> TerminalInput {
    .bytes(Array(text.utf8))
  }

  @Test func handsEveryKeyOfAReadToTheAppThenDrawsOnce() async throws {
    let (end, log) = try await run([Self.bytes("ab"), Self.bytes("q")])
    #expect(end == .quit)
    #expect(
      log == [
        "enter", "draw all", "read", "key character(\"a\")", "key character(\"b\")",
        "draw changes", "read", "key character(\"q\")", "leave",
      ])
  }

  @Test func waitsBrieflyForTheRestOfAnEscapeSequence() async throws {
    let (_, log) = try await run([Self.bytes("\u{1B}"), Self.bytes("[A"), Self.bytes("q")])
    #expect(
      log == [
        "enter", "draw all", "read", "read, waiting 0.05 seconds", "key up", "draw changes", "read",
        "key character(\"q\")", "leave",
      ])
  }

  @Test func aLoneEscapeIsTheEscapeKeyAfterTheTimeout() async throws {
    let (_, log) = try await run([Self.bytes("\u{1B}"), .timedOut, Self.bytes("q")])
    #expect(
      log == [
        "enter", "draw all", "read", "read, waiting 0.05 seconds", "key escape", "draw changes",
        "read", "key character(\"q\")", "leave",
      ])
  }

  @Test func ctrlCEndsTheSessionAndRestoresTheTerminal() async throws {
    let (end, log) = try await run([Self.bytes("a\u{03}b")])
    #expect(end == .interrupted)
    #expect(log == ["enter", "draw all", "read", "key character(\"a\")", "leave"])
  }

  /// Ctrl-Z suspends the program, which has continued when the device
  /// returns: the key does not reach the application, and the screen,
  /// which the shell has used meanwhile, is drawn whole again.
  @Test func ctrlZSuspendsAndDrawsTheWholeScreenWhenTheProgramContinues() async throws {
    let (end, log) = try await run([Self.bytes("a\u{1A}"), Self.bytes("q")])
    #expect(end == .quit)
    #expect(
      log == [
        "enter", "draw all", "read", "key character(\"a\")", "suspend, then continue",
        "draw all", "read", "key character(\"q\")", "leave",
      ])
  }

  /// Where job control is off the device cannot suspend, and Ctrl-Z is a
  /// key like any other.
  @Test func ctrlZIsAKeyWhereTheDeviceCannotSuspend() async throws {
    let log = Log()
    let terminal = ScriptedTerminal(log: log, reads: [Self.bytes("\u{1A}q")])
    terminal.suspends = false
    _ = try await FullScreenSession(device: terminal).run(KeyCounter(log: log))
    #expect(
      log.entries == [
        "enter", "draw all", "read", "cannot suspend", "key control(\"z\")",
        "key character(\"q\")", "leave",
      ])
  }

  @Test func theEndOfInputEndsTheSession() async throws {
    let (end, log) = try await run([])
    #expect(end == .endOfInput)
    #expect(log == ["enter", "draw all", "read", "leave"])
  }

  @Test func aResizeDrawsTheWholeScreenAgain() async throws {
    let (_, log) = try await run([.resized, Self.bytes("q")])
    #expect(
      log == ["enter", "draw all", "read", "draw all", "read", "key character(\"q\")", "leave"])
  }

  @Test func anErrorRestoresTheTerminalBeforeItIsThrown() async {
    let log = Log()
    let terminal = ScriptedTerminal(log: log, reads: [Self.bytes("q")])
    terminal.failsWrites = true
    await #expect(throws: TerminalError("the terminal went away")) {
      try await FullScreenSession(device: terminal).run(KeyCounter(log: log))
    }
    #expect(log.entries == ["enter", "leave"])
  }
}

import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `pomvvm-demo`'s terminal UI on a pseudo-terminal, stopped and continued
/// by signals, as job control does.
///
/// Ctrl-Z itself is pinned by `scripts/test-demo-tmux`, under a shell with
/// job control: here it would send `SIGTSTP` to the test's own process
/// group.
@Suite("Suspending the terminal UI")
struct TerminalSuspendProcessTests {
  /// Reads a pseudo-terminal until what it read holds `text`, for 20 s at
  /// most; what it read.
  private func output(of master: Int32, until text: String) -> String {
    var screen: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    let deadline = ContinuousClock.now + .seconds(20)
    while ContinuousClock.now < deadline {
      var ready = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
      guard poll(&ready, 1, 100) >= 0 else { break }
      guard ready.revents != 0 else { continue }
      let count = read(master, &buffer, buffer.count)
      guard count > 0 else { break }
      screen += buffer[..<count]
      if String(decoding: screen, as: UTF8.self).contains(text) { break }
    }
    return String(decoding: screen, as: UTF8.self)
  }

  /// Starts the demo on a new pseudo-terminal, through `/bin/sh -c`.
  private func start(_ script: String) throws -> (child: Process, master: Int32) {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let (master, path) = try #require(openPseudoTerminal())
    let terminal = try #require(FileHandle(forUpdatingAtPath: path))
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/sh")
    child.arguments = ["-c", script, executable.path]
    child.standardInput = terminal
    child.standardOutput = terminal
    child.standardError = FileHandle.nullDevice
    try child.run()
    try terminal.close()
    return (child, master)
  }

  /// `SIGTSTP` restores the terminal and leaves the alternate screen before
  /// the app stops; `SIGCONT` takes the terminal back and draws the whole
  /// screen again.
  @Test func aStopRestoresTheTerminalAndTheContinueRedrawsTheWholeScreen() async throws {
    let (child, master) = try start(#"exec "$0" --clock 2026-11-21T10:00:00Z"#)
    defer {
      if child.isRunning { kill(child.processIdentifier, SIGKILL) }
      child.waitUntilExit()
      close(master)
    }
    let first = await blockingRead(master, until: "Items (open switches: 0)")
    #expect(first.contains("\u{1B}[?1049h"))

    kill(child.processIdentifier, SIGTSTP)
    let stopped = await blockingRead(master, until: "\u{1B}[?1049l")
    #expect(stopped.hasSuffix("\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"), "restored, then stopped")

    kill(child.processIdentifier, SIGCONT)
    let continued = await blockingRead(master, until: "Items (open switches: 0)")
    let reentered = try #require(continued.range(of: "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"))
    #expect(continued[reentered.upperBound...].contains("Items (open switches: 0)"))
    #expect(continued[reentered.upperBound...].contains("q quit"), "the whole screen")

    _ = write(master, "q", 1)
    try await blocking { child.waitUntilExit() }
    #expect(child.terminationStatus == 0)
  }

  /// Where job control is off (`SIGTSTP` ignored), the app never stops:
  /// Ctrl-Z is an ordinary key and `SIGTSTP` changes nothing.
  @Test func whereJobControlIsOffCtrlZIsAKeyAndAStopSignalIsIgnored() async throws {
    let (child, master) = try start(#"trap '' TSTP; exec "$0" --clock 2026-11-21T10:00:00Z"#)
    defer {
      if child.isRunning { kill(child.processIdentifier, SIGKILL) }
      child.waitUntilExit()
      close(master)
    }
    _ = await blockingRead(master, until: "Items (open switches: 0)")
    kill(child.processIdentifier, SIGTSTP)
    _ = write(master, "\u{1A}a", 2)
    let after = await blockingRead(master, until: "> 1. [ ]")
    #expect(after.contains("> 1. [ ]"), "the key after Ctrl-Z reached the app")
    #expect(!after.contains("\u{1B}[?1049l"), "the terminal never left full-screen mode")
    _ = write(master, "q", 1)
    try await blocking { child.waitUntilExit() }
    #expect(child.terminationStatus == 0)
  }

  private func blockingRead(_ master: Int32, until text: String) async -> String {
    (try? await blocking { output(of: master, until: text) }) ?? ""
  }
}

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
  /// What the app writes to take the terminal back: the alternate screen,
  /// the cursor hidden, the screen cleared.
  private let reentry = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"
  /// What the app writes to give the terminal back: plain style, the
  /// cursor shown, the normal screen.
  private let restore = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
  private let app = #"exec "$0" --clock 2026-11-21T10:00:00Z"#

  /// `SIGTSTP` restores the terminal and leaves the alternate screen before
  /// the app stops; `SIGCONT` takes the terminal back and draws the whole
  /// screen again.
  @Test func aStopRestoresTheTerminalAndTheContinueRedrawsTheWholeScreen() async throws {
    try await withDemo(app) { child, master in
      let first = await blockingRead(master, until: "Items (open switches: 0)")
      #expect(first.contains("\u{1B}[?1049h"))

      kill(child.processIdentifier, SIGTSTP)
      let stopped = await blockingRead(master, until: "\u{1B}[?1049l")
      #expect(stopped.hasSuffix(restore), "restored, then stopped")

      let continued = await continueStopped(child, master)
      let reentered = try #require(continued.range(of: reentry))
      #expect(continued[reentered.upperBound...].contains("Items (open switches: 0)"))
      #expect(continued[reentered.upperBound...].contains("q quit"), "the whole screen")
    }
  }

  /// Stop after stop, the first thing written after the continue takes the
  /// terminal back, and the whole screen follows: a reentry never lands
  /// after a redraw.
  ///
  /// `SIGCONT`'s handler runs on a thread other than the one that draws. It
  /// used to write the reentry itself, which now and then came after the
  /// redraw: the screen went blank, then was drawn a second time.
  @Test func everyContinueTakesTheTerminalBackBeforeDrawing() async throws {
    try await withDemo(app) { child, master in
      _ = await blockingRead(master, until: "q quit")
      for round in 1...20 {
        kill(child.processIdentifier, SIGTSTP)
        let stopped = await blockingRead(master, until: "\u{1B}[?1049l")
        #expect(stopped.hasSuffix(restore), "round \(round): stopped")
        let continued = await continueStopped(child, master)
        #expect(continued.hasPrefix(reentry), "round \(round): the terminal taken back first")
        #expect(continued.contains("Items (open switches: 0)"), "round \(round): the whole screen")
      }
    }
  }

  /// A stop the app did not make (`SIGSTOP`, which cannot be caught) leaves
  /// the terminal as it was; the continue still takes the terminal back and
  /// draws the whole screen, since the shell may have used the terminal
  /// meanwhile.
  @Test func aContinueAfterAStopFromOutsideDrawsTheWholeScreen() async throws {
    try await withDemo(app) { child, master in
      _ = await blockingRead(master, until: "q quit")
      kill(child.processIdentifier, SIGSTOP)
      let continued = await continueStopped(child, master)
      #expect(continued.hasPrefix(reentry))
      #expect(continued.contains("Items (open switches: 0)"), "the whole screen")
    }
  }

  /// Where job control is off (`SIGTSTP` ignored), the app never stops:
  /// Ctrl-Z is an ordinary key and `SIGTSTP` changes nothing.
  @Test func whereJobControlIsOffCtrlZIsAKeyAndAStopSignalIsIgnored() async throws {
    try await withDemo("trap '' TSTP; " + app) { child, master in
      _ = await blockingRead(master, until: "Items (open switches: 0)")
      kill(child.processIdentifier, SIGTSTP)
      _ = write(master, "\u{1A}a", 2)
      let after = await blockingRead(master, until: "> 1. [ ]")
      #expect(after.contains("> 1. [ ]"), "the key after Ctrl-Z reached the app")
      #expect(!after.contains("\u{1B}[?1049l"), "the terminal never left full-screen mode")
    }
  }

  /// Runs the demo on a new pseudo-terminal, through `/bin/sh -c script`,
  /// hands it to `body`, then quits it with `q` and expects it to exit with
  /// status 0; if `body` throws, the demo is killed.
  private func withDemo(
    _ script: String, _ body: (_ child: Process, _ master: Int32) async throws -> Void
  ) async throws {
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
    defer {
      if child.isRunning { kill(child.processIdentifier, SIGKILL) }
      child.waitUntilExit()
      close(master)
    }
    try await body(child, master)
    _ = write(master, "q", 1)
    try await blocking { child.waitUntilExit() }
    #expect(child.terminationStatus == 0)
  }

  /// Waits until the child has stopped, continues it, and returns what it
  /// wrote up to its help line.
  ///
  /// A shell with job control waits for the stop before `fg` or `bg` can
  /// continue a job: a `SIGCONT` sent between the app's restore and its stop
  /// would be spent before the stop, and the app would stay stopped. The
  /// stop is left for the child's owner to collect (`WNOWAIT`).
  private func continueStopped(_ child: Process, _ master: Int32) async -> String {
    let pid = child.processIdentifier
    _ = try? await blocking {
      var info = siginfo_t()
      while waitid(P_PID, id_t(pid), &info, WSTOPPED | WNOWAIT) < 0 && errno == EINTR {}
    }
    kill(pid, SIGCONT)
    return await blockingRead(master, until: "q quit")
  }

  private func blockingRead(_ master: Int32, until text: String) async -> String {
    (try? await blocking { readOutput(of: master, until: text) }) ?? ""
  }
}

import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `pomvvm-demo` when writing its standard output fails: a full disk is an
/// error, a closed pipe ends the run quietly.
@Suite("Standard output failures")
struct StandardStreamsTests {
  /// Runs the demo through `/bin/sh -c "$script"` with standard output on
  /// `output`, writes `input` to its standard input, runs `afterReading`,
  /// and returns its status (or 128 + the signal that ended it) and its
  /// standard error.
  private func run(
    _ script: String, input: String, output: FileHandle,
    afterReading: @escaping @Sendable () -> Void = {}
  ) async throws -> (status: Int32, error: String) {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    return try await blocking {
      let child = Process()
      let stdin = Pipe()
      let stderr = Pipe()
      child.executableURL = URL(fileURLWithPath: "/bin/sh")
      child.arguments = ["-c", script, executable.path]
      child.standardInput = stdin
      child.standardOutput = output
      child.standardError = stderr
      try child.run()
      // The input fits the pipe's buffer: writing it never waits.
      stdin.fileHandleForWriting.write(Data(input.utf8))
      try? stdin.fileHandleForWriting.close()
      afterReading()
      let error = stderr.fileHandleForReading.readDataToEndOfFile()
      child.waitUntilExit()
      let status =
        child.terminationReason == .uncaughtSignal
        ? 128 + child.terminationStatus : child.terminationStatus
      return (status, String(decoding: error, as: UTF8.self))
    }
  }

  /// `printf 'add a\nrender\n' | pomvvm-demo --script > /dev/full`: the
  /// screens never reach the disk, so the run fails with one line and 74.
  @Test(arguments: [2, 2_000])
  func aFullDiskEndsTheRunWithOneLineAndStatus74(renders: Int) async throws {
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let input = "add a\n" + String(repeating: "render\n", count: renders)
    let (status, error) = try await run(#"exec "$0" --script"#, input: input, output: full)
    #expect(status == 74)
    #expect(error == "error: cannot write to standard output: No space left on device\n")
  }

  /// `pomvvm-demo --script | head -1`: once the reader has gone, the run
  /// ends quietly with 141, as if `SIGPIPE` had ended it, even where the
  /// signal is ignored (as a parent may leave it).
  @Test(arguments: [false, true])
  func aClosedPipeEndsTheRunQuietlyWith141(ignoringSIGPIPE: Bool) async throws {
    let pipe = Pipe()
    let reader = pipe.fileHandleForReading
    let input = String(repeating: "render\n", count: 4_000)
    let script = (ignoringSIGPIPE ? "trap '' PIPE; " : "") + #"exec "$0" --script"#
    let (status, error) = try await run(
      script, input: input, output: pipe.fileHandleForWriting,
      afterReading: {
        try? pipe.fileHandleForWriting.close()
        // `head -1`: one read, then the reader is gone.
        _ = reader.availableData
        try? reader.close()
      })
    #expect(status == 141)
    #expect(error == "")
  }
}

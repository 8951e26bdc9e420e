import Foundation

/// The built `pomvvm-demo`, beside the test bundle in the build folder
/// (`swift build --build-tests` and `swift test` build it), or at
/// `POMVVM_DEMO` if that is set.
let demoExecutable: URL? = {
  if let path = ProcessInfo.processInfo.environment["POMVVM_DEMO"] {
    return URL(fileURLWithPath: path)
  }
  var directory = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
  for _ in 0..<5 {
    directory.deleteLastPathComponent()
    let candidate = directory.appendingPathComponent("pomvvm-demo")
    if FileManager.default.isExecutableFile(atPath: candidate.path) {
      return candidate
    }
  }
  return nil
}()

/// Runs `body`, which blocks (it waits for a child process, sleeps or
/// polls), on a thread of its own, and waits for it without holding a
/// thread.
///
/// Swift's tasks share a pool of as many threads as there are cores. A test
/// that blocks one of them for seconds starves the others: a task that
/// sleeps, even one on the main actor, wakes up on that pool. So tests that
/// wait for child processes do the waiting here, and make their
/// expectations afterwards, in the test's own task.
func blocking<Result: Sendable>(
  _ body: @escaping @Sendable () throws -> Result
) async throws -> Result {
  try await withCheckedThrowingContinuation { continuation in
    Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
  }
}

/// Runs the built `pomvvm-demo` with `input` on its standard input and
/// returns its exit status and the bytes it wrote to standard output and
/// standard error.
func runDemoProcess(
  _ executable: URL, arguments: [String], input: Data
) async throws -> (status: Int32, output: Data, error: Data) {
  try await blocking { try runDemoProcessBlocking(executable, arguments: arguments, input: input) }
}

private func runDemoProcessBlocking(
  _ executable: URL, arguments: [String], input: Data
) throws -> (status: Int32, output: Data, error: Data) {
  let child = Process()
  let stdin = Pipe()
  let stdout = Pipe()
  let stderr = Pipe()
  child.executableURL = executable
  child.arguments = arguments
  // Under scripts/sanitize the demo is built with AddressSanitizer too, and
  // LeakSanitizer would check it at exit: a Swift object still alive then
  // that once had a weak reference shows its side table as a 32-byte
  // "leak" (see scripts/lsan-suppressions.txt), printed to the standard
  // error these tests compare. The leak check is for the test process; the
  // child's output stays the demo's own.
  var environment = ProcessInfo.processInfo.environment
  let asan = environment["ASAN_OPTIONS"].map { "\($0):" } ?? ""
  environment["ASAN_OPTIONS"] = asan + "detect_leaks=0"
  child.environment = environment
  child.standardInput = stdin
  child.standardOutput = stdout
  child.standardError = stderr
  // A child that exits without reading all of its input (`--help`, a bad
  // argument) closes the pipe first: the write then fails with EPIPE, and
  // the SIGPIPE that comes with it would end the whole test process (seen
  // under load, when the child exits before the write). The signal is
  // ignored, and the child is judged by its status and output alone.
  signal(SIGPIPE, SIG_IGN)
  try child.run()
  try? stdin.fileHandleForWriting.write(contentsOf: input)
  try? stdin.fileHandleForWriting.close()
  // The outputs here are small: each fits its pipe, so reading one to its
  // end and then the other cannot stall the child.
  let output = stdout.fileHandleForReading.readDataToEndOfFile()
  let error = stderr.fileHandleForReading.readDataToEndOfFile()
  child.waitUntilExit()
  return (child.terminationStatus, output, error)
}

#if canImport(Testing)
import Testing
#endif
#if canImport(XCTest)
import XCTest
#endif

/// Records a test failure at `location`, through the framework that runs the
/// current test.
///
/// Each framework silently drops a failure recorded through the other one:
/// `XCTFail` inside a Swift Testing test, or `Issue.record` inside an XCTest
/// test, fails nothing. So a Swift Testing test (`Test.current` is set for
/// its task) records an `Issue`; anything else is taken to be an XCTest test
/// and calls `XCTFail`. A process that runs no tests at all (a playground,
/// say) gets the failure printed, since `XCTFail` would drop it too.
func recordFailure(_ message: String, at location: CallerLocation) {
  #if canImport(Testing)
  if Test.current != nil {
    Issue.record(
      Comment(rawValue: message),
      sourceLocation: SourceLocation(
        fileID: "\(location.fileID)", filePath: "\(location.filePath)",
        line: Int(location.line), column: Int(location.column)))
    return
  }
  #endif
  #if canImport(XCTest)
  XCTFail(message, file: location.filePath, line: location.line)
  // Outside a test, XCTFail does nothing; say it rather than pass silently.
  if !isTestProcess {
    printFailure(message, at: location)
  }
  #else
  printFailure(message, at: location)
  #endif
}

/// Whether this process runs tests: an XCTest bundle (`….xctest` on Linux,
/// the `xctest` tool on Darwin) or a Swift Testing run.
private let isTestProcess: Bool = {
  let program = CommandLine.arguments.first?.split(separator: "/").last ?? ""
  return program.hasSuffix(".xctest") || program == "xctest"
    || CommandLine.arguments.contains("--testing-library")
}()

private func printFailure(_ message: String, at location: CallerLocation) {
  print("\(location.filePath):\(location.line): error: \(message)")
}

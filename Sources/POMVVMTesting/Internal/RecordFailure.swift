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
    Issue.record(Comment(rawValue: message), sourceLocation: location.sourceLocation)
    return
  }
  #endif
  #if canImport(XCTest)
  // XCTFail takes static strings only: a forwarded location goes in the
  // message.
  XCTFail(message + location.forwardedSuffix, file: location.filePath, line: location.line)
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
let isTestProcess: Bool = {
  let program = CommandLine.arguments.first?.split(separator: "/").last ?? ""
  return program.hasSuffix(".xctest") || program == "xctest"
    || CommandLine.arguments.contains("--testing-library")
}()

private func printFailure(_ message: String, at location: CallerLocation) {
  print("\(location.reportedFilePath):\(location.reportedLine): error: \(message)")
}

extension CallerLocation {
  /// `\n(at File.swift:12:5)` for a forwarded location, which XCTest
  /// cannot point at; empty otherwise.
  var forwardedSuffix: String {
    guard let forwarded else { return "" }
    return "\n(at \(forwarded.filePath):\(forwarded.line):\(forwarded.column))"
  }

  #if canImport(Testing)
  /// Where Swift Testing shows the failures: the forwarded location, or
  /// the static one.
  var sourceLocation: SourceLocation {
    if let forwarded {
      return SourceLocation(
        fileID: forwarded.fileID, filePath: forwarded.filePath, line: forwarded.line,
        column: forwarded.column)
    }
    return SourceLocation(
      fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
  }

  /// A location that a helper forwarded as a `SourceLocation`.
  ///
  /// XCTest, which takes only static strings, reports at this function's
  /// caller in POMVVMTesting, naming the forwarded location in the message.
  init(
    _ sourceLocation: SourceLocation, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) {
    self.init(
      fileID: fileID, filePath: filePath, line: line, column: column,
      forwarded: ForwardedLocation(
        fileID: sourceLocation.fileID, filePath: sourceLocation.filePath,
        line: sourceLocation.line, column: sourceLocation.column))
  }
  #endif
}

#if canImport(Testing)
import Testing
#endif

/// Shows `message` at `location` without failing the test: a known issue
/// under Swift Testing, which its report lists; a printed note anywhere
/// else (XCTest has no portable way to record one).
func recordNote(_ message: String, at location: CallerLocation) {
  #if canImport(Testing)
  if Test.current != nil {
    let sourceLocation = location.sourceLocation
    withKnownIssue("listed, not failed", sourceLocation: sourceLocation) {
      Issue.record(Comment(rawValue: message), sourceLocation: sourceLocation)
    }
    return
  }
  #endif
  print("\(location.reportedFilePath):\(location.reportedLine): note: \(message)")
}

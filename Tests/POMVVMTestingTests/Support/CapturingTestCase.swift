import XCTest

/// An XCTest case that records its failures itself while ``isCapturing`` is
/// set, so that a failing check can be examined instead of failing the test
/// (XCTest on Linux has no `XCTExpectFailure`).
class CapturingTestCase: XCTestCase {
  /// A failure recorded while capturing.
  struct Failure: Equatable {
    var file: String
    var line: Int
    var message: String
  }

  /// Whether failures are captured rather than recorded.
  var isCapturing = false
  /// The failures captured so far, in order.
  var captured: [Failure] = []

  override func recordFailure(
    withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
    expected: Bool
  ) {
    guard isCapturing else {
      super.recordFailure(
        withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      return
    }
    captured.append(Failure(file: filePath, line: lineNumber, message: description))
  }
}

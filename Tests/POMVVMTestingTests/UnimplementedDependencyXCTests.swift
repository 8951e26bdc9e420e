import POMVVMTesting
import XCTest

/// An unoverridden dependency under XCTest: no Swift Testing test is
/// running, so the failure goes through `XCTFail`, at the `@Dependency`'s
/// file and line.
final class UnimplementedDependencyXCTests: CapturingTestCase {
  @MainActor
  func testAnUnoverriddenReadFailsTheTestAtTheDependencysFileAndLine() async {
    let model = StampViewModel()
    isCapturing = true
    model.stamp()
    isCapturing = false
    XCTAssertEqual(
      captured.map(\.file),
      [
        #filePath.replacingOccurrences(
          of: "UnimplementedDependencyXCTests", with: "UnimplementedDependencyTests")
      ])
    XCTAssertEqual(captured.map(\.line), [StampViewModel.uuidLine])
    XCTAssertTrue(
      captured.first?.message.contains("Unimplemented dependency \\.uuid (UUIDGenerator)")
        == true, "\(captured)")
  }

  @MainActor
  func testAnOverriddenReadDoesNotFail() async {
    let model = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      StampViewModel()
    }
    isCapturing = true
    model.stamp()
    model.stamp()
    isCapturing = false
    XCTAssertEqual(captured, [])
    XCTAssertEqual(model.last.value?.uuidString, "00000000-0000-0000-0000-000000000001")
  }
}

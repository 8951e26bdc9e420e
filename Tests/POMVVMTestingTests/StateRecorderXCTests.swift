import POMVVMTesting
import Testing
import XCTest

/// A counter with a derived parity, for the recorder under XCTest.
@MainActor
private final class CounterViewModel: ViewModel {
  let count = Observable(0)
  let isEven: Derived<Bool>
  let reset = EventStream<Void>()

  init() {
    isEven = count.map { $0.isMultiple(of: 2) }
  }
}

/// The recorder under XCTest: its failures go through `XCTFail`, at the
/// caller's file and line, and are captured (``CapturingTestCase``) so that
/// their text can be compared.
final class StateRecorderXCTests: CapturingTestCase {
  @MainActor
  func testBothFinishesCompileAndPassUnderXCTest() async {
    // In an async test, `finish()` without `await` is the synchronous one;
    // the one that waits for cancelled work is named by its `timeout:`.
    let first = StateRecorder(of: CounterViewModel())
    first.finish()
    let second = StateRecorder(of: CounterViewModel())
    await second.finish(timeout: .seconds(1))
    isCapturing = true
    let third = StateRecorder(of: CounterViewModel())
    third.perform { third.root.count.value = 1 }
    let line = #line + 1
    await third.finish(timeout: .seconds(1))
    isCapturing = false
    XCTAssertEqual(captured.map(\.line), [line - 2])
  }

  @MainActor
  func testAnUnassertedChangeFailsAtTheLineOfPerform() async {
    let counter = CounterViewModel()
    let recorder = StateRecorder(of: counter)
    isCapturing = true
    let line = #line + 1
    recorder.perform {
      counter.count.value = 1
      counter.reset.send()
    } expecting: {
      $0.changed(\.count, to: 2)
    }
    isCapturing = false
    XCTAssertEqual(
      captured,
      [
        Failure(
          file: #filePath, line: line,
          message: """
            failed - StateRecorder found 3 problems in this step:
            Wrong change of count (- expected, + actual):
              - 2
              + 1
            Unexpected change of isEven:
              - true
              + false
            Unexpected event sent by reset: ()
            """)
      ])
  }

  @MainActor
  func testAForwardedSourceLocationIsNamedInTheMessage() async {
    let counter = CounterViewModel()
    let recorder = StateRecorder(of: counter)
    isCapturing = true
    recorder.perform(
      { counter.reset.send() },
      sourceLocation: SourceLocation(
        fileID: "App/Helpers.swift", filePath: "/app/Helpers.swift", line: 7, column: 3))
    isCapturing = false
    // XCTest takes only static locations: the failure is recorded inside
    // the kit, and its message names the forwarded location.
    XCTAssertEqual(captured.count, 1)
    XCTAssertEqual(
      captured.first?.message,
      """
      failed - StateRecorder found 1 problem in this step:
      Unexpected event sent by reset: ()
      (at /app/Helpers.swift:7:3)
      """)
  }

  @MainActor
  func testAFullyAssertedStepRecordsNothing() async {
    let counter = CounterViewModel()
    let recorder = StateRecorder(of: counter)
    isCapturing = true
    recorder.perform {
      counter.count.value = 1
    } expecting: {
      $0.changed(\.count, to: 1)
      $0.changed(\.isEven, to: false)
    }
    recorder.finish()
    isCapturing = false
    XCTAssertEqual(captured, [])
  }

  @MainActor
  func testAReleasedRecorderWithUnreportedChangesFailsWhereItWasMade() async {
    let counter = CounterViewModel()
    isCapturing = true
    var line = 0
    do {
      line = #line + 1
      let recorder = StateRecorder(of: counter)
      recorder.perform {
        counter.count.value = 2
      } expecting: {
        $0.changed(\.count, to: 2)
      }
      counter.count.value = 3
    }
    isCapturing = false
    XCTAssertEqual(
      captured,
      [
        Failure(
          file: #filePath, line: line,
          message: """
            failed - StateRecorder released with 2 unreported changes; assert them in a step, \
            or call finish():
            Unexpected change of count (made after the previous step ended):
              - 2
              + 3
            Unexpected change of isEven (made after the previous step ended):
              - true
              + false
            """)
      ])
  }
}

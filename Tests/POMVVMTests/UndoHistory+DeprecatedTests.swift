import POMVVM
import TestSupport
import Testing

/// `UndoHistory(limit:mergeWindow:now:)`, the 0.1 initializer, kept
/// deprecated: code written against it still compiles and merges on the
/// times its closure returns.
@MainActor
@Suite("UndoHistory, deprecated")
struct UndoHistoryDeprecatedTests {
  @available(*, deprecated, message: "tests the deprecated initializer")
  @Test func theNowInitializerStillMeasuresTheMergeWindowOnItsTimes() throws {
    var time = ContinuousClock.now
    let array = ObservableArray([TestItem(1, "")])
    let history = UndoHistory(limit: 10, now: { time })
    history.track(array, actionName: "Typing")
    let cell = try #require(array.cell(for: 1, \.text))
    cell.value = "a"
    time = time.advanced(by: .milliseconds(900))
    cell.value = "ab"
    #expect(history.undoCount == 1)
    time = time.advanced(by: .seconds(2))
    cell.value = "abc"
    #expect(history.undoCount == 2)
    #expect(history.undo())
    #expect(cell.value == "ab")
  }

  @available(*, deprecated, message: "tests the deprecated initializer")
  @Test func theNowInitializerKeepsTheLimit() {
    var time = ContinuousClock.now
    let count = Observable(0)
    let history = UndoHistory(limit: 2, mergeWindow: .zero, now: { time })
    history.track(count)
    for value in 1...5 {
      time = time.advanced(by: .seconds(1))
      count.value = value
    }
    #expect(history.undoCount == 2)
  }
}

import MasterDetail
import POMVVMTesting
import Testing

@MainActor
@Suite("checkObservableLaws")
struct CheckObservableLawsTests {
  @Test func storedCellsAreLawful() {
    checkObservableLaws({ Observable($0) }, values: [1, 2, 3])
    checkObservableLaws({ Observable($0) }, values: ["", "a", "ab"])
  }

  @Test func projectedCellsAreLawful() {
    checkObservableLaws(
      { Observable(item(1, $0)).projection(\.text) }, values: ["first", "second", "third"])
  }

  @Test func elementCellsAreLawful() {
    checkObservableLaws(elementCell, values: [item(1, "a"), item(1, "b"), item(1, "b", on: true)])
  }

  @Test func fieldCellsOfAnArrayAreLawful() {
    checkObservableLaws(
      { on in required(ObservableArray([item(1, on: on)]).cell(for: 1, \.on), "field cell") },
      values: [false, true])
  }

  @Test func theSampleDetailTextIsLawful() {
    checkObservableLaws(
      { text in
        let master = makeMaster([text])
        return required(master.detailViewModel(for: master.items[0].id), "detail").text
      }, values: ["a", "b", "c"])
  }

  @Test func aCellWrittenOutsideTheKitCanBeLawful() {
    checkObservableLaws({ HandmadeCell($0) }, values: [1, 2, 3])
  }

  @Test func aCellThatDropsWritesFailsGetAfterSet() {
    let line = #line + 1
    let failures = recordedFailures { checkObservableLaws(forgetful, values: [1, 2, 3]) }
    #expect(
      failures.laws == [
        "get after set", "get after set", "get after set", "get after set",
        "each change notifies once, with the new value", "no notification on equal sets",
        "observers are told in subscription order", "cancel ends delivery",
        "cancel ends delivery", "release ends delivery", "a re-entrant set ends consistent",
      ])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.first?.message == """
        Observable law 'get after set' failed for HandmadeCell<Int>: after `value = 2` it holds 1
        Trace:
          - checkObservableLaws(HandmadeCell<Int>)
          - get after set
        """)
  }

  @Test func aCellThatNotifiesEqualSetsFailsThatLaw() {
    let line = #line + 1
    let failures = recordedFailures { checkObservableLaws(chatty, values: [1, 2]) }
    #expect(failures.laws == ["no notification on equal sets"])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.first?.message.hasPrefix(
        "Observable law 'no notification on equal sets' failed for HandmadeCell<Int>: "
          + "setting [1, 1, 2, 2, 2] from 1, expected [2], saw [1, 1, 2, 2, 2]") == true)
  }

  @Test func aCellThatTellsTheLastSubscriberFirstFailsTheOrderLaw() {
    let line = #line + 1
    let failures = recordedFailures { checkObservableLaws(reversed, values: [1, 2]) }
    #expect(
      failures.laws == [
        "observers are told in subscription order", "cancel ends delivery",
        "cancel ends delivery", "release ends delivery",
      ])
    #expect(failures.locations == [here(line)])
  }

  @Test func aCellThatIgnoresCancellationFailsTheCancelAndReleaseLaws() {
    let line = #line + 1
    let failures = recordedFailures { checkObservableLaws(uncancellable, values: [1, 2]) }
    #expect(
      failures.laws == ["cancel ends delivery", "cancel ends delivery", "release ends delivery"])
    #expect(failures.locations == [here(line)])
  }

  @Test func aCellThatFinishesWithStaleValuesFailsTheReentrancyLaw() {
    let line = #line + 1
    let failures = recordedFailures { checkObservableLaws(stale, values: [1, 2, 3]) }
    #expect(failures.laws == ["a re-entrant set ends consistent"])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.first?.message.hasPrefix(
        "Observable law 'a re-entrant set ends consistent' failed for HandmadeCell<Int>: "
          + "expected the cell and every observer's last value to be 3; the cell holds 3, "
          + "the observers last saw [A: 3, B: 2, C: 2]") == true)
  }

  @Test func theCheckNeedsTwoDifferentValues() {
    let line = #line + 1
    let failures = recordedFailures { checkObservableLaws({ Observable($0) }, values: [1, 1]) }
    #expect(failures.laws == ["misuse"])
    #expect(failures.locations == [here(line)])
  }

  private func forgetful(_ value: Int) -> HandmadeCell<Int> {
    HandmadeCell(value, flaws: .forgetsWrites)
  }
  private func chatty(_ value: Int) -> HandmadeCell<Int> {
    HandmadeCell(value, flaws: .notifiesEqualSets)
  }
  private func reversed(_ value: Int) -> HandmadeCell<Int> {
    HandmadeCell(value, flaws: .reversesOrder)
  }
  private func uncancellable(_ value: Int) -> HandmadeCell<Int> {
    HandmadeCell(value, flaws: .ignoresCancellation)
  }
  private func stale(_ value: Int) -> HandmadeCell<Int> {
    HandmadeCell(value, flaws: .deliversStaleValues)
  }
}

import POMVVM
import POMVVMTesting
import TestSupport
import Testing

/// A row view model that holds its switch type-erased.
@MainActor
final class ErasedRow: ViewModel, Switchable {
  let on: AnyMutableCell<Bool>

  init(on: some MutableObservableCell<Bool>) {
    self.on = AnyMutableCell(on)
  }
}

@MainActor
@Suite("AnyMutableCell")
struct AnyMutableCellTests {
  @Test func anErasedElementFieldIsASwitchThatKeepsTheLaws() {
    let array = ObservableArray([TestItem(1), TestItem(2)])
    checkSwitchable(
      { ErasedRow(on: array.cell(for: 1, \.on)!) },
      detach: { _ in array.remove(id: 1) })
  }

  @Test func readsWritesAndObservesTheWrappedCell() {
    let wrapped = Observable(false)
    let erased = AnyMutableCell(wrapped)
    let seen = Recorder<Bool>()
    let subscription = erased.observeChanges(seen.handler)
    erased.value = true
    wrapped.value = false
    #expect(erased.set(true))
    #expect(seen.events == [true, false, true])
    #expect(wrapped.value)
    subscription.cancel()
  }

  @Test func aRefusalComesThroughTheErasure() throws {
    let array = ObservableArray([TestItem(1)])
    let erased = try #require(array.cell(for: 1, \.on)).erasedToAnyMutableCell()
    array.remove(id: 1)
    var accepted = true
    let line: UInt = #line + 1
    let reports = Diagnostics.capturingReports { accepted = erased.set(true) }
    #expect(!accepted)
    #expect(reports.map(\.fileID) == [#fileID], "the report names the line that wrote")
    #expect(reports.map(\.line) == [line])
  }

  @Test func cellsDerivedFromAnErasedCellStayGlitchFree() {
    let a = Observable(1)
    let erased = AnyMutableCell(a)
    let sum = combine(.every, erased.map { $0 * 2 }, a.map { $0 * 3 }, initial: 0) { $0 + $1 }
    let seen = Recorder<Int>()
    let subscription = sum.observeChanges(seen.handler)
    a.value = 2
    #expect(seen.events == [10])
    subscription.cancel()
  }

  @Test func wrappingAnErasedCellWrapsWhatItWraps() {
    let wrapped = Observable(0)
    let twice = AnyMutableCell(AnyMutableCell(wrapped))
    #expect(twice.base as AnyObject === wrapped)
  }

  @Test func aTrackerReadingAnErasedCellFiresOnItsChange() {
    let wrapped = Observable(0)
    let erased = AnyMutableCell(wrapped)
    let tracker = track { _ = erased.value }
    erased.value = 0
    #expect(tracker.fired == 0)
    wrapped.value = 1
    #expect(tracker.fired == 1)
  }
}

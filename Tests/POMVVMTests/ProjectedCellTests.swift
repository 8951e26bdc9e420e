import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("ProjectedCell")
struct ProjectedCellTests {
  struct Item: Equatable {
    var text: String
    var on: Bool
  }

  @Test func readsAndWritesTheFieldThroughTheBase() {
    let item = Observable(Item(text: "first", on: false))
    let on = item.projection(\.on)
    #expect(on.value == false)
    #expect(on.set(true))
    #expect(item.value == Item(text: "first", on: true))
    item.value.on = false
    #expect(on.value == false)
  }

  @Test func aRefusedWriteThroughAProjectionNamesTheLineThatWrote() throws {
    let array = ObservableArray([TestItem(1)])
    let on = try #require(array.cell(for: 1, \.on))
    array.remove(id: 1)
    let line: UInt = #line + 1
    let reports = Diagnostics.capturingReports { on.set(true) }
    #expect(reports.map(\.fileID) == [#fileID])
    #expect(reports.map(\.line) == [line])
  }

  @Test func notifiesOnlyWhenTheFieldChanges() {
    let item = Observable(Item(text: "first", on: false))
    let on = item.projection(\.on)
    let recorder = Recorder<Bool>()
    let subscription = on.observe(recorder.handler)
    item.value.text = "edited"
    item.value.on = true
    on.value = true
    on.value = false
    #expect(recorder.events == [false, true, false])
    withExtendedLifetime(subscription) {}
  }

  @Test func bindsBothWaysToAViewCell() {
    let item = Observable(Item(text: "first", on: false))
    let switchCell = Observable(true)
    item.projection(\.on).bidirectionalBind(to: switchCell)
    #expect(switchCell.value == false, "the projection is the receiver: it wins")
    switchCell.value = true
    #expect(item.value.on == true)
    item.value = Item(text: "second", on: false)
    #expect(switchCell.value == false)
  }

  @Test func aProjectionKeptOnlyByItsSubscriptionLivesWithIt() {
    let item = Observable(Item(text: "first", on: false))
    let recorder = Recorder<String>()
    let subscription = item.projection(\.text).observeChanges(recorder.handler)
    item.value.text = "second"
    #expect(recorder.events == ["second"])
    subscription.cancel()
    #expect(item.observerCount == 0)
  }
}

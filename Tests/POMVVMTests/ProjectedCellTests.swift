import Observation
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

// MARK: - Fields that kept their bytes

// A change of the base that leaves a projected field's bytes as they are
// skips the projection's recompute (and its comparison). These pin down
// that nothing else changes: who is told, with what, and when.
extension ProjectedCellTests {
  /// A field whose `==` counts its calls.
  struct Counted: Equatable {
    nonisolated(unsafe) static var comparisons = 0
    var value: Int

    static func == (lhs: Counted, rhs: Counted) -> Bool {
      comparisons += 1
      return lhs.value == rhs.value
    }
  }

  struct Row: Identifiable {
    var id: Int
    var title: String
    var count: Counted
    var ratio: Double
    var on: Bool
  }

  static func makeRows() -> ObservableArray<Row> {
    ObservableArray([
      Row(id: 1, title: "first", count: Counted(value: 0), ratio: 0, on: false),
      Row(id: 2, title: "second", count: Counted(value: 0), ratio: .nan, on: false),
    ])
  }

  @Test func aFieldThatKeptItsBytesIsNotComparedAgainWhenAnotherFieldChanges() throws {
    let rows = Self.makeRows()
    let element = try #require(rows.cell(for: 1))
    let count = element.projection(\.count)
    let seen = Recorder<Int>()
    let subscription = count.observeChanges { seen.record($0.value) }
    Counted.comparisons = 0
    element.value.on.toggle()
    element.value.title = "edited"
    #expect(Counted.comparisons == 0, "the bytes decided: no recompute, no ==")
    element.value.count.value = 5
    #expect(seen.events == [5])
    withExtendedLifetime(subscription) {}
  }

  @Test func onlyTheProjectionsOfTheFieldsThatChangedAreTold() throws {
    let rows = Self.makeRows()
    let element = try #require(rows.cell(for: 1))
    let events = Recorder<String>()
    let subscriptions = [
      element.projection(\.title).observeChanges { events.record("title \($0)") },
      element.projection(\.on).observeChanges { events.record("on \($0)") },
      element.projection(\.title).observeChanges { events.record("title again \($0)") },
    ]
    element.value.on.toggle()
    element.value.title = "edited"
    element.value = Row(id: 1, title: "both", count: Counted(value: 0), ratio: 0, on: false)
    element.value = element.value  // nothing changed: nobody is told
    #expect(
      events.events == [
        "on true", "title edited", "title again edited", "title both", "on false",
        "title again both",
      ])
    #expect(rows[id: 1]?.title == "both")
    withExtendedLifetime(subscriptions) {}
  }

  @Test func anEqualFieldWithOtherBytesIsStillADuplicate() {
    let composed = "caf\u{E9}"
    let decomposed = "cafe\u{301}"
    let item = Observable(Item(text: composed, on: false))
    let text = item.projection(\.text)
    let seen = Recorder<String>()
    let subscription = text.observeChanges(seen.record)
    item.value.text = decomposed  // equal, but not the same bytes: compared, a duplicate
    #expect(seen.events == [])
    item.value.text = "other"
    #expect(seen.events == ["other"])
    withExtendedLifetime(subscription) {}
  }

  @Test func aCellDerivedFromASkippedProjectionStaysCurrent() throws {
    let rows = Self.makeRows()
    let element = try #require(rows.cell(for: 2))
    let title = element.projection(\.title)
    let shouted = title.map { $0.uppercased() }
    let seen = Recorder<String>()
    let subscription = shouted.observeChanges(seen.record)
    element.value.on.toggle()
    #expect(shouted.value == "SECOND")
    element.value.title = "renamed"
    #expect(shouted.value == "RENAMED")
    #expect(seen.events == ["RENAMED"])
    withExtendedLifetime(subscription) {}
  }

  /// A projection nobody observes, reads or tracks takes its field when
  /// the base changes, without a recompute: it reads right, and once it
  /// is observed, its observers are told of the changes after.
  @Test func aProjectionNobodyReadsTakesItsFieldAndIsToldOnceObserved() throws {
    let rows = Self.makeRows()
    let element = try #require(rows.cell(for: 1))
    let on = element.projection(\.on)
    let title = element.projection(\.title)  // not plain bits: recomputed
    // A read arms the cell's Observation registrar, so the change after
    // it goes the old way; the second change after a read is taken.
    for expected in [false, true, false] {
      on.value.toggle()
      element.value.on.toggle()
      on.value.toggle()
      #expect(on.value == !expected)
      #expect(element.value.on == !expected)
    }
    element.value.on = false
    rows.replace(
      at: 0, with: Row(id: 1, title: "new", count: Counted(value: 1), ratio: 0, on: true))
    #expect(on.value == true)
    #expect(title.value == "new")
    let seen = Recorder<Bool>()
    let subscription = on.observeChanges(seen.record)
    element.value.on = false
    on.value = true
    subscription.cancel()
    element.value.on = false
    #expect(seen.events == [false, true])
    #expect(on.value == false)
  }

  /// The same projection once a derived cell reads it or Observation
  /// tracks it goes through the queue again: both hear of the change.
  @Test func aProjectionReadByADerivedCellOrATrackerIsStillTold() throws {
    let rows = Self.makeRows()
    let element = try #require(rows.cell(for: 2))
    let on = element.projection(\.on)
    on.value = true
    let off = on.map { !$0 }
    let seen = Recorder<Bool>()
    let subscription = off.observeChanges(seen.record)
    element.value.on = false
    #expect(seen.events == [true])
    subscription.cancel()
    let fired = Observable(0)
    withObservationTracking(
      { _ = on.value }, onChange: { MainActor.assumeIsolated { fired.value += 1 } })
    element.value.on = true
    #expect(fired.value == 1)
    #expect(off.value == false)
  }

  /// A write through an unobserved projection made while the array
  /// delivers another change (from an observer) leaves it current.
  @Test func aProjectionNobodyReadsIsCurrentAfterAWriteDuringDelivery() throws {
    let rows = Self.makeRows()
    let first = try #require(rows.cell(for: 1, \.on))
    let second = try #require(rows.cell(for: 2, \.on))
    let subscription = rows.observeChanges { _ in
      if second.value == first.value { second.value.toggle() }
    }
    first.value = true
    #expect(second.value == false)
    #expect(rows[1].on == false)
    first.value = false
    #expect(second.value == true)
    #expect(rows[1].on == true)
    withExtendedLifetime(subscription) {}
  }

  @Test func aNotANumberFieldIsNotToldWhenAnotherFieldChanges() throws {
    // `.nan == .nan` is false, so a recompute would call the NaN "changed"
    // on every change of the row; its bytes say it did not change.
    let rows = Self.makeRows()
    let element = try #require(rows.cell(for: 2))
    let ratio = element.projection(\.ratio)
    let seen = Recorder<Double>()
    let subscription = ratio.observeChanges(seen.record)
    element.value.on.toggle()
    #expect(seen.events.isEmpty)
    element.value.ratio = 0.5
    #expect(seen.events == [0.5])
    withExtendedLifetime(subscription) {}
  }

  @Test func aWriteFromAProjectionObserverReachesTheOtherProjections() throws {
    let rows = Self.makeRows()
    let element = try #require(rows.cell(for: 1))
    let title = element.projection(\.title)
    let on = element.projection(\.on)
    let events = Recorder<String>()
    let subscriptions = [
      on.observeChanges { isOn in
        events.record("on \(isOn)")
        if isOn { title.value = "switched on" }  // re-entrant write
      },
      title.observeChanges { events.record("title \($0)") },
    ]
    on.value = true
    #expect(events.events == ["on true", "title switched on"])
    #expect(rows[id: 1]?.title == "switched on" && rows[id: 1]?.on == true)
    on.value = false
    #expect(events.events.last == "on false")
    #expect(title.value == "switched on")
    withExtendedLifetime(subscriptions) {}
  }

  @Test func aToggleDuringDeliveryTellsOnlyTheFieldItChanged() throws {
    let rows = Self.makeRows()
    let element = try #require(rows.cell(for: 1))
    let on = element.projection(\.on)
    let events = Recorder<String>()
    var toggledBack = false
    let subscriptions = [
      rows.observeChanges { _ in
        if !toggledBack {
          toggledBack = true
          on.value.toggle()
        }
      },
      on.observeChanges { events.record("on \($0)") },
      element.projection(\.title).observeChanges { events.record("title \($0)") },
    ]
    on.value.toggle()
    #expect(events.events.last == "on false")
    #expect(!events.events.contains { $0.hasPrefix("title") })
    #expect(on.value == false && rows[id: 1]?.on == false)
    withExtendedLifetime(subscriptions) {}
  }

  @Test func theProjectionsOfARemovedElementKeepTheirLastValues() throws {
    let rows = Self.makeRows()
    let element = try #require(rows.cell(for: 1))
    let title = element.projection(\.title)
    let on = element.projection(\.on)
    let events = Recorder<String>()
    let subscriptions = [
      title.observeChanges { events.record("title \($0)") },
      on.observeChanges { events.record("on \($0)") },
    ]
    on.value = true
    rows.remove(id: 1)
    let reports = Diagnostics.capturing { on.value = false }
    #expect(reports.count == 1 && reports[0].contains("refused"), "\(reports)")
    #expect(events.events == ["on true"])
    #expect(on.value == true && title.value == "first")
    withExtendedLifetime(subscriptions) {}
  }
}

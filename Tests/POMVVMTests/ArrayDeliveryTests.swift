import POMVVM
import TestSupport
import Testing

/// The order and consistency of an array change's delivery: aggregates and
/// cells before observers, and aggregates or cells made in the middle of a
/// delivery.
@MainActor
@Suite("Array delivery")
struct ArrayDeliveryTests {
  static func makeArray() -> ObservableArray<TestItem> {
    ObservableArray((1...6).map { TestItem($0, "item \($0)") })
  }

  @Test func everyObserverOfAChangeReadsTheUpdatedCount() throws {
    let array = Self.makeArray()
    let openCount = array.liveCount(where: \.on)
    let cell = try #require(array.cell(for: 2))
    let on = try #require(array.cell(for: 2, \.on))
    let detailOn = try #require(array.cell(for: 2, \.on))
    let reads = Recorder<String>()
    // Subscribed before the count's own observer: they still read the new count.
    let subscriptions = [
      cell.observeChanges { _ in reads.record("cell \(openCount.value)") },
      on.observeChanges { _ in reads.record("row \(openCount.value)") },
      array.observeChanges { _ in reads.record("array \(openCount.value)") },
      openCount.observeChanges { reads.record("count \($0)") },
      detailOn.observeChanges { _ in reads.record("detail \(openCount.value)") },
    ]
    on.value = true
    #expect(
      reads.events == ["cell 1", "count 1", "array 1", "row 1", "detail 1"],
      "cells and aggregates first, then the array's observers, then projections")
    withExtendedLifetime(subscriptions) {}
  }

  @Test func aCountMadeDuringADeliveryCountsAQueuedChangeOnce() {
    let array = Self.makeArray()
    var count: ArrayCount<TestItem>?
    let seen = Recorder<Int>()
    var subscription: Subscription?
    let trigger = array.observeChanges { change in
      guard change.changeSet.insertions.isEmpty, count == nil else { return }
      array.append(TestItem(7, "new", on: true))  // queued behind this change
      let made = array.liveCount(where: \.on)
      count = made
      subscription = made.observeChanges(seen.handler)
    }
    array.update(TestItem(1, "item 1", on: true))
    #expect(count?.value == 2, "item 1 and item 7, each once")
    #expect(seen.events == [], "the count already included the queued append")
    trigger.cancel()
    withExtendedLifetime(subscription) {}
  }

  @Test func aCellAskedForDuringADeliveryFollowsTheReinsertedElement() throws {
    let array = Self.makeArray()
    let old = try #require(array.cell(for: 5))
    var fresh: ElementCell<TestItem>?
    let trigger = array.observeChanges { change in
      guard fresh == nil, !change.changeSet.updates.isEmpty else { return }
      array.remove(id: 5)
      array.append(TestItem(5, "again"))
      fresh = array.cell(for: 5)
    }
    array.update(TestItem(1, "edited"))
    let cell = try #require(fresh)
    #expect(!cell.isDetached)
    #expect(cell.value == TestItem(5, "again"))
    #expect(cell !== old)
    #expect(old.isDetached)
    #expect(old.detachment.value)
    cell.value.text = "written"
    #expect(array[id: 5]?.text == "written")
    trigger.cancel()
  }

  /// Elements that are not `Equatable` are told on every update, so a
  /// queued update delivered again to a cell that already holds it would
  /// show.
  @Test func aCellMadeDuringADeliverySkipsTheQueuedChangesItReflects() throws {
    struct Note: Identifiable {
      var id: Int
      var text: String
    }
    let array = ObservableArray([Note(id: 1, text: "a"), Note(id: 2, text: "x")])
    var fresh: ElementCell<Note>?
    var seen: [String] = []
    var observation: Subscription?
    let trigger = array.observeChanges { _ in
      guard fresh == nil else { return }
      array.update(Note(id: 1, text: "b"))  // queued behind this change
      fresh = array.cell(for: 1)
      observation = fresh?.observeChanges { seen.append($0.text) }
    }
    array.update(Note(id: 2, text: "y"))
    let cell = try #require(fresh)
    #expect(cell.value.text == "b")
    #expect(seen.isEmpty, "the queued update was already in the cell")
    array.update(Note(id: 1, text: "c"))
    #expect(seen == ["c"], "a later change reaches it")
    trigger.cancel()
    observation?.cancel()
  }

  @Test func aCellIsDetachedFromTheMutationThatRemovedItsElement() throws {
    let array = Self.makeArray()
    let cell = try #require(array.cell(for: 3))
    let detachments = Recorder<Bool>()
    let detachment = cell.detachment.observeChanges(detachments.handler)
    var states: [Bool] = []
    var accepted: Bool?
    var reports: [String] = []
    let trigger = array.observeChanges { change in
      guard accepted == nil else { return }
      array.remove(id: 3)  // delivered after this change
      states.append(cell.isDetached)
      reports = Diagnostics.capturing { accepted = cell.set(TestItem(3, "ghost")) }
      states.append(detachments.events.isEmpty)
    }
    array.update(TestItem(1, "edited"))
    #expect(states == [true, true], "detached at once, told when the removal is delivered")
    #expect(accepted == false)
    #expect(reports.count == 1)
    #expect(detachments.events == [true])
    #expect(array[id: 3] == nil)
    trigger.cancel()
    detachment.cancel()
  }

  @Test func aRemovedElementsLastValueReachesItsCellBeforeDetachment() throws {
    let array = Self.makeArray()
    let cell = try #require(array.cell(for: 4))
    let seen = Recorder<String>()
    let subscriptions = [
      cell.observeChanges { seen.record("value \($0.text)") },
      cell.detachment.observeChanges { seen.record("detached \($0)") },
    ]
    let trigger = array.observeChanges { change in
      guard change.changeSet.removals.isEmpty, array[id: 4] != nil else { return }
      array.update(TestItem(4, "last words"))
      array.remove(id: 4)
    }
    array.update(TestItem(1, "edited"))
    #expect(seen.events == ["value last words", "detached true"])
    #expect(cell.value.text == "last words")
    trigger.cancel()
    withExtendedLifetime(subscriptions) {}
  }

  @Test func replaceAllOfNonEquatableElementsThatOnlyMovedIsAReload() {
    struct Plain: Identifiable {
      var id: Int
    }
    let array = ObservableArray((0..<4).map { Plain(id: $0) })
    let changes = Recorder<ChangeSet<Plain>>()
    let subscription = array.observeChanges { changes.record($0.changeSet) }
    array.replaceAll(with: [3, 2, 1, 0].map { Plain(id: $0) })
    // Values that cannot be compared are updates wherever they stay; with
    // the moves, that is more than the array, so the change is a reload.
    #expect(changes.events.map(\.isReload) == [true])
    #expect(array.map(\.id) == [3, 2, 1, 0])
    subscription.cancel()
  }
}

import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("ElementCell")
struct ElementCellTests {
  static func makeArray() -> ObservableArray<TestItem> {
    ObservableArray([TestItem(1, "first"), TestItem(2, "second"), TestItem(3, "third")])
  }

  @Test func writesGoThroughToTheArrayAsAnUpdate() throws {
    let array = Self.makeArray()
    let changes = Recorder<String>()
    let subscription = array.observeChanges { changes.record($0.changeSet.description) }
    let cell = try #require(array.cell(for: 2))
    #expect(cell.set(TestItem(2, "edited")))
    cell.value.on = true
    #expect(array[id: 2] == TestItem(2, "edited", on: true))
    #expect(changes.events == ["update [1]", "update [1]"])
    withExtendedLifetime(subscription) {}
  }

  @Test func otherChangesToTheElementReachTheCell() throws {
    let array = Self.makeArray()
    let cell = try #require(array.cell(for: 3))
    let seen = Recorder<String>()
    let subscription = cell.observeChanges { seen.record($0.text) }
    array.insert(TestItem(0, "zero"), at: 0)  // shifts the element; not a change of it
    array.update(TestItem(3, "a"))
    array.replaceAll(with: [TestItem(3, "b"), TestItem(1, "first")])
    array.batch { $0[0].text = "c" }
    #expect(seen.events == ["a", "b", "c"])
    #expect(cell.value.text == "c")
    withExtendedLifetime(subscription) {}
  }

  @Test func everyoneAskingForAnIdSharesOneCell() throws {
    let array = Self.makeArray()
    let row = try #require(array.cell(for: 1))
    let detail = try #require(array.cell(for: 1))
    #expect(row === detail)
    #expect(array.cell(for: 99) == nil)
  }

  @Test func aFieldCellEditsOneField() throws {
    let array = Self.makeArray()
    let on = try #require(array.cell(for: 1, \.on))
    let text = try #require(array.cell(for: 1, \.text))
    on.value = true
    text.value = "renamed"
    #expect(array[id: 1] == TestItem(1, "renamed", on: true))
    #expect(array.cell(for: 9, \.on) == nil)
  }

  /// Each way an element can leave its array.
  nonisolated static let removals: [(String, @MainActor (ObservableArray<TestItem>) -> Void)] = [
    ("remove(id:)", { $0.remove(id: 2) }),
    ("remove(at:)", { $0.remove(at: 1) }),
    ("removeAll()", { $0.removeAll() }),
    ("reload without it", { $0.replaceAll(with: [TestItem(7), TestItem(8), TestItem(9)]) }),
    ("diff without it", { $0.replaceAll(with: [TestItem(1, "first"), TestItem(3, "third")]) }),
    ("batch removing it", { array in array.batch { $0.removeAll { $0.id == 2 } } }),
    ("replaced by another id", { $0.replace(at: 1, with: TestItem(20)) }),
  ]

  @Test(arguments: 0..<removals.count)
  func removingTheElementDetachesItsCell(removal: Int) throws {
    let (name, remove) = Self.removals[removal]
    let array = Self.makeArray()
    let cell = try #require(array.cell(for: 2))
    let on = try #require(array.cell(for: 2, \.on))
    let detachments = Recorder<Bool>()
    let values = Recorder<String>()
    let subscriptions = [
      cell.detachment.observeChanges(detachments.handler),
      cell.observeChanges { values.record($0.text) },
    ]
    remove(array)
    #expect(cell.isDetached, "\(name)")
    #expect(detachments.events == [true], "observers told exactly once: \(name)")
    #expect(cell.value == TestItem(2, "second"), "the last value stays readable: \(name)")
    let before = array.elements
    var accepted = true
    let reports = Diagnostics.capturing {
      accepted = cell.set(TestItem(2, "ghost"))
      cell.value.text = "ghost"
      accepted = accepted || on.set(true)
    }
    #expect(!accepted, "\(name)")
    #expect(reports.count == 3, "\(name): \(reports)")
    #expect(reports.allSatisfy { $0.contains("id 2") && $0.contains("refused") })
    #expect(array.elements == before, "no ghost element: \(name)")
    #expect(cell.value == TestItem(2, "second"), "\(name)")
    #expect(values.events == [], "\(name)")
    withExtendedLifetime(subscriptions) {}
  }

  @Test func aReinsertedIdDoesNotReattachTheOldCell() throws {
    let array = Self.makeArray()
    let old = try #require(array.cell(for: 2))
    array.remove(id: 2)
    array.append(TestItem(2, "back"))
    #expect(old.isDetached)
    #expect(old.value.text == "second")
    let fresh = try #require(array.cell(for: 2))
    #expect(fresh !== old)
    #expect(fresh.value.text == "back")
    #expect(fresh.set(TestItem(2, "edited")))
    #expect(old.value.text == "second")
  }

  @Test func aWriteWithAnotherIdIsRefused() throws {
    let array = Self.makeArray()
    let cell = try #require(array.cell(for: 1))
    let reports = Diagnostics.capturing {
      #expect(!cell.set(TestItem(2, "impostor")))
    }
    #expect(reports == ["write refused: the cell for id 1 cannot take an element with id 2"])
    #expect(array.elements == Self.makeArray().elements)
  }

  @Test func aRefusedWriteNamesTheLineThatWrote() throws {
    let array = Self.makeArray()
    let cell = try #require(array.cell(for: 2))
    array.remove(id: 2)
    let line: UInt = #line + 2
    let reports = Diagnostics.capturingReports {
      cell.set(TestItem(2, "ghost"))
      cell.value.text = "ghost"
    }
    #expect(
      reports.first
        == Diagnostics.Report(
          "write refused: the element with id 2 was removed from its array; "
            + "its cell is detached and keeps the last value", fileID: #fileID, line: line))
    // A property setter cannot take its caller's location: it names the
    // cell, never the kit.
    #expect(reports.dropFirst().map(\.culprit) == [.cell])
    #expect(reports.dropFirst().map(\.fileID) == [""])
  }

  @Test func aWriteWithAnotherIdNamesTheLineThatWrote() throws {
    let array = Self.makeArray()
    let cell = try #require(array.cell(for: 1))
    let line: UInt = #line + 1
    let reports = Diagnostics.capturingReports { cell.set(TestItem(2, "impostor")) }
    #expect(
      reports.map(\.description) == [
        "write refused: the cell for id 1 cannot take an element with id 2 "
          + "(at POMVVMTests/ElementCellTests.swift:\(line))"
      ])
  }

  @Test func aDetachedCellInAListRowAndADetailStaysSafe() throws {
    // The classic crash: a detail edits an element that the list deleted.
    let array = Self.makeArray()
    let detail = try #require(array.cell(for: 3, \.text))
    let rowOn = try #require(array.cell(for: 3, \.on))
    array.remove(at: 2)
    let reports = Diagnostics.capturing {
      detail.value = "edited after delete"
      rowOn.value = true
    }
    #expect(reports.count == 2)
    #expect(detail.base.isDetached)
    #expect(array.map(\.id) == [1, 2])
  }

  @Test func cellsAndTheirObserversAreReleasedWhenTheirTokensGo() throws {
    let array = Self.makeArray()
    weak var weakCell: ElementCell<TestItem>?
    weak var weakProbe: Probe?
    var subscription: Subscription?
    do {
      let probe = Probe()
      weakProbe = probe
      let cell = try #require(array.cell(for: 1))
      weakCell = cell
      subscription = cell.observeChanges { _ in probe.count += 1 }
    }
    array.update(TestItem(1, "edited"))
    #expect(weakProbe?.count == 1)
    #expect(weakCell != nil, "the subscription keeps the cell")
    #expect(subscription != nil)
    subscription = nil
    #expect(weakCell == nil)
    #expect(weakProbe == nil)
    let next = try #require(array.cell(for: 1))
    #expect(next.value.text == "edited")
  }

  @Test func aCellKeepsItsArrayAlive() throws {
    var array: ObservableArray<TestItem>? = Self.makeArray()
    weak let weakArray = array
    let cell = try #require(array?.cell(for: 1))
    array = nil
    #expect(weakArray != nil)
    #expect(cell.set(TestItem(1, "still works")))
    #expect(weakArray?[id: 1]?.text == "still works")
  }

  @Test func twoWayBindingOfAFieldToAViewCell() throws {
    let array = Self.makeArray()
    let switchCell = Observable(true)
    let token = try #require(array.cell(for: 1, \.on)).bidirectionalBind(to: switchCell)
    #expect(switchCell.value == false)
    switchCell.value = true
    #expect(array[id: 1]?.on == true)
    array.remove(id: 1)
    let reports = Diagnostics.capturing { switchCell.value = false }
    #expect(reports.count == 1, "the write into the detached element is refused and reported")
    #expect(switchCell.value == true, "the view cell snaps back to the stored value")
    withExtendedLifetime(token) {}
  }

  @Test func aOneWayBindingIntoARemovedElementLeavesTheSourceAlone() throws {
    let array = Self.makeArray()
    let source = Observable("draft")
    let token = source.bind(to: try #require(array.cell(for: 1, \.text)))
    #expect(array[id: 1]?.text == "draft")
    array.remove(id: 1)
    let reports = Diagnostics.capturing { source.value = "later" }
    #expect(reports.count == 1)
    #expect(source.value == "later", "a one-way source is not overwritten by its target")
    withExtendedLifetime(token) {}
  }

  /// The array keeps its cells weakly; a released cell's slot is reused or
  /// dropped, and the id gets a new, working cell.
  @Test func releasedCellsAreReplacedByNewOnes() async throws {
    let array = ObservableArray((0..<1_000).map { TestItem($0) })
    var weakCells: [() -> ElementCell<TestItem>?] = []
    do {
      let cells = (0..<1_000).compactMap { array.cell(for: $0) }
      for cell in cells { weakCells.append { [weak cell] in cell } }
      #expect(array.cell(for: 7) === cells[7])
    }
    #expect(weakCells.allSatisfy { $0() == nil })
    let cell = try #require(array.cell(for: 7))
    #expect(cell.set(TestItem(7, "again")))
    #expect(array[id: 7]?.text == "again")
    #expect(array.cell(for: 7) === cell)
  }

  /// A cell whose last reference goes on another thread is deinitialized on
  /// the main actor later; meanwhile the array hands out a new cell.
  @Test func aCellReleasedOffTheMainActorIsNotHandedOutAgain() async throws {
    let array = ObservableArray((0..<4).map { TestItem($0) })
    weak var released: ElementCell<TestItem>?
    do {
      let cell = try #require(array.cell(for: 2))
      released = cell
      await Task.detached { withExtendedLifetime(cell) {} }.value
    }
    let fresh = try #require(array.cell(for: 2))
    #expect(fresh !== released)
    #expect(fresh.set(TestItem(2, "written")))
    #expect(array[id: 2]?.text == "written")
  }

  @Test func theDetachmentCellLivesOnlyWhileSomeoneHoldsIt() throws {
    let array = Self.makeArray()
    let cell = try #require(array.cell(for: 2))
    weak var released: Derived<Bool>?
    do {
      let detachment = cell.detachment
      released = detachment
      #expect(!detachment.value)
    }
    // The element cell does not keep it: a detail screen that closes
    // leaves nothing behind in the graph.
    #expect(released == nil)
    withExtendedLifetime(cell) {}
  }

  @Test func aDetachmentSubscriptionFiresThoughNothingElseHoldsTheElementCell() throws {
    let array = Self.makeArray()
    let detachments = Recorder<Bool>()
    weak var weakCell: ElementCell<TestItem>?
    var subscription: Subscription?
    do {
      let cell = try #require(array.cell(for: 2))
      weakCell = cell
      subscription = cell.detachment.observeChanges(detachments.handler)
    }
    // The subscription keeps the detachment cell, which keeps the element
    // cell that tells it.
    #expect(weakCell != nil)
    array.remove(id: 2)
    #expect(detachments.events == [true])
    #expect(subscription != nil)
    subscription = nil
    #expect(weakCell == nil, "released with its last subscription")
  }

  @Test func aDetachmentCellMadeAgainTellsTheTruth() throws {
    let array = Self.makeArray()
    let cell = try #require(array.cell(for: 2))
    let detachments = Recorder<Bool>()
    var subscription: Subscription? = cell.detachment.observeChanges(detachments.handler)
    // Held by its subscription, it is the one asked for again.
    #expect(!cell.detachment.value)
    array.remove(id: 2)
    #expect(detachments.events == [true])
    #expect(cell.detachment.value)
    subscription = nil
    // Released, then asked for again after the removal: made again, detached.
    #expect(cell.detachment.value)
    let later = try #require(array.cell(for: 1))
    do { _ = later.detachment }
    array.remove(id: 1)
    #expect(later.detachment.value)
    withExtendedLifetime(subscription) {}
  }
}

// MARK: - The write fast path

// A write through a cell reuses the array's one-update buffer, starts from
// the index of the cell's last write, and updates the writing cell without
// looking its id up: these pin down the cases where each of those could go
// wrong.
extension ElementCellTests {
  /// "old→new" for every update of every recorded change.
  static func toggles(_ changes: [ArrayChange<TestItem>]) -> [String] {
    changes.flatMap { change in
      change.changeSet.updates.map { "\($0.oldElement.on)→\($0.newElement.on)" }
    }
  }

  @Test func aToggleDuringDeliveryIsDeliveredAfterItWithItsOwnChangeSet() throws {
    let array = Self.makeArray()
    let on = try #require(array.cell(for: 2, \.on))
    let changes = Recorder<ArrayChange<TestItem>>()
    let seen = Recorder<Bool>()
    var toggledBack = false
    let subscriptions = [
      array.observeChanges { change in
        changes.record(change)
        if !toggledBack {
          toggledBack = true
          on.value.toggle()
          #expect(array[id: 2]?.on == false, "the nested write takes effect at once")
        }
      },
      on.observeChanges { seen.record($0) },
    ]
    on.value.toggle()
    #expect(Self.toggles(changes.events) == ["false→true", "true→false"])
    #expect(changes.events.map { $0.newElements[1].on } == [true, false])
    #expect(seen.events.last == false, "the last value seen is the cell's value")
    #expect(on.value == false)
    #expect(array[id: 2]?.on == false)
    withExtendedLifetime(subscriptions) {}
  }

  @Test func aChangeSetKeptByAnObserverIsNotReusedByTheNextToggle() throws {
    let array = Self.makeArray()
    let on = try #require(array.cell(for: 3, \.on))
    let changes = Recorder<ArrayChange<TestItem>>()
    let subscription = array.observeChanges { changes.record($0) }
    on.value.toggle()
    on.value.toggle()
    on.value.toggle()
    #expect(Self.toggles(changes.events) == ["false→true", "true→false", "false→true"])
    #expect(changes.events.map(\.changeSet.description) == Array(repeating: "update [2]", count: 3))
    withExtendedLifetime(subscription) {}
  }

  @Test func aToggleOfADetachedCellIsRefusedAndReachesNoNewCell() throws {
    let array = Self.makeArray()
    let oldOn = try #require(array.cell(for: 2, \.on))
    oldOn.value.toggle()
    array.remove(id: 2)
    array.insert(TestItem(2, "back"), at: 0)
    let fresh = try #require(array.cell(for: 2))
    let freshValues = Recorder<Bool>()
    let oldValues = Recorder<Bool>()
    let subscriptions = [
      fresh.observeChanges { freshValues.record($0.on) },
      oldOn.observeChanges { oldValues.record($0) },
    ]
    let reports = Diagnostics.capturing { oldOn.value.toggle() }
    #expect(reports.count == 1 && reports[0].contains("refused"), "\(reports)")
    #expect(array[id: 2] == TestItem(2, "back"))
    fresh.value.on.toggle()
    #expect(freshValues.events == [true])
    #expect(oldValues.events == [], "the detached cell is not the one updated")
    #expect(oldOn.value == true, "it keeps its last value")
    withExtendedLifetime(subscriptions) {}
  }

  @Test func aToggleAfterInsertionsAboveTheElementWritesTheRightElement() throws {
    let array = Self.makeArray()
    let on = try #require(array.cell(for: 3, \.on))
    on.value.toggle()  // the cell remembers index 2
    array.insert(TestItem(10, "above"), at: 0)
    array.insert(TestItem(11, "above"), at: 0)
    array.remove(id: 1)
    on.value.toggle()
    #expect(
      array.elements.map(\.description) == ["11:above-", "10:above-", "2:second-", "3:third-"])
    on.value.toggle()
    #expect(array[id: 3]?.on == true)
    #expect(array[id: 2]?.on == false)
  }

  @Test func aToggleThroughACellMovesItsRowInASortedQuery() throws {
    let array = Self.makeArray()
    let query = array.query(sortedBy: { ($0.on ? 0 : 1, $0.id) < ($1.on ? 0 : 1, $1.id) })
    let moves = Recorder<String>()
    let subscription = query.observeChanges { moves.record($0.changeSet.description) }
    let on = try #require(array.cell(for: 3, \.on))
    on.value.toggle()
    #expect(query.ids == [3, 1, 2])
    on.value.toggle()
    #expect(query.ids == [1, 2, 3])
    #expect(moves.events.count == 2)
    withExtendedLifetime(subscription) {}
  }
}

// MARK: - Unretained references during a write

// The writing cell, and an aggregate the array calls, are used without a
// retain while a write is delivered: these release what an observer can
// release during it.
extension ElementCellTests {
  @Test func aCountReleasedByAnObserverDuringAToggleIsStillToldAndThenSkipped() throws {
    let array = Self.makeArray()
    var count: ArrayCount<TestItem>? = array.liveCount(where: \.on)
    let counts = Recorder<Int>()
    var countSubscription: Subscription? = count?.observeChanges { counts.record($0) }
    let element = try #require(array.cell(for: 2))
    let subscription = element.observeChanges { _ in
      // The count is touched by this change too; drop every hold on it.
      countSubscription = nil
      count = nil
    }
    element.value.on.toggle()
    #expect(count == nil && countSubscription == nil)
    element.value.on.toggle()
    #expect(array[id: 2]?.on == false)
    #expect(counts.events.count <= 1, "told at most once, for the change it was touched by")
    withExtendedLifetime(subscription) {}
  }

  @Test func aCellWhoseLastHolderIsDroppedByItsObserverFinishesItsWrite() throws {
    let array = Self.makeArray()
    var element = array.cell(for: 3)
    #expect(element != nil)
    let seen = Recorder<Bool>()
    var subscription: Subscription?
    subscription = element?.observeChanges { value in
      seen.record(value.on)
      subscription = nil  // the subscription kept the cell: it goes
      element = nil
    }
    element?.value.on.toggle()
    #expect(seen.events == [true])
    #expect(element == nil && subscription == nil)
    #expect(array[id: 3]?.on == true)
    let again = try #require(array.cell(for: 3))
    again.value.on.toggle()
    #expect(array[id: 3]?.on == false)
  }
}

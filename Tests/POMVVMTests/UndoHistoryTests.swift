import POMVVM
import POMVVMTesting
import TestSupport
import Testing

private struct Refusal: Error {}

/// The README's example element.
private struct Note: Identifiable, Equatable {
  var id: Int
  var text: String
}

@MainActor
@Suite("UndoHistory")
struct UndoHistoryTests {
  static func makeArray() -> ObservableArray<TestItem> {
    ObservableArray([TestItem(1, "first"), TestItem(2, "second"), TestItem(3, "third")])
  }

  // MARK: - Undo and redo

  /// The README's example, line for line.
  @Test func theReadmeExample() {
    let notes = ObservableArray([Note(id: 1, text: "milk")])
    let history = UndoHistory()
    history.track(notes, actionName: "Edit")
    history.transaction("Rename") {
      notes.cell(for: 1)?.value.text = "oat milk"
    }
    #expect(history.undoActionName.value == "Rename")
    #expect(history.undo())
    #expect(notes[id: 1]?.text == "milk")
    #expect(history.canRedo.value)
    #expect(history.redo())
    #expect(notes[id: 1]?.text == "oat milk")
  }

  @Test func undoesAndRedoesEachKindOfChangeThroughOrdinaryChanges() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    var states = [array.elements]
    array.insert(TestItem(4, "fourth"), at: 1)
    states.append(array.elements)
    history.stopMerging()
    array.update(TestItem(2, "edited", on: true))
    states.append(array.elements)
    array.move(from: 0, to: 3)
    states.append(array.elements)
    array.remove(at: 2)
    states.append(array.elements)
    array.replaceAll(with: [TestItem(3, "third"), TestItem(5, "fifth"), TestItem(1, "one")])
    states.append(array.elements)
    #expect(history.undoCount == 5)

    let seen = Recorder<String>()
    let subscription = array.observeChanges { seen.record($0.changeSet.description) }
    for state in states.reversed().dropFirst() {
      #expect(history.undo())
      #expect(array.elements == state)
    }
    #expect(!history.undo())
    #expect(array.elements == states[0])
    for state in states.dropFirst() {
      #expect(history.redo())
      #expect(array.elements == state)
    }
    #expect(!history.redo())
    #expect(
      seen.events == [
        // Undoing and redoing the three-element replacement diffs to a reload.
        "reload 3", "insert [2]", "move [3->0]", "update [2]", "remove [1]",
        "insert [1]", "update [2]", "move [0->3]", "remove [2]", "reload 3",
      ])
    withExtendedLifetime(subscription) {}
  }

  @Test func withNothingToTakeBackUndoAndRedoReturnFalseAndChangeNothing() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    let seen = Recorder<String>()
    let subscription = array.observeChanges { seen.record($0.changeSet.description) }
    let reports = Diagnostics.capturing {
      #expect(!history.undo())
      #expect(!history.redo())
    }
    #expect(reports.isEmpty)
    #expect(seen.events.isEmpty)
    #expect(array.elements == Self.makeArray().elements)
    withExtendedLifetime(subscription) {}
  }

  @Test func aNewChangeClearsTheRedoSteps() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    array.append(TestItem(4))
    array.append(TestItem(5))
    #expect(history.undo())
    #expect(history.redoCount == 1)
    array.remove(at: 0)
    #expect(history.redoCount == 0)
    #expect(!history.redo())
    #expect(array.map(\.id) == [2, 3, 4])
  }

  @Test func undoAndRedoOfAStoredCell() {
    let name = Observable("a")
    let history = UndoHistory()
    history.track(name)
    name.value = "b"
    history.stopMerging()
    name.value = "c"
    #expect(history.undo())
    #expect(name.value == "b")
    #expect(history.undo())
    #expect(name.value == "a")
    #expect(!history.undo())
    #expect(history.redo())
    #expect(name.value == "b")
  }

  @Test func writesThroughElementCellsAndFieldProjectionsAreRecorded() throws {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    let on = try #require(array.cell(for: 2, \.on))
    let cell = try #require(array.cell(for: 3))
    on.value = true
    cell.value.text = "edited"
    #expect(history.undoCount == 2)
    #expect(history.undo())
    #expect(cell.value.text == "third")
    #expect(history.undo())
    #expect(on.value == false)
    #expect(array.elements == Self.makeArray().elements)
  }

  @Test func aggregatesAndElementCellsFollowUndo() throws {
    let array = Self.makeArray()
    let open = array.liveCount(where: \.on)
    let history = UndoHistory()
    history.track(array)
    let cell = try #require(array.cell(for: 1))
    cell.value.on = true
    history.stopMerging()
    array.update(TestItem(2, "second", on: true))
    #expect(open.value == 2)
    #expect(history.undo())
    #expect(history.undo())
    #expect(open.value == 0)
    #expect(cell.value == TestItem(1, "first"))
    #expect(!cell.isDetached)
  }

  // MARK: - Merging

  @Test func changesOfOneElementWithinTheWindowAreOneStep() async throws {
    let time = ManualClock()
    let array = Self.makeArray()
    let history = UndoHistory(mergeWindow: .seconds(1), clock: time)
    history.track(array, actionName: "Typing")
    let cell = try #require(array.cell(for: 2))
    for text in ["s", "se", "sec"] {
      cell.value.text = text
      await time.advance(by: .milliseconds(900))
    }
    #expect(history.undoCount == 1)
    await time.advance(by: .milliseconds(200))  // 1.1 s after the last change
    cell.value.text = "sec!"
    #expect(history.undoCount == 2)
    #expect(history.undo())
    #expect(cell.value.text == "sec")
    #expect(history.undo())
    #expect(cell.value.text == "second")
    #expect(history.redo())
    #expect(cell.value.text == "sec")
  }

  @Test func aBurstOfAThousandEditsOfOneElementHoldsOneStep() async throws {
    let time = ManualClock()
    let array = Self.makeArray()
    let history = UndoHistory(clock: time)
    history.track(array)
    let on = try #require(array.cell(for: 1, \.on))
    for _ in 0..<1_000 {
      on.value.toggle()
      await time.advance(by: .milliseconds(50))
    }
    #expect(history.undoCount == 1)
    #expect(history.undo())
    #expect(array.elements == Self.makeArray().elements)
    #expect(history.undoCount == 0)
  }

  @Test func changesOfDifferentElementsAreSeparateSteps() async throws {
    let time = ManualClock()
    let array = Self.makeArray()
    let history = UndoHistory(clock: time)
    history.track(array)
    try #require(array.cell(for: 1)).value.text = "a"
    try #require(array.cell(for: 2)).value.text = "b"
    try #require(array.cell(for: 1)).value.text = "c"
    #expect(history.undoCount == 3)
  }

  @Test func stopMergingEndsTheStepEarly() async throws {
    let time = ManualClock()
    let array = Self.makeArray()
    let name = Observable("")
    let history = UndoHistory(clock: time)
    history.track(array)
    history.track(name)
    let cell = try #require(array.cell(for: 1))
    cell.value.text = "a"
    cell.value.text = "ab"
    history.stopMerging()
    cell.value.text = "abc"
    name.value = "x"
    name.value = "xy"
    history.stopMerging()
    name.value = "xyz"
    #expect(history.undoCount == 4)
    #expect(history.undo())
    #expect(name.value == "xy")
    #expect(history.undo())
    #expect(name.value == "")
    #expect(history.undo())
    #expect(cell.value.text == "ab")
  }

  @Test func undoEndsTheStepThatTheNextChangeWouldJoin() async throws {
    let time = ManualClock()
    let array = Self.makeArray()
    let history = UndoHistory(clock: time)
    history.track(array)
    let cell = try #require(array.cell(for: 1))
    cell.value.text = "a"
    history.stopMerging()
    cell.value.text = "ab"
    #expect(history.undo())
    cell.value.text = "ax"
    #expect(history.undoCount == 2)
    #expect(history.undo())
    #expect(cell.value.text == "a")
  }

  // MARK: - Limit

  @Test func theLimitDropsTheOldestSteps() {
    let array = ObservableArray<TestItem>()
    let history = UndoHistory(limit: 3)
    history.track(array)
    for id in 1...5 {
      array.append(TestItem(id))
    }
    #expect(history.undoCount == 3)
    while history.undo() {}
    #expect(array.map(\.id) == [1, 2])
    history.limit = 1
    #expect(history.undoCount == 0)
    #expect(history.redoCount == 3)
    while history.redo() {}
    #expect(array.map(\.id) == [1, 2, 3, 4, 5])
    #expect(history.undoCount == 1)
    history.limit = 0
    array.append(TestItem(6))
    #expect(history.undoCount == 0)
    #expect(!history.canUndo.value)
    #expect(UndoHistory().limit == 100)
  }

  @Test func atTheLimitTheStepThatGoesMakesRoomForTheOneThatComes() {
    let name = Observable("a")
    let array = Self.makeArray()
    let history = UndoHistory(limit: 2)
    history.track(name, actionName: "Name")
    history.track(array, actionName: "Items")
    for value in ["b", "c", "d"] {
      history.stopMerging()
      name.value = value
    }
    array.append(TestItem(4))  // the oldest step is of the cell: not reused
    history.stopMerging()
    name.value = "e"
    #expect(history.undoCount == 2)
    #expect(history.undoActionName.value == "Name")
    #expect(history.undo())
    #expect(name.value == "d")
    #expect(history.undoActionName.value == "Items")
    #expect(history.undo())
    #expect(array.count == 3)
    #expect(!history.undo())
    #expect(history.redo())
    #expect(history.redo())
    #expect(name.value == "e")
    #expect(array.count == 4)
  }

  @Test func removingAllStepsForgetsUndoAndRedoButKeepsTracking() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    array.append(TestItem(4))
    array.append(TestItem(5))
    #expect(history.undo())
    history.removeAllSteps()
    #expect(!history.canUndo.value && !history.canRedo.value)
    #expect(!history.undo() && !history.redo())
    #expect(array.map(\.id) == [1, 2, 3, 4])
    array.remove(at: 0)
    #expect(history.undo())
    #expect(array.map(\.id) == [1, 2, 3, 4])
  }

  // MARK: - Not recording

  @Test func changesWithoutRecordingAreNeverUndone() {
    let array = Self.makeArray()
    let name = Observable("loaded?")
    let history = UndoHistory()
    history.track(array)
    history.track(name)
    history.withoutRecording {
      array.append(TestItem(9, "from disk"))
      name.value = "loaded"
    }
    #expect(history.undoCount == 0)
    name.value = "edited"
    #expect(history.undo())
    // The cell goes back to the value it had when the recorded change began.
    #expect(name.value == "loaded")
    #expect(!history.undo())
    #expect(array.last == TestItem(9, "from disk"))
  }

  // MARK: - Transactions

  @Test func nestedTransactionsAreOneStepUnderTheOutermostName() {
    let array = Self.makeArray()
    let count = Observable(0)
    let history = UndoHistory()
    history.track(array)
    history.track(count)
    history.transaction("Outer") {
      array.append(TestItem(4))
      history.transaction("Inner") {
        array.remove(at: 0)
        count.value = 1
      }
      array.update(TestItem(2, "edited"))
    }
    #expect(history.undoCount == 1)
    #expect(history.undoActionName.value == "Outer")
    #expect(history.undo())
    #expect(array.elements == Self.makeArray().elements)
    #expect(count.value == 0)
    #expect(history.redo())
    #expect(array.map(\.id) == [2, 3, 4])
    #expect(array[id: 2]?.text == "edited")
    #expect(count.value == 1)
  }

  @Test func aTransactionThatChangesNothingAddsNoStep() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    array.append(TestItem(4))
    #expect(history.undo())
    history.transaction("Nothing") {}
    #expect(history.undoCount == 0)
    #expect(history.redoCount == 1)
  }

  @Test func aThrowingTransactionKeepsWhatItDidAsOneStep() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    #expect(throws: Refusal.self) {
      try history.transaction("Half") {
        array.append(TestItem(4))
        array.append(TestItem(5))
        throw Refusal()
      }
    }
    #expect(array.map(\.id) == [1, 2, 3, 4, 5])
    #expect(history.undoCount == 1)
    #expect(history.undoActionName.value == "Half")
    #expect(history.undo())
    #expect(array.map(\.id) == [1, 2, 3])
  }

  @Test func aTransactionNeverMergesWithItsNeighbours() async throws {
    let time = ManualClock()
    let array = Self.makeArray()
    let history = UndoHistory(clock: time)
    history.track(array)
    let cell = try #require(array.cell(for: 1))
    cell.value.text = "a"
    history.transaction("Rename") { cell.value.text = "b" }
    cell.value.text = "c"
    #expect(history.undoCount == 3)
  }

  @Test func undoInsideATransactionIsRefused() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    array.append(TestItem(4))
    let reports = Diagnostics.capturing {
      history.transaction("Busy") {
        #expect(!history.undo())
      }
    }
    #expect(reports == ["undo refused: a transaction is open; nothing changed"])
    #expect(array.count == 4)
  }

  @Test func undoFromAnObserverOfATrackedArrayIsRefused() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    array.append(TestItem(4))
    var results: [Bool] = []
    let subscription = array.observeChanges { _ in results.append(history.undo()) }
    let reports = Diagnostics.capturing { array.append(TestItem(5)) }
    #expect(results == [false])
    #expect(reports == ["undo refused: a tracked array is delivering a change; nothing changed"])
    #expect(array.map(\.id) == [1, 2, 3, 4, 5])
    #expect(history.undoCount == 2)
    withExtendedLifetime(subscription) {}
  }

  @Test func changesWithoutRecordingInsideATransactionStayOutOfItsStep() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    history.transaction("Mixed") {
      array.append(TestItem(4))
      history.withoutRecording { array.append(TestItem(5)) }
    }
    #expect(history.undo())
    #expect(array.map(\.id) == [1, 2, 3, 5])
  }

  // MARK: - Observable state

  @Test func canUndoCanRedoAndActionNamesFollowTheSteps() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array, actionName: "Edit")
    let states = Recorder<String>()
    func record() {
      states.record(
        "\(history.canUndo.value) \(history.canRedo.value) "
          + "\(history.undoActionName.value ?? "-") \(history.redoActionName.value ?? "-")")
    }
    let subscriptions = [
      history.canUndo.observeChanges { _ in record() },
      history.canRedo.observeChanges { _ in record() },
      history.undoActionName.observeChanges { _ in record() },
      history.redoActionName.observeChanges { _ in record() },
    ]
    record()
    array.append(TestItem(4))
    history.transaction("Rename") { array.update(TestItem(1, "one")) }
    history.undo()
    history.undo()
    history.redo()
    array.remove(at: 0)
    #expect(
      states.events == [
        "false false - -",
        "true false - -", "true false Edit -",
        "true false Rename -",
        "true true Rename -", "true true Edit -", "true true Edit Rename",
        "false true Edit Rename", "false true - Rename", "false true - Edit",
        "true true - Edit", "true true Edit Edit", "true true Edit Rename",
        "true false Edit Rename", "true false Edit -",
      ])
    withExtendedLifetime(subscriptions) {}
  }

  // MARK: - Conflicts

  @Test func reinsertingAnIdThatIsBackAlreadyIsAConflictThatChangesNothing() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    array.append(TestItem(4, "kept"))
    history.transaction("Delete") { array.remove(id: 2) }
    history.withoutRecording { array.insert(TestItem(2, "from the server"), at: 0) }
    let before = array.elements
    let seen = Recorder<String>()
    let subscription = array.observeChanges { seen.record($0.changeSet.description) }
    let reports = Diagnostics.capturingReports {
      #expect(!history.undo())
    }
    #expect(
      reports.map(\.message) == [
        "undo refused: an element with id 2 is already in the array; the step \"Delete\" was "
          + "dropped from the history and nothing changed"
      ])
    #expect(reports.first?.fileID == "POMVVMTests/UndoHistoryTests.swift")
    #expect(array.elements == before)
    #expect(seen.events.isEmpty)
    // The step is gone; the older one still applies.
    #expect(history.undoCount == 1)
    #expect(history.redoCount == 0)
    #expect(history.undo())
    #expect(array.map(\.id) == [2, 1, 3])
    withExtendedLifetime(subscription) {}
  }

  @Test func aStepIsCheckedWholeBeforeAnythingChanges() {
    let array = Self.makeArray()
    let name = Observable("a")
    let history = UndoHistory()
    history.track(array)
    history.track(name)
    history.transaction("Two") {
      array.update(TestItem(1, "edited"))  // undone last: conflicts
      array.append(TestItem(4))  // undone first: fits
      name.value = "b"
    }
    history.withoutRecording { array.remove(id: 1) }
    let before = array.elements
    let reports = Diagnostics.capturing { #expect(!history.undo()) }
    #expect(reports.count == 1)
    #expect(reports.first?.hasPrefix("undo refused: the element with id 1 is no longer") == true)
    #expect(array.elements == before)
    #expect(name.value == "b")
  }

  @Test func aConflictOnRedoDropsTheRedoSteps() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    array.append(TestItem(4))
    array.append(TestItem(5))
    #expect(history.undo())
    #expect(history.undo())
    history.withoutRecording { array.append(TestItem(4, "other")) }
    let reports = Diagnostics.capturing { #expect(!history.redo()) }
    #expect(
      reports == [
        "redo refused: an element with id 4 is already in the array; the redo steps were "
          + "dropped and nothing changed"
      ])
    #expect(history.redoCount == 0)
    #expect(array.map(\.id) == [1, 2, 3, 4])
  }

  @Test func changesOfOtherElementsDoNotStopAnUndo() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    array.update(TestItem(3, "edited"))
    history.stopMerging()
    array.remove(at: 1)
    history.withoutRecording {
      array.insert(TestItem(7), at: 0)
      array.remove(id: 1)
    }
    #expect(history.undo())
    // Back at its old index, 1.
    #expect(array.map(\.id) == [7, 2, 3])
    #expect(history.undo())
    #expect(array[id: 3]?.text == "third")
  }

  // MARK: - Deleted while open

  @Test func undoingADeletionBringsTheElementBackUnderANewCell() throws {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    let open = try #require(array.cell(for: 2))
    open.value.on = true
    history.stopMerging()
    array.remove(id: 2)
    #expect(open.isDetached)
    #expect(history.undo())
    // The old cell stays detached (the kit's law); asking again gives a live
    // one, editable, onto the element with its switch state.
    #expect(open.isDetached)
    let again = try #require(array.cell(for: 2))
    #expect(again !== open)
    #expect(again.value == TestItem(2, "second", on: true))
    #expect(again.set(TestItem(2, "edited", on: true)))
    #expect(array.map(\.id) == [1, 2, 3])
  }

  // MARK: - Lifetimes

  @Test func theHistoryDoesNotKeepWhatItTracksAlive() {
    let history = UndoHistory()
    weak var weakArray: ObservableArray<TestItem>?
    weak var weakCell: Observable<Int>?
    do {
      let array = Self.makeArray()
      let cell = Observable(0)
      history.track(array)
      history.track(cell)
      array.append(TestItem(4))
      cell.value = 1
      weakArray = array
      weakCell = cell
    }
    #expect(weakArray == nil)
    #expect(weakCell == nil)
    // Steps that can never apply are dropped as their objects go.
    #expect(history.undoCount == 0)
    #expect(!history.canUndo.value)
    #expect(!history.undo())
    #expect(history.undoCount == 0)
  }

  @Test func aStepOfAReleasedArrayAndALiveCellUndoesTheCellAlone() {
    let history = UndoHistory()
    let name = Observable("a")
    history.track(name)
    weak var weakArray: ObservableArray<TestItem>?
    do {
      let array = Self.makeArray()
      history.track(array)
      history.transaction("Both") {
        array.append(TestItem(4))
        name.value = "b"
      }
      weakArray = array
    }
    #expect(weakArray == nil)
    // The step still changes a live cell: it stays, and applies to it alone.
    #expect(history.undoCount == 1)
    #expect(history.undo())
    #expect(name.value == "a")
    #expect(history.redo())
    #expect(name.value == "b")
  }

  @Test func anArrayTrackedAfterAReleasedOneIsRecordedOnItsOwn() {
    let history = UndoHistory()
    do {
      let array = Self.makeArray()
      history.track(array)
      array.update(TestItem(1, "edited"))
    }
    // A new array (which may reuse the released one's memory) is tracked
    // anew, and its edit of the same id is a step of its own, not merged
    // into the released array's record.
    let array = Self.makeArray()
    history.track(array)
    array.update(TestItem(1, "again"))
    #expect(history.undoCount == 1)
    #expect(history.undo())
    #expect(array[id: 1]?.text == "first")
    #expect(history.undoCount == 0)
  }

  @Test func aReleasedHistoryStopsRecording() {
    let array = Self.makeArray()
    weak var weakHistory: UndoHistory?
    do {
      let history = UndoHistory()
      history.track(array)
      array.append(TestItem(4))
      weakHistory = history
    }
    #expect(weakHistory == nil)
    array.append(TestItem(5))
    #expect(array.count == 5)
  }

  @Test func trackingTwiceRecordsOnce() {
    let array = Self.makeArray()
    let history = UndoHistory()
    history.track(array)
    history.track(array)
    array.append(TestItem(4))
    #expect(history.undoCount == 1)
  }
}

/// The undo defects of issue #31 (items 1 to 5), each as its repro.
@MainActor
@Suite("UndoHistory: unrecorded changes, reload steps, re-entrancy and reactions")
struct UndoHistoryRoundFourTests {
  // MARK: - 1. An unrecorded change ends the step it would merge into

  @Test func anUnrecordedChangeOfACellEndsTheStepItWouldMergeInto() async {
    let time = ManualClock()
    let cell = Observable("start")
    let history = UndoHistory(mergeWindow: .seconds(1), clock: time)
    history.track(cell)
    cell.value = "typed"
    await time.advance(by: .milliseconds(100))
    history.withoutRecording { cell.value = "server" }
    await time.advance(by: .milliseconds(100))
    cell.value = "typed again"
    #expect(history.undoCount == 2)
    #expect(history.undo())
    #expect(cell.value == "server", "the server's value is not lost")
    #expect(history.undo())
    #expect(cell.value == "start")
  }

  @Test func anUnrecordedUpdateOfAnElementEndsTheStepItWouldMergeInto() async throws {
    let time = ManualClock()
    let array = UndoHistoryTests.makeArray()
    let history = UndoHistory(mergeWindow: .seconds(1), clock: time)
    history.track(array)
    let cell = try #require(array.cell(for: 2))
    cell.value.text = "typed"
    await time.advance(by: .milliseconds(100))
    history.withoutRecording { array.update(TestItem(2, "server")) }
    await time.advance(by: .milliseconds(100))
    cell.value.text = "typed again"
    #expect(history.undo())
    #expect(array[id: 2]?.text == "server")
  }

  // MARK: - 2. A reload step holds only what the reload changed

  @Test func undoingAReloadRestoresOnlyTheElementsItChanged() {
    let array = ObservableArray([TestItem(1, "one"), TestItem(2, "two"), TestItem(3, "three")])
    let history = UndoHistory()
    history.track(array)
    array.replaceAll(with: [
      TestItem(3, "three edited"), TestItem(2, "two"), TestItem(1, "one edited"),
    ])
    history.withoutRecording { array.update(TestItem(2, "server")) }
    #expect(history.undo())
    #expect(array.elements == [TestItem(1, "one"), TestItem(2, "server"), TestItem(3, "three")])
    #expect(history.redo())
    #expect(
      array.elements == [
        TestItem(3, "three edited"), TestItem(2, "server"), TestItem(1, "one edited"),
      ])
  }

  @Test func anUnrecordedRemovalOfAnElementAReloadOnlyMovedDoesNotStopTheUndo() {
    let array = ObservableArray((1...10).map { TestItem($0, "v\($0)") })
    let history = UndoHistory()
    history.track(array)
    var reversed = array.elements.reversed().map { $0 }
    for index in reversed.indices where reversed[index].id != 10 {
      reversed[index].text += " edited"
    }
    array.replaceAll(with: reversed)
    history.withoutRecording { array.remove(at: 0) }  // element 10
    #expect(history.undo())
    #expect(array.elements == (1...9).map { TestItem($0, "v\($0)") })
  }

  @Test func aReloadStepKeepsElementsAddedWithoutRecordingWhereTheyAre() {
    let array = ObservableArray((1...4).map { TestItem($0, "v\($0)") })
    let history = UndoHistory()
    history.track(array)
    array.replaceAll(with: [TestItem(4), TestItem(3), TestItem(2), TestItem(1), TestItem(5)])
    history.withoutRecording { array.insert(TestItem(9, "server"), at: 1) }
    #expect(history.undo())
    #expect(array.map(\.id) == [1, 9, 2, 3, 4])
    #expect(array.elements[0] == TestItem(1, "v1"))
  }

  // MARK: - 3. Undo from an observer of the history's own cells

  @Test func undoFromAnObserverOfCanRedoLeavesConsistentCells() {
    let cell = Observable(0)
    let history = UndoHistory()
    history.track(cell)
    history.transaction("A") { cell.value = 1 }
    history.transaction("B") { cell.value = 2 }
    var undidFromObserver = false
    let token = history.canRedo.observeChanges { canRedo in
      guard canRedo, !undidFromObserver else { return }
      undidFromObserver = true
      history.undo()
    }
    #expect(history.undo())
    #expect(undidFromObserver)
    #expect(cell.value == 0)
    #expect(history.canUndo.value == false)
    #expect(history.canRedo.value == true)
    #expect(history.undoActionName.value == nil)
    #expect(history.redoActionName.value == "A")
    token.cancel()
  }

  // MARK: - 4. canUndo tells the truth when tracked objects go

  @Test func stepsOfReleasedObjectsAreDroppedAndCanUndoFollows() {
    let history = UndoHistory()
    var undoStates: [Bool] = []
    let token = history.canUndo.observeChanges { undoStates.append($0) }
    do {
      let array = UndoHistoryTests.makeArray()
      history.track(array)
      array.append(TestItem(4))
      #expect(history.canUndo.value)
    }
    #expect(history.undoCount == 0)
    #expect(history.canUndo.value == false)
    #expect(undoStates == [true, false])
    token.cancel()
  }

  @Test func aStepThatStillHasALiveObjectStays() {
    let history = UndoHistory()
    let cell = Observable(0)
    history.track(cell)
    do {
      let array = UndoHistoryTests.makeArray()
      history.track(array)
      history.transaction("Both") {
        array.append(TestItem(4))
        cell.value = 1
      }
    }
    #expect(history.undoCount == 1)
    #expect(history.undo())
    #expect(cell.value == 0)
  }

  // MARK: - 5. Reactions belong to the step of the change they react to

  /// A rule that moves a finished item to the bottom reacts to the toggle:
  /// one undo takes back both, and the rule does not redo the move.
  @Test func aReactionOnTheSameArrayJoinsTheStepOfTheChangeItReactsTo() throws {
    let array = UndoHistoryTests.makeArray()
    let history = UndoHistory()
    history.track(array, actionName: "Toggle")
    let rule = array.observeChanges { change in
      for update in change.changeSet.updates where update.newElement.on {
        if let index = array.firstIndex(where: { $0.id == update.newElement.id }),
          index != array.count - 1
        {
          array.move(from: index, to: array.count - 1)
        }
      }
    }
    try #require(array.cell(for: 1, \.on)).value = true
    #expect(array.map(\.id) == [2, 3, 1])
    #expect(history.undoCount == 1)
    #expect(history.undo())
    #expect(array.elements == UndoHistoryTests.makeArray().elements)
    #expect(history.redo())
    #expect(array.map(\.id) == [2, 3, 1])
    #expect(array[id: 1]?.on == true)
    rule.cancel()
  }

  /// A rule that keeps a count in a tracked cell, whichever observer runs
  /// first.
  @Test(arguments: [false, true])
  func aReactionInAnotherTrackedCellJoinsTheStep(ruleFirst: Bool) throws {
    let array = UndoHistoryTests.makeArray()
    let doneCount = Observable(0)
    let history = UndoHistory()
    var rule: Subscription?
    let startRule = {
      rule = array.observeChanges { change in
        doneCount.value = change.newElements.filter(\.on).count
      }
    }
    if ruleFirst { startRule() }
    history.track(array, actionName: "Toggle")
    history.track(doneCount, actionName: "Count")
    if !ruleFirst { startRule() }
    try #require(array.cell(for: 2, \.on)).value = true
    #expect(doneCount.value == 1)
    #expect(history.undoCount == 1)
    #expect(history.undo())
    #expect(array[id: 2]?.on == false)
    #expect(doneCount.value == 0)
    #expect(history.undoCount == 0)
    rule?.cancel()
  }

  /// Changes made one after the other, outside any delivery, stay separate
  /// steps.
  @Test func consecutiveEditsAreNotReactions() throws {
    let array = UndoHistoryTests.makeArray()
    let cell = Observable(0)
    let history = UndoHistory()
    history.track(array)
    history.track(cell)
    try #require(array.cell(for: 1, \.on)).value = true
    cell.value = 1
    array.append(TestItem(4))
    #expect(history.undoCount == 3)
  }
}

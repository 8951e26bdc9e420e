import POMVVM
import POMVVMTesting
import Testing
import ToDo

@MainActor
@Suite("To-do edit sheet")
struct ToDoEditViewModelTests {
  func makeList() throws -> ToDoListViewModel {
    let list = ToDoListViewModel(store: Store())
    try list.add()
    try list.add()
    return list
  }

  @Test func editingARowPresentsADraftOfTheItem() throws {
    let list = try makeList()
    let sheet = try list.edit(row: 2)
    #expect(list.sheet.destination === sheet)
    #expect(sheet.id == 2 && sheet.title.value == "ToDo Item 2" && !sheet.isCompleted.value)
    #expect(sheet.isShown)
  }

  @Test func editingTheDraftLeavesTheItemUntilDone() throws {
    let list = try makeList()
    let sheet = try list.edit(row: 1)
    sheet.title.value = "Buy milk"
    sheet.isCompleted.value = true
    #expect(list.store.items[0] == ToDoItem(id: 1, title: "ToDo Item 1"))
  }

  @Test func cancelClosesTheSheetAndLeavesTheItemUntouched() throws {
    let list = try makeList()
    let undoSteps = list.history.undoCount
    let sheet = try list.edit(row: 1)
    sheet.title.value = "Buy milk"
    #expect(sheet.cancel())
    #expect(!list.sheet.isPresented && !sheet.isShown)
    #expect(list.store.items[0] == ToDoItem(id: 1, title: "ToDo Item 1"))
    #expect(list.history.undoCount == undoSteps)
  }

  @Test func doneWritesTheDraftInOneStepThatOneUndoRestores() throws {
    let list = try makeList()
    let undoSteps = list.history.undoCount
    var changes = 0
    let subscription = list.store.items.observeChanges { _ in changes += 1 }
    let sheet = try list.edit(row: 1)
    sheet.title.value = "Buy milk"
    sheet.isCompleted.value = true
    #expect(sheet.done())
    #expect(!list.sheet.isPresented)
    #expect(list.store.items[0] == ToDoItem(id: 1, title: "Buy milk", isCompleted: true))
    #expect(changes == 1)
    #expect(list.history.undoCount == undoSteps + 1)
    #expect(list.history.undoActionName.value == "Edit")
    #expect(list.history.undo())
    #expect(list.store.items[0] == ToDoItem(id: 1, title: "ToDo Item 1"))
    #expect(list.history.redo())
    #expect(list.store.items[0] == ToDoItem(id: 1, title: "Buy milk", isCompleted: true))
    subscription.cancel()
  }

  @Test func doneWithAnUnchangedDraftRecordsNoStep() throws {
    let list = try makeList()
    let undoSteps = list.history.undoCount
    #expect(try list.edit(row: 2).done())
    #expect(list.history.undoCount == undoSteps)
    #expect(!list.sheet.isPresented)
  }

  @Test func deletingTheItemWhileTheSheetIsOpenClosesIt() throws {
    let list = try makeList()
    let sheet = try list.edit(row: 2)
    sheet.title.value = "Buy milk"
    try list.delete(row: 2)
    #expect(!list.sheet.isPresented && !sheet.isShown)
    let reports = Diagnostics.capturingReports { #expect(!sheet.done()) }
    #expect(reports.map(\.message) == ["done refused: the to-do item with id 2 was deleted"])
    #expect(list.store.items.map(\.id) == [1])
  }

  @Test func anUndoThatRemovesTheItemClosesTheSheetAndARedoDoesNotReopenIt() throws {
    let list = try makeList()
    try list.add(title: "New")
    try list.edit(row: 3)
    #expect(list.history.undo())
    #expect(!list.sheet.isPresented)
    #expect(list.history.redo())
    #expect(!list.sheet.isPresented)
  }

  @Test func theSheetIsReleasedOnceDismissed() throws {
    let list = try makeList()
    weak var cancelled: ToDoEditViewModel?
    weak var finished: ToDoEditViewModel?
    do {
      let sheet = try list.edit(row: 1)
      cancelled = sheet
      sheet.cancel()
    }
    do {
      let sheet = try list.edit(row: 2)
      finished = sheet
      sheet.title.value = "Changed"
      sheet.done()
    }
    #expect(cancelled == nil)
    #expect(finished == nil)
  }

  @Test func aSecondEditReplacesTheFirstSheet() throws {
    let list = try makeList()
    let first = try list.edit(row: 1)
    let second = try list.edit(row: 2)
    #expect(list.sheet.destination === second && !first.isShown)
    first.title.value = "Late"
    let reports = Diagnostics.capturingReports { first.cancel() }
    #expect(reports.count == 1)
    #expect(list.sheet.destination === second)
  }

  @Test func editingARowThatDoesNotExistIsRefused() throws {
    let list = try makeList()
    #expect(throws: ToDoRefusal.noSuchRow(3, count: 2)) { try list.edit(row: 3) }
    #expect(!list.sheet.isPresented)
  }

  @Test func doneThatMarksTheItemDoneSortsItLastASecondLater() async throws {
    let clock = ManualClock()
    let list = ToDoListViewModel(store: Store(), clock: clock)
    try list.add(title: "milk")
    try list.add(title: "eggs")
    let sheet = try list.edit(row: 1)
    sheet.isCompleted.value = true
    sheet.done()
    await clock.advance(by: .milliseconds(999))
    #expect(list.store.items.map(\.title) == ["milk", "eggs"])
    await clock.advance(by: .milliseconds(1))
    #expect(list.store.items.map(\.title) == ["eggs", "milk"])
  }

  @Test func doneThatKeepsTheDoneMarkSchedulesNoSort() async throws {
    let clock = ManualClock()
    let list = ToDoListViewModel(store: Store(), clock: clock)
    try list.add(title: "milk")
    let sheet = try list.edit(row: 1)
    sheet.title.value = "oat milk"
    sheet.done()
    #expect(list.effects.inFlight.value == 0)
  }

  @Test func doneWritesOnlyTheFieldsTheDraftChanged() throws {
    let list = try makeList()
    let sheet = try list.edit(row: 1)
    sheet.title.value = "Buy milk"
    try list.toggle(row: 1)
    #expect(sheet.done())
    #expect(list.store.items[0] == ToDoItem(id: 1, title: "Buy milk", isCompleted: true))
    #expect(list.history.undo())
    #expect(list.store.items[0] == ToDoItem(id: 1, title: "ToDo Item 1", isCompleted: true))
  }
}

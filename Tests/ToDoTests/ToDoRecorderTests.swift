import POMVVMTesting
import Testing
import ToDo

/// The to-do list under the state recorder.
@MainActor
@Suite("To-do, every change")
struct ToDoRecorderTests {
  @Test func addingTheTenthItemDisablesAdding() throws {
    let list = ToDoListViewModel(store: Store())
    for _ in 0..<9 {
      try list.add()
    }
    let recorder = StateRecorder(of: list)
    try recorder.perform {
      try list.add(title: "tenth")
    } expecting: {
      $0.changed(\.store.items) { $0.changeSet.insertions.map(\.element.title) == ["tenth"] }
      $0.changed(\.visible) { $0.changeSet.insertions.map(\.index) == [9] }
      $0.changed(\.itemCount, to: 10)
      $0.changed(\.canAdd, to: false)
      $0.changed(\.lastChange, to: "insert [9]")
    }
    recorder.finish()
  }

  @Test func aRefusedAddChangesNothing() throws {
    let list = ToDoListViewModel(store: Store())
    for _ in 0..<10 {
      try list.add()
    }
    let recorder = StateRecorder(of: list)
    #expect(throws: ToDoRefusal.full(limit: 10)) {
      try recorder.perform {
        try list.add(title: "eleventh")
      }
    }
    recorder.finish()
  }

  @Test func editingThroughTheEditorChangesTheItemAndTheLastChange() throws {
    let list = ToDoListViewModel(store: Store())
    try list.add(title: "milk")
    let editor = try list.editor(row: 1)
    let recorder = StateRecorder(of: list)
    recorder.perform {
      editor.title.value = "oat milk"
    } expecting: {
      $0.changed(\.store.items, to: [ToDoItem(id: 1, title: "oat milk")])
      $0.changed(\.visible, to: [ToDoItem(id: 1, title: "oat milk")])
      $0.changed(\.lastChange, to: "update [0]")
    }
    recorder.finish()
  }

  @Test func theEditSheetAppearsWithItsDraftAndDoneChangesTheItemOnce() throws {
    let list = ToDoListViewModel(store: Store())
    try list.add(title: "milk")
    let recorder = StateRecorder(of: list)
    try recorder.perform {
      try list.edit(row: 1)
    } expecting: {
      $0.changed(\.sheet) { $0?.id == 1 }
      $0.added(\.sheet.destination) { $0.title.value == "milk" && !$0.isCompleted.value }
    }
    recorder.perform {
      list.sheet.destination?.title.value = "oat milk"
    } expecting: {
      $0.changed(\.sheet.destination?.title, to: "oat milk")
    }
    recorder.perform {
      list.sheet.destination?.done()
    } expecting: {
      $0.changed(\.sheet) { $0 == nil }
      $0.changed(\.store.items, to: [ToDoItem(id: 1, title: "oat milk")])
      $0.changed(\.visible, to: [ToDoItem(id: 1, title: "oat milk")])
      $0.changed(\.lastChange, to: "update [0]")
    }
    recorder.finish()
  }
}

import POMVVM
import Testing
import ToDo

@MainActor
@Suite("To-do list")
struct ToDoListViewModelTests {
  func makeList(_ count: Int = 0) throws -> (ToDoListViewModel, ToDoListView) {
    let list = ToDoListViewModel(store: Store())
    for _ in 0..<count {
      try list.add()
    }
    let view = ToDoListView()
    view.bind(to: list)
    return (list, view)
  }

  @Test func rendersTheListExactly() throws {
    let (_, view) = try makeList(2)
    #expect(
      view.lines.joined(separator: "\n") == """
        To-do (2 of 10, add: enabled)
          1. ToDo Item 1
          2. ToDo Item 2
        Last change: insert [1]
        """)
  }

  @Test func anEmptyListSaysSo() throws {
    let (_, view) = try makeList()
    #expect(view.lines == ["To-do (0 of 10, add: enabled)", "Last change: none"])
  }

  @Test func addingStopsAtTenItems() throws {
    let (list, view) = try makeList(9)
    #expect(list.canAdd.value)
    try list.add()
    #expect(!list.canAdd.value)
    #expect(view.lines.first == "To-do (10 of 10, add: disabled)")
    #expect(throws: ToDoRefusal.full(limit: 10)) { try list.add() }
    #expect(list.store.items.count == 10)
    try list.delete(row: 1)
    #expect(list.canAdd.value)
    #expect(view.lines.first == "To-do (9 of 10, add: enabled)")
  }

  @Test func deletingARowThatDoesNotExistIsRefused() throws {
    let (list, _) = try makeList(2)
    #expect(throws: ToDoRefusal.noSuchRow(3, count: 2)) { try list.delete(row: 3) }
    #expect(throws: ToDoRefusal.noSuchRow(0, count: 2)) { try list.delete(row: 0) }
    #expect(ToDoRefusal.noSuchRow(3, count: 2).description == "row 3 is out of range: rows 1-2")
    #expect(
      ToDoRefusal.noSuchRow(1, count: 0).description == "row 1 does not exist: the list is empty")
  }

  @Test func anEditorAndTheListStayInStep() throws {
    let (list, view) = try makeList(2)
    let editor = try list.editor(row: 2)
    let editorView = ToDoEditorView()
    editorView.bind(to: editor)
    editorView.type(title: "Buy milk")
    #expect(view.lines[2] == "  2. Buy milk")
    #expect(view.lines.last == "Last change: update [1]")
    try list.delete(row: 1)
    #expect(editorView.lines == ["To-do item", "  Title: Buy milk"])
    #expect(editor.delete())
    #expect(view.lines == ["To-do (0 of 10, add: enabled)", "Last change: remove [0]"])
    #expect(editorView.lines.last == "  (deleted: this item is no longer in the list)")
    let reports = Diagnostics.capturing {
      editorView.type(title: "edited after delete")
      #expect(!editor.delete())
    }
    #expect(reports.count == 2)
    #expect(editorView.lines[1] == "  Title: Buy milk", "the refused edit snapped back")
  }

  @Test func aDeletedItemBroughtBackByUndoGetsANewEditorAndTheOldOneStaysDetached() throws {
    let (list, view) = try makeList(2)
    let editor = try list.editor(row: 2)
    #expect(editor.reopened() != nil, "an item still in the list can be reopened too")
    #expect(editor.delete())
    #expect(editor.reopened() == nil, "nothing to reopen while the item is deleted")
    #expect(list.history.undo())
    let again = try #require(editor.reopened())
    #expect(editor.isDetached, "the old editor keeps refusing edits")
    #expect(!again.isDetached)
    #expect(again.id == editor.id)
    again.title.value = "Back again"
    #expect(view.lines[2] == "  2. Back again")
  }

  @Test func idsStayUniqueAfterDeletions() throws {
    let (list, _) = try makeList(3)
    try list.delete(row: 1)
    let added = try list.add()
    #expect(Set(list.store.items.map(\.id)).count == 3)
    #expect(added.title == "ToDo Item 4")
    #expect(Set(list.store.items.map(\.title)).count == 3, "no title repeats")
  }

  @Test func theIdOfADeletedItemIsNeverGivenToANewOne() throws {
    let (list, _) = try makeList(3)
    try list.delete(row: 3)
    #expect(try list.add().id == 4, "not 3, the deleted item's")
    #expect(list.history.undo())  // the add: item 4 leaves
    #expect(try list.add().id == 5)
    #expect(list.store.nextSequenceNumber == 6)
  }

  /// A store file may hold any id; the next id after `Int.max` would
  /// overflow, so the list takes the smallest positive id not in use (the
  /// store's sequence stops below `Int.max`).
  @Test(arguments: [
    ([Int.max], 1), ([1, Int.max], 2), ([Int.max, 2, 1, 4], 3), ([Int.max - 1], 1),
  ])
  func theNewIDNeverOverflows(ids: [Int], expected: Int) throws {
    let list = ToDoListViewModel(store: Store(ids.map { ToDoItem(id: $0, title: "\($0)") }))
    let view = ToDoListView()
    view.bind(to: list)
    #expect(view.header.value.hasSuffix("add: enabled)"))
    let added = try list.add()
    #expect(added == ToDoItem(id: expected, title: "ToDo Item \(expected)"))
    #expect(list.store.items.map(\.id) == ids + [expected])
  }
}

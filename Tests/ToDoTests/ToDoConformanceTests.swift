import POMVVM
import POMVVMTesting
import Testing
import ToDo

/// A list over a new store of items with the given titles.
@MainActor
private func makeList(_ titles: [String]) -> ToDoListViewModel {
  ToDoListViewModel(
    store: Store(titles.enumerated().map { ToDoItem(id: $0.offset + 1, title: $0.element) }))
}

/// The editor of a list's row; the row must exist.
@MainActor
private func editor(of list: ToDoListViewModel, row: Int) -> ToDoEditorViewModel {
  do {
    return try list.editor(row: row)
  } catch {
    fatalError("test fixture: \(error)")
  }
}

/// The to-do list's and editor's view models and views, checked by
/// POMVVMTesting's conformance suites as an app would check its own types.
@MainActor
@Suite("To-do conformance")
struct ToDoConformanceTests {
  @Test func theListViewRebindsCleanly() {
    checkBindableView(
      ToDoListView.init,
      viewModels: { makeList(["a", "b"]) },
      rendering: { $0.lines },
      expected: { list in
        let count = list.store.items.count
        return ["To-do (\(count) of 10, add: \(count < 10 ? "enabled" : "disabled"))"]
          + list.store.items.enumerated().map { "  \($0.offset + 1). \($0.element.title)" }
          + ["Last change: \(list.lastChange.value)"]
      },
      mutate: { list in
        _ = try? list.add()
        editor(of: list, row: 1).title.value += "!"
      },
      releasing: { [$0, $0.store, $0.store.items, $0.itemCount, $0.canAdd, $0.lastChange] })
  }

  @Test func theEditorViewRebindsCleanly() {
    checkBindableView(
      ToDoEditorView.init,
      viewModels: { editor(of: makeList(["a", "b"]), row: 2) },
      rendering: { $0.lines },
      expected: { editor in
        ["To-do item", "  Title: \(editor.title.value)"]
          + (editor.isDetached ? ["  (deleted: this item is no longer in the list)"] : [])
      },
      mutate: { $0.title.value += "!" },
      releasing: { [$0, $0.title, $0.title.base] })
  }

  @Test func theEditorsTitleBindsBothWaysToAField() {
    // The editors keep their stores; the list view models may go.
    checkBindingLaws(
      { title in editor(of: makeList([title]), row: 1).title },
      { Observable($0) },
      values: ["ToDo Item 1", "Buy milk", "", "牛乳 🥛"])
  }

  @Test func theStoreKeepsTheArrayLawsThroughTheViewModels() {
    let list = makeList(["a", "b", "c"])
    let listView = ToDoListView()
    listView.bind(to: list)
    checkObservableArrayLaws(
      list.store.items,
      mutations: [
        ArrayMutation("add with the default title") { _ in _ = try? list.add() },
        ArrayMutation("add with a title") { _ in _ = try? list.add(title: "Buy milk") },
        ArrayMutation("edit row 2 in an editor") { _ in
          editor(of: list, row: 2).title.value = "b, edited"
        },
        ArrayMutation("edit through the editor view") { _ in
          let view = ToDoEditorView()
          view.bind(to: editor(of: list, row: 4))
          view.type(title: "typed")
        },
        ArrayMutation("delete row 1") { _ in _ = try? list.delete(row: 1) },
        ArrayMutation("delete from an editor") { _ in _ = editor(of: list, row: 2).delete() },
        ArrayMutation("refuse a row that does not exist") { _ in _ = try? list.delete(row: 9) },
        .replaceAll(with: [ToDoItem(id: 3, title: "c"), ToDoItem(id: 7, title: "new")]),
      ])
    #expect(listView.titles == ["c", "new"], "the list view followed every change")
  }

  @Test func theListEditorsAndViewsAreReleasedAfterUse() {
    checkNoLeaks {
      let list = makeList(["a", "b"])
      let listView = ToDoListView()
      listView.bind(to: list)
      let editorView = ToDoEditorView()
      let first = editor(of: list, row: 1)
      editorView.bind(to: first)
      editorView.type(title: "edited")
      let second = editor(of: list, row: 2)
      editorView.bind(to: second)
      second.delete()
      return [
        list, list.store, list.store.items, list.itemCount, list.canAdd, list.lastChange,
        listView, editorView, first, first.title.base, second, second.title.base,
      ]
    }
  }
}

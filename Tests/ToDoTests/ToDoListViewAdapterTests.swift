import POMVVM
import POMVVMTesting
import Testing
import ToDo

@MainActor
@Suite("ToDoListView through ListAdapter")
struct ToDoListViewAdapterTests {
  @Test func theTitlesFollowMovesEditsInsertionsAndRemovalsAtOnce() {
    let list = ToDoListViewModel(
      store: Store((1...5).map { ToDoItem(id: $0, title: "item \($0)") }))
    let view = ToDoListView()
    view.bind(to: list)
    let items = list.store.items
    // 5 moves to the top and changes; 2 goes; 9 comes; 3 changes in place.
    items.replaceAll(with: [
      ToDoItem(id: 5, title: "five, moved"), ToDoItem(id: 1, title: "item 1"),
      ToDoItem(id: 9, title: "new"), ToDoItem(id: 3, title: "three, edited"),
      ToDoItem(id: 4, title: "item 4"),
    ])
    #expect(view.titles == items.map(\.title))
    items.batch { contents in
      contents.swapAt(0, 4)
      contents[0].title = "four, swapped"
    }
    #expect(view.titles == items.map(\.title))
  }

  @Test func theStoresChangesReachAListSafely() {
    let store = Store((1...6).map { ToDoItem(id: $0, title: "item \($0)") })
    checkListUpdates(
      store.items, randomMutations: 300, seed: 3,
      newElement: { ToDoItem(id: 100 + $0, title: "new \($0)") },
      edited: { item, variant in ToDoItem(id: item.id, title: "edit \(variant)") })
  }

  @Test func anUnboundListKeepsItsTitles() {
    let list = ToDoListViewModel(store: Store([ToDoItem(id: 1, title: "a")]))
    let view = ToDoListView()
    view.bind(to: list)
    view.unbind()
    list.store.items.append(ToDoItem(id: 2, title: "b"))
    #expect(view.titles == ["a"])
    let other = ToDoListViewModel(store: Store([ToDoItem(id: 7, title: "z")]))
    view.bind(to: other)
    #expect(view.titles == ["z"])
  }
}

/// The list under a filter: the view's rows are the filter's, every update
/// passes the headless rules, and row numbers are the rows shown.
@MainActor
@Suite("ToDoListView under a filter")
struct ToDoFilteredListTests {
  private func makeList() -> ToDoListViewModel {
    ToDoListViewModel(
      store: Store((1...6).map { ToDoItem(id: $0, title: "item \($0)", isCompleted: $0 > 4) }))
  }

  @Test func theRowsAreTheFiltersRowsThroughEveryChangeCheckedByTheHeadlessRules() {
    let list = makeList()
    let titles = ToDoListView()
    let checked = CheckedListView<ToDoItem>(forwardingTo: titles)
    let adapter = ListAdapter(list.visible, view: checked)
    for filter in [ToDoFilter.active, .completed, .all, .active] {
      list.filter.value = filter
      #expect(checked.rows == list.store.items.filter(filter.includes).map(\.id))
      try? list.toggle(row: 1)
      list.store.items.cell(for: 3)?.value.title = "three, \(filter)"
      _ = try? list.add(title: "new under \(filter)")
      #expect(checked.rows == list.store.items.filter(filter.includes).map(\.id))
      #expect(
        titles.titles
          == list.visible.elements.map { $0.isCompleted ? "\($0.title) (done)" : $0.title })
    }
    list.sortCompletedLast()
    #expect(checked.rows == list.visible.ids)
    #expect(checked.violations == [])
    #expect(adapter.ids == list.visible.ids)
  }

  @Test func rowNumbersAreTheRowsShown() throws {
    let list = makeList()
    list.filter.value = .completed
    #expect(list.visible.ids == [5, 6])
    let editor = try list.editor(row: 2)
    #expect(editor.title.value == "item 6")
    try list.toggle(row: 1)  // 5 is no longer completed: it leaves the rows
    #expect(list.visible.ids == [6])
    #expect(list.store.items[id: 5]?.isCompleted == false)
    try list.delete(row: 1)
    #expect(list.visible.ids == [])
    #expect(list.store.items[id: 6] == nil)
    #expect(throws: ToDoRefusal.noSuchRow(1, count: 0)) { try list.toggle(row: 1) }
  }

  @Test func theFilteredQueryKeepsItsLaws() {
    let list = makeList()
    list.filter.value = .active
    checkLiveQuery(
      list.visible, randomMutations: 500, seed: 8,
      newElement: { ToDoItem(id: 100 + $0, title: "new \($0)", isCompleted: $0.isMultiple(of: 2)) },
      edited: { item, variant in
        var item = item
        if variant.isMultiple(of: 2) { item.isCompleted.toggle() } else { item.title += "!" }
        return item
      })
  }

  @Test func theHeaderNamesAFilterOtherThanAll() {
    let list = makeList()
    let view = ToDoListView()
    view.bind(to: list)
    #expect(view.header.value == "To-do (6 of 10, add: enabled)")
    list.filter.value = .completed
    #expect(view.header.value == "To-do (6 of 10, add: enabled), showing completed")
    #expect(view.titles == ["item 5 (done)", "item 6 (done)"])
  }
}

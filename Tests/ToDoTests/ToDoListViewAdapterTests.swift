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

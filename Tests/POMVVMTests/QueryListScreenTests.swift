import POMVVM
import POMVVMTesting
import Testing

/// The examples of the article "Filtering, sorting and grouping a list",
/// run as they are shown.
@MainActor
@Suite("Filtering, sorting and grouping a list")
struct QueryListScreenTests {
  struct ToDo: Identifiable, Equatable {
    let id: Int
    var title: String
    var done = false
  }

  @Test func aFilteredSortedListFollowsItsArray() {
    let listView = CheckedListView<ToDo>()
    let todos = ObservableArray([
      ToDo(id: 1, title: "Water the plants"), ToDo(id: 2, title: "Buy milk"),
      ToDo(id: 3, title: "Call Ada", done: true),
    ])
    let active = todos.query(where: { !$0.done }, sortedBy: { $0.title < $1.title })
    let adapter = ListAdapter(active, view: listView)
    #expect(active.elements.map(\.title) == ["Buy milk", "Water the plants"])
    todos.cell(for: 2)?.value.done = true  // "Buy milk" leaves: one deletion
    #expect(listView.rows == [1])
    todos.append(ToDo(id: 4, title: "Answer mail"))  // enters at the top: one insertion
    #expect(listView.rows == [4, 1])
    #expect(listView.violations == [])
    #expect(adapter.ids == active.ids)
  }

  @Test func aGroupedListMovesARowAcrossSections() {
    let sectionedView = CheckedSectionedListView<Int, ToDo>()
    let todos = ObservableArray([
      ToDo(id: 1, title: "Water the plants"), ToDo(id: 2, title: "Buy milk"),
      ToDo(id: 3, title: "Call Ada", done: true),
    ])
    let byState = todos.query(sortedBy: { $0.title < $1.title }, sectionedBy: { $0.done ? 1 : 0 })
    let adapter = SectionedListAdapter(byState, view: sectionedView)
    todos.cell(for: 2)?.value.done = true  // one row move, from section 0 to section 1
    #expect(sectionedView.batches.last?.description == "move [0.0->1.0], reconfigure [1.0]")
    #expect(byState.sections.map(\.ids) == [[1], [2, 3]])
    #expect(sectionedView.violations == [])
    #expect(adapter.ids == [[1], [2, 3]])
  }

  @Test func searchingIsOneChangeOfTheQuery() {
    let todos = ObservableArray([
      ToDo(id: 1, title: "Water the plants"), ToDo(id: 2, title: "Buy milk"),
    ])
    let searchText = Observable("")
    let results = todos.query(
      where: { searchText.value.isEmpty || $0.title.contains(searchText.value) },
      reading: searchText)
    searchText.value = "milk"  // evaluated again at once, published as one change
    #expect(results.ids == [2])
  }
}

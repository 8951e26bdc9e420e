import POMVVM

/// The Master-Detail list as its master view model keeps it, new items
/// going in at the top one at a time.
///
/// The items, the open-switch count and the search query of
/// `MasterViewModel.searchResults()` (every item while the search text is
/// empty), each observed as its view observes it.
///
/// With `fromEmpty`, one iteration inserts `size` items into an empty list;
/// otherwise one iteration inserts one item into a list of about `size`
/// (put back to `size` when it has grown by a tenth): the cost of the next
/// insert at that size. Count its instructions with fewer than `size / 10`
/// iterations (`scripts/count-instructions --iterations 200` at 10,000):
/// with more, `prepare` builds the list again inside the counted run, and
/// the figure holds that build (about 22,000 instructions an insert at
/// 2,000 iterations).
@MainActor
final class KitMasterDetailInserts: Fixture {
  private let size: Int
  private let fromEmpty: Bool
  private var list: (items: ObservableArray<Row>, keep: [Any])
  private var nextID = 0

  init(size: Int, fromEmpty: Bool) {
    self.size = size
    self.fromEmpty = fromEmpty
    list = Self.make(fromEmpty ? [] : makeRows(size))
    nextID = fromEmpty ? 0 : size
  }

  private static func make(_ rows: [Row]) -> (items: ObservableArray<Row>, keep: [Any]) {
    let sink = sharedSink
    let items = ObservableArray(rows)
    let open = items.liveCount(where: \.on)
    let search = Observable("")
    let results = items.query(
      where: { search.value.isEmpty || $0.title.contains(search.value) }, reading: search)
    let keep: [Any] = [
      open, search, results,
      items.observeChanges { sink.total &+= $0.changeSet.count },
      open.observeChanges(makeObserver()),
      results.observeChanges { sink.total &+= $0.changeSet.count },
    ]
    return (items, keep)
  }

  func prepare(_ iterations: Int) {
    if !fromEmpty && list.items.count + iterations > size + size / 10 {
      list = Self.make(makeRows(size))
      nextID = size
    }
  }

  func run(_ iterations: Int) {
    for _ in 0..<iterations {
      if fromEmpty {
        list = Self.make([])
        nextID = 0
        for _ in 0..<size { insertAtTop() }
      } else {
        insertAtTop()
      }
    }
  }

  private func insertAtTop() {
    list.items.insert(Row(id: nextID, title: "new", on: nextID % 3 == 0), at: 0)
    nextID &+= 1
  }
}

/// The floor of ``KitMasterDetailInserts``: a plain array doing the same
/// inserts.
@MainActor
final class PlainInserts: Fixture {
  private let size: Int
  private let fromEmpty: Bool
  private var rows: [Row]
  private var nextID = 0

  init(size: Int, fromEmpty: Bool) {
    self.size = size
    self.fromEmpty = fromEmpty
    rows = fromEmpty ? [] : makeRows(size)
    nextID = fromEmpty ? 0 : size
  }

  func prepare(_ iterations: Int) {
    if !fromEmpty && rows.count + iterations > size + size / 10 {
      rows = makeRows(size)
      nextID = size
    }
  }

  func run(_ iterations: Int) {
    for _ in 0..<iterations {
      if fromEmpty {
        rows = []
        nextID = 0
        for _ in 0..<size { insertAtTop() }
      } else {
        insertAtTop()
      }
    }
    blackHole(rows)
  }

  private func insertAtTop() {
    rows.insert(Row(id: nextID, title: "new", on: nextID % 3 == 0), at: 0)
    nextID &+= 1
  }
}

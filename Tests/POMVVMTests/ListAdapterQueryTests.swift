import POMVVM
import POMVVMTesting
import TestSupport
import Testing

/// A list adapter driven by a live query behaves as one driven by an
/// array: the view shows the query's rows after every change.
@MainActor
@Suite("ListAdapter over a LiveQuery")
struct ListAdapterQueryTests {
  private func makeItems(_ count: Int) -> ObservableArray<TestItem> {
    ObservableArray((0..<count).map { TestItem($0, "\($0 % 7)", on: $0.isMultiple(of: 3)) })
  }

  @Test func theFirstUpdateReloadsTheViewWithTheQuerysRows() {
    let items = makeItems(10)
    let query = items.query(where: { $0.on })
    let view = CheckedListView<TestItem>()
    let adapter = ListAdapter(query, view: view)
    #expect(view.reloadCount == 1)
    #expect(view.rows == [0, 3, 6, 9])
    #expect(adapter.ids == [0, 3, 6, 9])
  }

  @Test func aToggleThatLeavesTheFilterIsOneDeletion() {
    let items = makeItems(10)
    let query = items.query(where: { $0.on })
    let view = CheckedListView<TestItem>()
    var batches: [BatchUpdate] = []
    view.onUpdate = { batches.append($0.batch) }
    let adapter = ListAdapter(query, view: view)
    items.cell(for: 3)?.value.on = false
    items.cell(for: 4)?.value.on = true
    items.cell(for: 4)?.value.text = "edited"
    #expect(batches.dropFirst().map(\.description) == ["delete [1]", "insert [1]", "reload [1]"])
    #expect(view.violations == [])
    #expect(view.rows == [0, 4, 6, 9])
    #expect(adapter.ids == query.ids)
  }

  /// Seeded runs of every kind of mutation, with the view ready or not and
  /// the predicate and order changing: the view always ends as the query.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func theViewFollowsTheQueryThroughRandomMutations(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    let items = makeItems(30)
    let query = items.query(where: { $0.on }, sortedBy: { $0.text < $1.text })
    let view = CheckedListView<TestItem>()
    let adapter = ListAdapter(query, view: view)
    var next = 100
    for step in 0..<400 {
      switch pick(12) {
      case 0:
        items.insert(TestItem(next, "\(pick(7))", on: pick(2) == 0), at: pick(items.count + 1))
        next += 1
      case 1 where !items.isEmpty: items.remove(at: pick(items.count))
      case 2 where !items.isEmpty: items.move(from: pick(items.count), to: pick(items.count))
      case 3 where !items.isEmpty, 4 where !items.isEmpty:
        items.cell(for: items[pick(items.count)].id)?.value.on.toggle()
      case 5 where !items.isEmpty:
        items.cell(for: items[pick(items.count)].id)?.value.text = "\(pick(7))"
      case 6:
        var elements = items.elements
        elements.shuffle(using: &random)
        for index in elements.indices where pick(4) == 0 { elements[index].text = "\(pick(7))" }
        if !elements.isEmpty && pick(2) == 0 { elements.remove(at: pick(elements.count)) }
        items.replaceAll(with: elements)
      case 7:
        items.batch { elements in
          guard !elements.isEmpty else { return }
          let removed = elements.remove(at: pick(elements.count))
          elements.insert(
            TestItem(removed.id, "\(pick(7))", on: !removed.on), at: pick(elements.count + 1))
        }
      case 8:
        let threshold = "\(pick(7))"
        query.isIncluded = pick(2) == 0 ? { $0.on } : { $0.text >= threshold }
      case 9:
        query.areInIncreasingOrder = pick(2) == 0 ? nil : { $0.text > $1.text }
      case 10:
        view.isReady.toggle()
        adapter.updateIfNeeded()
      default:
        items.append(TestItem(next, "\(pick(7))", on: true))
        next += 1
      }
      if view.isReady {
        #expect(view.rows == query.ids, "seed \(seed), step \(step)")
      }
      #expect(view.violations == [], "seed \(seed), step \(step)")
      if !view.violations.isEmpty || view.isReady && view.rows != query.ids { return }
    }
  }

  @Test func changesWhileTheViewIsNotReadyBecomeOneUpdate() {
    let items = makeItems(50)
    let query = items.query(where: { $0.on }, sortedBy: { $0.text < $1.text })
    let view = CheckedListView<TestItem>()
    let adapter = ListAdapter(query, view: view)
    view.isReady = false
    for id in 0..<3 {
      items.cell(for: id * 3)?.value.on.toggle()
      items.cell(for: id * 3 + 1)?.value.on.toggle()
      items.cell(for: id * 3 + 30)?.value.text = "\(id)"
    }
    #expect(view.updateCount == 1)
    #expect(adapter.needsUpdate)
    view.isReady = true
    adapter.updateIfNeeded()
    #expect(view.updateCount == 2)
    #expect(view.reloadCount == 1)
    #expect(view.violations == [])
    #expect(view.rows == query.ids)
  }

  /// An observer of the query that runs before the adapter makes the view
  /// ready while the query delivers a change: the update shows that change,
  /// and the change, when it reaches the adapter, is not applied twice.
  @Test func anUpdateAskedForByAnEarlierObserverOfTheQueryShowsItsChange() {
    let items = makeItems(6)
    let query = items.query(where: { $0.on })
    let view = CheckedListView<TestItem>()
    final class Holder { var adapter: ListAdapter<CheckedListView<TestItem>>? }
    let holder = Holder()
    let earlier = query.observeChanges { _ in
      guard let adapter = holder.adapter, !view.isReady else { return }
      view.isReady = true
      adapter.updateIfNeeded()
    }
    holder.adapter = ListAdapter(query, view: view)
    view.isReady = false
    items.cell(for: 1)?.value.on = true
    #expect(view.violations == [])
    #expect(view.rows == [0, 1, 3])
    items.cell(for: 3)?.value.text = "edited"
    items.cell(for: 2)?.value.on = true
    #expect(view.violations == [])
    #expect(view.rows == query.ids)
    // The insertion was shown once, by the update: never by a reload of
    // the data for ids that did not fit.
    #expect(view.reloadCount == 1)
    earlier.cancel()
  }

  @Test func aReleasedQueryAdapterAndViewAreFreed() {
    let items = makeItems(5)
    weak var weakQuery: LiveQuery<TestItem>?
    weak var weakView: CheckedListView<TestItem>?
    weak var weakAdapter: ListAdapter<CheckedListView<TestItem>>?
    do {
      let query = items.query(where: { $0.on })
      let view = CheckedListView<TestItem>()
      let adapter = ListAdapter(query, view: view)
      weakQuery = query
      weakView = view
      weakAdapter = adapter
    }
    #expect(weakAdapter == nil)
    #expect(weakQuery == nil)
    #expect(weakView == nil)
    items.remove(at: 0)
  }

  @Test func aCancelledAdapterLetsItsQueryGo() {
    let items = makeItems(5)
    let view = CheckedListView<TestItem>()
    weak var weakQuery: LiveQuery<TestItem>?
    let adapter: ListAdapter<CheckedListView<TestItem>>
    do {
      let query = items.query(where: { $0.on })
      weakQuery = query
      adapter = ListAdapter(query, view: view)
    }
    #expect(weakQuery != nil)
    adapter.cancel()
    #expect(weakQuery == nil)
    #expect(!adapter.isActive)
    #expect(view.rows == [0, 3])
  }
}

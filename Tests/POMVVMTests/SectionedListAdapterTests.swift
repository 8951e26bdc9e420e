import POMVVM
import POMVVMTesting
import TestSupport
import Testing

/// A sectioned adapter keeps a sectioned view equal to its query, with
/// updates UIKit takes, coalesced while the view is not ready.
@MainActor
@Suite("SectionedListAdapter")
struct SectionedListAdapterTests {
  private typealias View = CheckedSectionedListView<Int, TestItem>

  private func makeItems(_ count: Int) -> ObservableArray<TestItem> {
    ObservableArray((0..<count).map { TestItem($0, "\($0 % 7)", on: $0.isMultiple(of: 3)) })
  }

  /// The query's sections as the headless view shows them.
  private func expected(_ query: SectionedQuery<Int, TestItem>) -> [View.Section] {
    query.sections.map { View.Section(key: $0.key, ids: $0.ids) }
  }

  @Test func theFirstUpdateReloadsTheViewWithTheQuerysSections() {
    let items = makeItems(6)
    let query = items.query(sectionedBy: { $0.on ? 1 : 0 })
    let view = View()
    let adapter = SectionedListAdapter(query, view: view)
    #expect(view.reloadCount == 1)
    #expect(view.sections == [.init(key: 0, ids: [1, 2, 4, 5]), .init(key: 1, ids: [0, 3])])
    #expect(adapter.keys == [0, 1])
    #expect(adapter.ids == [[1, 2, 4, 5], [0, 3]])
  }

  @Test func aToggleAcrossSectionsIsOneMoveNotAReload() {
    let items = makeItems(6)
    let query = items.query(sectionedBy: { $0.on ? 1 : 0 })
    let view = View()
    let adapter = SectionedListAdapter(query, view: view)
    items.cell(for: 1)?.value.on = true
    #expect(view.batches.last?.moves.count == 1)
    #expect(view.batches.last?.isReloadData == false)
    #expect(view.violations == [])
    #expect(view.sections == expected(query))
    // The last row of a section leaves: the section goes with it.
    for id in [0, 1, 3] { items.cell(for: id)?.value.on = false }
    #expect(view.batches.last?.sectionDeletions == [1])
    #expect(view.reloadCount == 1)
    #expect(view.violations == [])
    #expect(view.sections == expected(query))
    #expect(adapter.ids == [[0, 1, 2, 3, 4, 5]])
  }

  @Test func anEditInPlaceIsOneReload() {
    let items = makeItems(6)
    let query = items.query(sortedBy: { $0.id < $1.id }, sectionedBy: { $0.on ? 1 : 0 })
    let view = View()
    let adapter = SectionedListAdapter(query, view: view)
    items.cell(for: 4)?.value.text = "edited"
    #expect(
      view.batches.last
        == SectionedBatchUpdate(
          reloads: [RowPath(section: 0, row: 2)], changedRows: [RowPath(section: 0, row: 2)]))
    #expect(view.violations == [])
    #expect(adapter.ids == [[1, 2, 4, 5], [0, 3]])
  }

  /// Sections of thousands of rows are kept in chunks by the adapter: rows
  /// that move in and out at the front, the middle and the end, chunks that
  /// split as a section grows and go as it empties, with the view ready or
  /// not, keep the adapter's ids and the view equal to the query.
  @Test func sectionsLargerThanAChunkFollowMovesInsertionsAndRemovals() {
    var random = SplitMix64(seed: 7)
    func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    // One section just over a chunk (1,024 rows), and few enough rows and
    // steps that the checked view, which reads every row on each update,
    // does not hold the main actor for long (under the thread sanitizer,
    // 3,000 rows held it for minutes and starved the suites beside it).
    let items = ObservableArray((0..<1_400).map { TestItem($0, "\($0)", on: $0 < 1_100) })
    let query = items.query(sortedBy: { $0.id < $1.id }, sectionedBy: { $0.on ? 1 : 0 })
    let view = View()
    let adapter = SectionedListAdapter(query, view: view)
    var next = 1_400
    for step in 0..<150 {
      switch pick(5) {
      case 0, 1:
        // Across sections: the first, the last or any row of a section.
        let ids = query.sections[pick(query.sectionCount)].ids
        let id = [ids[0], ids[ids.count - 1], ids[pick(ids.count)]][pick(3)]
        items.cell(for: id)?.value.on.toggle()
      case 2:
        items.append(TestItem(next, "\(next)", on: pick(2) == 0))
        next += 1
      case 3:
        if items.count > 100 { items.remove(at: pick(items.count)) }
      default:
        view.isReady.toggle()
        adapter.updateIfNeeded()
      }
      #expect(view.violations == [], "step \(step)")
      if view.isReady {
        #expect(view.sections == expected(query), "step \(step)")
        #expect(adapter.ids == query.sections.map(\.ids), "step \(step)")
      }
      if !view.violations.isEmpty { return }
    }
    // One section takes nearly every row, then gives them all back.
    view.isReady = true
    adapter.updateIfNeeded()
    let ids = items.elements.map(\.id)
    for id in ids { items.cell(for: id)?.value.on = true }
    #expect(query.sectionCount == 1)
    for id in ids { items.cell(for: id)?.value.on = false }
    #expect(view.violations == [])
    #expect(view.sections == expected(query))
    #expect(adapter.ids == [ids.sorted()])
  }

  /// Seeded runs of every kind of mutation, with the view ready or not and
  /// the predicate and order changing: the view always ends as the query.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func theViewFollowsTheQueryThroughRandomMutations(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    let items = makeItems(30)
    let query = items.query(
      where: { $0.text != "6" }, sortedBy: { $0.text < $1.text }, sectionedBy: { $0.on ? 1 : 0 })
    let view = View()
    let adapter = SectionedListAdapter(query, view: view)
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
        for index in elements.indices where pick(4) == 0 { elements[index].on.toggle() }
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
        query.isIncluded = pick(2) == 0 ? { $0.text != "6" } : { $0.text >= threshold }
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
        #expect(view.sections == expected(query), "seed \(seed), step \(step)")
      }
      #expect(view.violations == [], "seed \(seed), step \(step)")
      if !view.violations.isEmpty || view.isReady && view.sections != expected(query) { return }
    }
    // Worth something only if most updates patched the view.
    #expect(view.reloadCount < view.updateCount / 4)
  }

  // MARK: - Reloads and waiting views under re-entrancy

  @Test func aReloadAfterAnEarlierObserverRemovedARowDuringTheArraysDeliveryShowsTheQuery() {
    let items = makeItems(6)
    let query = items.query(sectionedBy: { $0.on ? 1 : 0 })
    var sawReload = false
    let earlier = query.observeChanges { change in
      guard change.batchUpdate.isReloadData, !sawReload else { return }
      sawReload = true
      items.remove(id: 103)
    }
    let view = View()
    let adapter = SectionedListAdapter(query, view: view)
    items.replaceAll(with: (100..<110).map { TestItem($0, "x", on: $0.isMultiple(of: 2)) })
    #expect(sawReload)
    #expect(view.violations == [])
    #expect(view.sections == expected(query))
    #expect(adapter.ids.flatMap { $0 }.contains(103) == false)
    _ = earlier
  }

  @Test func aReloadAfterAnEarlierObserverRemovedARowWhileTheArrayIsIdleShowsTheQuery() {
    let items = makeItems(12)
    let query = items.query(where: { $0.id < 6 }, sectionedBy: { $0.on ? 1 : 0 })
    var sawReload = false
    let earlier = query.observeChanges { change in
      guard change.batchUpdate.isReloadData, !sawReload else { return }
      sawReload = true
      items.remove(id: 7)
    }
    let view = View()
    let adapter = SectionedListAdapter(query, view: view)
    query.isIncluded = { $0.id >= 6 }
    #expect(sawReload)
    #expect(view.violations == [])
    #expect(view.sections == expected(query))
    #expect(adapter.ids == [[8, 10, 11], [6, 9]])
    _ = earlier
  }

  @Test func anAdapterMadeWhileTheQueryDeliversKeepsFollowingIt() {
    let items = makeItems(12)
    let query = items.query(where: { $0.id < 6 }, sectionedBy: { $0.on ? 1 : 0 })
    let view = View()
    var adapter: SectionedListAdapter<View>?
    let earlier = query.observeChanges { _ in
      guard adapter == nil else { return }
      // The query's next change waits behind this one; the adapter is made
      // from the query's rows, which already show it.
      items.remove(id: 7)
      adapter = SectionedListAdapter(query, view: view)
    }
    query.isIncluded = { $0.id >= 6 }
    #expect(view.sections == expected(query))
    items.cell(for: 8)?.value.on = true
    #expect(view.violations == [])
    #expect(view.sections == expected(query))
    _ = earlier
  }

  @Test(arguments: [false, true])
  func aRowThatEntersANewSectionWhileTheViewWaitsShowsItsNewValue(removedFirst: Bool) {
    // Off: 0 and 1; on: 2.
    let items = ObservableArray([TestItem(0, "0"), TestItem(1, "1"), TestItem(2, "2", on: true)])
    let query = items.query(sectionedBy: { $0.on ? 1 : 0 })
    let view = View()
    let adapter = SectionedListAdapter(query, view: view)
    view.isReady = false
    // The "on" section goes, then comes back with 1 in it, with a new
    // value: the view still shows "on" with 2, and 1 with its old value.
    if removedFirst { items.remove(id: 1) }
    items.cell(for: 2)?.value.on = false
    if removedFirst {
      items.insert(TestItem(1, "back", on: true), at: 1)
    } else {
      items.cell(for: 1)?.value = TestItem(1, "moved", on: true)
    }
    view.isReady = true
    adapter.updateIfNeeded()
    #expect(view.violations == [])
    #expect(view.sections == expected(query))
  }

  @Test func changesWhileTheViewIsNotReadyBecomeOneUpdate() {
    let items = makeItems(30)
    let query = items.query(sectionedBy: { $0.on ? 1 : 0 })
    let view = View()
    let adapter = SectionedListAdapter(query, view: view)
    view.isReady = false
    items.cell(for: 1)?.value.on = true
    items.cell(for: 2)?.value.text = "edited"
    items.cell(for: 1)?.value.text = "edited too"
    items.remove(at: 5)
    #expect(view.updateCount == 1)
    #expect(adapter.needsUpdate)
    #expect(
      adapter.ids == [
        [1, 2, 4, 5, 7, 8, 10, 11, 13, 14, 16, 17, 19, 20, 22, 23, 25, 26, 28, 29],
        [0, 3, 6, 9, 12, 15, 18, 21, 24, 27],
      ])
    view.isReady = true
    adapter.updateIfNeeded()
    #expect(view.updateCount == 2)
    #expect(view.reloadCount == 1)
    #expect(view.violations == [])
    #expect(view.sections == expected(query))
    #expect(!adapter.needsUpdate)
  }

  @Test func aChangeMadeWhileTheViewAppliesAnUpdateIsAppliedAfterIt() {
    let items = makeItems(6)
    let query = items.query(sectionedBy: { $0.on ? 1 : 0 })
    let view = View()
    let adapter = SectionedListAdapter(query, view: view)
    var once = true
    view.onUpdate = { _ in
      guard once else { return }
      once = false
      items.cell(for: 2)?.value.on = true
    }
    items.cell(for: 1)?.value.on = true
    #expect(!view.didInterleave)
    #expect(view.violations == [])
    #expect(view.sections == expected(query))
    #expect(adapter.ids == [[4, 5], [0, 1, 2, 3]])
  }

  @Test func aReleasedAdapterFreesItsQueryAndLeavesTheView() {
    let items = makeItems(6)
    let view = View()
    weak var weakQuery: SectionedQuery<Int, TestItem>?
    weak var weakAdapter: SectionedListAdapter<View>?
    do {
      let query = items.query(sectionedBy: { $0.on ? 1 : 0 })
      let adapter = SectionedListAdapter(query, view: view)
      weakQuery = query
      weakAdapter = adapter
    }
    #expect(weakAdapter == nil)
    #expect(weakQuery == nil)
    items.remove(at: 0)
    #expect(view.updateCount == 1)
  }

  @Test func aReleasedViewIsNotKeptAndACancelledAdapterStops() {
    let items = makeItems(6)
    let query = items.query(sectionedBy: { $0.on ? 1 : 0 })
    weak var weakView: View?
    let adapter: SectionedListAdapter<View>
    do {
      let view = View()
      weakView = view
      adapter = SectionedListAdapter(query, view: view)
    }
    #expect(weakView == nil)
    items.append(TestItem(9))
    #expect(adapter.view == nil)
    adapter.cancel()
    #expect(!adapter.isActive)
  }
}

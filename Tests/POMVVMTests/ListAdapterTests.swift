import POMVVM
import POMVVMTesting
import TestSupport
import Testing

@MainActor
@Suite("ListAdapter")
struct ListAdapterTests {
  private func makeItems(_ count: Int) -> ObservableArray<TestItem> {
    ObservableArray((0..<count).map { TestItem($0, "\($0)") })
  }

  @Test func theFirstUpdateReloadsTheViewWithTheArraysRows() {
    let items = makeItems(3)
    let view = CheckedListView<TestItem>()
    let adapter = ListAdapter(items, view: view)
    #expect(view.updateCount == 1)
    #expect(view.reloadCount == 1)
    #expect(view.rows == [0, 1, 2])
    #expect(adapter.ids == [0, 1, 2])
    #expect(!adapter.needsUpdate)
  }

  @Test func everyChangeIsOneValidUpdateWhileTheViewIsReady() {
    let items = makeItems(5)
    let view = CheckedListView<TestItem>()
    let adapter = ListAdapter(items, view: view)
    items.insert(TestItem(9), at: 2)
    items.move(from: 0, to: 4)
    items.update(TestItem(3, "edited"))
    items.replaceAll(with: [TestItem(4, "moved and edited"), TestItem(1), TestItem(9), TestItem(2)])
    items.remove(at: 0)
    #expect(view.updateCount == 6)
    #expect(view.violations == [])
    #expect(view.rows == items.map(\.id))
    #expect(view.rowsAfterSteps == items.map(\.id))
    #expect(adapter.ids == items.map(\.id))
  }

  @Test func fiftyChangesWhileTheViewIsNotReadyBecomeOneValidUpdate() {
    let items = makeItems(200)
    let view = CheckedListView<TestItem>()
    let adapter = ListAdapter(items, view: view)
    view.isReady = false
    var random = SplitMix64(seed: 50)
    var next = 1_000
    for change in 0..<50 {
      switch change % 5 {
      case 0:
        items.insert(TestItem(next), at: Int.random(in: 0..<items.count + 1, using: &random))
        next += 1
      case 1: items.remove(at: Int.random(in: 0..<items.count, using: &random))
      case 2:
        items.move(
          from: Int.random(in: 0..<items.count, using: &random),
          to: Int.random(in: 0..<items.count, using: &random))
      case 3:
        let element = items[Int.random(in: 0..<items.count, using: &random)]
        items.update(TestItem(element.id, "edit \(change)"))
      default:
        // Remove an element and put it back, edited, elsewhere.
        items.batch { contents in
          let element = contents.remove(at: Int.random(in: 0..<contents.count, using: &random))
          contents.insert(
            TestItem(element.id, "back \(change)"),
            at: Int.random(in: 0..<contents.count + 1, using: &random))
        }
      }
    }
    #expect(view.updateCount == 1)
    #expect(adapter.needsUpdate)
    #expect(adapter.ids != items.map(\.id))
    view.isReady = true
    adapter.updateIfNeeded()
    #expect(view.updateCount == 2)
    // A diff, not a reload: only the first update reloaded.
    #expect(view.reloadCount == 1)
    #expect(view.violations == [])
    #expect(view.rows == items.map(\.id))
    #expect(!adapter.needsUpdate)
  }

  @Test func theNextChangeFindsAViewThatBecameReady() {
    let items = makeItems(4)
    let view = CheckedListView<TestItem>()
    _ = withExtendedLifetime(ListAdapter(items, view: view)) { adapter in
      view.isReady = false
      items.move(from: 0, to: 3)
      items.update(TestItem(2, "edited"))
      view.isReady = true
      items.append(TestItem(7))
      #expect(view.updateCount == 2)
      #expect(view.violations == [])
      #expect(view.rows == items.map(\.id))
      return adapter
    }
  }

  @Test func aChangeMadeWhileTheViewAppliesAnUpdateIsAppliedAfterIt() {
    let items = makeItems(3)
    let view = CheckedListView<TestItem>()
    var log: [String] = []
    view.onUpdate = { update in
      log.append("begin \(update.batch)")
      if update.ids.count == 4 {
        items.remove(at: 0)
      }
      log.append("end")
    }
    let adapter = ListAdapter(items, view: view)
    items.append(TestItem(3))
    #expect(
      log == [
        "begin reloadData", "end", "begin insert [3]", "end", "begin delete [0]", "end",
      ])
    #expect(!view.didInterleave)
    #expect(view.violations == [])
    #expect(view.rows == [1, 2, 3])
    #expect(adapter.ids == [1, 2, 3])
  }

  @Test func aChangeMadeDuringACoalescedUpdateWaitsForIt() {
    let items = makeItems(3)
    let view = CheckedListView<TestItem>()
    let adapter = ListAdapter(items, view: view)
    view.isReady = false
    items.move(from: 0, to: 2)
    var insertedDuringUpdate = false
    view.onUpdate = { _ in
      if !insertedDuringUpdate {
        insertedDuringUpdate = true
        // Outside the array's delivery: the adapter itself must wait.
        items.insert(TestItem(8), at: 0)
      }
    }
    view.isReady = true
    adapter.updateIfNeeded()
    #expect(view.updateCount == 3)
    #expect(!view.didInterleave)
    #expect(view.violations == [])
    #expect(view.rows == items.map(\.id))
  }

  @Test func anAdapterMadeWhileAChangeWaitsSkipsWhatItAlreadyShows() {
    let items = makeItems(3)
    let view = CheckedListView<TestItem>()
    var adapter: ListAdapter<CheckedListView<TestItem>>?
    let first = items.observeChanges { _ in
      guard adapter == nil else { return }
      // This change is queued behind the one being delivered...
      items.append(TestItem(5))
      // ...and the new adapter starts from the contents after both.
      adapter = ListAdapter(items, view: view)
    }
    items.remove(at: 0)
    first.cancel()
    #expect(view.updateCount == 1)
    #expect(view.violations == [])
    #expect(view.rows == [1, 2, 5])
    #expect(adapter?.ids == [1, 2, 5])
  }

  /// A view that keeps the text of each row and redraws only what an update
  /// says changed, as a real table view does.
  final class RedrawingView: ListView {
    var isReady = true
    private(set) var texts: [Int: String] = [:]
    private(set) var order: [Int] = []
    let checked = CheckedListView<TestItem>()

    var canUpdateRows: Bool { isReady }

    func updateRows(_ update: ListUpdate<TestItem>) {
      checked.updateRows(update)
      let redrawn: [Int] =
        update.isReloadData
        ? Array(update.ids.indices) : update.batch.insertions + update.batch.changedRows
      order = update.ids
      for row in redrawn {
        texts[update.ids[row]] = update.elements[row].text
      }
    }

    var shown: [String] { order.map { texts[$0] ?? "?" } }
  }

  /// The repro of issue #31, item 6: the view becomes ready in an observer
  /// that runs before the adapter's, while a change is being delivered.
  @Test func anUpdateAskedForByAnEarlierObserverMidDeliveryShowsThatChange() {
    let items = ObservableArray((1...3).map { TestItem($0, "n\($0)") })
    let view = RedrawingView()
    var adapter: ListAdapter<RedrawingView>?
    let earlier = items.observeChanges { change in
      guard let adapter, !view.isReady, change.newElements[1].text == "y" else { return }
      view.isReady = true
      adapter.updateIfNeeded()
    }
    adapter = ListAdapter(items, view: view)
    view.isReady = false
    items.cell(for: 1)?.value.text = "x"
    items.cell(for: 2)?.value.text = "y"
    #expect(view.shown == ["x", "y", "n3"])
    #expect(view.checked.violations == [])
    #expect(adapter?.needsUpdate == false)
    items.cell(for: 3)?.value.text = "z"
    #expect(view.shown == ["x", "y", "z"])
    earlier.cancel()
  }

  /// The same with a queued change: an observer after the adapter makes the
  /// view ready while a change it made waits to be delivered.
  @Test func anUpdateAskedForByALaterObserverMidDeliveryShowsTheQueuedChange() {
    let items = ObservableArray((1...3).map { TestItem($0, "n\($0)") })
    let view = RedrawingView()
    let adapter = ListAdapter(items, view: view)
    view.isReady = false
    let later = items.observeChanges { change in
      guard !view.isReady, change.newElements.first?.text == "x" else { return }
      items.cell(for: 2)?.value.text = "y"  // queued behind this change
      items.remove(at: 2)  // queued too
      view.isReady = true
      adapter.updateIfNeeded()
    }
    items.cell(for: 1)?.value.text = "x"
    #expect(view.shown == ["x", "y"])
    #expect(view.checked.violations == [])
    #expect(adapter.ids == [1, 2])
    items.cell(for: 2)?.value.text = "w"
    #expect(view.shown == ["x", "w"])
    #expect(view.checked.violations == [])
    later.cancel()
  }

  @Test func rebindingShowsTheNewArraysRowsAndACancelledAdapterLeavesTheRows() {
    let first = makeItems(3)
    let second = ObservableArray([TestItem(7), TestItem(8)])
    let view = CheckedListView<TestItem>()
    let adapter = ListAdapter(first, view: view)
    adapter.cancel()
    first.remove(at: 0)
    #expect(view.rows == [0, 1, 2])
    #expect(!adapter.isActive)
    let rebound = ListAdapter(second, view: view)
    #expect(view.rows == [7, 8])
    #expect(view.violations == [])
    #expect(rebound.isActive)
  }

  @Test func nothingIsKeptAliveAfterCancel() {
    weak var weakItems: ObservableArray<TestItem>?
    weak var weakView: CheckedListView<TestItem>?
    weak var weakAdapter: ListAdapter<CheckedListView<TestItem>>?
    do {
      let items = makeItems(3)
      let view = CheckedListView<TestItem>()
      let adapter = ListAdapter(items, view: view)
      weakItems = items
      weakView = view
      weakAdapter = adapter
      adapter.cancel()
    }
    #expect(weakItems == nil)
    #expect(weakView == nil)
    #expect(weakAdapter == nil)
  }

  @Test func aReleasedAdapterStopsAndTheArrayForgetsIt() {
    let items = makeItems(3)
    let view = CheckedListView<TestItem>()
    weak var weakAdapter: ListAdapter<CheckedListView<TestItem>>?
    do {
      let adapter = ListAdapter(items, view: view)
      weakAdapter = adapter
    }
    #expect(weakAdapter == nil)
    items.remove(at: 0)
    #expect(view.updateCount == 1)
    #expect(view.rows == [0, 1, 2])
  }

  @Test func aReleasedViewIsNotKeptByItsAdapter() {
    let items = makeItems(2)
    weak var weakView: CheckedListView<TestItem>?
    let adapter: ListAdapter<CheckedListView<TestItem>>
    do {
      let view = CheckedListView<TestItem>()
      weakView = view
      adapter = ListAdapter(items, view: view)
    }
    #expect(weakView == nil)
    items.append(TestItem(5))
    #expect(adapter.view == nil)
  }
}

import Testing

@testable import POMVVM

/// A sectioned adapter reuses the ids and values behind its updates while
/// no view holds one, and leaves an update that a view keeps as it was.
@MainActor
@Suite("Sectioned update source")
struct SectionedUpdateSourceTests {
  /// Keeps every update it applies, with what it read from it then.
  final class KeepingView: SectionedListView {
    var kept: [(update: SectionedListUpdate<Int, TestItem>, ids: [[Int]], values: [TestItem])] = []
    var keeps = true
    var applied = 0

    func updateSections(_ update: SectionedListUpdate<Int, TestItem>) {
      applied += 1
      guard keeps else { return }
      kept.append((update, update.ids, Self.values(of: update)))
    }

    /// Every row's value, section by section.
    static func values(of update: SectionedListUpdate<Int, TestItem>) -> [TestItem] {
      update.ids.indices.flatMap { section in
        update.ids[section].indices.map { update.element(at: RowPath(section: section, row: $0)) }
      }
    }
  }

  private func makeItems() -> ObservableArray<TestItem> {
    ObservableArray((0..<8).map { TestItem($0, "t\($0)", on: $0.isMultiple(of: 3)) })
  }

  /// Moves across sections, edits in place and an insertion, each update
  /// kept: read again after all of them, every kept update still has the
  /// rows it had when the view applied it.
  @Test func anUpdateTheViewKeepsStaysAsItWasThroughLaterChanges() {
    let items = makeItems()
    let query = items.query(sortedBy: { $0.id < $1.id }, sectionedBy: { $0.on ? 1 : 0 })
    let view = KeepingView()
    let adapter = SectionedListAdapter(query, view: view)
    items.cell(for: 1)?.value.on = true
    items.cell(for: 4)?.value.text = "edited"
    items.cell(for: 4)?.value.text = "edited again"
    items.cell(for: 2)?.value.on = true
    items.append(TestItem(20, "new", on: false))
    #expect(view.kept.count == 6)
    for (index, kept) in view.kept.enumerated() {
      #expect(kept.update.ids == kept.ids, "update \(index)")
      // Read now, a row's value is its value now (the documented reading
      // is during the update), but the rows are the update's.
      #expect(
        KeepingView.values(of: kept.update).map(\.id) == kept.values.map(\.id), "update \(index)")
    }
    // The edits in place show the value each was made with.
    #expect(view.kept[2].values.contains(TestItem(4, "edited", on: false)))
    #expect(view.kept[3].values.contains(TestItem(4, "edited again", on: false)))
    #expect(adapter.ids == [[4, 5, 7, 20], [0, 1, 2, 3, 6]])
    #expect(view.kept.last?.ids == query.sections.map(\.ids))
  }

  /// While the view keeps no update, one source serves every update; once
  /// the view keeps one, the next update gets a new source and the kept
  /// one is let go of when the view lets go of it.
  @Test func theAdapterReusesItsSourceWhileNoViewHoldsAnUpdate() {
    let items = makeItems()
    let query = items.query(sortedBy: { $0.id < $1.id }, sectionedBy: { $0.on ? 1 : 0 })
    let view = KeepingView()
    view.keeps = false
    let adapter = SectionedListAdapter(query, view: view)
    items.cell(for: 1)?.value.on = true
    let first = adapter._source.map(ObjectIdentifier.init)
    items.cell(for: 4)?.value.text = "edited"
    items.cell(for: 2)?.value.on = true
    #expect(view.applied == 4)
    #expect(first != nil)
    #expect(adapter._source.map(ObjectIdentifier.init) == first)
    // A kept update keeps its source; the next update has its own.
    view.keeps = true
    items.cell(for: 5)?.value.on = true
    weak let kept = adapter._source
    items.cell(for: 5)?.value.text = "edited"
    #expect(kept != nil)
    #expect(adapter._source !== kept)
    view.kept.removeAll()
    #expect(kept == nil)
  }
}

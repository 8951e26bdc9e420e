import POMVVM

/// The list screen, rendered as text: the header, the search when there is
/// one, then one numbered line per item — in an Off and an On section when
/// the list is grouped.
///
/// ```
/// Items (open switches: 1)
///   Search: fir
/// Off
///   1. [ ] first
/// On
///   2. [x] fir tree
/// ```
///
/// The screen renders through the adapters: ungrouped, it is a
/// ``POMVVM/ListView`` that a ``POMVVM/ListAdapter`` drives from the view
/// model's ``MasterViewModel/visible`` query; grouped, a
/// ``POMVVM/SectionedListView`` that a ``POMVVM/SectionedListAdapter``
/// drives from its ``MasterViewModel/sections``. Either patches its rows
/// with each update's batch — a deleted row is unbound and kept for reuse,
/// an inserted one is a reused row bound to the new item, a moved row moves,
/// across sections too — and never rebuilds the list for a single change.
/// Changed rows redraw themselves: each row is bound to its item's cell view
/// model. Turning grouping on or off swaps the adapter, which reloads.
///
/// Binding it to another view model shows that view model's rows (the
/// adapter's first update reloads them); unbinding it leaves the rows it
/// showed, unbound.
@MainActor
public final class MasterListView: BindableView, ListView, SectionedListView {
  /// The list's view model.
  public var viewModel: MasterViewModel?

  /// The tokens of the screen's current binding.
  public let bindings = SubscriptionBag()

  /// The header.
  public let header = ListHeaderView()

  /// The rows, in the order they are shown, numbered from 0 across
  /// sections.
  public private(set) var rows: [ItemRowView] = []

  /// The keys of the sections shown, or `nil` when the list is not grouped.
  public private(set) var sectionKeys: [SwitchSection]?

  /// How many of ``rows`` each section holds, when the list is grouped.
  private var sectionCounts: [Int] = []

  /// Rows that left the list, ready to be bound to another item.
  private var reusable: [ItemRowView] = []

  /// The adapter of the current grouping.
  private var adapter: (any SubscriptionToken)?

  /// How many row views were ever created; reuse keeps it low.
  public private(set) var rowsCreated = 0

  /// Creates an unbound screen.
  public init() {}

  /// Binds the header, and the rows through an adapter that follows the
  /// items the list shows: flat or grouped, as the view model says.
  ///
  /// - Parameter viewModel: The list's view model.
  /// - Returns: The binding tokens: the grouping's observer, which makes an
  ///   adapter at once (its first update reloads the rows), and the
  ///   teardown of the adapter and the rows.
  public func makeBindings(to viewModel: MasterViewModel) -> [any SubscriptionToken] {
    header.bind(to: viewModel)
    regroup(viewModel)
    return [
      viewModel.isGrouped.observeChanges { [weak self, weak viewModel] _ in
        guard let self, let viewModel else { return }
        regroup(viewModel)
      },
      viewModel.searchText.observeChanges { [weak self, weak viewModel] _ in
        guard let self, let viewModel, !viewModel.isGrouped.value,
          isSearching == viewModel.searchText.value.isEmpty
        else { return }
        // A search starts or ends: the rows come from a query now, or from
        // the items.
        regroup(viewModel)
      },
      // The header and the rows were bound by hand: end their bindings with
      // the screen's. They keep showing what they showed, as an unbound
      // screen does; the next binding recycles the rows. (Weak: when the
      // screen itself goes, its bag runs this after it is gone.)
      TeardownToken { [weak self] in
        guard let self else { return }
        adapter?.cancel()
        adapter = nil
        header.unbind()
        for row in rows {
          row.unbind()
        }
      },
    ]
  }

  /// Whether the rows come from a search.
  private var isSearching = false

  /// Drives the rows from the items, a search or a grouping.
  ///
  /// Whichever the view model asks for; the new adapter reloads. Only the
  /// query in use lives: the items alone cost the list nothing more than an
  /// array.
  private func regroup(_ viewModel: MasterViewModel) {
    adapter?.cancel()
    isSearching = !viewModel.searchText.value.isEmpty
    if viewModel.isGrouped.value {
      adapter = SectionedListAdapter(viewModel.groupedBySwitch(), view: self)
    } else if isSearching {
      adapter = ListAdapter(viewModel.searchResults(), view: self)
    } else {
      adapter = ListAdapter(viewModel.items, view: self)
    }
  }

  /// The screen as lines of text.
  public var lines: [String] {
    var lines = [header.title.value]
    if let search = searchLine { lines.append(search) }
    for index in rows.indices {
      if let title = sectionTitle(beforeRow: index) { lines.append(title) }
      lines.append(line(forRow: index))
    }
    return lines
  }

  /// `  Search: TEXT` while the list searches, or `nil`.
  ///
  /// The text is the user's, as typed: whoever prints it makes control
  /// characters visible.
  public var searchLine: String? {
    guard let text = viewModel?.searchText.value, !text.isEmpty else { return nil }
    return "  Search: \(text)"
  }

  /// The header of the section that starts at a row, when the list is
  /// grouped: `Off` or `On`; `nil` for a row inside a section.
  ///
  /// - Parameter index: The row, from 0.
  /// - Returns: The section's header, or `nil`.
  /// - Complexity: O(*s*) for *s* sections.
  public func sectionTitle(beforeRow index: Int) -> String? {
    guard let keys = sectionKeys else { return nil }
    var start = 0
    for (section, count) in sectionCounts.enumerated() {
      if start == index { return keys[section].description }
      start += count
      if start > index { return nil }
    }
    return nil
  }

  /// The line of one row, numbered from 1 as ``lines`` shows it:
  /// `  2. [x] first`, the number right-aligned to the widest one.
  ///
  /// A screen that shows only some rows (a terminal window onto a long
  /// list) asks for those, at no cost for the others.
  ///
  /// - Parameter index: The row, from 0; it must be a valid index of
  ///   ``rows``.
  /// - Returns: The row's line.
  /// - Complexity: O(1) besides the length of the line.
  public func line(forRow index: Int) -> String {
    // Right-aligned, so that the rows' texts line up past row 9.
    let number = String(index + 1)
    let width = String(rows.count).count
    return String(repeating: " ", count: 2 + width - number.count)
      + "\(number). \(rows[index].line.value)"
  }

  /// Patches the rows with an update from the flat list's adapter.
  ///
  /// The rows are the screen's data: they change here, inside the update.
  /// Rows of changed items redraw through their bindings.
  ///
  /// - Parameter update: The update.
  public func updateRows(_ update: ListUpdate<Item>) {
    if update.isReloadData || sectionKeys != nil {
      recycle()
      sectionKeys = nil
      rows = update.ids.indices.map { index in
        row(for: update.ids[index]) { update.elements[index] }
      }
      return
    }
    let batch = update.batch
    // Leaving rows go by descending old index; moved rows are kept.
    var moved: [Int: ItemRowView] = [:]
    let sources = Set(batch.moves.map(\.from))
    var leaving = batch.deletions + sources
    if leaving.count > 1 { leaving.sort(by: >) }
    for index in leaving {
      let row = rows.remove(at: index)
      if sources.contains(index) { moved[index] = row } else { retire(row) }
    }
    // Entering rows by ascending new index: the moved rows, and rows bound to
    // the inserted items.
    var entering = batch.moves.compactMap { move in moved[move.from].map { (move.to, $0) } }
    for index in batch.insertions {
      entering.append((index, row(for: update.ids[index]) { update.elements[index] }))
    }
    if entering.count > 1 { entering.sort { $0.0 < $1.0 } }
    for (index, row) in entering {
      rows.insert(row, at: index)
    }
  }

  /// Patches the sections and rows with an update from the grouped list's
  /// adapter: sections come and go with their rows, and a row whose switch
  /// changes moves from one section to the other.
  ///
  /// - Parameter update: The update.
  public func updateSections(_ update: SectionedListUpdate<SwitchSection, Item>) {
    if update.isReloadData || sectionKeys == nil {
      recycle()
      sectionKeys = update.keys
      sectionCounts = update.ids.map(\.count)
      rows = update.ids.indices.flatMap { section in
        update.ids[section].indices.map { row in
          self.row(for: update.ids[section][row]) {
            update.element(at: RowPath(section: section, row: row))
          }
        }
      }
      return
    }
    var sections: [[ItemRowView]] = []
    var start = 0
    for count in sectionCounts {
      sections.append(Array(rows[start..<start + count]))
      start += count
    }
    apply(
      update.batch, to: &sections, sectionSize: { update.ids[$0].count },
      id: { update.ids[$0.section][$0.row] }, element: update.element(at:))
    sectionKeys = update.keys
    sectionCounts = sections.map(\.count)
    rows = sections.flatMap { $0 }
  }

  /// Applies a batch to the rows the way a table view does.
  private func apply(
    _ batch: SectionedBatchUpdate, to sectionRows: inout [[ItemRowView]],
    sectionSize: (Int) -> Int, id: (RowPath) -> Item.ID, element: (RowPath) -> Item
  ) {
    // Moved rows are kept; leaving rows go by descending old path.
    var entering: [(RowPath, ItemRowView)] = batch.moves.map {
      ($0.to, sectionRows[$0.from.section][$0.from.row])
    }
    let sources = Set(batch.moves.map(\.from))
    var leaving = batch.deletions + sources
    if leaving.count > 1 { leaving.sort(by: >) }
    for path in leaving {
      let row = sectionRows[path.section].remove(at: path.row)
      if !sources.contains(path) { retire(row) }
    }
    if !batch.sectionDeletions.isEmpty || !batch.sectionInsertions.isEmpty
      || !batch.sectionMoves.isEmpty
    {
      sectionRows = rebuilt(
        batch, from: sectionRows,
        count: sectionRows.count - batch.sectionDeletions.count
          + batch.sectionInsertions.count, sectionSize: sectionSize, id: id, element: element)
    }
    // Entering rows by ascending new path: moved rows, and rows bound to the
    // inserted items.
    for path in batch.insertions {
      entering.append((path, row(for: id(path)) { element(path) }))
    }
    if entering.count > 1 { entering.sort { $0.0 < $1.0 } }
    for (path, row) in entering {
      sectionRows[path.section].insert(row, at: path.row)
    }
  }

  /// The sections after the batch's section deletions, moves and
  /// insertions; an inserted section's rows come from the data.
  private func rebuilt(
    _ batch: SectionedBatchUpdate, from sectionRows: [[ItemRowView]], count: Int,
    sectionSize: (Int) -> Int, id: (RowPath) -> Item.ID, element: (RowPath) -> Item
  ) -> [[ItemRowView]] {
    var leaving = Set(batch.sectionDeletions)
    for index in batch.sectionDeletions {
      sectionRows[index].forEach(retire)
    }
    var result = [[ItemRowView]?](repeating: nil, count: count)
    for move in batch.sectionMoves {
      leaving.insert(move.from)
      result[move.to] = sectionRows[move.from]
    }
    for index in batch.sectionInsertions {
      result[index] = (0..<sectionSize(index)).map {
        let path = RowPath(section: index, row: $0)
        return row(for: id(path)) { element(path) }
      }
    }
    var staying = sectionRows.indices.filter { !leaving.contains($0) }.makeIterator()
    for index in result.indices where result[index] == nil {
      result[index] = staying.next().map { sectionRows[$0] } ?? []
    }
    return result.map { $0 ?? [] }
  }

  /// A row for an item: bound to its cell view model, or showing its value
  /// when there is no view model (read only then: an update's elements may
  /// cost O(n) to make).
  private func row(for id: Item.ID, element: () -> Item) -> ItemRowView {
    if let cellViewModel = viewModel?.cellViewModel(for: id) {
      return dequeue(bound: cellViewModel)
    }
    let item = element()
    let row = dequeue(bound: nil)
    row.label.value = item.text
    row.switchControl.value = item.on
    return row
  }

  private func dequeue(bound cellViewModel: DateCellViewModel?) -> ItemRowView {
    let row: ItemRowView
    if let reused = reusable.popLast() {
      row = reused
    } else {
      row = ItemRowView()
      rowsCreated += 1
    }
    if let cellViewModel {
      row.bind(to: cellViewModel)
    }
    return row
  }

  private func retire(_ row: ItemRowView) {
    row.unbind()
    reusable.append(row)
  }

  private func recycle() {
    rows.forEach(retire)
    rows = []
    sectionCounts = []
  }
}

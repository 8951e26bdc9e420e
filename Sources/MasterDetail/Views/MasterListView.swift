import POMVVM

/// The list screen, rendered as text: the header, then one numbered line per
/// item.
///
/// ```
/// Items (open switches: 1)
///   1. [ ] second
///   2. [x] first
/// ```
///
/// The screen renders through a ``POMVVM/ListAdapter``: it is a
/// ``POMVVM/ListView`` that patches its rows with each update's batch — a
/// deleted row is unbound and kept for reuse, an inserted one is a reused
/// row bound to the new item, a moved row moves — and never rebuilds the
/// list for a single change. Changed rows redraw themselves: each row is
/// bound to its item's cell view model. It reads nothing but its views,
/// which read nothing but the view models.
///
/// Binding it to another view model shows that view model's rows (the
/// adapter's first update reloads them); unbinding it leaves the rows it
/// showed, unbound.
@MainActor
public final class MasterListView: BindableView, ListView {
  /// The list's view model.
  public var viewModel: MasterViewModel?

  /// The tokens of the screen's current binding.
  public let bindings = SubscriptionBag()

  /// The header.
  public let header = ListHeaderView()

  /// The rows, in the order of the items.
  public private(set) var rows: [ItemRowView] = []

  /// Rows that left the list, ready to be bound to another item.
  private var reusable: [ItemRowView] = []

  /// How many row views were ever created; reuse keeps it low.
  public private(set) var rowsCreated = 0

  /// Creates an unbound screen.
  public init() {}

  /// Binds the header, and the rows through an adapter that follows the
  /// items.
  ///
  /// - Parameter viewModel: The list's view model.
  /// - Returns: The binding tokens: the adapter, which reloads the rows at
  ///   once, and the teardown of the rows.
  public func makeBindings(to viewModel: MasterViewModel) -> [any SubscriptionToken] {
    header.bind(to: viewModel)
    return [
      ListAdapter(viewModel.items, view: self),
      // The header and the rows were bound by hand: end their bindings with
      // the screen's. They keep showing what they showed, as an unbound
      // screen does; the next binding recycles the rows. (Weak: when the
      // screen itself goes, its bag runs this after it is gone.)
      TeardownToken { [weak self] in
        guard let self else { return }
        header.unbind()
        for row in rows {
          row.unbind()
        }
      },
    ]
  }

  /// The screen as lines of text.
  public var lines: [String] {
    [header.title.value] + rows.indices.map(line(forRow:))
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

  /// Patches the rows with an update from the adapter.
  ///
  /// The rows are the screen's data: they change here, inside the update.
  /// Rows of changed items redraw through their bindings.
  ///
  /// - Parameter update: The update.
  /// - Complexity: O(*k*) row operations for *k* changes (each shifts the
  ///   rows after it); a reload rebuilds every row.
  public func updateRows(_ update: ListUpdate<Item>) {
    if update.isReloadData {
      recycle(rows.indices)
      rows = update.elements.map { row(showing: $0) }
      return
    }
    let batch = update.batch
    // Leaving rows go by descending old index; moved rows are kept.
    var moved: [Int: ItemRowView] = [:]
    let sources = Set(batch.moves.map(\.from))
    for index in (batch.deletions + sources).sorted(by: >) {
      let row = rows.remove(at: index)
      if sources.contains(index) {
        moved[index] = row
      } else {
        row.unbind()
        reusable.append(row)
      }
    }
    // Entering rows by ascending new index: the moved rows, and rows bound to
    // the inserted items.
    var entering = batch.moves.compactMap { move in moved[move.from].map { (move.to, $0) } }
    for index in batch.insertions {
      entering.append((index, row(showing: update.elements[index])))
    }
    for (index, row) in entering.sorted(by: { $0.0 < $1.0 }) {
      rows.insert(row, at: index)
    }
  }

  /// A row for an item.
  ///
  /// If a later change (made by an observer during this one's delivery)
  /// already removed the item, the row shows the item's value unbound,
  /// until that change removes the row.
  private func row(showing item: Item) -> ItemRowView {
    if let cellViewModel = viewModel?.cellViewModel(for: item.id) {
      return dequeue(bound: cellViewModel)
    }
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

  private func recycle(_ indices: Range<Int>) {
    for row in rows[indices] {
      row.unbind()
      reusable.append(row)
    }
    rows.removeSubrange(indices)
  }
}

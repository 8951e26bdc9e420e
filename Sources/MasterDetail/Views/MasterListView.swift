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
/// The screen patches its rows with the items' change sets — a removed row
/// is unbound and kept for reuse, an inserted one is a reused row bound to
/// the new item, a moved row moves — and never rebuilds the list for a
/// single change. It reads nothing but its views, which read nothing but the
/// view models.
@MainActor
public final class MasterListView: BindableView {
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

  /// Binds the header and the rows, and follows the items' change sets.
  ///
  /// - Parameter viewModel: The list's view model.
  /// - Returns: The binding tokens.
  public func makeBindings(to viewModel: MasterViewModel) -> [any SubscriptionToken] {
    header.bind(to: viewModel)
    recycle(rows.indices)
    rows = viewModel.items.indices.map { row(for: viewModel, at: $0) }
    return [
      viewModel.items.observeChanges { [weak self] change in
        self?.apply(change.changeSet, from: viewModel)
      },
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

  private func apply(_ changeSet: ChangeSet<Item>, from viewModel: MasterViewModel) {
    if changeSet.isReload {
      recycle(rows.indices)
      rows = viewModel.items.indices.map { row(for: viewModel, at: $0) }
      return
    }
    // Leaving rows go by descending old index; moved rows are kept.
    var moved: [Int: ItemRowView] = [:]
    let sources = Set(changeSet.moves.map(\.from))
    let leaving = (changeSet.removals.map(\.index) + sources).sorted(by: >)
    for index in leaving {
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
    var entering = changeSet.moves.compactMap { move in moved[move.from].map { (move.to, $0) } }
    for insertion in changeSet.insertions {
      entering.append((insertion.index, row(showing: insertion.element, from: viewModel)))
    }
    for (index, row) in entering.sorted(by: { $0.0 < $1.0 }) {
      rows.insert(row, at: index)
    }
    // Updated rows follow their items through their own bindings.
  }

  /// A row for an inserted item.
  ///
  /// If a later change (made by an observer during this one's delivery)
  /// already removed the item, the row shows the inserted value unbound,
  /// until that change removes the row.
  private func row(showing item: Item, from viewModel: MasterViewModel) -> ItemRowView {
    if let cellViewModel = viewModel.cellViewModel(for: item.id) {
      return dequeue(bound: cellViewModel)
    }
    let row = dequeue(bound: nil)
    row.label.value = item.text
    row.switchControl.value = item.on
    return row
  }

  private func row(for viewModel: MasterViewModel, at index: Int) -> ItemRowView {
    guard let cellViewModel = viewModel.cellViewModel(at: index) else {
      preconditionFailure("MasterListView: no item at row \(index)")
    }
    return dequeue(bound: cellViewModel)
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

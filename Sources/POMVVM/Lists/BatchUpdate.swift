/// One batch update of a single-section list — the arguments of one
/// `performBatchUpdates` call of a table or collection view — made from a
/// ``ChangeSet`` by ``ChangeSet/batchUpdate``.
///
/// The indices follow UIKit's rules for a batch: deletions, reloads and
/// move sources are indices *before* the update; insertions and move
/// destinations are indices *after* it. Reconfigurations are indices after
/// the update too, and belong in a second step, once the batch is done:
///
/// ```swift
/// let batch = change.changeSet.batchUpdate
/// tableView.performBatchUpdates {
///   ids = newIDs   // swap the data source inside the update, never before
///   tableView.deleteRows(at: batch.deletions.map { IndexPath(row: $0, section: 0) }, with: .fade)
///   tableView.insertRows(at: batch.insertions.map { IndexPath(row: $0, section: 0) }, with: .fade)
///   for move in batch.moves {
///     tableView.moveRow(at: IndexPath(row: move.from, section: 0), to: IndexPath(row: move.to, section: 0))
///   }
///   tableView.reloadRows(at: batch.reloads.map { IndexPath(row: $0, section: 0) }, with: .none)
/// }
/// tableView.reconfigureRows(at: batch.reconfigurations.map { IndexPath(row: $0, section: 0) })
/// ```
///
/// ## A row that both moved and changed
///
/// A change set can hold an element that moved *and* changed its value.
/// UIKit refuses a move and a reload of the same row in one batch (it
/// raises "attempt to perform a delete and a move from the same index
/// path"), so such a row is a move inside the batch and a
/// *reconfiguration* at its new index after it — what `reconfigureRows(at:)`
/// and `reconfigureItems(at:)` are for. It is never a reload. A view that
/// cannot reconfigure (before iOS 15) reloads ``reconfigurations`` in a
/// second batch instead: they are valid indices once the first batch is
/// done.
///
/// An element that changed but did not move is a reload, at its old index.
/// A view that redraws rows itself after the batch (a text list, say) finds
/// every changed row at its new index in ``changedRows``.
///
/// Every batch made from a change set that an ``ObservableArray`` publishes
/// obeys UIKit's rules; `POMVVMTesting`'s `HeadlessList` checks them.
public struct BatchUpdate: Hashable, Sendable {
  /// A row that changed its position.
  public struct Move: Hashable, Sendable {
    /// The row's index before the update.
    public var from: Int
    /// The row's index after the update.
    public var to: Int

    /// Creates a move.
    ///
    /// - Parameters:
    ///   - from: The row's index before the update.
    ///   - to: The row's index after the update.
    @inlinable
    public init(from: Int, to: Int) {
      self.from = from
      self.to = to
    }
  }

  /// Indices before the update of the rows to delete, ascending.
  public var deletions: [Int]
  /// Indices after the update of the rows to insert, ascending.
  public var insertions: [Int]
  /// The rows to move, by ascending destination.
  public var moves: [Move]
  /// Indices before the update of the rows whose element changed and that
  /// neither moved nor were deleted, ascending: the rows to reload inside
  /// the batch.
  public var reloads: [Int]
  /// Indices after the update of the rows whose element both moved and
  /// changed, ascending: the rows to reconfigure once the batch is done.
  public var reconfigurations: [Int]
  /// Indices after the update of every row whose element changed — the
  /// reloads' rows where they end up, and the reconfigurations —
  /// ascending.
  public var changedRows: [Int]
  /// Whether the change replaces everything: the view reloads all its rows
  /// (`reloadData()`) instead of patching them, and the other lists are
  /// empty.
  public var isReloadData: Bool

  /// Creates a batch update from its parts.
  ///
  /// - Parameters:
  ///   - deletions: Old indices of the rows to delete, ascending.
  ///   - insertions: New indices of the rows to insert, ascending.
  ///   - moves: The rows to move.
  ///   - reloads: Old indices of the rows to reload.
  ///   - reconfigurations: New indices of the rows to reconfigure after the
  ///     batch.
  ///   - changedRows: New indices of every changed row; by default, none.
  ///   - isReloadData: Whether the view reloads everything instead.
  @inlinable
  public init(
    deletions: [Int] = [], insertions: [Int] = [], moves: [Move] = [], reloads: [Int] = [],
    reconfigurations: [Int] = [], changedRows: [Int] = [], isReloadData: Bool = false
  ) {
    self.deletions = deletions
    self.insertions = insertions
    self.moves = moves
    self.reloads = reloads
    self.reconfigurations = reconfigurations
    self.changedRows = changedRows
    self.isReloadData = isReloadData
  }

  /// The update that reloads everything.
  public static var reloadData: BatchUpdate { BatchUpdate(isReloadData: true) }

  /// Whether the update changes no row.
  ///
  /// - Complexity: O(1).
  public var isEmpty: Bool {
    !isReloadData && deletions.isEmpty && insertions.isEmpty && moves.isEmpty
      && reloads.isEmpty && reconfigurations.isEmpty
  }
}

extension BatchUpdate: CustomStringConvertible {
  /// A short summary, such as `delete [2], insert [0], move [1->3], reload [4]`.
  ///
  /// - Complexity: O(*k*), where *k* is the number of rows in the update.
  public var description: String {
    if isReloadData { return "reloadData" }
    if isEmpty { return "no change" }
    var parts: [String] = []
    if !deletions.isEmpty { parts.append("delete \(deletions)") }
    if !insertions.isEmpty { parts.append("insert \(insertions)") }
    if !moves.isEmpty {
      parts.append("move [\(moves.map { "\($0.from)->\($0.to)" }.joined(separator: ", "))]")
    }
    if !reloads.isEmpty { parts.append("reload \(reloads)") }
    if !reconfigurations.isEmpty { parts.append("reconfigure \(reconfigurations)") }
    return parts.joined(separator: ", ")
  }
}

extension ChangeSet {
  /// The change as one batch update of a single-section list view.
  ///
  /// Removals are deletions and insertions are insertions; moves are moves;
  /// an element that changed and stayed put (or only shifted) is a reload
  /// at its old index, one that changed and moved is a reconfiguration at
  /// its new index; a reload change set is ``BatchUpdate/isReloadData``.
  /// See ``BatchUpdate`` for why a moved row is never reloaded.
  ///
  /// - Complexity: O(*k*), where *k* is the number of changes (O(*k* log
  ///   *k*) for a hand-made change set whose parts are out of order); a
  ///   reload is O(1). Never O(*n*) in the size of the array.
  @inlinable
  public var batchUpdate: BatchUpdate {
    // Inlinable, so that it runs specialised for the element type: an
    // adapter calls it on every change.
    if reload != nil { return .reloadData }
    if removals.isEmpty && insertions.isEmpty && moves.isEmpty {
      // Edits in place, the common case (a toggle): every row is a reload
      // at the index it keeps, one array for both lists.
      var changed = updates.map { $0.newIndex }
      if !changed.isStrictlyAscending { changed.sort() }
      return BatchUpdate(reloads: changed, changedRows: changed)
    }
    var deletions = removals.map { $0.index }
    var insertions = self.insertions.map { $0.index }
    if !deletions.isStrictlyAscending { deletions.sort() }
    if !insertions.isStrictlyAscending { insertions.sort() }
    let moves = self.moves.map { BatchUpdate.Move(from: $0.from, to: $0.to) }
    var reloads: [Int] = []
    var reconfigurations: [Int] = []
    var changedRows: [Int] = []
    if !updates.isEmpty {
      changedRows.reserveCapacity(updates.count)
      // Updates and moves both go by ascending new index: one merge tells
      // the moved ones.
      let ordered =
        zip(updates, updates.dropFirst()).allSatisfy { $0.newIndex < $1.newIndex }
        ? updates : updates.sorted { $0.newIndex < $1.newIndex }
      let destinations =
        zip(moves, moves.dropFirst()).allSatisfy { $0.to < $1.to }
        ? moves.map { $0.to } : moves.map { $0.to }.sorted()
      var nextMove = 0
      for update in ordered {
        while nextMove < destinations.count && destinations[nextMove] < update.newIndex {
          nextMove += 1
        }
        if nextMove < destinations.count && destinations[nextMove] == update.newIndex {
          reconfigurations.append(update.newIndex)
        } else {
          reloads.append(update.oldIndex)
        }
        changedRows.append(update.newIndex)
      }
      if !reloads.isStrictlyAscending { reloads.sort() }
    }
    return BatchUpdate(
      deletions: deletions, insertions: insertions, moves: moves, reloads: reloads,
      reconfigurations: reconfigurations, changedRows: changedRows)
  }
}

extension Array where Element == Int {
  /// Whether the indices go up strictly.
  @inlinable
  var isStrictlyAscending: Bool {
    zip(self, dropFirst()).allSatisfy { $0 < $1 }
  }
}

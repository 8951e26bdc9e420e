/// The position of a row in a sectioned list: its section and its row
/// inside that section, both counted from zero.
///
/// It is what `IndexPath(row:section:)` is to UIKit, without Foundation.
/// Paths compare by section first, then by row.
public struct RowPath: Hashable, Sendable, Comparable {
  /// The index of the row's section.
  public var section: Int
  /// The index of the row inside its section.
  public var row: Int

  /// Creates a row path.
  ///
  /// - Parameters:
  ///   - section: The index of the row's section.
  ///   - row: The index of the row inside its section.
  @inlinable
  public init(section: Int, row: Int) {
    self.section = section
    self.row = row
  }

  /// Whether the first path comes before the second: a lower section, or
  /// the same section and a lower row.
  ///
  /// - Parameters:
  ///   - lhs: A path.
  ///   - rhs: Another path.
  /// - Returns: Whether `lhs` comes first.
  @inlinable
  public static func < (lhs: RowPath, rhs: RowPath) -> Bool {
    lhs.section != rhs.section ? lhs.section < rhs.section : lhs.row < rhs.row
  }
}

extension RowPath: CustomStringConvertible {
  /// The path as `section.row`, such as `1.3`.
  public var description: String { "\(section).\(row)" }
}

/// One batch update of a sectioned list — the arguments of one
/// `performBatchUpdates` call of a table or collection view with sections.
///
/// The indices follow UIKit's rules for a batch: section deletions, row
/// deletions, reloads and the sources of moves are positions *before* the
/// update; section insertions, row insertions and the destinations of moves
/// are positions *after* it. Reconfigurations are positions after the update
/// too, and belong in a second step, once the batch is done:
///
/// ```swift
/// let batch = change.batchUpdate
/// tableView.performBatchUpdates {
///   sections = change.newSections   // swap the data inside the update, never before
///   tableView.deleteSections(IndexSet(batch.sectionDeletions), with: .fade)
///   tableView.insertSections(IndexSet(batch.sectionInsertions), with: .fade)
///   for move in batch.sectionMoves { tableView.moveSection(move.from, toSection: move.to) }
///   tableView.deleteRows(at: batch.deletions.map(\.indexPath), with: .fade)
///   tableView.insertRows(at: batch.insertions.map(\.indexPath), with: .fade)
///   for move in batch.moves { tableView.moveRow(at: move.from.indexPath, to: move.to.indexPath) }
///   tableView.reloadRows(at: batch.reloads.map(\.indexPath), with: .none)
/// }
/// tableView.reconfigureRows(at: batch.reconfigurations.map(\.indexPath))
/// ```
///
/// (`indexPath` there is the app's own one-line extension on ``RowPath``:
/// the kit does not import Foundation.)
///
/// ## What a valid batch looks like
///
/// Every batch that the kit makes obeys UIKit's rules, which
/// `POMVVMTesting`'s `HeadlessSectionedList` checks:
/// - within each section, the rules of a single-section ``BatchUpdate``;
/// - the section counts add up, and so do the row counts of every section
///   that stays;
/// - no row operation names a section being deleted or inserted: the rows
///   of a deleted section go with it, and the rows of an inserted section
///   come from the data;
/// - a row moved from one section to another is one move;
/// - after the batch, the sections equal the new data.
///
/// ## A row that both moved and changed
///
/// As in ``BatchUpdate``, UIKit refuses a move and a reload of the same row
/// in one batch, so a row that moved *and* changed is a move inside the
/// batch and a *reconfiguration* at its new path after it; it is never a
/// reload. A row that changed and did not move is a reload at its old
/// path. A changed row that leaves a deleted section, or enters an inserted
/// one, is redrawn by that deletion or insertion. A view that redraws rows
/// itself after the batch finds every reloaded or reconfigured row at its
/// new path in ``changedRows``.
public struct SectionedBatchUpdate: Hashable, Sendable {
  /// A section that changed its position.
  public struct SectionMove: Hashable, Sendable {
    /// The section's index before the update.
    public var from: Int
    /// The section's index after the update.
    public var to: Int

    /// Creates a section move.
    ///
    /// - Parameters:
    ///   - from: The section's index before the update.
    ///   - to: The section's index after the update.
    @inlinable
    public init(from: Int, to: Int) {
      self.from = from
      self.to = to
    }
  }

  /// A row that changed its position, inside its section or to another one.
  public struct RowMove: Hashable, Sendable {
    /// The row's path before the update.
    public var from: RowPath
    /// The row's path after the update.
    public var to: RowPath

    /// Creates a row move.
    ///
    /// - Parameters:
    ///   - from: The row's path before the update.
    ///   - to: The row's path after the update.
    @inlinable
    public init(from: RowPath, to: RowPath) {
      self.from = from
      self.to = to
    }
  }

  /// The nine lists, in one object that copies of the batch share.
  ///
  /// A copy of the batch, which each observer and update takes, retains
  /// it once instead of nine arrays. It is copied before a change when
  /// another batch shares it.
  @usableFromInline
  final class _Storage: @unchecked Sendable {
    @usableFromInline
    @exclusivity(unchecked)
    var sectionDeletions: [Int]
    @usableFromInline
    @exclusivity(unchecked)
    var sectionInsertions: [Int]
    @usableFromInline
    @exclusivity(unchecked)
    var sectionMoves: [SectionMove]
    @usableFromInline
    @exclusivity(unchecked)
    var deletions: [RowPath]
    @usableFromInline
    @exclusivity(unchecked)
    var insertions: [RowPath]
    @usableFromInline
    @exclusivity(unchecked)
    var moves: [RowMove]
    @usableFromInline
    @exclusivity(unchecked)
    var reloads: [RowPath]
    @usableFromInline
    @exclusivity(unchecked)
    var reconfigurations: [RowPath]
    @usableFromInline
    @exclusivity(unchecked)
    var changedRows: [RowPath]

    @inlinable
    init(
      sectionDeletions: [Int], sectionInsertions: [Int], sectionMoves: [SectionMove],
      deletions: [RowPath], insertions: [RowPath], moves: [RowMove], reloads: [RowPath],
      reconfigurations: [RowPath], changedRows: [RowPath]
    ) {
      self.sectionDeletions = sectionDeletions
      self.sectionInsertions = sectionInsertions
      self.sectionMoves = sectionMoves
      self.deletions = deletions
      self.insertions = insertions
      self.moves = moves
      self.reloads = reloads
      self.reconfigurations = reconfigurations
      self.changedRows = changedRows
    }

    /// A storage with the same lists.
    @inlinable
    func copy() -> _Storage {
      _Storage(
        sectionDeletions: sectionDeletions, sectionInsertions: sectionInsertions,
        sectionMoves: sectionMoves, deletions: deletions, insertions: insertions, moves: moves,
        reloads: reloads, reconfigurations: reconfigurations, changedRows: changedRows)
    }

    /// The storage of every batch made with no lists: the first change of
    /// one copies it.
    @usableFromInline
    static let empty = _Storage(
      sectionDeletions: [], sectionInsertions: [], sectionMoves: [], deletions: [],
      insertions: [], moves: [], reloads: [], reconfigurations: [], changedRows: [])
  }

  @usableFromInline
  var _storage: _Storage

  /// Makes ``_storage`` this batch's own before it changes.
  @inlinable
  mutating func _makeUnique() {
    if !isKnownUniquelyReferenced(&_storage) { _storage = _storage.copy() }
  }

  /// Writes `path` over the one reload and the one changed row of a batch
  /// of one row redrawn in place.
  @inlinable
  mutating func _replaceReload(with path: RowPath) {
    _makeUnique()
    _storage.reloads[0] = path
    _storage.changedRows[0] = path
  }

  /// Writes `move` over the one move, and its destination over the one
  /// reconfiguration and the one changed row, of a batch of one row moved
  /// and changed.
  @inlinable
  mutating func _replaceChangedMove(with move: RowMove) {
    _makeUnique()
    _storage.moves[0] = move
    _storage.reconfigurations[0] = move.to
    _storage.changedRows[0] = move.to
  }

  /// Indices before the update of the sections to delete, ascending.
  public var sectionDeletions: [Int] {
    @inlinable
    _read { yield _storage.sectionDeletions }
    @inlinable
    _modify {
      _makeUnique()
      yield &_storage.sectionDeletions
    }
  }
  /// Indices after the update of the sections to insert, ascending.
  public var sectionInsertions: [Int] {
    @inlinable
    _read { yield _storage.sectionInsertions }
    @inlinable
    _modify {
      _makeUnique()
      yield &_storage.sectionInsertions
    }
  }
  /// The sections to move, by ascending destination.
  public var sectionMoves: [SectionMove] {
    @inlinable
    _read { yield _storage.sectionMoves }
    @inlinable
    _modify {
      _makeUnique()
      yield &_storage.sectionMoves
    }
  }
  /// Paths before the update of the rows to delete, ascending.
  public var deletions: [RowPath] {
    @inlinable
    _read { yield _storage.deletions }
    @inlinable
    _modify {
      _makeUnique()
      yield &_storage.deletions
    }
  }
  /// Paths after the update of the rows to insert, ascending.
  public var insertions: [RowPath] {
    @inlinable
    _read { yield _storage.insertions }
    @inlinable
    _modify {
      _makeUnique()
      yield &_storage.insertions
    }
  }
  /// The rows to move, by ascending destination.
  public var moves: [RowMove] {
    @inlinable
    _read { yield _storage.moves }
    @inlinable
    _modify {
      _makeUnique()
      yield &_storage.moves
    }
  }
  /// Paths before the update of the rows whose element changed and that
  /// neither moved nor were deleted, ascending: the rows to reload inside
  /// the batch.
  public var reloads: [RowPath] {
    @inlinable
    _read { yield _storage.reloads }
    @inlinable
    _modify {
      _makeUnique()
      yield &_storage.reloads
    }
  }
  /// Paths after the update of the rows whose element both moved and
  /// changed, ascending: the rows to reconfigure once the batch is done.
  public var reconfigurations: [RowPath] {
    @inlinable
    _read { yield _storage.reconfigurations }
    @inlinable
    _modify {
      _makeUnique()
      yield &_storage.reconfigurations
    }
  }
  /// Paths after the update of every reloaded or reconfigured row,
  /// ascending.
  public var changedRows: [RowPath] {
    @inlinable
    _read { yield _storage.changedRows }
    @inlinable
    _modify {
      _makeUnique()
      yield &_storage.changedRows
    }
  }
  /// Whether the change replaces everything: the view reloads all its
  /// sections (`reloadData()`) instead of patching them, and the other lists
  /// are empty.
  public var isReloadData: Bool

  /// Creates a sectioned batch update from its parts.
  ///
  /// - Parameters:
  ///   - sectionDeletions: Old indices of the sections to delete, ascending.
  ///   - sectionInsertions: New indices of the sections to insert, ascending.
  ///   - sectionMoves: The sections to move.
  ///   - deletions: Old paths of the rows to delete, ascending.
  ///   - insertions: New paths of the rows to insert, ascending.
  ///   - moves: The rows to move.
  ///   - reloads: Old paths of the rows to reload.
  ///   - reconfigurations: New paths of the rows to reconfigure after the
  ///     batch.
  ///   - changedRows: New paths of every changed row; by default, none.
  ///   - isReloadData: Whether the view reloads everything instead.
  @inlinable
  public init(
    sectionDeletions: [Int] = [], sectionInsertions: [Int] = [],
    sectionMoves: [SectionMove] = [], deletions: [RowPath] = [], insertions: [RowPath] = [],
    moves: [RowMove] = [], reloads: [RowPath] = [], reconfigurations: [RowPath] = [],
    changedRows: [RowPath] = [], isReloadData: Bool = false
  ) {
    if sectionDeletions.isEmpty && sectionInsertions.isEmpty && sectionMoves.isEmpty
      && deletions.isEmpty && insertions.isEmpty && moves.isEmpty && reloads.isEmpty
      && reconfigurations.isEmpty && changedRows.isEmpty
    {
      _storage = .empty
    } else {
      _storage = _Storage(
        sectionDeletions: sectionDeletions, sectionInsertions: sectionInsertions,
        sectionMoves: sectionMoves, deletions: deletions, insertions: insertions, moves: moves,
        reloads: reloads, reconfigurations: reconfigurations, changedRows: changedRows)
    }
    self.isReloadData = isReloadData
  }

  /// The update that reloads everything.
  public static var reloadData: SectionedBatchUpdate { SectionedBatchUpdate(isReloadData: true) }

  /// Whether the update changes no section and no row.
  ///
  /// - Complexity: O(1).
  public var isEmpty: Bool {
    !isReloadData && sectionDeletions.isEmpty && sectionInsertions.isEmpty
      && sectionMoves.isEmpty && deletions.isEmpty && insertions.isEmpty && moves.isEmpty
      && reloads.isEmpty && reconfigurations.isEmpty
  }
}

extension SectionedBatchUpdate {
  /// Whether two batches have the same lists and the same
  /// ``isReloadData``.
  ///
  /// - Complexity: O(1) for two copies of one batch, else O(*k*) for *k*
  ///   sections and rows in them.
  @inlinable
  public static func == (lhs: SectionedBatchUpdate, rhs: SectionedBatchUpdate) -> Bool {
    guard lhs.isReloadData == rhs.isReloadData else { return false }
    if lhs._storage === rhs._storage { return true }
    return lhs.sectionDeletions == rhs.sectionDeletions
      && lhs.sectionInsertions == rhs.sectionInsertions && lhs.sectionMoves == rhs.sectionMoves
      && lhs.deletions == rhs.deletions && lhs.insertions == rhs.insertions
      && lhs.moves == rhs.moves && lhs.reloads == rhs.reloads
      && lhs.reconfigurations == rhs.reconfigurations && lhs.changedRows == rhs.changedRows
  }

  /// Hashes the lists and ``isReloadData``.
  ///
  /// - Parameter hasher: The hasher to feed.
  @inlinable
  public func hash(into hasher: inout Hasher) {
    hasher.combine(sectionDeletions)
    hasher.combine(sectionInsertions)
    hasher.combine(sectionMoves)
    hasher.combine(deletions)
    hasher.combine(insertions)
    hasher.combine(moves)
    hasher.combine(reloads)
    hasher.combine(reconfigurations)
    hasher.combine(changedRows)
    hasher.combine(isReloadData)
  }
}

extension SectionedBatchUpdate: CustomStringConvertible {
  /// A short summary, such as
  /// `delete sections [2], insert [0.1], move [1.0->0.3], reload [0.4]`.
  ///
  /// - Complexity: O(*k*), where *k* is the number of sections and rows in
  ///   the update.
  public var description: String {
    if isReloadData { return "reloadData" }
    if isEmpty { return "no change" }
    var parts: [String] = []
    if !sectionDeletions.isEmpty { parts.append("delete sections \(sectionDeletions)") }
    if !sectionInsertions.isEmpty { parts.append("insert sections \(sectionInsertions)") }
    if !sectionMoves.isEmpty {
      parts.append(
        "move sections [\(sectionMoves.map { "\($0.from)->\($0.to)" }.joined(separator: ", "))]")
    }
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

/// The sections of a sectioned list as keys and ids: what a
/// ``SectionedListAdapter`` knows of its query and of its view.
///
/// ``follow(_:key:sectionIDs:id:)`` applies a batch update the way UIKit
/// does, reading what enters from the data only where the batch says rows
/// enter, so that an edit in place costs O(1) and an insertion or a move
/// costs O(*k*) plus the sizes of the sections it touches.
@usableFromInline
struct _SectionedRows<Key: Hashable, ID: Hashable> {
  @usableFromInline
  var keys: [Key] = []
  @usableFromInline
  var ids: [[ID]] = []
  /// The number of rows in all sections.
  @usableFromInline
  var count = 0

  @inlinable
  init() {}

  @usableFromInline
  init(keys: [Key], ids: [[ID]]) {
    self.keys = keys
    self.ids = ids
    count = ids.reduce(0) { $0 + $1.count }
  }

  /// The sections as the identity diff takes them.
  var pairs: [(key: Key, ids: [ID])] {
    zip(keys, ids).map { (key: $0, ids: $1) }
  }

  @inlinable
  func id(at path: RowPath) -> ID? {
    guard ids.indices.contains(path.section), ids[path.section].indices.contains(path.row)
    else { return nil }
    return ids[path.section][path.row]
  }

  /// Applies `batch`; `false` if it does not fit these sections (they are
  /// then unspecified).
  ///
  /// - Parameters:
  ///   - batch: The batch; not a reload.
  ///   - key: The key of a section after the batch, by its new index.
  ///   - sectionIDs: The ids of an inserted section, by its new index.
  ///   - id: The id of an inserted row, by its new path.
  /// - Returns: Whether the batch fits.
  @usableFromInline
  mutating func follow(
    _ batch: SectionedBatchUpdate, key: (Int) -> Key, sectionIDs: (Int) -> [ID],
    id: (RowPath) -> ID
  ) -> Bool {
    // The ids that move, read before anything leaves.
    var entering: [(path: RowPath, id: ID)] = []
    entering.reserveCapacity(batch.moves.count + batch.insertions.count)
    for move in batch.moves {
      guard let moved = self.id(at: move.from) else { return false }
      entering.append((move.to, moved))
    }
    // Rows leave, from the last: deletions and the sources of moves.
    if !batch.deletions.isEmpty || !batch.moves.isEmpty {
      var leaving = batch.deletions + batch.moves.map(\.from)
      leaving.sort(by: >)
      for path in leaving {
        guard ids.indices.contains(path.section), ids[path.section].indices.contains(path.row)
        else { return false }
        ids[path.section].remove(at: path.row)
      }
      count -= leaving.count
    }
    // Sections leave, move and enter.
    if !batch.sectionDeletions.isEmpty || !batch.sectionInsertions.isEmpty
      || !batch.sectionMoves.isEmpty
    {
      guard rebuildSections(batch, key: key, sectionIDs: sectionIDs) else { return false }
    }
    // Rows enter, from the first: insertions and the destinations of moves.
    for path in batch.insertions {
      entering.append((path, id(path)))
    }
    if entering.count > 1 { entering.sort { $0.path < $1.path } }
    for (path, entered) in entering {
      guard ids.indices.contains(path.section), path.row >= 0,
        path.row <= ids[path.section].count
      else { return false }
      ids[path.section].insert(entered, at: path.row)
    }
    count += batch.insertions.count + batch.moves.count
    return true
  }

  /// Deletes, moves and inserts sections, the rows that stay in place.
  private mutating func rebuildSections(
    _ batch: SectionedBatchUpdate, key: (Int) -> Key, sectionIDs: (Int) -> [ID]
  ) -> Bool {
    let oldCount = keys.count
    let newCount = oldCount - batch.sectionDeletions.count + batch.sectionInsertions.count
    guard newCount >= 0 else { return false }
    var leaves = [Bool](repeating: false, count: oldCount)
    for index in batch.sectionDeletions {
      guard index >= 0 && index < oldCount && !leaves[index] else { return false }
      leaves[index] = true
      count -= ids[index].count
    }
    var newKeys = [Key?](repeating: nil, count: newCount)
    var newIDs = [[ID]?](repeating: nil, count: newCount)
    for move in batch.sectionMoves {
      guard move.from >= 0 && move.from < oldCount && !leaves[move.from],
        move.to >= 0 && move.to < newCount && newKeys[move.to] == nil
      else { return false }
      leaves[move.from] = true
      newKeys[move.to] = keys[move.from]
      newIDs[move.to] = ids[move.from]
    }
    for index in batch.sectionInsertions {
      guard index >= 0 && index < newCount && newKeys[index] == nil else { return false }
      newKeys[index] = key(index)
      let entered = sectionIDs(index)
      newIDs[index] = entered
      count += entered.count
    }
    var nextOld = 0
    for index in 0..<newCount where newKeys[index] == nil {
      while nextOld < oldCount && leaves[nextOld] { nextOld += 1 }
      guard nextOld < oldCount else { return false }
      newKeys[index] = keys[nextOld]
      newIDs[index] = ids[nextOld]
      nextOld += 1
    }
    while nextOld < oldCount && leaves[nextOld] { nextOld += 1 }
    guard nextOld == oldCount else { return false }
    keys = newKeys.compactMap { $0 }
    ids = newIDs.compactMap { $0 }
    return true
  }
}

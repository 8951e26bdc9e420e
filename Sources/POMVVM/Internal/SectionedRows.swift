/// The sections of a sectioned list as keys and ids: what a
/// ``SectionedListAdapter`` knows of its query and of its view.
///
/// ``follow(_:key:sectionIDs:id:)`` applies a batch update the way UIKit
/// does, reading what enters from the data only where the batch says rows
/// enter, so that an edit in place costs O(1) and an insertion or a move
/// costs O(*k*) plus, per row, a walk over the chunks of its section and a
/// shift inside one chunk (``_RowChunks``) — never a shift of a whole
/// section.
@usableFromInline
struct _SectionedRows<Key: Hashable, ID: Hashable> {
  @usableFromInline
  var keys: [Key] = []
  @usableFromInline
  var sections: [_RowChunks<ID>] = []
  /// The number of rows in all sections.
  @usableFromInline
  var count = 0

  @inlinable
  init() {}

  @usableFromInline
  init(keys: [Key], ids: [[ID]]) {
    self.keys = keys
    sections.reserveCapacity(ids.count)
    for section in ids { sections.append(_RowChunks(section)) }
    count = ids.reduce(0) { $0 + $1.count }
  }

  /// The ids of each section's rows.
  ///
  /// - Complexity: O(1) per section of at most one chunk, O(*m*) for a
  ///   section of *m* rows otherwise.
  @usableFromInline
  var ids: [[ID]] { sections.map(\.ids) }

  /// The sections as the identity diff takes them.
  var pairs: [(key: Key, ids: [ID])] {
    zip(keys, sections).map { (key: $0, ids: $1.ids) }
  }

  @inlinable
  func id(at path: RowPath) -> ID? {
    guard sections.indices.contains(path.section), path.row >= 0,
      path.row < sections[path.section].count
    else { return nil }
    return sections[path.section][path.row]
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
  @inlinable
  mutating func follow(
    _ batch: SectionedBatchUpdate, key: (Int) -> Key, sectionIDs: (Int) -> [ID],
    id: (RowPath) -> ID
  ) -> Bool {
    // The ids that move, read before anything leaves. One move alone, the
    // commonest batch that is not an edit in place, needs no list.
    var entering: [(path: RowPath, id: ID)] = []
    var moved: (path: RowPath, id: ID)?
    if batch.moves.count == 1 && batch.insertions.isEmpty {
      guard let id = self.id(at: batch.moves[0].from) else { return false }
      moved = (batch.moves[0].to, id)
    } else {
      entering.reserveCapacity(batch.moves.count + batch.insertions.count)
      for move in batch.moves {
        guard let id = self.id(at: move.from) else { return false }
        entering.append((move.to, id))
      }
    }
    // Rows leave, from the last: deletions and the sources of moves.
    if batch.deletions.count + batch.moves.count == 1 {
      // One row leaves (a row moved, the commonest case): no list to sort.
      guard removeRow(at: batch.deletions.first ?? batch.moves[0].from) else { return false }
    } else if !batch.deletions.isEmpty || !batch.moves.isEmpty {
      var leaving = batch.deletions + batch.moves.map(\.from)
      leaving.sort(by: >)
      for path in leaving {
        guard removeRow(at: path) else { return false }
      }
    }
    // Sections leave, move and enter.
    if !batch.sectionDeletions.isEmpty || !batch.sectionInsertions.isEmpty
      || !batch.sectionMoves.isEmpty
    {
      guard rebuildSections(batch, key: key, sectionIDs: sectionIDs) else { return false }
    }
    // Rows enter, from the first: insertions and the destinations of moves.
    if let moved { return insertRow(moved.id, at: moved.path) }
    for path in batch.insertions {
      entering.append((path, id(path)))
    }
    if entering.count > 1 { entering.sort { $0.path < $1.path } }
    for (path, entered) in entering {
      guard insertRow(entered, at: path) else { return false }
    }
    return true
  }

  /// Inserts `id` at `path`; `false` if the section has no such place.
  @inlinable
  mutating func insertRow(_ id: ID, at path: RowPath) -> Bool {
    guard sections.indices.contains(path.section), path.row >= 0,
      path.row <= sections[path.section].count
    else { return false }
    sections[path.section].insert(id, at: path.row)
    count += 1
    return true
  }

  /// Removes the row at `path`; `false` if there is none.
  @inlinable
  mutating func removeRow(at path: RowPath) -> Bool {
    guard sections.indices.contains(path.section), path.row >= 0,
      path.row < sections[path.section].count
    else { return false }
    sections[path.section].remove(at: path.row)
    count -= 1
    return true
  }

  /// Deletes, moves and inserts sections, the rows that stay in place.
  @usableFromInline
  mutating func rebuildSections(
    _ batch: SectionedBatchUpdate, key: (Int) -> Key, sectionIDs: (Int) -> [ID]
  ) -> Bool {
    let oldCount = keys.count
    let newCount = oldCount - batch.sectionDeletions.count + batch.sectionInsertions.count
    guard newCount >= 0 else { return false }
    var leaves = [Bool](repeating: false, count: oldCount)
    for index in batch.sectionDeletions {
      guard index >= 0 && index < oldCount && !leaves[index] else { return false }
      leaves[index] = true
      count -= sections[index].count
    }
    var newKeys = [Key?](repeating: nil, count: newCount)
    var newIDs = [_RowChunks<ID>?](repeating: nil, count: newCount)
    for move in batch.sectionMoves {
      guard move.from >= 0 && move.from < oldCount && !leaves[move.from],
        move.to >= 0 && move.to < newCount && newKeys[move.to] == nil
      else { return false }
      leaves[move.from] = true
      newKeys[move.to] = keys[move.from]
      newIDs[move.to] = sections[move.from]
    }
    for index in batch.sectionInsertions {
      guard index >= 0 && index < newCount && newKeys[index] == nil else { return false }
      newKeys[index] = key(index)
      let entered = sectionIDs(index)
      newIDs[index] = _RowChunks(entered)
      count += entered.count
    }
    var nextOld = 0
    for index in 0..<newCount where newKeys[index] == nil {
      while nextOld < oldCount && leaves[nextOld] { nextOld += 1 }
      guard nextOld < oldCount else { return false }
      newKeys[index] = keys[nextOld]
      newIDs[index] = sections[nextOld]
      nextOld += 1
    }
    while nextOld < oldCount && leaves[nextOld] { nextOld += 1 }
    guard nextOld == oldCount else { return false }
    keys = newKeys.compactMap { $0 }
    sections = newIDs.compactMap { $0 }
    return true
  }
}

/// The ids of one section's rows, in chunks of at most
/// ``_RowChunks/maximum`` ids: a row enters or leaves by shifting the ids
/// of its chunk only, so that moving a row in a section of 100,000 costs
/// about what it costs in one of 1,000.
@usableFromInline
struct _RowChunks<ID> {
  /// The most ids a chunk holds; a chunk that would hold more is split in
  /// two halves.
  @usableFromInline
  static var maximum: Int { 1_024 }

  /// The chunks, none of them empty.
  @usableFromInline
  var chunks: [[ID]] = []
  /// The number of ids of each chunk, scanned to find a row without
  /// touching the chunks.
  @usableFromInline
  var counts: [Int] = []
  /// The number of ids in all chunks.
  @usableFromInline
  var count = 0

  @usableFromInline
  init(_ ids: [ID]) {
    count = ids.count
    if ids.count <= Self.maximum {
      if !ids.isEmpty {
        chunks = [ids]
        counts = [ids.count]
      }
      return
    }
    let half = Self.maximum / 2
    chunks.reserveCapacity((ids.count + half - 1) / half)
    var start = 0
    while start < ids.count {
      let end = min(start + half, ids.count)
      chunks.append(Array(ids[start..<end]))
      counts.append(end - start)
      start = end
    }
  }

  /// All the ids, in order.
  ///
  /// - Complexity: O(1) for at most one chunk, O(*m*) otherwise.
  @usableFromInline
  var ids: [ID] {
    switch chunks.count {
    case 0: []
    case 1: chunks[0]
    default: Array(chunks.joined())
    }
  }

  /// The chunk that holds `row`, and the row's offset in it; for
  /// `row == count`, the end of the last chunk.
  @inlinable
  func locate(_ row: Int) -> (chunk: Int, offset: Int) {
    counts.withUnsafeBufferPointer { counts in
      var offset = row
      var chunk = 0
      let last = counts.count - 1
      while chunk < last && offset >= counts[chunk] {
        offset -= counts[chunk]
        chunk += 1
      }
      return (chunk, offset)
    }
  }

  /// The id of the row at `row`, in `0..<count`.
  @inlinable
  subscript(row: Int) -> ID {
    let (chunk, offset) = locate(row)
    return chunks[chunk][offset]
  }

  /// Removes the row at `row`, in `0..<count`.
  @inlinable
  mutating func remove(at row: Int) {
    let (chunk, offset) = locate(row)
    chunks[chunk].remove(at: offset)
    counts[chunk] -= 1
    if counts[chunk] == 0 {
      chunks.remove(at: chunk)
      counts.remove(at: chunk)
    }
    count -= 1
  }

  /// Inserts `id` at `row`, in `0...count`.
  @inlinable
  mutating func insert(_ id: ID, at row: Int) {
    count += 1
    guard !chunks.isEmpty else {
      chunks = [[id]]
      counts = [1]
      return
    }
    let (chunk, offset) = locate(row)
    chunks[chunk].insert(id, at: offset)
    counts[chunk] += 1
    if counts[chunk] > Self.maximum {
      let half = counts[chunk] / 2
      let tail = Array(chunks[chunk][half...])
      chunks[chunk].removeSubrange(half...)
      chunks.insert(tail, at: chunk + 1)
      counts[chunk] = half
      counts.insert(tail.count, at: chunk + 1)
    }
  }
}

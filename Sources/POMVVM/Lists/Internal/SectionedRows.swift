/// The sections of a sectioned list as keys and ids: what a
/// ``SectionedListAdapter`` knows of its query and of its view.
///
/// ``follow(_:key:sectionIDs:id:)`` applies a batch update the way UIKit
/// does, reading what enters from the data only where the batch says rows
/// enter, so that an edit in place costs O(1) and an insertion or a move
/// costs O(*k*) plus, per row, a search of the chunks' counts of its
/// section (O(log *c*) for *c* chunks) and a shift inside one chunk
/// (``_RowChunks``) — never a shift or a walk of a whole section.
@usableFromInline
struct _SectionedRows<Key: Hashable, ID: Hashable> {
  @usableFromInline
  var keys: [Key] = []
  @usableFromInline
  var sections: [_RowChunks<ID>] = []
  /// The number of rows in all sections.
  @usableFromInline
  var count = 0
  /// The row that ``insertRow(_:at:)`` inserted last, while no other
  /// change came after it: the row a move leaves at, which the view reads
  /// next, found without a search of its section's chunks.
  ///
  /// Its path is `(-1, -1)` while there is none.
  @usableFromInline
  var lastInsertedPath = RowPath(section: -1, row: -1)
  @usableFromInline
  var lastInsertedID: ID?

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
    return self[path]
  }

  /// The id of the row at `path`, which must be a row of these sections.
  ///
  /// - Complexity: O(1) for the row inserted last, else O(log *c*) for a
  ///   section of *c* chunks.
  @inline(__always)
  @inlinable
  subscript(path: RowPath) -> ID {
    if path == lastInsertedPath, let lastInsertedID { return lastInsertedID }
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
    // commonest batch that is not an edit in place, needs no list, and its
    // row is read as it leaves.
    var entering: [(path: RowPath, id: ID)] = []
    var moved: (path: RowPath, id: ID)?
    if batch.moves.count == 1 && batch.insertions.isEmpty && batch.deletions.isEmpty {
      guard let id = removeRow(at: batch.moves[0].from) else { return false }
      moved = (batch.moves[0].to, id)
    } else {
      entering.reserveCapacity(batch.moves.count + batch.insertions.count)
      for move in batch.moves {
        guard let id = self.id(at: move.from) else { return false }
        entering.append((move.to, id))
      }
    }
    // Rows leave, from the last: deletions and the sources of moves (a move
    // alone has left already).
    if moved == nil && batch.deletions.count + batch.moves.count == 1 {
      // One row leaves: no list to sort.
      guard removeRow(at: batch.deletions.first ?? batch.moves[0].from) != nil else {
        return false
      }
    } else if moved == nil && (!batch.deletions.isEmpty || !batch.moves.isEmpty) {
      var leaving = batch.deletions + batch.moves.map(\.from)
      leaving.sort(by: >)
      for path in leaving {
        guard removeRow(at: path) != nil else { return false }
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

  /// Forgets the row inserted last, before any other change of the rows.
  @inlinable
  mutating func forgetLastInserted() {
    if lastInsertedPath.section >= 0 {
      lastInsertedPath = RowPath(section: -1, row: -1)
      lastInsertedID = nil
    }
  }

  /// Inserts `id` at `path`; `false` if the section has no such place.
  @inlinable
  mutating func insertRow(_ id: ID, at path: RowPath) -> Bool {
    guard sections.indices.contains(path.section), path.row >= 0,
      path.row <= sections[path.section].count
    else { return false }
    sections[path.section].insert(id, at: path.row)
    count += 1
    lastInsertedPath = path
    lastInsertedID = id
    return true
  }

  /// Removes the row at `path` and returns its id; `nil` if there is
  /// none.
  @inlinable
  mutating func removeRow(at path: RowPath) -> ID? {
    guard sections.indices.contains(path.section), path.row >= 0,
      path.row < sections[path.section].count
    else { return nil }
    count -= 1
    forgetLastInserted()
    return sections[path.section].remove(at: path.row)
  }

  /// Deletes, moves and inserts sections, the rows that stay in place.
  @usableFromInline
  mutating func rebuildSections(
    _ batch: SectionedBatchUpdate, key: (Int) -> Key, sectionIDs: (Int) -> [ID]
  ) -> Bool {
    forgetLastInserted()
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

/// A ``SectionedListAdapter``'s rows, in an object that its update source
/// (``_SectionedUpdateSource``) reads too: while no view keeps an update,
/// the update reads the adapter's rows in place instead of taking a copy
/// of them on every change and letting go of it before the next.
@usableFromInline
final class _SectionedRowsBox<Key: Hashable, ID: Hashable> {
  @usableFromInline
  @exclusivity(unchecked)
  var rows: _SectionedRows<Key, ID>

  @inlinable
  init(_ rows: _SectionedRows<Key, ID> = _SectionedRows()) {
    self.rows = rows
  }
}

/// The ids of one section's rows, in chunks of at most
/// ``_RowChunks/maximum`` ids: a row enters or leaves by shifting the ids
/// of its chunk only, and its chunk is found from the chunks' counts in a
/// Fenwick tree, so that moving a row in a section of 100,000 costs about
/// what it costs in one of 1,000.
@usableFromInline
struct _RowChunks<ID> {
  /// The most ids a chunk holds; a chunk that would hold more is split in
  /// two halves.
  @usableFromInline
  static var maximum: Int { 1_024 }

  /// The chunks, none of them empty.
  @usableFromInline
  var chunks: [[ID]] = []
  /// The chunks' counts as a Fenwick tree.
  ///
  /// One-based: `sums[i]` adds the counts of the `i & -i` chunks that end
  /// at chunk `i - 1`. The chunk of a row is found, and a count changed,
  /// in O(log *c*) for *c* chunks, not by a walk over them all. Empty
  /// while there are fewer than two chunks.
  @usableFromInline
  var sums: [Int] = []
  /// The number of ids in all chunks.
  @usableFromInline
  var count = 0

  @usableFromInline
  init(_ ids: [ID]) {
    count = ids.count
    if ids.count <= Self.maximum {
      if !ids.isEmpty { chunks = [ids] }
      return
    }
    let half = Self.maximum / 2
    chunks.reserveCapacity((ids.count + half - 1) / half)
    var start = 0
    while start < ids.count {
      let end = min(start + half, ids.count)
      chunks.append(Array(ids[start..<end]))
      start = end
    }
    rebuildSums()
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

  /// Makes ``sums`` again from the chunks, after chunks were added or
  /// removed.
  ///
  /// - Complexity: O(*c*).
  @usableFromInline
  mutating func rebuildSums() {
    let chunkCount = chunks.count
    guard chunkCount > 1 else {
      sums = []
      return
    }
    sums = [Int](repeating: 0, count: chunkCount + 1)
    for index in 1...chunkCount {
      sums[index] += chunks[index - 1].count
      let parent = index + (index & -index)
      if parent <= chunkCount { sums[parent] += sums[index] }
    }
  }

  /// Adds `delta` to the count of `chunk`.
  ///
  /// - Complexity: O(log *c*).
  @inlinable
  mutating func addToCount(of chunk: Int, _ delta: Int) {
    guard !sums.isEmpty else { return }
    sums.withUnsafeMutableBufferPointer { sums in
      var index = chunk + 1
      while index < sums.count {
        sums[index] += delta
        index += index & -index
      }
    }
  }

  /// The chunk that holds `row`, and the row's offset in it; for
  /// `row == count`, the end of the last chunk.
  ///
  /// - Complexity: O(log *c*).
  @inlinable
  func locate(_ row: Int) -> (chunk: Int, offset: Int) {
    guard !sums.isEmpty else { return (0, row) }
    let chunkCount = sums.count - 1
    // The most chunks whose rows all come before `row`.
    let (before, offset) = sums.withUnsafeBufferPointer { sums in
      var before = 0
      var offset = row
      var step = 1 << (Int.bitWidth - 1 - chunkCount.leadingZeroBitCount)
      while step > 0 {
        let next = before + step
        if next <= chunkCount && sums[next] <= offset {
          before = next
          offset -= sums[next]
        }
        step >>= 1
      }
      return (before, offset)
    }
    // All of them for `row == count`: the end of the last chunk.
    if before == chunkCount { return (chunkCount - 1, chunks[chunkCount - 1].count + offset) }
    return (before, offset)
  }

  /// The id of the row at `row`, in `0..<count`.
  @inlinable
  subscript(row: Int) -> ID {
    let (chunk, offset) = locate(row)
    return chunks[chunk][offset]
  }

  /// Removes the row at `row`, in `0..<count`, and returns its id.
  @inlinable
  @discardableResult
  mutating func remove(at row: Int) -> ID {
    let (chunk, offset) = locate(row)
    let id = chunks[chunk].remove(at: offset)
    count -= 1
    if chunks[chunk].isEmpty {
      chunks.remove(at: chunk)
      rebuildSums()
    } else {
      addToCount(of: chunk, -1)
    }
    return id
  }

  /// Inserts `id` at `row`, in `0...count`.
  @inlinable
  mutating func insert(_ id: ID, at row: Int) {
    count += 1
    guard !chunks.isEmpty else {
      chunks = [[id]]
      return
    }
    let (chunk, offset) = locate(row)
    chunks[chunk].insert(id, at: offset)
    if chunks[chunk].count > Self.maximum {
      let half = chunks[chunk].count / 2
      let tail = Array(chunks[chunk][half...])
      chunks[chunk].removeSubrange(half...)
      chunks.insert(tail, at: chunk + 1)
      rebuildSums()
    } else {
      addToCount(of: chunk, 1)
    }
  }
}

// The order tree's insertions, removals and descents: see `OrderTree.swift`.
extension _OrderTree {
  /// A new slot for `id`, in the table and in no tree.
  @inlinable
  func newNode(_ id: ID) -> Int32 {
    let node: Int32
    if let reused = free.popLast() {
      node = reused
      ids[Int(node)] = id
      leafOf[Int(node)] = Self.none
    } else {
      precondition(ids.count < Int(Int32.max), "LiveQuery: too many rows")
      node = Int32(ids.count)
      ids.append(id)
      leafOf.append(Self.none)
    }
    tableInsert(node)
    return node
  }

  /// Inserts `id`, which must not be in a tree, at `position` of tree `tree`.
  ///
  /// - Complexity: O(log *n*).
  @inlinable
  func insert(_ id: ID, at position: Int, in tree: Int) {
    attach(newNode(id), at: position, in: tree)
  }

  /// Puts the row of slot `node`, which is in no tree (new, or taken out
  /// by ``detach(_:)``), at `position` of tree `tree`, with `hint` as the
  /// hint of its position in the array.
  ///
  /// One descent from the root by the children's counts, each of which
  /// gains the row; a full node on the way is split before the descent
  /// enters it, so that the leaf and every node above have room.
  ///
  /// - Complexity: O(log *n*).
  @inlinable
  func attach(_ node: Int32, at position: Int, in tree: Int, hint: Int = -1) {
    let hint = Int32(truncatingIfNeeded: hint)
    if descended.shape == shape && descended.rank == position && Int(descended.tree) == tree
      && Int(leaves[Int(descended.leaf)].count) < Self.leafCapacity
    {
      attachWhereDescended(node, hint: hint, in: tree)
      return
    }
    shape &+= 1
    if roots[tree].node < 0 {
      let leaf = newLeaf(filler: ids[Int(node)])
      leaves[Int(leaf)].parent = -Int32(tree) - 2
      roots[tree].node = leaf
      roots[tree].height = 0
    } else if isFull(roots[tree].node, height: roots[tree].height) {
      splitRoot(of: tree)
    }
    var current = roots[tree].node
    var height = roots[tree].height
    var k = Int32(position)
    while height > 0 {
      let base = Self.innerBase(current)
      let last = Int(inners[Int(current)].count) - 1
      // The first child whose rows reach `k`: at a boundary the row goes
      // last in the child before, which keeps the next child's first row.
      var index = 0
      counts.withUnsafeBufferPointer { counts in
        while index < last && k > counts[base &+ index] {
          k -= counts[base &+ index]
          index &+= 1
        }
      }
      var child = children[base + index]
      if isFull(child, height: height - 1) {
        split(child: index, of: current)
        let before = counts[base + index]
        if k > before {
          k -= before
          index += 1
        }
        child = children[base + index]
      }
      counts[base + index] += 1
      current = child
      height -= 1
    }
    insertRow(node, hint: hint, at: Int(k), in: current)
    roots[tree].count += 1
    if k == 0 { propagateFirst(of: current, height: 0) }
  }

  /// ``attach(_:at:in:hint:)`` where the last descent ended, in a leaf
  /// with room: the nodes it passed gain the row, by the children it took,
  /// and no node is searched again.
  @inlinable
  func attachWhereDescended(_ node: Int32, hint: Int32, in tree: Int) {
    shape &+= 1
    let leaf = descended.leaf
    let index = Int(descended.index)
    insertRow(node, hint: hint, at: index, in: leaf)
    var path = descended.path
    var isFirst = index == 0
    var up = leaves[Int(leaf)].parent
    while up >= 0 {
      let slot = Self.innerBase(up) &+ Int(truncatingIfNeeded: path & 0xFFFF)
      path = path &>> 16
      counts[slot] += 1
      if isFirst {
        separatorIDs[slot] = ids[Int(node)]
        separatorHints[slot] = hint
        isFirst = slot == Self.innerBase(up)
      }
      up = inners[Int(up)].parent
    }
    roots[tree].count += 1
  }

  /// Puts the row of slot `node` at `index` of leaf `leaf`, which has room.
  ///
  /// The rows after it move up by one in each array (a `memmove` for ids
  /// of a trivial type).
  @inlinable
  func insertRow(_ node: Int32, hint: Int32, at index: Int, in leaf: Int32) {
    let base = Self.leafBase(leaf)
    let moved = Int(leaves[Int(leaf)].count) - index
    let start = base + index
    let id = ids[Int(node)]
    // Through buffers: each write through an array checks that it is
    // unique.
    leafIDs.withUnsafeMutableBufferPointer { ids in
      let at = ids.baseAddress.unsafelyUnwrapped + start
      // The place past the last row holds a filler id.
      (at + moved).deinitialize(count: 1)
      (at + 1).moveInitialize(from: at, count: moved)
      at.initialize(to: id)
    }
    leafHints.withUnsafeMutableBufferPointer { hints in
      let at = hints.baseAddress.unsafelyUnwrapped + start
      (at + 1).moveInitialize(from: at, count: moved)
      at.pointee = hint
    }
    leafSlots.withUnsafeMutableBufferPointer { slots in
      let at = slots.baseAddress.unsafelyUnwrapped + start
      (at + 1).moveInitialize(from: at, count: moved)
      at.pointee = node
    }
    leaves[Int(leaf)].count += 1
    leafOf[Int(node)] = leaf
  }

  /// Takes the row at `index` out of leaf `leaf`.
  ///
  /// The rows after it move down by one in each array; the place the last
  /// one leaves keeps a copy of its id as a filler.
  @inlinable
  func removeRow(at index: Int, of leaf: Int32) {
    let base = Self.leafBase(leaf)
    let moved = Int(leaves[Int(leaf)].count) - 1 - index
    let start = base + index
    leafIDs.withUnsafeMutableBufferPointer { ids in
      let at = ids.baseAddress.unsafelyUnwrapped + start
      if moved > 0 {
        at.deinitialize(count: 1)
        at.moveInitialize(from: at + 1, count: moved)
        (at + moved).initialize(to: at[moved - 1])
      }
    }
    leafHints.withUnsafeMutableBufferPointer { hints in
      let at = hints.baseAddress.unsafelyUnwrapped + start
      at.moveInitialize(from: at + 1, count: moved)
    }
    leafSlots.withUnsafeMutableBufferPointer { slots in
      let at = slots.baseAddress.unsafelyUnwrapped + start
      at.moveInitialize(from: at + 1, count: moved)
    }
    leaves[Int(leaf)].count -= 1
  }

  /// Removes `id` from its tree; returns the tree and the position it had.
  ///
  /// - Complexity: O(log *n*).
  @discardableResult
  @inlinable
  func remove(_ id: ID) -> (tree: Int, position: Int)? {
    guard let node = tableRemove(id) else { return nil }
    let place = detach(node)
    free.append(node)
    return place
  }

  /// Takes the row of slot `node` out of its tree and returns the tree and
  /// the position it had; the slot keeps its id, and its place in the
  /// table, for ``attach(_:at:in:hint:)`` or ``discard(_:)``.
  ///
  /// A row that moves is detached and attached: it is not hashed out of
  /// the table and into it again.
  ///
  /// - Complexity: O(log *n*).
  @discardableResult
  @inlinable
  func detach(_ node: Int32) -> (tree: Int, position: Int) {
    let (leaf, index) = leafAndIndex(of: node)
    // The rank, if a walk of `locate` found it at this shape.
    let known: Int? =
      located.0.node == node && located.0.shape == shape ? located.0.rank : nil
    shape &+= 1
    removeRow(at: index, of: leaf)
    leafOf[Int(node)] = Self.none
    let base = Self.leafBase(leaf)
    let count = Int(leaves[Int(leaf)].count)
    // One walk to the root: the rank is the rows before the row in its
    // leaf and before its subtree in each node above; each node above has
    // one row less; while the row was the first of the subtree, the
    // separators above name its successor.
    var rank = index
    var isFirst = index == 0 && count > 0
    var child = leaf
    var up = leaves[Int(leaf)].parent
    while up >= 0 {
      let at: Int
      if known != nil {
        at = childIndex(of: child, in: up)
      } else {
        let found = self.index(ofChild: child, in: up)
        at = found.index
        rank &+= found.before
      }
      let slot = Self.innerBase(up) &+ at
      counts[slot] -= 1
      if isFirst {
        separatorIDs[slot] = leafIDs[base]
        separatorHints[slot] = leafHints[base]
        isFirst = at == 0
      }
      child = up
      up = inners[Int(up)].parent
    }
    let tree = Int(-up - 2)
    roots[tree].count -= 1
    if count < Self.leafMinimum { rebalance(leaf, height: 0) }
    return (tree, known ?? rank)
  }

  /// Frees slot `node`, whose row ``detach(_:)`` took out of its tree and
  /// which goes in no tree again.
  @inlinable
  func discard(_ node: Int32) {
    let removed = tableRemove(ids[Int(node)])
    assert(removed == node, "LiveQuery: a detached row is not in the table")
    free.append(node)
  }

  /// The number of rows of tree `tree` that go before a new row, and the
  /// first row that does not (or none): descends with `isBelow(id, hint)`,
  /// which says whether the row with id `id` goes before the new row, and
  /// may change the hint of its position in the array.
  ///
  /// A node's separators are searched by halves, then its leaf's rows:
  /// O(log *n*) calls of `isBelow` in all, as in a balanced binary tree,
  /// but each reads the id and hint beside the others of its node.
  ///
  /// Before each call of `isBelow`, `prefetch` gets the hints of the two
  /// rows the next call may compare with, one on each side: a caller that
  /// asks for their elements then has them on the way, not one cache miss
  /// after another down a long list. A hint may be stale, so `prefetch`
  /// must not read through it (a prefetch never faults).
  ///
  /// - Complexity: O(log *n*) calls of `isBelow`.
  @inline(__always)
  @inlinable
  func lowerBound(
    in tree: Int, isBelowRow isBelow: (ID, inout Int32) -> Bool,
    prefetch: (Int32) -> Void = { _ in }
  ) -> (rank: Int, next: Entry) {
    var node = roots[tree].node
    guard node >= 0 else { return (0, .none) }
    var height = roots[tree].height
    var rank = 0
    // The child taken at each level, 16 bits a level, the last lowest.
    var path: UInt64 = 0
    let isRecorded = height <= 4
    // The first row of the node the descent is in is below the new row
    // (the search above found it so), except at the root.
    var low = 0
    while height > 0 {
      let base = Self.innerBase(node)
      var high = Int(inners[Int(node)].count)
      while low < high {
        let middle = (low &+ high) &>> 1
        let at = base &+ middle
        // The next probe is one of two rows: their elements start to come
        // from memory while this comparison runs.
        prefetch(separatorHints[base &+ (low &+ middle) &>> 1])
        let above = (middle &+ 1 &+ high) &>> 1
        if above < high { prefetch(separatorHints[base &+ above]) }
        let old = separatorHints[at]
        var hint = old
        let below = isBelow(separatorIDs[at], &hint)
        if hint != old { separatorHints[at] = hint }
        if below { low = middle &+ 1 } else { high = middle }
      }
      if low == 0 {
        // At the root: no row goes before the new one, which goes first
        // in the first leaf, down the first children.
        let first = firstLeaf(of: tree)
        if isRecorded { remember(tree: tree, rank: 0, leaf: first, index: 0, path: 0) }
        return (0, Entry(leaf: first, index: 0))
      }
      counts.withUnsafeBufferPointer { counts in
        for index in 0..<(low - 1) { rank &+= Int(counts[base &+ index]) }
      }
      node = children[base + low - 1]
      path = path &<< 16 | UInt64(truncatingIfNeeded: low &- 1)
      height -= 1
      low = 1
    }
    let base = Self.leafBase(node)
    let count = Int(leaves[Int(node)].count)
    var high = count
    while low < high {
      let middle = (low &+ high) &>> 1
      let at = base &+ middle
      prefetch(leafHints[base &+ (low &+ middle) &>> 1])
      let above = (middle &+ 1 &+ high) &>> 1
      if above < high { prefetch(leafHints[base &+ above]) }
      let old = leafHints[at]
      var hint = old
      let below = isBelow(leafIDs[at], &hint)
      if hint != old { leafHints[at] = hint }
      if below { low = middle &+ 1 } else { high = middle }
    }
    rank += low
    if isRecorded { remember(tree: tree, rank: rank, leaf: node, index: low, path: path) }
    if low < count { return (rank, Entry(leaf: node, index: Int32(low))) }
    let next = leaves[Int(node)].next
    return (rank, next < 0 ? .none : Entry(leaf: next, index: 0))
  }

  /// Records where the last descent ended, for ``attach(_:at:in:hint:)``.
  @inline(__always)
  @inlinable
  func remember(tree: Int, rank: Int, leaf: Int32, index: Int, path: UInt64) {
    descended.tree = Int32(truncatingIfNeeded: tree)
    descended.rank = rank
    descended.leaf = leaf
    descended.index = Int32(truncatingIfNeeded: index)
    descended.path = path
    descended.shape = shape
  }

  /// ``lowerBound(in:isBelowRow:)`` given ids only.
  @inlinable
  func lowerBound(in tree: Int, isBelow: (ID) -> Bool) -> (rank: Int, next: Entry) {
    lowerBound(in: tree, isBelowRow: { id, _ in isBelow(id) })
  }

  /// The rows before and after the row of slot `node` in its tree (each
  /// none at an end).
  ///
  /// - Complexity: O(1) after the slot's scan of its leaf.
  @inlinable
  func neighbours(of node: Int32) -> (before: Entry, after: Entry) {
    let (leaf, found) = leafAndIndex(of: node)
    let index = Int32(found)
    let links = leaves[Int(leaf)]
    var before = Entry.none
    if index > 0 {
      before = Entry(leaf: leaf, index: index - 1)
    } else if links.previous >= 0 {
      before = Entry(leaf: links.previous, index: leaves[Int(links.previous)].count - 1)
    }
    var after = Entry.none
    if index + 1 < links.count {
      after = Entry(leaf: leaf, index: index + 1)
    } else if links.next >= 0 {
      after = Entry(leaf: links.next, index: 0)
    }
    return (before, after)
  }

  /// Whether the row of slot `node` is in order with its neighbours:
  /// `isBefore(id, hint)` says whether the row goes before the row with id
  /// `id` (and may change that row's position hint); it must not for the
  /// row before, and must for the row after.
  ///
  /// - Complexity: O(1) after the slot's scan of its leaf, and at most two
  ///   calls of `isBefore`.
  @inline(__always)
  @inlinable
  func isInPlace(_ node: Int32, isBeforeRow isBefore: (ID, inout Int32) -> Bool) -> Bool {
    let (before, after) = neighbours(of: node)
    if before.exists && withEntry(before, isBefore) { return false }
    if after.exists && !withEntry(after, isBefore) { return false }
    return true
  }

  /// ``isInPlace(_:isBeforeRow:)`` given ids only.
  @inlinable
  func isInPlace(_ node: Int32, isBefore: (ID) -> Bool) -> Bool {
    isInPlace(node, isBeforeRow: { id, _ in isBefore(id) })
  }
}

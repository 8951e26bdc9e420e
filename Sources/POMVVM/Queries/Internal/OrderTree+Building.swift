// The order tree's bulk builds: see `OrderTree.swift`.
extension _OrderTree {
  /// Empties every tree and forgets all ids.
  @inlinable
  func removeAll(trees: Int) {
    shape &+= 1
    lastFound = nil
    ids.removeAll(keepingCapacity: true)
    leafOf.removeAll(keepingCapacity: true)
    free.removeAll()
    table.removeAll()
    count = 0
    leaves.removeAll(keepingCapacity: true)
    leafIDs.removeAll(keepingCapacity: true)
    leafHints.removeAll(keepingCapacity: true)
    leafSlots.removeAll(keepingCapacity: true)
    freeLeaves.removeAll()
    inners.removeAll()
    children.removeAll()
    counts.removeAll()
    separatorIDs.removeAll()
    separatorHints.removeAll()
    freeInners.removeAll()
    roots = [_OrderRoot](repeating: _OrderRoot(), count: trees)
  }

  /// Makes room for `count` rows in all, in `trees` trees built one after
  /// another, so that the builds append without growing past them.
  @inlinable
  func reserveCapacity(_ count: Int, trees: Int = 1) {
    ids.reserveCapacity(count)
    leafOf.reserveCapacity(count)
    let leafCount = count / Self.leafCapacity + trees
    leaves.reserveCapacity(leaves.count + leafCount)
    let entries = leafCount * Self.leafCapacity
    leafIDs.reserveCapacity(leafIDs.count + entries)
    leafHints.reserveCapacity(leafHints.count + entries)
    leafSlots.reserveCapacity(leafSlots.count + entries)
  }

  /// Replaces tree `tree` with `ordered`, in that order.
  ///
  /// The ids must not be in another tree. `hints`, if given, are their
  /// positions in the array.
  ///
  /// The leaves are filled (a split makes room where rows come in), and
  /// each level above is made from the one below.
  ///
  /// - Complexity: O(*k*) for *k* ids, besides freeing the old rows.
  @inlinable
  func build(_ ordered: [ID], hints: [Int32]? = nil, in tree: Int) {
    shape &+= 1
    release(tree)
    let k = ordered.count
    guard k != 0 else { return }
    let total = count + k
    if total * 4 > table.count * 3 {
      // Before the new slots are taken: it places only the slots in use.
      regrow(capacity: total + total / 2)
    }
    let slotsNeeded = k - Swift.min(k, free.count)
    ids.reserveCapacity(ids.count + slotsNeeded)
    leafOf.reserveCapacity(leafOf.count + slotsNeeded)
    let leafCount = (k + Self.leafCapacity - 1) / Self.leafCapacity
    let newLeaves = leafCount - Swift.min(leafCount, freeLeaves.count)
    if newLeaves > 0 {
      leaves.reserveCapacity(leaves.count + newLeaves)
      let entries = newLeaves * Self.leafCapacity
      leafIDs.reserveCapacity(leafIDs.count + entries)
      leafHints.reserveCapacity(leafHints.count + entries)
      leafSlots.reserveCapacity(leafSlots.count + entries)
    }
    // The leaves, as evenly filled as can be, each after the last.
    var level: [Int32] = []
    level.reserveCapacity(leafCount)
    var rows: [Int32] = []
    rows.reserveCapacity(leafCount)
    var start = 0
    var previous = Self.none
    for number in 0..<leafCount {
      let end = k * (number + 1) / leafCount
      let leaf = newLeaf(filler: ordered[start])
      let base = Self.leafBase(leaf)
      for rank in start..<end {
        let node: Int32
        if let reused = free.popLast() {
          node = reused
          ids[Int(node)] = ordered[rank]
          leafOf[Int(node)] = leaf
        } else {
          precondition(ids.count < Int(Int32.max), "LiveQuery: too many rows")
          node = Int32(ids.count)
          ids.append(ordered[rank])
          leafOf.append(leaf)
        }
        place(node)
        let at = base + rank - start
        leafIDs[at] = ordered[rank]
        leafHints[at] = hints?[rank] ?? Self.none
        leafSlots[at] = node
      }
      leaves[Int(leaf)].count = Int32(end - start)
      leaves[Int(leaf)].previous = previous
      if previous >= 0 { leaves[Int(previous)].next = leaf }
      previous = leaf
      level.append(leaf)
      rows.append(Int32(end - start))
      start = end
    }
    count = total
    // The levels above, each node's children as evenly many as can be.
    var height: Int32 = 0
    while level.count > 1 {
      let nodeCount = (level.count + Self.innerCapacity - 1) / Self.innerCapacity
      var above: [Int32] = []
      above.reserveCapacity(nodeCount)
      var aboveRows: [Int32] = []
      aboveRows.reserveCapacity(nodeCount)
      var start = 0
      for number in 0..<nodeCount {
        let end = level.count * (number + 1) / nodeCount
        let inner = newInner(height: height + 1, filler: first(of: level[start], height: height).id)
        var sum: Int32 = 0
        for index in start..<end {
          insertChild(level[index], rows: rows[index], at: index - start, in: inner)
          sum += rows[index]
        }
        above.append(inner)
        aboveRows.append(sum)
        start = end
      }
      level = above
      rows = aboveRows
      height += 1
    }
    setParent(-Int32(tree) - 2, of: level[0], height: height)
    roots[tree].node = level[0]
    roots[tree].height = height
    roots[tree].count = k
  }

  /// Empties tree `tree`: its rows leave the table and free their slots,
  /// its nodes are freed.
  @inlinable
  func release(_ tree: Int) {
    guard roots[tree].node >= 0 else { return }
    var leaf = firstLeaf(of: tree)
    while leaf >= 0 {
      let base = Self.leafBase(leaf)
      for index in 0..<Int(leaves[Int(leaf)].count) {
        let node = leafSlots[base + index]
        let removed = tableRemove(ids[Int(node)])
        assert(removed == node, "LiveQuery: a row is not in the table")
        leafOf[Int(node)] = Self.none
        free.append(node)
      }
      freeLeaves.append(leaf)
      leaf = leaves[Int(leaf)].next
    }
    // The inner nodes, level by level.
    var level = [roots[tree].node]
    var height = roots[tree].height
    while height > 0 {
      var below: [Int32] = []
      for inner in level {
        let base = Self.innerBase(inner)
        below.append(contentsOf: children[base..<(base + Int(inners[Int(inner)].count))])
        freeInners.append(inner)
      }
      level = below
      height -= 1
    }
    roots[tree] = _OrderRoot()
  }
}

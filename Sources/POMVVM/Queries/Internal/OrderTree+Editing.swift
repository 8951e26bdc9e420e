// The order tree's insertions, removals and descents: see `OrderTree.swift`.
extension _OrderTree {
  @inlinable
  func newNode(_ id: ID) -> Int32 {
    let node: Int32
    if let reused = free.popLast() {
      node = reused
      ids[Int(node)] = id
      nodes[Int(node)] = .single
    } else {
      precondition(ids.count < Int(Int32.max), "LiveQuery: too many rows")
      node = Int32(ids.count)
      ids.append(id)
      nodes.append(.single)
    }
    tableInsert(node)
    return node
  }

  @inline(__always)
  @inlinable
  func update(_ node: Int32) {
    let n = Int(node)
    nodes[n].size = sizeOf(nodes[n].left) + sizeOf(nodes[n].right) + 1
  }

  @inline(__always)
  @inlinable
  func setRoot(_ node: Int32, of tree: Int) {
    roots[tree] = node
    if node >= 0 { nodes[Int(node)].parent = -Int32(tree) - 2 }
  }

  /// Splits a subtree into its first `k` rows and the rest; both results
  /// have no parent set.
  @inlinable
  func split(_ node: Int32, _ k: Int32) -> (Int32, Int32) {
    if node < 0 { return (Self.none, Self.none) }
    let n = Int(node)
    let leftSize = sizeOf(nodes[n].left)
    if k <= leftSize {
      let (a, b) = split(nodes[n].left, k)
      nodes[n].left = b
      if b >= 0 { nodes[Int(b)].parent = node }
      update(node)
      if a >= 0 { nodes[Int(a)].parent = Self.none }
      return (a, node)
    } else {
      let (a, b) = split(nodes[n].right, k - leftSize - 1)
      nodes[n].right = a
      if a >= 0 { nodes[Int(a)].parent = node }
      update(node)
      if b >= 0 { nodes[Int(b)].parent = Self.none }
      return (node, b)
    }
  }

  /// Joins two subtrees, every row of `a` before every row of `b`.
  @inlinable
  func merge(_ a: Int32, _ b: Int32) -> Int32 {
    if a < 0 { return b }
    if b < 0 { return a }
    if Self.priority(a) > Self.priority(b) {
      let joined = merge(nodes[Int(a)].right, b)
      nodes[Int(a)].right = joined
      nodes[Int(joined)].parent = a
      update(a)
      return a
    } else {
      let joined = merge(a, nodes[Int(b)].left)
      nodes[Int(b)].left = joined
      nodes[Int(joined)].parent = b
      update(b)
      return b
    }
  }

  /// The number of rows of tree `tree` that go before a new row, and the
  /// node of the first row that does not (or -1): descends with
  /// `isBelow(other)`, which says whether the row with id `other` goes
  /// before the new row, once per level.
  ///
  /// - Complexity: O(log *n*) expected calls of `isBelow`.
  @inlinable
  func lowerBound(in tree: Int, isBelow: (ID) -> Bool) -> (rank: Int, next: Int32) {
    lowerBound(in: tree, isBelowNode: { isBelow(ids[Int($0)]) })
  }

  /// ``lowerBound(in:isBelow:)`` given each node, not its id:
  /// `isBelow(node)` says whether the row of `node` goes before the new
  /// row, and may read and set its position hint.
  ///
  /// A level reads one node; its left child's size is read from the child,
  /// which the descent reads next when it goes left.
  ///
  /// - Complexity: O(log *n*) expected calls of `isBelow`.
  @inlinable
  func lowerBound(in tree: Int, isBelowNode isBelow: (Int32) -> Bool) -> (rank: Int, next: Int32) {
    var node = roots[tree]
    var rank = 0
    var next = Self.none
    while node >= 0 {
      if isBelow(node) {
        let links = nodes[Int(node)]
        rank += Int(sizeOf(links.left)) + 1
        node = links.right
      } else {
        next = node
        node = nodes[Int(node)].left
      }
    }
    return (rank, next)
  }

  /// Whether the row of `node` is in order with its neighbours:
  /// `isBefore(other)` says whether the row goes before the row with id
  /// `other`; it must not for the row before, and must for the row after.
  ///
  /// - Complexity: O(log *n*) expected, and at most two calls of
  ///   `isBefore`.
  @inlinable
  func isInPlace(_ node: Int32, isBefore: (ID) -> Bool) -> Bool {
    isInPlace(node, isBeforeNode: { isBefore(ids[Int($0)]) })
  }

  /// ``isInPlace(_:isBefore:)`` given each neighbour's node, not its id.
  ///
  /// - Complexity: O(log *n*) expected, and at most two calls of
  ///   `isBefore`.
  @inlinable
  func isInPlace(_ node: Int32, isBeforeNode isBefore: (Int32) -> Bool) -> Bool {
    let (before, after) = withNodes { nodes in
      let start = nodes[Int(node)]
      // The row before: the last of the left subtree, or the first ancestor
      // reached from its right.
      var before = Self.none
      if start.left >= 0 {
        before = start.left
        while nodes[Int(before)].right >= 0 { before = nodes[Int(before)].right }
      } else {
        var child = node
        var up = start.parent
        while up >= 0 && nodes[Int(up)].left == child {
          child = up
          up = nodes[Int(up)].parent
        }
        before = up
      }
      var after = Self.none
      if start.right >= 0 {
        after = start.right
        while nodes[Int(after)].left >= 0 { after = nodes[Int(after)].left }
      } else {
        var child = node
        var up = start.parent
        while up >= 0 && nodes[Int(up)].right == child {
          child = up
          up = nodes[Int(up)].parent
        }
        after = up
      }
      return (before, after)
    }
    if before >= 0 && isBefore(before) { return false }
    if after >= 0 && !isBefore(after) { return false }
    return true
  }

  /// Inserts `id`, which must not be in a tree, at `position` of tree `tree`.
  ///
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func insert(_ id: ID, at position: Int, in tree: Int) {
    attach(newNode(id), at: position, in: tree)
  }

  /// Puts `node`, which is in no tree (new, or taken out by
  /// ``detach(_:)``), at `position` of tree `tree`.
  ///
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func attach(_ node: Int32, at position: Int, in tree: Int) {
    shape &+= 1
    let priority = Self.priority(node)
    // Down the path to `position` while the nodes stay above the new one
    // (each subtree gains a row), then the rest is split under it: one
    // descent, and a split of a subtree of expected constant size, rather
    // than a split and two merges of the whole tree.
    // Through a buffer: each write through the array checks that it is
    // unique, once per level. The walk's state stays in locals of the
    // closure, not in captured variables that each level writes back.
    let root = roots[tree]
    let (above, isLeft, current, k) = withMutableNodes { nodes in
      var above = Self.none
      var isLeft = false
      var current = root
      var k = Int32(position)
      while current >= 0 && Self.priority(current) > priority {
        let n = Int(current)
        nodes[n].size += 1
        above = current
        let leftChild = nodes[n].left
        let leftSize = leftChild < 0 ? 0 : nodes[Int(leftChild)].size
        if k <= leftSize {
          isLeft = true
          current = leftChild
        } else {
          isLeft = false
          k -= leftSize + 1
          current = nodes[n].right
        }
      }
      return (above, isLeft, current, k)
    }
    let (a, b) = split(current, k)
    let n = Int(node)
    withMutableNodes { nodes in
      nodes[n].left = a
      nodes[n].right = b
      if a >= 0 { nodes[Int(a)].parent = node }
      if b >= 0 { nodes[Int(b)].parent = node }
      nodes[n].size =
        (a < 0 ? 0 : nodes[Int(a)].size) + (b < 0 ? 0 : nodes[Int(b)].size) + 1
      if above >= 0 {
        if isLeft { nodes[Int(above)].left = node } else { nodes[Int(above)].right = node }
        nodes[n].parent = above
      }
    }
    if above < 0 { setRoot(node, of: tree) }
  }

  /// Removes `id` from its tree; returns the tree and the position it had.
  ///
  /// - Complexity: O(log *n*) expected.
  @discardableResult
  @inlinable
  func remove(_ id: ID) -> (tree: Int, position: Int)? {
    guard let node = tableRemove(id) else { return nil }
    let place = detach(node)
    free.append(node)
    return place
  }

  /// Takes the row of `node` out of its tree and returns the tree and the
  /// position it had; the node keeps its id, and its place in the table,
  /// for ``attach(_:at:in:)`` or ``discard(_:)``.
  ///
  /// A row that moves is detached and attached: it is not hashed out of
  /// the table and into it again.
  ///
  /// - Complexity: O(log *n*) expected.
  @discardableResult
  @inlinable
  func detach(_ node: Int32) -> (tree: Int, position: Int) {
    let position = rank(node: node)
    shape &+= 1
    let n = Int(node)
    let l = nodes[n].left
    let r = nodes[n].right
    if l >= 0 { nodes[Int(l)].parent = Self.none }
    if r >= 0 { nodes[Int(r)].parent = Self.none }
    let joined = merge(l, r)
    // Through a buffer: each write through an array checks that it is
    // unique.
    let (tree, wasRoot) = withMutableNodes { nodes -> (Int, Bool) in
      let up = nodes[n].parent
      nodes[n].left = Self.none
      nodes[n].right = Self.none
      nodes[n].parent = Self.none
      if up < 0 { return (Int(-up - 2), true) }
      if nodes[Int(up)].left == node {
        nodes[Int(up)].left = joined
      } else {
        nodes[Int(up)].right = joined
      }
      if joined >= 0 { nodes[Int(joined)].parent = up }
      // Each row above has one row less.
      var walk = up
      while true {
        nodes[Int(walk)].size -= 1
        let next = nodes[Int(walk)].parent
        if next < 0 { return (Int(-next - 2), false) }
        walk = next
      }
    }
    if wasRoot { setRoot(joined, of: tree) }
    return (tree, position)
  }

  /// Frees `node`, which ``detach(_:)`` took out of its tree and which goes
  /// in no tree again.
  @inlinable
  func discard(_ node: Int32) {
    let removed = tableRemove(ids[Int(node)])
    assert(removed == node, "LiveQuery: a detached row is not in the table")
    free.append(node)
  }
}

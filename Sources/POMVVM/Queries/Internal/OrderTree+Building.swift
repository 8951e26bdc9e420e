// The order tree's bulk builds: see `OrderTree.swift`.
extension _OrderTree {
  /// Replaces tree `tree` with `ordered`, in that order; the ids must not be
  /// in another tree.
  ///
  /// The tree is built balanced (``linkBalanced(_:holding:)``).
  ///
  /// - Complexity: O(*k*) for *k* ids, besides freeing the old rows.
  @inlinable
  func build(_ ordered: [ID], in tree: Int) {
    shape &+= 1
    for id in self.ids(of: tree) { remove(id) }
    if free.isEmpty {
      buildFresh(ordered, in: tree)
      return
    }
    let total = count + ordered.count
    if total * 4 > table.count * 3 {
      // Before the free slots are taken: it places only the nodes in trees.
      regrow(capacity: total + total / 2)
    }
    let reserve = ids.count + ordered.count - free.count
    reserveCapacity(reserve)
    var nodes: [Int32] = []
    nodes.reserveCapacity(ordered.count)
    for id in ordered {
      if let reused = free.popLast() {
        nodes.append(reused)
      } else {
        precondition(ids.count < Int(Int32.max), "LiveQuery: too many rows")
        nodes.append(Int32(ids.count))
        // Its id is written again where it goes.
        ids.append(id)
        self.nodes.append(.single)
      }
    }
    let root = linkBalanced(&nodes, holding: ordered)
    for node in nodes { place(node) }
    count = total
    setRoot(root, of: tree)
  }

  /// Makes room for `count` slots in all, so that building trees one
  /// after another appends without growing past them.
  @inlinable
  func reserveCapacity(_ count: Int) {
    ids.reserveCapacity(count)
    self.nodes.reserveCapacity(count)
  }

  /// ``build(_:in:)`` when no slot is free: the new nodes are the next
  /// slots, appended in bulk.
  ///
  /// - Complexity: O(*k*) for *k* ids.
  @inlinable
  func buildFresh(_ ordered: [ID], in tree: Int) {
    shape &+= 1
    let k = ordered.count
    guard k != 0 else {
      setRoot(Self.none, of: tree)
      return
    }
    let base = ids.count
    precondition(base + k < Int(Int32.max), "LiveQuery: too many rows")
    // The ids are written again where they go.
    ids.append(contentsOf: ordered)
    self.nodes.append(contentsOf: repeatElement(.single, count: k))
    var nodes = [Int32](unsafeUninitializedCapacity: k) { nodes, initialized in
      for index in 0..<k { nodes[index] = Int32(base + index) }
      initialized = k
    }
    let root = linkBalanced(&nodes, holding: ordered)
    let total = count + k
    if total * 4 > table.count * 3 {
      // Places every node, the new ones too.
      regrow(capacity: total + total / 2)
    } else {
      for node in base..<(base + k) { place(Int32(node)) }
      count = total
    }
    setRoot(root, of: tree)
  }

  /// Links `nodes`, which are in no tree, into a tree of `ordered` (as many
  /// ids), and returns its root; writes their ids, links and sizes, but
  /// not the id table.
  ///
  /// The nodes are laid out as a complete binary tree, each above the
  /// nodes of lower priority (a heap, made in O(*k*)), and take the ids in
  /// the tree's order: the tree is a treap, as an insertion would have made
  /// it for some order of priorities, but of the least height,
  /// ⌈log₂(*k* + 1)⌉. A treap built from the same priorities in id order
  /// is about 1.4 times as deep on average, and every descent (an
  /// insertion's comparisons, a rank's walk to the root) pays for it.
  ///
  /// - Complexity: O(*k*).
  @inlinable
  func linkBalanced(_ nodes: inout [Int32], holding ordered: [ID]) -> Int32 {
    let k = nodes.count
    guard k != 0 else { return Self.none }
    var priorities = nodes.map { Self.priority($0) }
    // A heap by priority: Floyd's, sifting each parent down.
    nodes.withUnsafeMutableBufferPointer { nodes in
      priorities.withUnsafeMutableBufferPointer { priorities in
        var start = k / 2
        while start > 0 {
          start -= 1
          let node = nodes[start]
          let priority = priorities[start]
          var index = start
          while true {
            var child = 2 * index + 1
            if child >= k { break }
            if child + 1 < k && priorities[child + 1] > priorities[child] { child += 1 }
            if priorities[child] <= priority { break }
            nodes[index] = nodes[child]
            priorities[index] = priorities[child]
            index = child
          }
          nodes[index] = node
          priorities[index] = priority
        }
      }
    }
    nodes.withUnsafeBufferPointer { nodes in
      withMutableNodes { links in
        // Children after parents, so sizes are made from the last.
        for index in (0..<k).reversed() {
          let node = Int(nodes[index])
          let first = 2 * index + 1
          let second = first + 1
          links[node].left = first < k ? nodes[first] : Self.none
          links[node].right = second < k ? nodes[second] : Self.none
          links[node].parent = index == 0 ? Self.none : nodes[(index - 1) / 2]
          links[node].size =
            1 + (first < k ? links[Int(nodes[first])].size : 0)
            + (second < k ? links[Int(nodes[second])].size : 0)
        }
      }
      // The ids, in the tree's order: a walk of the complete tree from its
      // first node, each step to the next in order, with no stack.
      ids.withUnsafeMutableBufferPointer { ids in
        ordered.withUnsafeBufferPointer { ordered in
          var index = 0
          while 2 * index + 1 < k { index = 2 * index + 1 }
          for rank in 0..<k {
            ids[Int(nodes[index])] = ordered[rank]
            if 2 * index + 2 < k {
              // The first of the right subtree.
              index = 2 * index + 2
              while 2 * index + 1 < k { index = 2 * index + 1 }
            } else {
              // Up past the right children, then to the parent (-1 after
              // the root: the walk is over).
              while index > 0 && index & 1 == 0 { index = (index - 1) >> 1 }
              index = (index - 1) >> 1
            }
          }
        }
      }
    }
    return nodes[0]
  }
}

/// The order-statistic index of a query: the ids it shows, in its order,
/// with O(log *n*) insertion, removal, rank and select.
///
/// A treap kept in parallel arrays: a node is a slot number, its links and
/// its subtree's row count are `Int32`s, and its priority is a hash of the
/// slot number, so a node costs 16 bytes plus its id, and one entry in the
/// id-to-node table. A tree built in bulk is of the least height, its nodes
/// still ordered by priority (``linkBalanced(_:holding:)``); insertions and
/// removals keep the treap's expected O(log *n*) depth from there.
///
/// The order lives in the tree's shape only: the tree never compares
/// elements itself. An insertion descends with a comparison that the query
/// gives (sort order, ties by the array's order), so an element whose value
/// already changed in the array is still found, and removed, by its id.
///
/// A class, not a struct: the query calls it on every change, and a
/// struct held in a class's property is copied (seven retains) by each
/// non-mutating call. Its state skips run-time exclusivity checks: it is
/// touched only on the main actor, and no access spans a call out of it
/// other than to the ids' `hash(into:)` and `==`.
///
/// Several trees can share the slots: a sectioned query keeps one per
/// section. A root's parent link holds `-(tree + 2)`, so a node finds the
/// tree it belongs to by walking up.
@usableFromInline
final class _OrderTree<ID: Hashable> {
  @usableFromInline
  @exclusivity(unchecked)
  var left: [Int32] = []
  @usableFromInline
  @exclusivity(unchecked)
  var right: [Int32] = []
  @usableFromInline
  @exclusivity(unchecked)
  var parent: [Int32] = []
  @usableFromInline
  @exclusivity(unchecked)
  var size: [Int32] = []
  @usableFromInline
  @exclusivity(unchecked)
  var ids: [ID] = []
  @usableFromInline
  @exclusivity(unchecked)
  var free: [Int32] = []
  /// The node of every id in a tree: an open-addressing table of node
  /// numbers with linear probing, whose keys are read from `ids`, so it
  /// costs 4 bytes a slot and holds no second copy of the ids.
  @usableFromInline
  @exclusivity(unchecked)
  var table: [Int32] = []
  /// How many ids the trees hold together.
  @usableFromInline
  @exclusivity(unchecked)
  var count = 0
  /// The root of each tree, or -1 while it is empty.
  @usableFromInline
  @exclusivity(unchecked)
  var roots: [Int32] = []
  /// Counts the changes to the trees' shape (`insert`, `remove`, `build`,
  /// `buildFresh`, `removeAll`): a rank found while it had a value is still
  /// right while it keeps it.
  @usableFromInline
  @exclusivity(unchecked)
  var shape: UInt64 = 0
  /// The tree and rank of the last two nodes located (``locate(_:)``),
  /// newest first, with the shape they were found at: an element edited
  /// again and again in place (a detail screen's field, typed into), or
  /// two edited in turn (an edit and its reaction), find their rows
  /// without the walk to the root.
  @usableFromInline
  @exclusivity(unchecked)
  var located = (Location(), Location())
  /// ``_intHashSeed``, read once: each read of the global goes through its
  /// lazy initializer's check.
  @usableFromInline
  let seed = _intHashSeed
  /// The id that ``node(of:)`` found last, and its node.
  ///
  /// A step looks its row up several times (in place or not, out of its
  /// tree, back in). An id keeps its node for as long as it is in the table, so this is
  /// cleared when an id leaves it (``tableRemove(_:)``, ``removeAll(trees:)``).
  @usableFromInline
  @exclusivity(unchecked)
  var lastFound: (id: ID, node: Int32)?

  /// Where a node was found: its tree and its rank there, at a shape.
  @usableFromInline
  struct Location {
    @usableFromInline
    var node: Int32 = -1
    @usableFromInline
    var tree: Int32 = 0
    @usableFromInline
    var rank = 0
    @usableFromInline
    var shape: UInt64 = 0

    @inlinable
    init() {}
  }

  @inlinable
  init() {}

  @inlinable
  static var none: Int32 { -1 }

  /// The number of rows of tree `tree`.
  @inlinable
  func count(of tree: Int) -> Int {
    let root = roots[tree]
    return root < 0 ? 0 : Int(size[Int(root)])
  }

  /// A pseudo-random priority for a slot: a finalizer of a 32-bit hash.
  @inline(__always)
  @inlinable
  static func priority(_ node: Int32) -> UInt32 {
    var x = UInt32(bitPattern: node) &+ 0x9E37_79B9
    x = (x ^ (x >> 16)) &* 0x85EB_CA6B
    x = (x ^ (x >> 13)) &* 0xC2B2_AE35
    return x ^ (x >> 16)
  }

  @inline(__always)
  @inlinable
  func sizeOf(_ node: Int32) -> Int32 { node < 0 ? 0 : size[Int(node)] }

  /// Adds an empty tree and returns its number.
  @inlinable
  func addTree() -> Int {
    roots.append(Self.none)
    return roots.count - 1
  }

  /// Empties every tree and forgets all ids.
  @inlinable
  func removeAll(trees: Int) {
    shape &+= 1
    lastFound = nil
    left.removeAll(keepingCapacity: true)
    right.removeAll(keepingCapacity: true)
    parent.removeAll(keepingCapacity: true)
    size.removeAll(keepingCapacity: true)
    ids.removeAll(keepingCapacity: true)
    free.removeAll()
    table.removeAll()
    count = 0
    roots = [Int32](repeating: Self.none, count: trees)
  }

  /// Whether `id` is in a tree.
  @inlinable
  func contains(_ id: ID) -> Bool { node(of: id) != nil }

  /// The tree that `id` is in.
  @inlinable
  func tree(of id: ID) -> Int? {
    guard let node = node(of: id) else { return nil }
    return tree(ofNode: node)
  }

  /// The tree that `node` is in.
  ///
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func tree(ofNode node: Int32) -> Int { locate(node).tree }

  /// The position of `id` within its tree.
  ///
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func rank(of id: ID) -> Int? {
    guard let node = node(of: id) else { return nil }
    return rank(node: node)
  }

  /// The position of `node` within its tree.
  ///
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func rank(node: Int32) -> Int { locate(node).rank }

  /// The tree of `node` and its rank there, found in one walk to the root,
  /// or remembered from one of the last two walks if the shape has not
  /// changed since.
  ///
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func locate(_ start: Int32) -> (tree: Int, rank: Int) {
    if located.0.node == start && located.0.shape == shape {
      return (Int(located.0.tree), located.0.rank)
    }
    if located.1.node == start && located.1.shape == shape {
      return (Int(located.1.tree), located.1.rank)
    }
    // Through buffers: each read through an array checks its index.
    let (tree, rank) = withLinks { left, right, parent, size in
      func sizeOf(_ node: Int32) -> Int { node < 0 ? 0 : Int(size[Int(node)]) }
      var node = start
      var rank = sizeOf(left[Int(node)])
      var up = parent[Int(node)]
      while up >= 0 {
        if right[Int(up)] == node { rank += sizeOf(left[Int(up)]) + 1 }
        node = up
        up = parent[Int(node)]
      }
      return (-up - 2, rank)
    }
    located.1 = located.0
    located.0.node = start
    located.0.tree = tree
    located.0.rank = rank
    located.0.shape = shape
    return (Int(tree), rank)
  }

  /// Calls `body` with the links and sizes of the nodes, read in place.
  ///
  /// The indices must be nodes: a buffer does not check them in an
  /// optimized build.
  @inline(__always)
  @inlinable
  func withLinks<Result>(
    _ body: (
      _ left: UnsafeBufferPointer<Int32>, _ right: UnsafeBufferPointer<Int32>,
      _ parent: UnsafeBufferPointer<Int32>, _ size: UnsafeBufferPointer<Int32>
    ) -> Result
  ) -> Result {
    left.withUnsafeBufferPointer { left in
      right.withUnsafeBufferPointer { right in
        parent.withUnsafeBufferPointer { parent in
          size.withUnsafeBufferPointer { size in body(left, right, parent, size) }
        }
      }
    }
  }

  /// ``withLinks(_:)`` for writing.
  @inline(__always)
  @inlinable
  func withMutableLinks<Result>(
    _ body: (
      _ left: UnsafeMutableBufferPointer<Int32>, _ right: UnsafeMutableBufferPointer<Int32>,
      _ parent: UnsafeMutableBufferPointer<Int32>, _ size: UnsafeMutableBufferPointer<Int32>
    ) -> Result
  ) -> Result {
    left.withUnsafeMutableBufferPointer { left in
      right.withUnsafeMutableBufferPointer { right in
        parent.withUnsafeMutableBufferPointer { parent in
          size.withUnsafeMutableBufferPointer { size in body(left, right, parent, size) }
        }
      }
    }
  }

  /// The id at `position` of tree `tree`.
  ///
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func id(at position: Int, in tree: Int) -> ID {
    var node = roots[tree]
    var k = Int32(position)
    while true {
      let leftSize = sizeOf(left[Int(node)])
      if k < leftSize {
        node = left[Int(node)]
      } else if k == leftSize {
        return ids[Int(node)]
      } else {
        k -= leftSize + 1
        node = right[Int(node)]
      }
    }
  }

  /// Every id of tree `tree`, in order.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  func ids(of tree: Int) -> [ID] {
    var result: [ID] = []
    result.reserveCapacity(count(of: tree))
    var stack: [Int32] = []
    var node = roots[tree]
    while node >= 0 || !stack.isEmpty {
      while node >= 0 {
        stack.append(node)
        node = left[Int(node)]
      }
      node = stack.removeLast()
      result.append(ids[Int(node)])
      node = right[Int(node)]
    }
    return result
  }

  @inlinable
  func newNode(_ id: ID) -> Int32 {
    let node: Int32
    if let reused = free.popLast() {
      node = reused
      ids[Int(node)] = id
      left[Int(node)] = Self.none
      right[Int(node)] = Self.none
      parent[Int(node)] = Self.none
      size[Int(node)] = 1
    } else {
      precondition(ids.count < Int(Int32.max), "LiveQuery: too many rows")
      node = Int32(ids.count)
      ids.append(id)
      left.append(Self.none)
      right.append(Self.none)
      parent.append(Self.none)
      size.append(1)
    }
    tableInsert(node)
    return node
  }

  @inline(__always)
  @inlinable
  func update(_ node: Int32) {
    size[Int(node)] = sizeOf(left[Int(node)]) + sizeOf(right[Int(node)]) + 1
  }

  @inline(__always)
  @inlinable
  func setRoot(_ node: Int32, of tree: Int) {
    roots[tree] = node
    if node >= 0 { parent[Int(node)] = -Int32(tree) - 2 }
  }

  /// Splits a subtree into its first `k` rows and the rest; both results
  /// have no parent set.
  @inlinable
  func split(_ node: Int32, _ k: Int32) -> (Int32, Int32) {
    if node < 0 { return (Self.none, Self.none) }
    let n = Int(node)
    let leftSize = sizeOf(left[n])
    if k <= leftSize {
      let (a, b) = split(left[n], k)
      left[n] = b
      if b >= 0 { parent[Int(b)] = node }
      update(node)
      if a >= 0 { parent[Int(a)] = Self.none }
      return (a, node)
    } else {
      let (a, b) = split(right[n], k - leftSize - 1)
      right[n] = a
      if a >= 0 { parent[Int(a)] = node }
      update(node)
      if b >= 0 { parent[Int(b)] = Self.none }
      return (node, b)
    }
  }

  /// Joins two subtrees, every row of `a` before every row of `b`.
  @inlinable
  func merge(_ a: Int32, _ b: Int32) -> Int32 {
    if a < 0 { return b }
    if b < 0 { return a }
    if Self.priority(a) > Self.priority(b) {
      let joined = merge(right[Int(a)], b)
      right[Int(a)] = joined
      parent[Int(joined)] = a
      update(a)
      return a
    } else {
      let joined = merge(a, left[Int(b)])
      left[Int(b)] = joined
      parent[Int(joined)] = b
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
    var node = roots[tree]
    var rank = 0
    var next = Self.none
    while node >= 0 {
      if isBelow(ids[Int(node)]) {
        rank += Int(sizeOf(left[Int(node)])) + 1
        node = right[Int(node)]
      } else {
        next = node
        node = left[Int(node)]
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
    let n = Int(node)
    // The row before: the last of the left subtree, or the first ancestor
    // reached from its right.
    var before = Self.none
    if left[n] >= 0 {
      before = left[n]
      while right[Int(before)] >= 0 { before = right[Int(before)] }
    } else {
      var child = node
      var up = parent[n]
      while up >= 0 && left[Int(up)] == child {
        child = up
        up = parent[Int(up)]
      }
      before = up
    }
    if before >= 0 && isBefore(ids[Int(before)]) { return false }
    var after = Self.none
    if right[n] >= 0 {
      after = right[n]
      while left[Int(after)] >= 0 { after = left[Int(after)] }
    } else {
      var child = node
      var up = parent[n]
      while up >= 0 && right[Int(up)] == child {
        child = up
        up = parent[Int(up)]
      }
      after = up
    }
    if after >= 0 && !isBefore(ids[Int(after)]) { return false }
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
    let (above, isLeft, current, k) = size.withUnsafeMutableBufferPointer { size in
      left.withUnsafeBufferPointer { left in
        right.withUnsafeBufferPointer { right in
          var above = Self.none
          var isLeft = false
          var current = root
          var k = Int32(position)
          while current >= 0 && Self.priority(current) > priority {
            let n = Int(current)
            size[n] += 1
            above = current
            let leftChild = left[n]
            let leftSize = leftChild < 0 ? 0 : size[Int(leftChild)]
            if k <= leftSize {
              isLeft = true
              current = leftChild
            } else {
              isLeft = false
              k -= leftSize + 1
              current = right[n]
            }
          }
          return (above, isLeft, current, k)
        }
      }
    }
    let (a, b) = split(current, k)
    let n = Int(node)
    // Through buffers: each write through an array checks that it is
    // unique.
    withMutableLinks { left, right, parent, size in
      left[n] = a
      right[n] = b
      if a >= 0 { parent[Int(a)] = node }
      if b >= 0 { parent[Int(b)] = node }
      size[n] = (a < 0 ? 0 : size[Int(a)]) + (b < 0 ? 0 : size[Int(b)]) + 1
      if above >= 0 {
        if isLeft { left[Int(above)] = node } else { right[Int(above)] = node }
        parent[n] = above
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
    let l = left[n]
    let r = right[n]
    if l >= 0 { parent[Int(l)] = Self.none }
    if r >= 0 { parent[Int(r)] = Self.none }
    let joined = merge(l, r)
    // Through buffers: each write through an array checks that it is
    // unique.
    let (tree, wasRoot) = withMutableLinks { left, right, parent, size -> (Int, Bool) in
      let up = parent[n]
      left[n] = Self.none
      right[n] = Self.none
      parent[n] = Self.none
      if up < 0 { return (Int(-up - 2), true) }
      if left[Int(up)] == node { left[Int(up)] = joined } else { right[Int(up)] = joined }
      if joined >= 0 { parent[Int(joined)] = up }
      // Each row above has one row less.
      var walk = up
      while true {
        size[Int(walk)] -= 1
        let next = parent[Int(walk)]
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
        left.append(Self.none)
        right.append(Self.none)
        parent.append(Self.none)
        size.append(1)
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
    left.reserveCapacity(count)
    right.reserveCapacity(count)
    parent.reserveCapacity(count)
    size.reserveCapacity(count)
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
    left.append(contentsOf: repeatElement(Self.none, count: k))
    right.append(contentsOf: repeatElement(Self.none, count: k))
    parent.append(contentsOf: repeatElement(Self.none, count: k))
    size.append(contentsOf: repeatElement(1, count: k))
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
      left.withUnsafeMutableBufferPointer { left in
        right.withUnsafeMutableBufferPointer { right in
          parent.withUnsafeMutableBufferPointer { parent in
            size.withUnsafeMutableBufferPointer { size in
              // Children after parents, so sizes are made from the last.
              for index in (0..<k).reversed() {
                let node = Int(nodes[index])
                let first = 2 * index + 1
                let second = first + 1
                left[node] = first < k ? nodes[first] : Self.none
                right[node] = second < k ? nodes[second] : Self.none
                parent[node] = index == 0 ? Self.none : nodes[(index - 1) / 2]
                size[node] =
                  1 + (first < k ? size[Int(nodes[first])] : 0)
                  + (second < k ? size[Int(nodes[second])] : 0)
              }
            }
          }
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

  // MARK: - The id table

  /// The node of `id`, if a tree holds it.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func node(of id: ID) -> Int32? {
    if let lastFound, lastFound.id == id { return lastFound.node }
    guard count != 0 else { return nil }
    let capacity = table.count
    var slot = _homeSlot(of: id, capacity, seed: seed)
    while true {
      let node = table[slot]
      if node < 0 { return nil }
      if ids[Int(node)] == id {
        lastFound = (id, node)
        return node
      }
      slot = slot &+ 1 == capacity ? 0 : slot &+ 1
    }
  }

  @inlinable
  func tableInsert(_ node: Int32) {
    if (count + 1) * 4 > table.count * 3 {
      // The new node is in `ids` already: the rebuild places it too.
      regrow(capacity: Swift.max(16, (count + 1) * 2))
      return
    }
    place(node)
    count += 1
  }

  @inlinable
  func place(_ node: Int32) {
    let capacity = table.count
    var slot = _homeSlot(of: ids[Int(node)], capacity, seed: seed)
    while table[slot] >= 0 { slot = slot &+ 1 == capacity ? 0 : slot &+ 1 }
    table[slot] = node
  }

  /// Places every node that is not free in a table of `capacity` slots.
  @inlinable
  func regrow(capacity: Int) {
    table = [Int32](repeating: Self.none, count: Swift.max(16, capacity))
    var isFree = [Bool](repeating: false, count: ids.count)
    for node in free { isFree[Int(node)] = true }
    count = 0
    for node in ids.indices where !isFree[node] {
      place(Int32(node))
      count += 1
    }
  }

  /// Takes `id` out of the table; returns its node.
  @inlinable
  func tableRemove(_ id: ID) -> Int32? {
    lastFound = nil
    guard count != 0 else { return nil }
    let capacity = table.count
    var hole = _homeSlot(of: id, capacity, seed: seed)
    while true {
      let node = table[hole]
      if node < 0 { return nil }
      if ids[Int(node)] == id { break }
      hole = hole &+ 1 == capacity ? 0 : hole &+ 1
    }
    let found = table[hole]
    // Backward-shift deletion: pull later entries of the run into the hole
    // when their home is not between the hole and them.
    var next = hole
    while true {
      next = next &+ 1 == capacity ? 0 : next &+ 1
      let moved = table[next]
      if moved < 0 { break }
      let home = _homeSlot(of: ids[Int(moved)], capacity, seed: seed)
      let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if stays { continue }
      table[hole] = moved
      hole = next
    }
    table[hole] = Self.none
    count -= 1
    return found
  }
}

/// The order-statistic index of a query: the ids it shows, in its order,
/// with O(log *n*) insertion, removal, rank and select.
///
/// A treap whose nodes are slot numbers: a node's links, its subtree's row
/// count and the hint of its row's array position are five `Int32`s side
/// by side in one array (``_OrderNode``), so a step of a descent or of a
/// walk to the root reads one node, mostly one cache line, where four
/// arrays of links cost four. Its id is in a parallel array, its priority
/// a hash of the slot number: a node costs 20 bytes plus its id, and one
/// entry in the id-to-node table. A tree built in bulk is of the least
/// height, its nodes still ordered by priority (``linkBalanced(_:holding:)``);
/// insertions and removals keep the treap's expected O(log *n*) depth from
/// there.
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
///
/// The tree's parts: this file (its state and reads), `OrderTree+Editing`
/// (insertion, removal, the descents), `OrderTree+Building` (bulk builds)
/// and `OrderTree+Table` (the id-to-node table).
@usableFromInline
final class _OrderTree<ID: Hashable> {
  /// The links and sizes of every slot, and their rows' position hints.
  @usableFromInline
  @exclusivity(unchecked)
  var nodes: [_OrderNode] = []
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

  /// One link (or the size) of every node, read by node number: `left[node]`.
  @usableFromInline
  struct Links {
    @usableFromInline
    let nodes: [_OrderNode]
    @usableFromInline
    let field: KeyPath<_OrderNode, Int32>

    @inlinable
    init(_ nodes: [_OrderNode], _ field: KeyPath<_OrderNode, Int32>) {
      self.nodes = nodes
      self.field = field
    }

    @inlinable
    subscript(_ node: Int) -> Int32 { nodes[node][keyPath: field] }
  }

  /// The left child of every node (for tests and checks; the tree's own
  /// code reads ``nodes``).
  @inlinable
  var left: Links { Links(nodes, \.left) }
  /// The right child of every node.
  @inlinable
  var right: Links { Links(nodes, \.right) }
  /// The parent of every node.
  @inlinable
  var parent: Links { Links(nodes, \.parent) }
  /// The row count of every node's subtree.
  @inlinable
  var size: Links { Links(nodes, \.size) }

  @inlinable
  init() {}

  @inlinable
  static var none: Int32 { -1 }

  /// The number of rows of tree `tree`.
  @inlinable
  func count(of tree: Int) -> Int {
    let root = roots[tree]
    return root < 0 ? 0 : Int(nodes[Int(root)].size)
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
  func sizeOf(_ node: Int32) -> Int32 { node < 0 ? 0 : nodes[Int(node)].size }

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
    nodes.removeAll(keepingCapacity: true)
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
    // Through a buffer: each read through an array checks its index.
    let (tree, rank) = withNodes { nodes in
      func sizeOf(_ node: Int32) -> Int { node < 0 ? 0 : Int(nodes[Int(node)].size) }
      var node = start
      var rank = sizeOf(nodes[Int(node)].left)
      var up = nodes[Int(node)].parent
      while up >= 0 {
        let above = nodes[Int(up)]
        if above.right == node { rank += sizeOf(above.left) + 1 }
        node = up
        up = above.parent
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

  /// Calls `body` with the nodes, read in place.
  ///
  /// The indices must be nodes: a buffer does not check them in an
  /// optimized build.
  @inline(__always)
  @inlinable
  func withNodes<Result>(_ body: (UnsafeBufferPointer<_OrderNode>) -> Result) -> Result {
    nodes.withUnsafeBufferPointer(body)
  }

  /// ``withNodes(_:)`` for writing.
  @inline(__always)
  @inlinable
  func withMutableNodes<Result>(
    _ body: (UnsafeMutableBufferPointer<_OrderNode>) -> Result
  ) -> Result {
    nodes.withUnsafeMutableBufferPointer { body($0) }
  }

  /// The array position last recorded for the row of `node`: a hint,
  /// right unless the array inserted, removed or moved elements before
  /// the row since (check it against the row's id).
  @inline(__always)
  @inlinable
  func positionHint(_ node: Int32) -> Int { Int(nodes[Int(node)].position) }

  /// Records that the row of `node` is at `position` of the array.
  @inline(__always)
  @inlinable
  func setPositionHint(_ node: Int32, _ position: Int) {
    nodes[Int(node)].position = Int32(truncatingIfNeeded: position)
  }

  /// The id at `position` of tree `tree`.
  ///
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func id(at position: Int, in tree: Int) -> ID {
    var node = roots[tree]
    var k = Int32(position)
    while true {
      let leftSize = sizeOf(nodes[Int(node)].left)
      if k < leftSize {
        node = nodes[Int(node)].left
      } else if k == leftSize {
        return ids[Int(node)]
      } else {
        k -= leftSize + 1
        node = nodes[Int(node)].right
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
        node = nodes[Int(node)].left
      }
      node = stack.removeLast()
      result.append(ids[Int(node)])
      node = nodes[Int(node)].right
    }
    return result
  }
}

/// One node of an ``_OrderTree``: its links, its subtree's row count, and
/// a hint of where its row is in the array, side by side (20 bytes), so
/// that a step down or up the tree reads one node, not four arrays.
@usableFromInline
struct _OrderNode {
  @usableFromInline
  var left: Int32
  @usableFromInline
  var right: Int32
  @usableFromInline
  var parent: Int32
  @usableFromInline
  var size: Int32
  /// Where the row's element was in the array when last looked up, or -1:
  /// a comparison reads it there, after a check of its id, without
  /// hashing the id.
  @usableFromInline
  var position: Int32

  /// A node in no tree, of one row.
  @inlinable
  static var single: _OrderNode {
    _OrderNode(left: -1, right: -1, parent: -1, size: 1, position: -1)
  }

  @inlinable
  init(left: Int32, right: Int32, parent: Int32, size: Int32, position: Int32) {
    self.left = left
    self.right = right
    self.parent = parent
    self.size = size
    self.position = position
  }
}

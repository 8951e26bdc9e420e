/// The order-statistic index of a query: the ids it shows, in its order,
/// with O(log *n*) insertion, removal, rank and select, worst case.
///
/// A B+-tree whose nodes are wide: a leaf holds up to ``leafCapacity``
/// rows side by side (their ids, position hints and slot numbers, each in
/// its own array, a leaf's part of it contiguous), an inner node up to
/// ``innerCapacity`` children with each child's row count and a copy of
/// the id and hint of its first row (its separator). A descent touches a
/// handful of nodes, each a few cache lines, where a binary tree of the
/// same rows touched a node somewhere else in memory at every one of its
/// 17 levels; and each of its comparisons finds the id and the hint of the
/// row it compares with in the node it is at.
///
/// A row has a slot: a number that stays its own while the row is in a
/// tree or detached from one (``detach(_:)``, ``attach(_:at:in:hint:)``),
/// with its id (`ids`) and its leaf (`leafOf`). The id-to-slot table finds
/// a row's slot, its leaf gives it the rest: its index there by a scan of
/// the leaf's slots, and its rank by a walk up the parents, adding the
/// counts of the children before.
///
/// The order lives in the tree's shape only: the tree never compares
/// elements itself. An insertion descends with a comparison that the query
/// gives (sort order, ties by the array's order), so an element whose value
/// already changed in the array is still found, and removed, by its id.
/// Each separator is the first row of its child's subtree at all times,
/// never a row that left it: a descent compares only with rows in the tree.
///
/// A class, not a struct: the query calls it on every change, and a
/// struct held in a class's property is copied (many retains) by each
/// non-mutating call. Its state skips run-time exclusivity checks: it is
/// touched only on the main actor, and no access spans a call out of it
/// other than to the ids' `hash(into:)` and `==` and a descent's
/// comparison, which is given copies.
///
/// Several trees share the slots and nodes: a sectioned query keeps one per
/// section. A root's parent link holds `-(tree + 2)`, so a node finds the
/// tree it belongs to by walking up.
///
/// The tree's parts: this file (its state and reads), `OrderTree+Editing`
/// (insertion, removal, the descents), `OrderTree+Rebalancing` (splits,
/// merges and moves between siblings), `OrderTree+Building` (bulk builds)
/// and `OrderTree+Table` (the id-to-slot table).
@usableFromInline
final class _OrderTree<ID: Hashable> {
  // MARK: Rows

  /// The id of every slot (a freed slot keeps its last one).
  @usableFromInline
  @exclusivity(unchecked)
  var ids: [ID] = []
  /// The leaf of every slot, or -1 while its row is in no tree.
  @usableFromInline
  @exclusivity(unchecked)
  var leafOf: [Int32] = []
  @usableFromInline
  @exclusivity(unchecked)
  var free: [Int32] = []
  /// The slot of every id in a tree or detached: an open-addressing table
  /// of slot numbers with linear probing, whose keys are read from `ids`,
  /// so it costs 4 bytes a slot and holds no second copy of the ids.
  @usableFromInline
  @exclusivity(unchecked)
  var table: [Int32] = []
  /// How many ids the table holds: the rows of every tree, and those
  /// detached.
  @usableFromInline
  @exclusivity(unchecked)
  var count = 0

  // MARK: Trees

  /// The root of each tree and its height (0: the root is a leaf), and its
  /// row count; the root is -1 while the tree is empty.
  @usableFromInline
  @exclusivity(unchecked)
  var roots: [_OrderRoot] = []

  // MARK: Leaves

  /// The count, parent and neighbours of every leaf.
  @usableFromInline
  @exclusivity(unchecked)
  var leaves: [_OrderLeaf] = []
  /// The ids of the rows of every leaf: leaf `l`'s are at
  /// `l * leafCapacity ..< l * leafCapacity + count`.
  @usableFromInline
  @exclusivity(unchecked)
  var leafIDs: [ID] = []
  /// The position hints of the rows of every leaf, as `leafIDs`.
  @usableFromInline
  @exclusivity(unchecked)
  var leafHints: [Int32] = []
  /// The slots of the rows of every leaf, as `leafIDs`.
  @usableFromInline
  @exclusivity(unchecked)
  var leafSlots: [Int32] = []
  @usableFromInline
  @exclusivity(unchecked)
  var freeLeaves: [Int32] = []

  // MARK: Inner nodes

  /// The count, parent and height of every inner node.
  @usableFromInline
  @exclusivity(unchecked)
  var inners: [_OrderInner] = []
  /// The children of every inner node: node `i`'s are at
  /// `i * innerCapacity ..< i * innerCapacity + count`.
  @usableFromInline
  @exclusivity(unchecked)
  var children: [Int32] = []
  /// The row count of each child's subtree, as `children`.
  @usableFromInline
  @exclusivity(unchecked)
  var counts: [Int32] = []
  /// The id of each child's first row, as `children`.
  @usableFromInline
  @exclusivity(unchecked)
  var separatorIDs: [ID] = []
  /// The position hint of each child's first row (a copy of its own), as
  /// `children`.
  @usableFromInline
  @exclusivity(unchecked)
  var separatorHints: [Int32] = []
  @usableFromInline
  @exclusivity(unchecked)
  var freeInners: [Int32] = []

  // MARK: Caches

  /// Counts the changes to the trees' shape (insertions, removals,
  /// builds): a rank found while it had a value is still right while it
  /// keeps it.
  @usableFromInline
  @exclusivity(unchecked)
  var shape: UInt64 = 0
  /// The tree and rank of the last two slots located (``locate(_:)``),
  /// newest first, with the shape they were found at: an element edited
  /// again and again in place (a detail screen's field, typed into), or
  /// two edited in turn (an edit and its reaction), find their rows
  /// without the walk to the root.
  @usableFromInline
  @exclusivity(unchecked)
  var located = (Location(), Location())
  /// Where the last descent (``lowerBound(in:isBelowRow:)``) ended.
  ///
  /// Its tree and rank, the leaf and index there, the child it took at
  /// each level (16 bits a level, the lowest last; recorded for at most
  /// four levels), at a shape. An insertion at that rank while the shape
  /// is the same goes there without a second descent.
  @usableFromInline
  @exclusivity(unchecked)
  var descended = Descent()
  /// ``_intHashSeed``, read once: each read of the global goes through its
  /// lazy initializer's check.
  @usableFromInline
  let seed = _intHashSeed
  /// The id that ``node(of:)`` found last, and its slot.
  ///
  /// A step looks its row up several times (in place or not, out of its
  /// tree, back in). An id keeps its slot for as long as it is in the
  /// table, so this is cleared when an id leaves it (``tableRemove(_:)``,
  /// ``removeAll(trees:)``).
  @usableFromInline
  @exclusivity(unchecked)
  var lastFound: (id: ID, node: Int32)?

  /// Where a slot was found: its tree and its rank there, at a shape.
  @usableFromInline
  struct Location {
    @usableFromInline
    var node: Int32 = -1
    @usableFromInline
    var tree: Int32 = 0
    @usableFromInline
    var rank = 0
    /// The leaf of the row and its index there.
    @usableFromInline
    var leaf: Int32 = -1
    @usableFromInline
    var index: Int32 = 0
    @usableFromInline
    var shape: UInt64 = 0

    @inlinable
    init() {}
  }

  /// Where a descent ended (``descended``).
  @usableFromInline
  struct Descent {
    @usableFromInline
    var tree: Int32 = -1
    @usableFromInline
    var leaf: Int32 = -1
    @usableFromInline
    var index: Int32 = 0
    @usableFromInline
    var rank = -1
    @usableFromInline
    var path: UInt64 = 0
    @usableFromInline
    var shape: UInt64 = 0

    @inlinable
    init() {}
  }

  /// A row in a leaf: the leaf and the row's index there.
  ///
  /// A leaf of -1 is none. Valid until the trees' shape changes.
  @usableFromInline
  struct Entry {
    @usableFromInline
    var leaf: Int32
    @usableFromInline
    var index: Int32

    @inlinable
    init(leaf: Int32, index: Int32) {
      self.leaf = leaf
      self.index = index
    }

    @inlinable
    static var none: Entry { Entry(leaf: -1, index: 0) }

    @inlinable
    var exists: Bool { leaf >= 0 }
  }

  /// The most rows a leaf holds.
  @inlinable
  static var leafCapacity: Int { 32 }
  /// The most children an inner node holds.
  @inlinable
  static var innerCapacity: Int { 32 }
  /// The fewest rows a leaf other than a root holds, and the fewest
  /// children of an inner node other than a root: a quarter, so that a
  /// row moved back and forth across a boundary does not split and merge
  /// nodes in turn, and the height stays O(log *n*).
  @inlinable
  static var leafMinimum: Int { leafCapacity / 4 }
  @inlinable
  static var innerMinimum: Int { innerCapacity / 4 }

  @inlinable
  init() {}

  @inlinable
  static var none: Int32 { -1 }

  @inline(__always)
  @inlinable
  static func leafBase(_ leaf: Int32) -> Int { Int(leaf) &* leafCapacity }

  @inline(__always)
  @inlinable
  static func innerBase(_ inner: Int32) -> Int { Int(inner) &* innerCapacity }

  /// The number of rows of tree `tree`.
  @inlinable
  func count(of tree: Int) -> Int { roots[tree].count }

  /// Adds an empty tree and returns its number.
  @inlinable
  func addTree() -> Int {
    roots.append(_OrderRoot())
    return roots.count - 1
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

  /// The tree that the row of slot `node` is in.
  ///
  /// - Complexity: O(log *n*).
  @inlinable
  func tree(ofNode node: Int32) -> Int { locate(node).tree }

  /// The position of `id` within its tree.
  ///
  /// - Complexity: O(log *n*).
  @inlinable
  func rank(of id: ID) -> Int? {
    guard let node = node(of: id) else { return nil }
    return rank(node: node)
  }

  /// The position of the row of slot `node` within its tree.
  ///
  /// - Complexity: O(log *n*).
  @inlinable
  func rank(node: Int32) -> Int { locate(node).rank }

  /// The index of slot `slot` in leaf `leaf`, which holds it.
  @inline(__always)
  @inlinable
  func index(ofSlot slot: Int32, in leaf: Int32) -> Int {
    let base = Self.leafBase(leaf)
    return leafSlots.withUnsafeBufferPointer { slots in
      var index = 0
      while slots[base &+ index] != slot { index &+= 1 }
      return index
    }
  }

  /// The index of child `child` in inner node `inner`, which holds it,
  /// and the rows of the children before it.
  @inline(__always)
  @inlinable
  func index(ofChild child: Int32, in inner: Int32) -> (index: Int, before: Int) {
    let base = Self.innerBase(inner)
    return children.withUnsafeBufferPointer { children in
      counts.withUnsafeBufferPointer { counts in
        var index = 0
        var before = 0
        while children[base &+ index] != child {
          before &+= Int(counts[base &+ index])
          index &+= 1
        }
        return (index, before)
      }
    }
  }

  /// The index of child `child` in inner node `inner`, which holds it.
  @inline(__always)
  @inlinable
  func childIndex(of child: Int32, in inner: Int32) -> Int {
    let base = Self.innerBase(inner)
    return children.withUnsafeBufferPointer { children in
      var index = 0
      while children[base &+ index] != child { index &+= 1 }
      return index
    }
  }

  /// The tree of the row of slot `start` and its rank there, found in one
  /// walk to the root, or remembered from one of the last two walks if the
  /// shape has not changed since.
  ///
  /// - Complexity: O(log *n*).
  @inlinable
  func locate(_ start: Int32) -> (tree: Int, rank: Int) {
    if located.0.node == start && located.0.shape == shape {
      return (Int(located.0.tree), located.0.rank)
    }
    if located.1.node == start && located.1.shape == shape {
      return (Int(located.1.tree), located.1.rank)
    }
    let leaf = leafOf[Int(start)]
    let found = index(ofSlot: start, in: leaf)
    var rank = found
    var child = leaf
    var up = leaves[Int(leaf)].parent
    while up >= 0 {
      rank &+= index(ofChild: child, in: up).before
      child = up
      up = inners[Int(up)].parent
    }
    let tree = -up - 2
    located.1 = located.0
    located.0.node = start
    located.0.tree = tree
    located.0.rank = rank
    located.0.leaf = leaf
    located.0.index = Int32(truncatingIfNeeded: found)
    located.0.shape = shape
    return (Int(tree), rank)
  }

  /// The leaf of the row of slot `node` and its index there: remembered
  /// from one of the last two walks of ``locate(_:)`` if the shape has not
  /// changed since, else a scan of the leaf's slots.
  @inline(__always)
  @inlinable
  func leafAndIndex(of node: Int32) -> (leaf: Int32, index: Int) {
    if located.0.node == node && located.0.shape == shape {
      return (located.0.leaf, Int(located.0.index))
    }
    if located.1.node == node && located.1.shape == shape {
      return (located.1.leaf, Int(located.1.index))
    }
    let leaf = leafOf[Int(node)]
    return (leaf, index(ofSlot: node, in: leaf))
  }

  /// The id at `position` of tree `tree`.
  ///
  /// - Complexity: O(log *n*).
  @inlinable
  func id(at position: Int, in tree: Int) -> ID {
    let entry = entry(at: position, in: tree)
    return leafIDs[Self.leafBase(entry.leaf) + Int(entry.index)]
  }

  /// The row at `position` of tree `tree`, which has one.
  ///
  /// - Complexity: O(log *n*).
  @inlinable
  func entry(at position: Int, in tree: Int) -> Entry {
    var node = roots[tree].node
    var height = roots[tree].height
    var k = Int32(position)
    while height > 0 {
      let base = Self.innerBase(node)
      let last = Int(inners[Int(node)].count) - 1
      var index = 0
      while index < last && k >= counts[base + index] {
        k -= counts[base + index]
        index += 1
      }
      node = children[base + index]
      height -= 1
    }
    return Entry(leaf: node, index: k)
  }

  /// The first leaf of tree `tree`, or -1 if it is empty.
  @inlinable
  func firstLeaf(of tree: Int) -> Int32 {
    var node = roots[tree].node
    var height = roots[tree].height
    while height > 0 && node >= 0 {
      node = children[Self.innerBase(node)]
      height -= 1
    }
    return node
  }

  /// Every id of tree `tree`, in order.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  func ids(of tree: Int) -> [ID] {
    var result: [ID] = []
    result.reserveCapacity(count(of: tree))
    var leaf = firstLeaf(of: tree)
    while leaf >= 0 {
      let base = Self.leafBase(leaf)
      result.append(contentsOf: leafIDs[base..<(base + Int(leaves[Int(leaf)].count))])
      leaf = leaves[Int(leaf)].next
    }
    return result
  }

  /// Calls `body` with the id of the row of `entry` and its position hint,
  /// which `body` may change.
  ///
  /// The hint is a copy: no buffer of the tree is held across the call.
  @inline(__always)
  @inlinable
  func withEntry<Result>(_ entry: Entry, _ body: (ID, inout Int32) -> Result) -> Result {
    let at = Self.leafBase(entry.leaf) + Int(entry.index)
    let old = leafHints[at]
    var hint = old
    let result = body(leafIDs[at], &hint)
    if hint != old { leafHints[at] = hint }
    return result
  }
}

/// The root of one tree of an ``_OrderTree``, its height and its row count.
@usableFromInline
struct _OrderRoot {
  /// The root node (a leaf when `height` is 0), or -1 while the tree is
  /// empty.
  @usableFromInline
  var node: Int32 = -1
  @usableFromInline
  var height: Int32 = 0
  @usableFromInline
  var count = 0

  @inlinable
  init() {}
}

/// A leaf of an ``_OrderTree``: its row count, its parent (or
/// `-(tree + 2)` for a root) and the leaves before and after it in its
/// tree (or -1).
@usableFromInline
struct _OrderLeaf {
  @usableFromInline
  var count: Int32
  @usableFromInline
  var parent: Int32
  @usableFromInline
  var previous: Int32
  @usableFromInline
  var next: Int32

  @inlinable
  init(count: Int32, parent: Int32, previous: Int32, next: Int32) {
    self.count = count
    self.parent = parent
    self.previous = previous
    self.next = next
  }
}

/// An inner node of an ``_OrderTree``: its child count, its parent (or
/// `-(tree + 2)` for a root) and its height (1: its children are leaves).
@usableFromInline
struct _OrderInner {
  @usableFromInline
  var count: Int32
  @usableFromInline
  var parent: Int32
  @usableFromInline
  var height: Int32

  @inlinable
  init(count: Int32, parent: Int32, height: Int32) {
    self.count = count
    self.parent = parent
    self.height = height
  }
}

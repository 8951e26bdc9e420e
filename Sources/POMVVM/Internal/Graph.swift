/// The propagation graph: derived cells as nodes, recomputed glitch-free.
///
/// Not API. The rules, which every derived kind (``Derived``, ``ProjectedCell``)
/// follows:
///
/// - A cell whose value changes marks the nodes that read it *dirty* and
///   every node further down *check* (maybe dirty), and puts them in the
///   scheduler's queue. Marking runs no user code.
/// - Reading a node's value brings it up to date first (pull): a *check* node
///   asks its source nodes to update, and recomputes only if one of them
///   changed; a *dirty* node recomputes. So a value read anywhere, even by an
///   observer in the middle of a propagation, is never a mix of old and new.
/// - The set that marked nodes drains the queue before it returns, lowest
///   height first: each node recomputes at most once, after all its sources,
///   and then notifies its observers if its value changed.
/// - A set made while the queue drains (by an observer) drains it again, at
///   once, so nested sets are delivered before they return, as they are for
///   stored cells.
@MainActor
@usableFromInline
class _GraphNode {
  @usableFromInline
  enum State: UInt8 {
    case clean
    case check
    case dirty
  }

  /// 1 + the greatest height of the node's sources; stored cells are 0.
  @usableFromInline
  final let height: Int
  @usableFromInline
  @exclusivity(unchecked)
  final var state = State.clean
  @exclusivity(unchecked)
  final var isQueued = false
  @usableFromInline
  @exclusivity(unchecked)
  final var needsNotify = false
  /// Where the node waits in the queue among nodes of the same height.
  @exclusivity(unchecked)
  final var sequence: UInt64 = 0
  /// The sources that are themselves nodes, pulled before recomputing.
  final let sourceNodes: [_GraphNode]
  /// The lists this node is registered on as a dependent: most nodes read
  /// one cell, so the first is stored without an array.
  private final var firstRegistration: _ObserverListBase?
  private final var moreRegistrations: [_ObserverListBase] = []
  /// Subscriptions to sources that are not the kit's cells.
  private final var fallbacks: [Subscription] = []

  @usableFromInline
  init(height: Int, sourceNodes: [_GraphNode]) {
    self.height = height
    self.sourceNodes = sourceNodes
  }

  isolated deinit {
    firstRegistration?._removeDependent(self)
    for list in moreRegistrations {
      list._removeDependent(self)
    }
  }

  /// The list that holds this node's value and observers.
  @usableFromInline
  var output: _ObserverListBase { fatalError("abstract") }

  /// Recomputes the value; stores it quietly and sets `needsNotify` if it
  /// changed.
  @usableFromInline
  func recompute() {}

  /// Records which source changed (combiners count changes per source).
  func sourceDidChange(at index: Int) {}

  /// The lists this node reads, for the live graph.
  final var _sourceLists: [_ObserverListBase] {
    (firstRegistration.map { [$0] } ?? []) + moreRegistrations
  }

  /// Makes `source` an input of this node, as input number `index`.
  @usableFromInline
  final func connect(to source: AnyObject, at index: Int) {
    if let cell = _graphCell(of: source) {
      let list = cell._graphList
      list._addDependent(_Dependent(node: self, index: index))
      if firstRegistration == nil {
        firstRegistration = list
      } else {
        moreRegistrations.append(list)
      }
    } else if let cell = source as? any ObservableCell {
      fallbacks.append(cell._observeAnyChange { [unowned self] in self.markDirty(from: index) })
    }
  }

  /// Marks the node dirty because source `index` changed.
  final func markDirty(from index: Int) {
    sourceDidChange(at: index)
    guard state != .dirty else { return }
    let wasClean = state == .clean
    state = .dirty
    if wasClean {
      _Scheduler.enqueue(self)
      output._markDependentsCheck()
    }
  }

  /// Marks the node as maybe dirty: one of its sources' sources changed.
  final func markCheck() {
    guard state == .clean else { return }
    state = .check
    _Scheduler.enqueue(self)
    output._markDependentsCheck()
  }

  /// Brings the value up to date, recomputing only if a source changed.
  @inlinable
  final func updateIfNeeded() {
    if state != .clean { update() }
  }

  @usableFromInline
  final func update() {
    if state == .check {
      for source in sourceNodes {
        source.updateIfNeeded()
        if state == .dirty { break }
      }
      if state == .check {
        state = .clean
        return
      }
    }
    state = .clean
    _Scheduler.untrackedDepth += 1
    recompute()
    _Scheduler.untrackedDepth -= 1
  }

  /// Tells the observers of the output its current value.
  func publishOutput() {
    output._publishCurrent()
  }

  /// Updates the value and tells the observers if it changed.
  final func flush() {
    updateIfNeeded()
    if needsNotify {
      needsNotify = false
      publishOutput()
    }
  }
}

/// An edge of the graph, held by the source's list: which node reads the
/// list, and as which of its inputs.
@usableFromInline
struct _Dependent {
  /// The node deregisters itself in its deinit, so the list never reaches a
  /// freed node.
  unowned(unsafe) let node: _GraphNode
  let index: Int
}

/// The queue of marked nodes, lowest height first, then first marked first.
@MainActor
@usableFromInline
enum _Scheduler {
  /// How many derived cells are computing their value: their reads of other
  /// cells are not registered with Observation tracking.
  @usableFromInline
  @exclusivity(unchecked)
  static var untrackedDepth = 0

  @exclusivity(unchecked)
  private static var heap: [_GraphNode] = []
  @exclusivity(unchecked)
  private static var nextSequence: UInt64 = 0

  /// The only queued node, while just one is: the common case of a set
  /// that one derived cell reads skips the heap.
  @exclusivity(unchecked)
  private static var only: _GraphNode?

  static func enqueue(_ node: _GraphNode) {
    guard !node.isQueued else { return }
    node.isQueued = true
    nextSequence &+= 1
    node.sequence = nextSequence
    if heap.isEmpty {
      guard let first = only else {
        only = node
        return
      }
      // A second node: both go to the heap, which orders them.
      only = nil
      push(first)
    }
    push(node)
  }

  private static func push(_ node: _GraphNode) {
    heap.append(node)
    var child = heap.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard precedes(heap[child], heap[parent]) else { break }
      heap.swapAt(child, parent)
      child = parent
    }
  }

  /// Flushes every queued node, including nodes queued meanwhile.
  @usableFromInline
  static func drain() {
    while let node = takeFirst() {
      node.isQueued = false
      node.flush()
    }
  }

  /// The first queued node, taken out of the queue.
  private static func takeFirst() -> _GraphNode? {
    if let single = only {
      only = nil
      return single
    }
    return popFirst()
  }

  private static func precedes(_ a: _GraphNode, _ b: _GraphNode) -> Bool {
    a.height != b.height ? a.height < b.height : a.sequence < b.sequence
  }

  private static func popFirst() -> _GraphNode? {
    guard !heap.isEmpty else { return nil }
    heap.swapAt(0, heap.count - 1)
    let first = heap.removeLast()
    var parent = 0
    while true {
      let left = 2 * parent + 1
      guard left < heap.count else { break }
      var smallest = left
      if left + 1 < heap.count, precedes(heap[left + 1], heap[left]) { smallest = left + 1 }
      guard precedes(heap[smallest], heap[parent]) else { break }
      heap.swapAt(smallest, parent)
      parent = smallest
    }
    return first
  }
}

/// A cell that only forwards to another (``AnyMutableCell``): the graph
/// connects to the cell it wraps.
@MainActor
protocol _CellWrapper: AnyObject {
  var _wrappedCell: AnyObject { get }
}

/// The kit's cell that holds `cell`'s state — `cell` itself, or what it
/// wraps — or `nil` for a cell that is not the kit's.
@MainActor
func _graphCell(of cell: AnyObject) -> (any _GraphCell)? {
  ((cell as? any _CellWrapper)?._wrappedCell ?? cell) as? any _GraphCell
}

/// The kit's own cells: where a derived cell registers as a dependent, and
/// the node to pull before reading, if the cell is derived.
@MainActor
protocol _GraphCell: AnyObject {
  /// The list that holds the cell's value and observers.
  var _graphList: _ObserverListBase { get }
  /// The node that computes the cell's value, for derived cells.
  var _graphNode: _GraphNode? { get }
}

extension _GraphCell {
  var _graphNode: _GraphNode? { nil }
}

/// Runs `body` without registering its reads with Observation tracking.
@MainActor
@usableFromInline
func _withoutTracking<T>(_ body: () -> T) -> T {
  _Scheduler.untrackedDepth += 1
  defer { _Scheduler.untrackedDepth -= 1 }
  return body()
}

extension ObservableCell {
  /// How many changes the cell has published, for the kit's own cells;
  /// `nil` for others.
  @usableFromInline
  var _changeCount: UInt32? {
    _graphCell(of: self)?._graphList._generation
  }

  /// The cell's storage, if it is one of the kit's cells that store their
  /// value (stored cells, element cells): it can be read without pulling.
  @usableFromInline
  var _storageIfStored: _ValueList<Value>? {
    guard let cell = _graphCell(of: self), cell._graphNode == nil else { return nil }
    return cell._graphList as? _ValueList<Value>
  }

  /// Subscribes to changes without caring about the value (for sources that
  /// are not the kit's cells).
  func _observeAnyChange(_ handler: @escaping @MainActor () -> Void) -> Subscription {
    observeChanges { _ in
      handler()
      _Scheduler.drain()
    }
  }

  /// The height of a node that reads this cell.
  @usableFromInline
  var _heightOfDependent: Int {
    (_graphCell(of: self)?._graphNode?.height ?? 0) + 1
  }

  /// The node to pull before reading this cell, if it is derived.
  @usableFromInline
  var _sourceNode: _GraphNode? {
    _graphCell(of: self)?._graphNode
  }
}

/// A list whose value was set quietly and whose observers are still to be
/// told; skipped if a newer set has already told them.
@MainActor
@usableFromInline
struct _Touched {
  @usableFromInline
  let list: _ObserverListBase
  @usableFromInline
  let generation: UInt32

  @inlinable
  init(_ list: _ObserverListBase) {
    self.list = list
    generation = list._generation
  }

  @inlinable
  func notify() {
    if list._generation == generation {
      list._publishCurrent()
    }
  }
}

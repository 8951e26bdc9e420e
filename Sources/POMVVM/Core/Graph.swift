/// The propagation graph: derived cells as nodes, recomputed glitch-free.
///
/// Not API. A derived cell (``Derived``, ``ProjectedCell``) is one object:
/// the observer list that holds its value is also its node, with its state
/// in the list's flag bits (``_NodeFlag``) and its sources and recomputation
/// in the overrides of ``_ObserverListBase``. The rules, which every derived
/// kind follows:
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
@usableFromInline
enum _NodeFlag {
  /// The node waits in the scheduler's queue.
  @inlinable static var queued: UInt8 { 1 << 3 }
  /// A source's source changed: the node may be out of date.
  @inlinable static var check: UInt8 { 1 << 4 }
  /// A source changed: the node is out of date.
  @inlinable static var dirty: UInt8 { 1 << 5 }
  /// Both state bits; neither set means the node is up to date.
  @inlinable static var state: UInt8 { check | dirty }
  /// The recomputed value changed, and the observers are still to be told.
  @inlinable static var needsNotify: UInt8 { 1 << 6 }
  /// The node keeps subscriptions in ``_Fallbacks``.
  @inlinable static var hasFallbacks: UInt8 { 1 << 7 }
}

extension _ObserverListBase {
  /// Whether the recomputed value changed and the observers are still to be
  /// told.
  @usableFromInline
  final var _needsNotify: Bool {
    get { _flags & _NodeFlag.needsNotify != 0 }
    set { _flags = newValue ? _flags | _NodeFlag.needsNotify : _flags & ~_NodeFlag.needsNotify }
  }

  /// Makes this node read `source`, as input number `index`: it becomes a
  /// dependent of the source's list, or, for a cell that is not the kit's,
  /// it subscribes to its changes.
  ///
  /// - Returns: The list it registered with, which it leaves in its deinit;
  ///   `nil` for a cell that is not the kit's.
  @usableFromInline
  @discardableResult
  final func _connect(to source: AnyObject, at index: Int) -> _ObserverListBase? {
    if let cell = _graphCell(of: source) {
      let list = cell._graphList
      list._addDependent(self, at: index)
      return list
    }
    if let cell = source as? any ObservableCell {
      _Fallbacks.add(
        cell._observeAnyChange { [unowned self] in self._markDirty(from: index) }, to: self)
    }
    return nil
  }

  /// Marks the node dirty because source `index` changed.
  final func _markDirty(from index: Int) {
    if _sourceDidChange(at: index) { return }
    let state = _flags & _NodeFlag.state
    guard state != _NodeFlag.dirty else { return }
    _flags = _flags & ~_NodeFlag.state | _NodeFlag.dirty
    if state == 0 {
      _Scheduler.enqueue(self)
      _markDependentsCheck()
    }
  }

  /// Marks the node alone as maybe dirty, one of its sources' sources
  /// changed, and queues it; whether it was up to date (its readers are then
  /// to be marked too).
  final func _markCheckAlone() -> Bool {
    guard _flags & _NodeFlag.state == 0 else { return false }
    _flags |= _NodeFlag.check
    _Scheduler.enqueue(self)
    return true
  }

  /// Brings the value up to date, recomputing only if a source changed.
  @inlinable
  final func _updateIfNeeded() {
    if _flags & _NodeFlag.state != 0 { _update() }
  }

  @usableFromInline
  final func _update() {
    if _flags & _NodeFlag.state == _NodeFlag.check {
      _Scheduler.pullDepth += 1
      if _Scheduler.pullDepth > _Scheduler.deepPull { _settleStaleSources() }
      _pullSources()
      _Scheduler.pullDepth -= 1
      if _flags & _NodeFlag.state == _NodeFlag.check {
        _flags &= ~_NodeFlag.state
        return
      }
    }
    _flags &= ~_NodeFlag.state
    _Scheduler.untrackedDepth += 1
    if _Scheduler.untrackedDepth > _Scheduler.deepPull { _settleStaleSources() }
    _recompute()
    _Scheduler.untrackedDepth -= 1
  }

  /// Brings every out-of-date node upstream of this one up to date, lowest
  /// height first, so that each one's sources are current when it updates.
  ///
  /// A read of a node whose sources are themselves out of date — an
  /// observer of a chain's root reading its last cell before the queue
  /// drains — pulls them recursively, a few stack frames per level. Past
  /// ``_Scheduler/deepPull`` levels, `_update` calls this instead: the walk
  /// and the updates are loops, and each node it updates finds its sources
  /// current, so a read uses bounded stack at any depth. The queue drains
  /// lowest height first, so it never comes here.
  final func _settleStaleSources() {
    var stale: [_ObserverListBase] = []
    var seen = Set<ObjectIdentifier>()
    var work = _sourceLists
    while let list = work.popLast() {
      guard list._flags & _NodeFlag.state != 0, seen.insert(ObjectIdentifier(list)).inserted
      else { continue }
      stale.append(list)
      work.append(contentsOf: list._sourceLists)
    }
    stale.sort { $0._height < $1._height }
    for list in stale {
      list._updateIfNeeded()
    }
  }

  /// Updates the value and tells the observers if it changed.
  final func _flush() {
    _updateIfNeeded()
    if _needsNotify {
      _needsNotify = false
      _publishCurrent()
    }
  }
}

/// An edge of the graph, held by the source's list: which node reads the
/// list, and as which of its inputs.
@usableFromInline
struct _Dependent {
  /// The node, unretained: it deregisters itself in its deinit, so the list
  /// never reaches a freed node. (Marking reads it through
  /// ``_withGuaranteed(_:_:)``, which neither retains it nor releases it.)
  let _node: Unmanaged<_ObserverListBase>
  let index: Int

  init(node: _ObserverListBase, index: Int) {
    _node = .passUnretained(node)
    self.index = index
  }

  /// The node.
  var node: _ObserverListBase { _node.takeUnretainedValue() }
}

/// The edges from a list to the nodes that read it.
///
/// `many` comes first, so that its array is held by a plain pointer (see
/// ``_Observers``).
@usableFromInline
enum _Dependents {
  case many(ContiguousArray<_Dependent>)
  /// One node, reading the list as its input 0 — a projection or a `map`:
  /// no array.
  case one(Unmanaged<_ObserverListBase>)
  case none
}

/// The subscriptions of nodes that read cells which are not the kit's,
/// found through a flag bit so that other nodes carry no field for them.
@MainActor
enum _Fallbacks {
  @exclusivity(unchecked)
  private static var subscriptions: [ObjectIdentifier: [Subscription]] = [:]

  static func add(_ subscription: Subscription, to node: _ObserverListBase) {
    subscriptions[ObjectIdentifier(node), default: []].append(subscription)
    node._flags |= _NodeFlag.hasFallbacks
  }

  static func remove(_ node: _ObserverListBase) {
    // Cancelled after the table is updated: a cancellation may release
    // other nodes, which come back here.
    let removed = subscriptions.removeValue(forKey: ObjectIdentifier(node))
    withExtendedLifetime(removed) {}
  }
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

  /// How many `check` nodes are pulling their sources, one inside another.
  @exclusivity(unchecked)
  static var pullDepth = 0

  /// The depth of nested pulls or recomputes past which an update settles
  /// its out-of-date sources in a loop rather than recursively.
  static let deepPull = 32

  // The waiting nodes are kept in order, by height and then by order of
  // marking, in a buffer reused from one drain to the next: a new node goes
  // after every waiting node not higher than it (at the end, for the common
  // shapes), and the first is taken from the front. The entries hold their
  // nodes retained by hand, so that the buffer's slots are plain values
  // that are overwritten, never released one by one.

  private struct Waiting {
    let node: Unmanaged<_ObserverListBase>
    let height: Int
  }

  /// The waiting nodes are `queue[head..<tail]`, in a buffer of
  /// `capacity` entries: a pointer, not an array, because a static array
  /// is made on first use, and each access to it would check that it was
  /// (a `swift_once` call, six of them in a set that queues two nodes).
  @exclusivity(unchecked)
  private static var queue: UnsafeMutablePointer<Waiting>? = nil
  @exclusivity(unchecked)
  private static var capacity = 0
  @exclusivity(unchecked)
  private static var head = 0
  @exclusivity(unchecked)
  private static var tail = 0

  /// The only queued node, while just one is: the common case of a set
  /// that one derived cell reads skips the queue.
  ///
  /// Retained by hand, as the queue's entries are, so that it moves into
  /// the queue with no retain and no release.
  @exclusivity(unchecked)
  private static var only: Unmanaged<_ObserverListBase>?

  static func enqueue(_ node: _ObserverListBase) {
    guard node._flags & _NodeFlag.queued == 0 else { return }
    node._flags |= _NodeFlag.queued
    if head == tail {
      guard let first = only else {
        only = .passRetained(node)
        return
      }
      // A second node: both go to the queue, which orders them.
      only = nil
      push(first, height: _withGuaranteed(first) { $0._height })
    }
    push(.passRetained(node), height: node._height)
  }

  /// Queues `node`, retained by the caller, after every waiting node not
  /// higher than it.
  private static func push(_ node: Unmanaged<_ObserverListBase>, height: Int) {
    let entry = Waiting(node: node, height: height)
    if tail == capacity { grow() }
    let queue = queue.unsafelyUnwrapped
    var position = tail
    while position > head && queue[position - 1].height > entry.height {
      queue[position] = queue[position - 1]
      position -= 1
    }
    queue[position] = entry
    tail += 1
  }

  /// Doubles the buffer (kept for the life of the process, as an array
  /// kept for reuse would be).
  private static func grow() {
    let newCapacity = Swift.max(16, capacity * 2)
    let grown = UnsafeMutablePointer<Waiting>.allocate(capacity: newCapacity)
    if let queue {
      grown.moveInitialize(from: queue, count: tail)
      queue.deallocate()
    }
    queue = grown
    capacity = newCapacity
  }

  /// Flushes every queued node, including nodes queued meanwhile.
  @usableFromInline
  static func drain() {
    while let node = takeFirst() {
      node._flags &= ~_NodeFlag.queued
      node._flush()
    }
  }

  /// The first queued node, taken out of the queue.
  private static func takeFirst() -> _ObserverListBase? {
    if let single = only {
      only = nil
      return single.takeRetainedValue()
    }
    return popFirst()
  }

  private static func popFirst() -> _ObserverListBase? {
    guard head < tail else { return nil }
    let first = queue.unsafelyUnwrapped[head]
    head += 1
    if head == tail {
      head = 0
      tail = 0
    }
    return first.node.takeRetainedValue()
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

/// The kit's own cells: where a derived cell registers as a dependent.
@MainActor
protocol _GraphCell: AnyObject {
  /// The list that holds the cell's value and observers; for a derived
  /// cell, also its node.
  var _graphList: _ObserverListBase { get }
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
  /// The cell itself as the list that stores its value, if it is one of
  /// the kit's stored cells (``Observable``, ``ElementCell``): its value can
  /// be read in place, without pulling.
  @usableFromInline
  var _storedList: _ValueList<Value>? {
    guard let list = (self as AnyObject) as? _ValueList<Value>, list._height == 0 else {
      return nil
    }
    return list
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
    (_graphCell(of: self)?._graphList._height ?? 0) + 1
  }
}

/// A list whose value was set quietly and whose observers are still to be
/// told; skipped if a newer set has already told them.
@MainActor
@usableFromInline
struct _Touched {
  /// The list, read without retaining it: `keep` holds it, or the caller
  /// guarantees that it lives until it is notified.
  @usableFromInline
  let _list: Unmanaged<_ObserverListBase>
  /// The list, retained; `nil` for a list whose caller guarantees its
  /// life (``init(guaranteed:)``).
  @usableFromInline
  let _keep: _ObserverListBase?
  @usableFromInline
  let generation: UInt32

  @inlinable
  init(_ list: _ObserverListBase) {
    _list = .passUnretained(list)
    _keep = list
    generation = list._generation
  }

  /// A list that lives until it is notified whatever its observers do —
  /// the element cell whose own write is being delivered (its `set` is on
  /// the stack) — held without a retain: an element cell is also held
  /// weakly, by its array, so a retain and a release of it take the slow
  /// path through its side table.
  @inlinable
  init(guaranteed list: _ObserverListBase) {
    _list = .passUnretained(list)
    _keep = nil
    generation = list._generation
  }

  /// The list.
  @inlinable
  var list: _ObserverListBase { _list.takeUnretainedValue() }

  @inlinable
  func notify() {
    let generation = generation
    _withGuaranteed(_list) { list in
      if list._generation == generation {
        list._publishCurrent()
      }
    }
  }
}

/// The lists a change stored quietly, in order, whose observers are told
/// once every cell and aggregate is current.
///
/// The first two are held inline: a change to one element usually touches
/// its element cell and an aggregate, and so needs no heap storage.
@MainActor
@usableFromInline
struct _TouchedLists {
  @usableFromInline
  var _first: _Touched?
  @usableFromInline
  var _second: _Touched?
  @usableFromInline
  var _rest: [_Touched] = []

  @inlinable
  init() {}

  @inlinable
  mutating func append(_ touched: _Touched) {
    if _first == nil {
      _first = touched
    } else if _second == nil {
      _second = touched
    } else {
      _rest.append(touched)
    }
  }

  /// Tells the observers of every list, in the order they were touched.
  @inlinable
  func notify() {
    guard let first = _first else { return }
    first.notify()
    guard let second = _second else { return }
    second.notify()
    for touched in _rest {
      touched.notify()
    }
  }
}

/// The observer storage shared by every list, whatever its value type.
///
/// Not API.
///
/// Layout matters here: a cell with one observer costs the cell, one node and
/// the handler's context, with no buffer. Everything that does not touch a
/// value is non-generic, so it runs without generic metadata lookups.
@MainActor
public class _ObserverListBase {
  @usableFromInline
  @exclusivity(unchecked)
  final var _observers: _Observers = .none

  // The fields are in the order that packs them: 48 bytes after the
  // object's header.

  /// How many notification passes are under way (nested passes count).
  ///
  /// A pass nests only through observers' stack frames, so 16 bits are
  /// plenty.
  @usableFromInline
  @exclusivity(unchecked)
  final var _depth: UInt16 = 0

  /// What the list is in the live graph.
  @usableFromInline
  @exclusivity(unchecked)
  final var _kind = _GraphKind.cell

  /// Bit 0: the list is traced; bit 1: it has a label; bit 2: it has a
  /// detachment cell.
  ///
  /// Bits 3–7 are a derived list's graph state (``_NodeFlag``).
  @usableFromInline
  @exclusivity(unchecked)
  final var _flags: UInt8

  /// Bumped by every change a cell publishes; a pass stops as soon as a
  /// newer change has been delivered by a nested pass.
  @usableFromInline
  @exclusivity(unchecked)
  final var _generation: UInt32 = 0

  /// The derived cells that read this list's value.
  ///
  /// `.none` when none does, which keeps a set of an unread cell to one
  /// extra test; one reader needs no array.
  @usableFromInline
  @exclusivity(unchecked)
  final var _dependents = _Dependents.none

  /// The Observation registrar, made on the first read through a public
  /// getter; `nil` keeps sets of unread cells free of Observation's cost.
  @usableFromInline
  @exclusivity(unchecked)
  final var _tracking: _Tracking?

  /// The file of the call that made the cell: the start of a `#fileID`
  /// literal, which the compiler stores NUL-terminated for the program's
  /// lifetime; `nil` for the kit's own lists.
  @exclusivity(unchecked)
  final var _fileID: UnsafePointer<UInt8>?

  /// The line of the call that made the cell; 0 for the kit's own lists.
  @exclusivity(unchecked)
  final var _line: UInt32 = 0

  /// Where the list is in ``_LiveLists``.
  @exclusivity(unchecked)
  final var _liveSlot: UInt32 = 0

  /// Whether each step of this list's notifications goes to the
  /// propagation trace: a bit beside the observers, so that the hot path
  /// tests memory it already touches.
  @inlinable
  final var _isTraced: Bool {
    get { _flags & 1 != 0 }
    set { _flags = newValue ? _flags | 1 : _flags & ~1 }
  }

  /// Whether the list has a label in ``_Labels``.
  final var _hasLabel: Bool {
    get { _flags & 2 != 0 }
    set { _flags = newValue ? _flags | 2 : _flags & ~2 }
  }

  /// Whether the list, an element cell, has a cell in ``_Detachments``.
  final var _hasDetachment: Bool {
    get { _flags & 4 != 0 }
    set { _flags = newValue ? _flags | 4 : _flags & ~4 }
  }

  @usableFromInline
  init() {
    _flags = PropagationTrace._isOn ? 1 : 0
    _LiveLists.insert(self)
  }

  isolated deinit {
    _LiveLists.remove(self)
    if _hasLabel { _Labels.remove(self) }
    if _hasDetachment { _Detachments.remove(self) }
    if _flags & _NodeFlag.hasFallbacks != 0 { _Fallbacks.remove(self) }
    _detachAll()
  }

  /// Records what the list is in the live graph and where it was made.
  @usableFromInline
  final func _setOrigin(_ kind: _GraphKind, fileID: StaticString, line: UInt) {
    _kind = kind
    _fileID = line != 0 && fileID.hasPointerRepresentation ? fileID.utf8Start : nil
    _line = UInt32(clamping: line)
  }

  /// The type of the values the list holds or sends.
  var _valueTypeName: String { "" }

  /// A short description of the current value, for lists that hold one.
  var _valueDescription: String? { nil }

  // MARK: - Graph node

  // A derived list (``Derived``, ``ProjectedCell``) is a node of the
  // propagation graph itself (`Graph.swift`); these are what each kind
  // overrides. Stored lists keep the defaults.

  /// 1 + the greatest height of the node's sources; 0 for a stored list.
  var _height: Int { 0 }

  /// Recomputes the value; stores it quietly and sets `_needsNotify` if it
  /// changed.
  func _recompute() {}

  /// Records which source changed (combiners count changes per source);
  /// whether the node can ignore the change, its value being sure to stay
  /// as it is (a projection whose field kept its bytes).
  func _sourceDidChange(at index: Int) -> Bool { false }

  /// Brings the source nodes up to date, stopping as soon as one of them
  /// changed (which marks this node dirty).
  func _pullSources() {}

  /// The lists this node reads, for the live graph.
  var _sourceLists: [_ObserverListBase] { [] }

  // MARK: - Graph edges

  /// Registers `node` as a reader of this list's value, as its input number
  /// `index`.
  final func _addDependent(_ node: _ObserverListBase, at index: Int) {
    switch _dependents {
    case .none:
      _dependents =
        index == 0 ? .one(.passUnretained(node)) : .many([_Dependent(node: node, index: index)])
    case .one(let first):
      let firstEdge = _Dependent(node: first.takeUnretainedValue(), index: 0)
      _dependents = .many([firstEdge, _Dependent(node: node, index: index)])
    case .many(var edges):
      _dependents = .none
      edges.append(_Dependent(node: node, index: index))
      _dependents = .many(edges)
    }
  }

  /// Forgets every edge from this list to `node`.
  final func _removeDependent(_ node: _ObserverListBase) {
    switch _dependents {
    case .none:
      break
    case .one(let only):
      if only.toOpaque() == Unmanaged.passUnretained(node).toOpaque() { _dependents = .none }
    case .many(var edges):
      _dependents = .none
      edges.removeAll { $0.node === node }
      if edges.count == 1 && edges[0].index == 0 {
        _dependents = .one(.passUnretained(edges[0].node))
      } else if !edges.isEmpty {
        _dependents = .many(edges)
      }
    }
  }

  /// The edges from this list, for the live graph.
  final var _dependentEdges: [_Dependent] {
    switch _dependents {
    case .none: []
    case .one(let node): [_Dependent(node: node.takeUnretainedValue(), index: 0)]
    case .many(let edges): Array(edges)
    }
  }

  /// Marks the nodes that read this list dirty: its value changed.
  ///
  /// Marking runs no user code, so no node is released and no edge added or
  /// removed meanwhile. The loop reads the edges in place, by index, each
  /// time from the list: a copy of the array to walk would retain and
  /// release it, two atomic operations on every change of a list that
  /// several nodes read (a row's projections).
  @usableFromInline
  final func _invalidateDependents() {
    if case .one(let node) = _dependents {
      _withGuaranteed(node) { $0._markDirty(from: 0) }
      return
    }
    var index = 0
    while case .many(let edges) = _dependents, index < edges.count {
      let edge = edges[index]
      index += 1
      _withGuaranteed(edge._node) { $0._markDirty(from: edge.index) }
    }
  }

  /// Marks every node downstream of this list as maybe dirty: a node
  /// upstream changed, and their values may change when they are brought up
  /// to date.
  ///
  /// A depth-first walk in the order of the edges, as a recursion over the
  /// readers would make it, but iterative: the marking order (which orders
  /// nodes of one height in the scheduler) is the same, and a chain of any
  /// depth uses constant stack. A node already marked is not entered again.
  /// Runs no user code, so the shared frame stack never nests.
  @inline(__always)
  final func _markDependentsCheck() {
    // Most marked nodes have no readers: no call, no loop.
    if case .none = _dependents { return }
    _markReadersCheck()
  }

  /// The walk of ``_markDependentsCheck()``, for a list that has readers.
  final func _markReadersCheck() {
    var list = self
    // The shared frames are touched only to come back to the other readers
    // of a list after one of them that has readers of its own: the common
    // shapes (chains, diamonds, several leaves) never reach them.
    var bottom = -1
    descending: while true {
      switch list._dependents {
      case .none:
        break
      case .one(let reader):
        // A chain: no frame to keep.
        let node = reader.takeUnretainedValue()
        if node._markCheckAlone() {
          list = node
          continue descending
        }
      case .many(let edges):
        var index = 0
        while index < edges.count {
          let node = edges[index].node
          index += 1
          guard node._markCheckAlone() else { continue }
          if case .none = node._dependents { continue }
          if index < edges.count {
            if bottom < 0 { bottom = _Marking.frames.count }
            _Marking.frames.append(_Marking.Frame(edges: edges, next: index))
          }
          list = node
          continue descending
        }
      }
      guard bottom >= 0, let next = _Marking.nextUnmarked(above: bottom) else { return }
      list = next
    }
  }

  /// Delivers the current value to every observer (lists with a value).
  @usableFromInline
  func _publishCurrent() {}

  /// The number of active observers.
  ///
  /// - Complexity: O(1).
  @usableFromInline
  final var _observerCount: Int {
    switch _observers {
    case .none: 0
    case .one: 1
    case .many(let buffer): buffer.nodes.count - buffer.dead
    }
  }

  /// Appends a node at the end of the subscription order.
  ///
  /// - Complexity: Amortized O(1).
  @usableFromInline
  final func _append(_ node: _NodeBase) {
    let reference = Unmanaged.passUnretained(node)
    switch _observers {
    case .none:
      _observers = .one(reference)
    case .one(let first):
      first._withUnsafeGuaranteedRef { $0._index = 0 }
      node._index = 1
      _observers = .many(_NodeBuffer([first, reference]))
    case .many(let buffer):
      node._index = buffer.nodes.count
      buffer.nodes.append(reference)
    }
  }

  /// Removes a node: at once when nothing is notifying, as a tombstone
  /// otherwise.
  ///
  /// - Complexity: Amortized O(1).
  @usableFromInline
  final func _remove(_ node: _NodeBase) {
    guard node._owner === self else { return }
    node._owner = nil
    let identity = Unmanaged.passUnretained(node).toOpaque()
    switch _observers {
    case .none:
      break
    case .one(let only):
      if only.toOpaque() == identity {
        _observers = .none
      }
    case .many(let buffer):
      let index = node._index
      if index < buffer.nodes.count, buffer.nodes[index]?.toOpaque() == identity {
        buffer.nodes[index] = nil
        buffer.dead += 1
        if _depth == 0 {
          _collect(buffer)
        }
      }
    }
    node._releaseHandler()
  }

  /// Ends a notification pass; the outermost one collects the tombstones
  /// that cancellations left during it.
  @usableFromInline
  final func _endPass(_ buffer: _NodeBuffer) {
    _depth &-= 1
    if _depth == 0 && buffer.dead != 0 {
      _collect(buffer)
    }
  }

  /// Drops trailing tombstones, and compacts the buffer once tombstones are
  /// the majority, which keeps removal amortized O(1).
  final func _collect(_ buffer: _NodeBuffer) {
    while case .some(.none) = buffer.nodes.last {
      buffer.nodes.removeLast()
      buffer.dead -= 1
    }
    if buffer.nodes.isEmpty {
      _observers = .none
      return
    }
    guard buffer.dead * 2 > buffer.nodes.count else { return }
    var live = ContiguousArray<Unmanaged<_NodeBase>?>()
    live.reserveCapacity(buffer.nodes.count - buffer.dead)
    for case let node? in buffer.nodes {
      node._withUnsafeGuaranteedRef { $0._index = live.count }
      live.append(node)
    }
    buffer.nodes = live
    buffer.dead = 0
  }

  /// Ends every observation: the nodes forget this list, then their handlers
  /// are released (which ends bindings and finishes async sequences).
  final func _detachAll() {
    var nodes: [_NodeBase] = []
    switch _observers {
    case .none:
      break
    case .one(let node):
      nodes.append(node.takeUnretainedValue())
    case .many(let buffer):
      for case let node? in buffer.nodes {
        nodes.append(node.takeUnretainedValue())
      }
    }
    _observers = .none
    for node in nodes {
      node._owner = nil
    }
    for node in nodes {
      node._releaseHandler()
    }
  }
}

/// The typed side of an observer list: subscribing, and the notification
/// pass.
///
/// Not API: use ``Observable`` or ``EventStream``.
@MainActor
public class _ObserverList<Value>: _ObserverListBase {
  @usableFromInline
  override init() {
    super.init()
  }

  override var _valueTypeName: String { _typeName(Value.self, qualified: false) }

  /// Appends an observer at the end of the subscription order.
  ///
  /// - Complexity: Amortized O(1).
  @inlinable
  final func _add(_ handler: @escaping @MainActor (Value) -> Void) -> _ObserverNode<Value> {
    let node = _ObserverNode(handler: handler, owner: self)
    _append(node)
    return node
  }

  /// Calls every observer that was subscribed when the pass began, in
  /// subscription order, skipping those cancelled meanwhile.
  ///
  /// - Parameters:
  ///   - value: The value to deliver.
  ///   - supersedable: Whether the pass stops when a nested pass delivered a
  ///     newer change (cells), or always runs to its end (event streams).
  @inlinable
  final func _publish(_ value: Value, supersedable: Bool) {
    if _isTraced {
      _publishTraced(value, supersedable: supersedable)
    } else {
      _pass(value, supersedable: supersedable, traced: false)
    }
  }

  /// A notification pass that tells the propagation trace about the change
  /// and about every observer it calls.
  @usableFromInline
  final func _publishTraced(_ value: Value, supersedable: Bool) {
    PropagationTrace._record(.changed, self, value: value)
    _pass(value, supersedable: supersedable, traced: true)
  }

  /// The notification pass; `traced` is a constant at each call site, so
  /// the untraced pass has no trace code.
  @inlinable
  @inline(__always)
  final func _pass(_ value: Value, supersedable: Bool, traced: Bool) {
    switch _observers {
    case .none:
      return
    case .one(let node):
      guard let handler = Self._handler(of: node) else { return }
      _depth &+= 1
      if traced { PropagationTrace._enter(node, of: self) }
      handler(value)
      if traced { PropagationTrace._leave() }
      _depth &-= 1
    case .many(let buffer):
      let generation = _generation
      let end = buffer.nodes.count
      var index = 0
      _depth &+= 1
      while index < end {
        if let node = buffer.nodes[index], let handler = Self._handler(of: node) {
          if traced { PropagationTrace._enter(node, of: self) }
          handler(value)
          if traced { PropagationTrace._leave() }
          if supersedable && _generation != generation {
            if traced { PropagationTrace._record(.superseded, self) }
            break
          }
        }
        index &+= 1
      }
      _endPass(buffer)
    }
  }

  // Nonisolated so that the closure below is not main-actor isolated: an
  // isolated closure passed to the standard library costs a run-time
  // executor check on every call.
  @inlinable
  @inline(__always)
  nonisolated static func _handler(of node: Unmanaged<_NodeBase>) -> (@MainActor (Value) -> Void)? {
    node._withUnsafeGuaranteedRef { unsafeDowncast($0, to: _ObserverNode<Value>.self)._handler }
  }
}

/// The frames of the iterative marking walk (``_ObserverListBase/_markDependentsCheck()``):
/// the edges of a list with several readers, and the next one to visit.
///
/// Not API. Kept between walks so that a walk allocates only when it goes
/// deeper than any walk before it.
@MainActor
enum _Marking {
  struct Frame {
    let edges: ContiguousArray<_Dependent>
    var next: Int
  }

  @exclusivity(unchecked)
  static var frames: [Frame] = []

  /// Marks and returns the next reader in the innermost frame that was not
  /// marked yet, dropping the frames it finishes; `nil` once every frame
  /// above `bottom` is done.
  static func nextUnmarked(above bottom: Int) -> _ObserverListBase? {
    while frames.count > bottom {
      let last = frames.count - 1
      let index = frames[last].next
      guard index < frames[last].edges.count else {
        frames.removeLast()
        continue
      }
      frames[last].next = index + 1
      let node = frames[last].edges[index].node
      if node._markCheckAlone() { return node }
    }
    return nil
  }
}

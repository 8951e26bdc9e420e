/// A read-only cell computed from other cells: the result of
/// ``combine(_:_:initial:fileID:line:transform:)`` and ``ObservableCell/map(_:fileID:line:)-6s3zx``.
///
/// A derived cell keeps its sources alive and is itself kept alive by its
/// subscriptions and bindings, so a chain such as
/// `name.map(\.count).bind(to: countLabel)` works without storing the
/// intermediate cell. It stops following its sources when the last reference
/// to it goes away.
///
/// Like a stored cell, a derived cell of `Equatable` values notifies only
/// when its value changes.
///
/// ## Glitch-free
///
/// After a set, each derived cell recomputes at most once, after all of its
/// sources are up to date, and only if one of them changed; no observer sees
/// a mix of old and new values. Observers of the stored cell that was set
/// run first, then those of derived cells, lowest in the graph first.
/// Reading ``value`` anywhere — even from an observer in the middle of a
/// set — computes it on demand, so it is always current. A set returns once
/// every derived cell is up to date and its observers have been told.
@MainActor
public final class Derived<Value>: ObservableCell {
  @usableFromInline
  let _node: _DerivedNode<Value>

  /// A derived cell that its owner updates by hand (lookups, detachment).
  init(_ initial: Value) {
    _node = _DerivedNode(initial, height: 1, sources: [], compute: nil)
  }

  @usableFromInline
  init(node: _DerivedNode<Value>) {
    _node = node
  }

  /// Stores a value computed by the cell's owner, notifying observers if it
  /// changed.
  func update(_ newValue: Value) {
    _node._set(newValue)
  }

  /// The current value, brought up to date first if a source changed.
  @inlinable
  public var value: Value {
    _node._updateIfNeeded()
    _node._trackRead()
    return _node._value
  }

  /// Calls `handler` with the current value now, then with every change.
  ///
  /// The subscription keeps this cell (and so its sources) alive.
  ///
  /// - Parameter handler: Called on the main actor with each value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    _node._updateIfNeeded()
    return _node._observe(retaining: self, changesOnly: false, handler)
  }

  /// Calls `handler` with every change from now on.
  ///
  /// The subscription keeps this cell (and so its sources) alive.
  ///
  /// - Parameter handler: Called on the main actor with each new value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observeChanges(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    _node._updateIfNeeded()
    return _node._observe(retaining: self, changesOnly: true, handler)
  }
}

extension Derived: _GraphCell {
  var _graphList: _ObserverListBase { _node }
}

/// The node behind a ``Derived`` cell, which is also the list that holds its
/// value and observers: its sources, its transform, its value.
@MainActor
@usableFromInline
final class _DerivedNode<Value>: _ValueList<Value> {
  @usableFromInline
  let _isDuplicate: ((Value, Value) -> Bool)?
  private let height: Int
  /// Keeps the sources alive as long as the cell; emptied only by `deinit`.
  @exclusivity(unchecked)
  private var sources: [AnyObject]
  /// The kit's lists among the sources, which the node is registered with
  /// as a dependent, in input order.
  private var registrations: [_ObserverListBase] = []
  /// Recomputes the value and stores it quietly; whether it changed.
  ///
  /// It holds the sources too (a `map` reads its source); emptied only by
  /// `deinit`.
  @exclusivity(unchecked)
  private var update: ((_DerivedNode<Value>) -> Bool)?
  /// Tells the observers of the value.
  private let publish: @MainActor (_DerivedNode<Value>) -> Void
  private let gate: _CombineGate?

  /// Creates the node; see the designated initializer.
  ///
  /// It is inlinable so that the closures it makes, which store and
  /// publish values of `Value`, are specialised where the cell is made: the
  /// node's overrides run unspecialised, and would copy each value through
  /// its type's value witnesses.
  @inlinable
  convenience init(
    _ initial: Value, isDuplicate: ((Value, Value) -> Bool)? = _duplicateCheck(for: Value.self),
    height: Int? = nil, sources: [AnyObject], gate: _CombineGate? = nil,
    kind: _GraphKind = .derived, fileID: StaticString = "", line: UInt = 0,
    compute: (() -> Value)?
  ) {
    self.init(
      initial, isDuplicate: isDuplicate, height: height, sources: sources, gate: gate, kind: kind,
      fileID: fileID, line: line,
      update: compute.map { compute in { $0._store(compute(), isDuplicate: $0._isDuplicate) } },
      publish: { $0._publish($0._value, supersedable: true) })
  }

  /// Creates the node and registers it with its sources.
  ///
  /// - Parameters:
  ///   - initial: The value before the first computation.
  ///   - isDuplicate: The duplicate policy.
  ///   - height: The least height, if more than the sources give.
  ///   - sources: The cells read by `compute`, in input order.
  ///   - gate: When to recompute; `nil` recomputes on every change.
  ///   - kind: What the cell is in the live graph.
  ///   - fileID: Where the cell was made; empty for the kit's own cells.
  ///   - line: Where the cell was made; 0 for the kit's own cells.
  ///   - update: Computes the value from the sources' current values and
  ///     stores it quietly; `nil` for a cell its owner updates by hand.
  ///   - publish: Tells the observers of the value.
  @usableFromInline
  init(
    _ initial: Value, isDuplicate: ((Value, Value) -> Bool)?, height: Int?, sources: [AnyObject],
    gate: _CombineGate?, kind: _GraphKind, fileID: StaticString, line: UInt,
    update: ((_DerivedNode<Value>) -> Bool)?,
    publish: @escaping @MainActor (_DerivedNode<Value>) -> Void
  ) {
    _isDuplicate = isDuplicate
    self.sources = sources
    self.update = update
    self.publish = publish
    self.gate = gate
    var height = height ?? 1
    for source in sources {
      guard let cell = source as? any ObservableCell else { continue }
      height = max(height, cell._heightOfDependent)
    }
    self.height = height
    super.init(initial)
    _setOrigin(kind, fileID: fileID, line: line)
    for (index, source) in sources.enumerated() {
      if let list = _connect(to: source, at: index) {
        registrations.append(list)
      }
    }
  }

  isolated deinit {
    for list in registrations {
      list._removeDependent(self)
    }
    // The sources, the closure that reads them and the lists registered
    // with are released in a loop rather than from this deinit, recursively,
    // for a long chain.
    var held: Any = (sources, update, registrations)
    sources = []
    update = nil
    registrations = []
    _DeferredReleases.release(&held)
  }

  /// Keeps `owner` alive as long as this node, without reading it: an
  /// element cell's `detachment` keeps the element cell that tells it.
  func _keep(_ owner: AnyObject) {
    sources.append(owner)
  }

  /// Stores a value computed by the cell's owner and tells the observers,
  /// unless the duplicate policy drops it.
  func _set(_ newValue: Value) {
    guard _store(newValue, isDuplicate: _isDuplicate) else {
      if _isTraced { PropagationTrace._record(.deduplicated, self, value: newValue) }
      return
    }
    _publishCurrent()
    _Scheduler.drain()
  }

  /// Stores a value quietly; whether it changed.
  @discardableResult
  func _setQuietly(_ newValue: Value) -> Bool {
    _store(newValue, isDuplicate: _isDuplicate)
  }

  /// Stores a value quietly and, if it changed, remembers this cell among
  /// the lists whose observers are told later.
  func _setQuietly(_ newValue: Value, into touched: inout _TouchedLists) {
    _store(newValue, isDuplicate: _isDuplicate, into: &touched)
  }

  override var _height: Int { height }

  override var _sourceLists: [_ObserverListBase] { registrations }

  override func _sourceDidChange(at index: Int) -> Bool {
    gate?.record(changeOf: index)
    return false
  }

  override func _pullSources() {
    for list in registrations {
      list._updateIfNeeded()
      if _flags & _NodeFlag.dirty != 0 { break }
    }
  }

  override func _recompute() {
    guard let update else { return }
    if let gate, !gate.shouldFire() { return }
    if update(self) {
      _needsNotify = true
    }
  }

  override func _publishCurrent() {
    publish(self)
  }
}

extension ObservableCell {
  /// A read-only cell holding `transform` of this cell's value, recomputed on
  /// every change.
  ///
  /// ```swift
  /// let name = Observable("Ada")
  /// let length = name.map(\.count)   // 3
  /// name.value = "Grace"             // length.value == 5
  /// ```
  ///
  /// - Parameters:
  ///   - transform: Computes the derived value; called now and on every
  ///     change of this cell.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  /// - Returns: The derived cell.
  @inlinable
  public func map<Result>(
    _ transform: @escaping (Value) -> Result, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Derived<Result> {
    Derived(
      node: _DerivedNode(
        transform(_withoutTracking { value }), sources: [self], fileID: fileID, line: line
      ) { transform(self.value) })
  }

  /// A read-only cell holding `transform` of this cell's value, whose
  /// observers are told only when the result changes.
  ///
  /// - Parameters:
  ///   - transform: Computes the derived value; called now and on every
  ///     change of this cell.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  /// - Returns: The derived cell.
  @inlinable
  public func map<Result: Equatable>(
    _ transform: @escaping (Value) -> Result, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Derived<Result> {
    Derived(
      node: _DerivedNode(
        transform(_withoutTracking { value }), isDuplicate: { $0 == $1 }, sources: [self],
        fileID: fileID, line: line
      ) { transform(self.value) })
  }
}

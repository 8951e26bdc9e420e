/// A stored cell: a value that notifies its observers when it is set.
///
/// ```swift
/// let name = Observable("Ada")
/// let subscription = name.observe { print("name:", $0) }   // name: Ada
/// name.value = "Grace"                                      // name: Grace
/// name.value = "Grace"                                      // (equal: nobody is told)
/// ```
///
/// ## Semantics
///
/// - Setting ``value`` calls every observer synchronously, in subscription
///   order, on the main actor.
/// - For `Equatable` values a set to an equal value notifies no one. Other
///   values notify on every set; ``init(_:isDuplicate:fileID:line:)`` sets the policy
///   explicitly.
/// - ``observe(_:)`` calls the handler with the current value at once;
///   ``observeChanges(_:)`` only with later changes.
///
/// ## Re-entrancy
///
/// Handlers may set the cell, subscribe and cancel while a notification is
/// under way. The results are defined:
///
/// - A set from inside an observer is delivered at once, to every observer, by
///   a nested pass. The outer pass then stops: observers it had not reached
///   yet get only the newer value. So after every set, the last value each
///   observer has seen is the cell's value.
/// - A cancelled observer is never called again, even by the pass under way.
/// - An observer subscribed during a pass is not called by that pass;
///   ``observe(_:)`` has already given it the current value.
///
/// - Note: A ``Subscription`` does not keep the cell alive; when the cell is
///   deallocated, its observations end.
@MainActor
public final class Observable<Value>: _ValueList<Value>, MutableObservableCell {
  @usableFromInline
  let _isDuplicate: ((Value, Value) -> Bool)?

  /// Creates a cell with an explicit duplicate policy.
  ///
  /// - Parameters:
  ///   - value: The initial value.
  ///   - isDuplicate: Tells whether a new value is a duplicate of the current
  ///     one; a duplicate is dropped — not stored, and nobody is notified.
  ///     `nil` stores and notifies every set.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  @inlinable
  public init(
    _ value: Value, isDuplicate: ((Value, Value) -> Bool)?,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    _isDuplicate = isDuplicate
    super.init(value)
    _setOrigin(.cell, fileID: fileID, line: line)
  }

  /// Creates a cell; if `Value` turns out to be `Equatable` at run time, sets
  /// of equal values notify no one.
  ///
  /// - Parameters:
  ///   - value: The initial value.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  @inlinable
  public convenience init(_ value: Value, fileID: StaticString = #fileID, line: UInt = #line) {
    self.init(value, isDuplicate: _duplicateCheck(for: Value.self), fileID: fileID, line: line)
  }

  /// Creates a cell whose sets of equal values notify no one.
  ///
  /// - Parameters:
  ///   - value: The initial value.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  @inlinable
  public convenience init(_ value: Value, fileID: StaticString = #fileID, line: UInt = #line)
  where Value: Equatable {
    self.init(value, isDuplicate: { $0 == $1 }, fileID: fileID, line: line)
  }

  /// The current value; setting it notifies every observer unless the value
  /// is a duplicate of the current one.
  ///
  /// - Complexity: O(*n*) to set, where *n* is the number of observers.
  @inlinable
  public var value: Value {
    get {
      _trackRead()
      return _value
    }
    // An in-place mutation (`cell.value.toggle()`) writes; it is not a read
    // that Observation tracking should depend on.
    _modify {
      var newValue = _value
      yield &newValue
      value = newValue
    }
    set {
      if _refusesCancelledWrite(to: self) { return }
      if let isDuplicate = _isDuplicate, isDuplicate(_value, newValue) {
        if _isTraced { PropagationTrace._record(.deduplicated, self, value: newValue) }
        return
      }
      _value = newValue
      _generation &+= 1
      if let tracking = _tracking { tracking.changed() }
      if case .none = _dependents {
        _publish(newValue, supersedable: true)
      } else {
        _publishToGraph(newValue)
      }
    }
  }

  /// Publishes a change of a cell that derived cells read: they are marked
  /// before any observer runs, so that an observer reading them pulls
  /// current values, and they are recomputed and notified before the set
  /// returns.
  @usableFromInline
  func _publishToGraph(_ newValue: Value) {
    _invalidateDependents()
    _publish(newValue, supersedable: true)
    _Scheduler.drain()
  }

  /// Stores a value without notifying anyone yet, marking the derived cells
  /// that read it.
  ///
  /// - Returns: Whether the value changed (the duplicate policy decides).
  @inlinable
  @discardableResult
  func _setQuietly(_ newValue: Value) -> Bool {
    _store(newValue, isDuplicate: _isDuplicate)
  }

  /// Stores a value quietly and, if it changed, remembers this cell among
  /// the lists whose observers are told later.
  @inlinable
  func _setQuietly(_ newValue: Value, into touched: inout _TouchedLists) {
    _store(newValue, isDuplicate: _isDuplicate, into: &touched)
  }

  /// Sets the value; a stored cell always accepts.
  ///
  /// - Parameter newValue: The value to store.
  /// - Returns: `true`.
  @inlinable
  @discardableResult
  public func set(_ newValue: Value) -> Bool {
    if _refusesCancelledWrite(to: self) { return false }
    value = newValue
    return true
  }

  /// Calls `handler` with the current value now, then with every change.
  ///
  /// - Parameter handler: Called on the main actor with each value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel.
  @inlinable
  public func observe(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    let node = _add(handler)
    handler(_value)
    return node
  }

  /// Calls `handler` with every change from now on.
  ///
  /// - Parameter handler: Called on the main actor with each new value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel.
  @inlinable
  public func observeChanges(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    _add(handler)
  }

  /// The number of active observers.
  ///
  /// - Complexity: O(1).
  public var observerCount: Int { _observerCount }
}

extension Observable: _GraphCell {
  var _graphList: _ObserverListBase { self }
}

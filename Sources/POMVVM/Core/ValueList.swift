/// An observer list that holds a value, in the cell's own object: the
/// storage of stored cells (``Observable``), element cells
/// (``ElementCell``), projections (``ProjectedCell``) and the nodes behind
/// derived cells (``Derived``).
///
/// Not API: use those cells.
@MainActor
public class _ValueList<Value>: _ObserverList<Value> {
  @usableFromInline
  @exclusivity(unchecked)
  final var _value: Value

  @usableFromInline
  init(_ value: Value) {
    _value = value
    super.init()
  }

  override final var _valueDescription: String? { _shortDescription(_value) }

  /// The value a write through the cell starts from: an in-place mutation
  /// of ``ElementCell/value``, or a field written through a
  /// ``ProjectedCell``.
  ///
  /// It is the cell's value, except where that may be older than the state
  /// the cell writes to: an element cell overrides it with the array's
  /// current element, and a projection with the field of its base's write
  /// start. A write that started from the cell's own copy could undo a
  /// change the array already holds.
  @usableFromInline
  func _writeStart() -> Value { _value }

  @usableFromInline
  override func _publishCurrent() {
    _publish(_value, supersedable: true)
  }

  /// Stores a value without notifying anyone yet, marking the derived cells
  /// that read it.
  ///
  /// - Parameters:
  ///   - newValue: The value.
  ///   - isDuplicate: The duplicate policy; `nil` stores every value.
  /// - Returns: Whether the value changed.
  @inlinable
  final func _store(_ newValue: Value, isDuplicate: ((Value, Value) -> Bool)?) -> Bool {
    if isDuplicate != nil {
      // The old value is swapped out to be compared, not copied out: a
      // copy retains its fields, and passing `_value` itself would copy it.
      // The check is called through the optional, not bound to a
      // constant, whose copy would retain and release its context.
      var value = newValue
      swap(&_value, &value)
      if isDuplicate?(value, newValue) == true {
        swap(&_value, &value)
        return false
      }
    } else {
      _value = newValue
    }
    _generation &+= 1
    if let tracking = _tracking { tracking.changed() }
    _invalidateDependents()
    return true
  }

  /// Stores a value quietly and, if it changed, remembers this list among
  /// the lists whose observers are told later.
  @inlinable
  final func _store(
    _ newValue: Value, isDuplicate: ((Value, Value) -> Bool)?, into touched: inout _TouchedLists
  ) {
    if _store(newValue, isDuplicate: isDuplicate) {
      touched.append(_Touched(self))
    }
  }

  /// ``_store(_:isDuplicate:into:)`` for a list that lives until the
  /// touched lists are notified (see ``_Touched/init(guaranteed:)``).
  @inlinable
  final func _storeGuaranteed(
    _ newValue: Value, isDuplicate: ((Value, Value) -> Bool)?, into touched: inout _TouchedLists
  ) {
    if _store(newValue, isDuplicate: isDuplicate) {
      touched.append(_Touched(guaranteed: self))
    }
  }

  /// Observes on behalf of the cell that owns this storage: the
  /// subscription keeps `owner` alive, so that a cell (``Derived``,
  /// ``ProjectedCell``, ``ElementCell``, ``ArrayCount``) lives as long as
  /// someone observes it, even if nothing else holds it.
  final func _observe(
    retaining owner: AnyObject, changesOnly: Bool,
    _ handler: @escaping @MainActor (Value) -> Void
  ) -> Subscription {
    let node = _add { value in
      extendLifetime(owner)
      handler(value)
    }
    if !changesOnly { handler(_value) }
    return node
  }
}

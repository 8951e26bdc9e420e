/// A two-way cell onto one field of another cell's value.
///
/// Reading gives the field of the base cell's current value; writing stores a
/// copy of the base value with the field replaced, through the base cell (so
/// the base's observers are told, and a base that refuses writes refuses
/// this one too). Observers are told when the base changes and the field
/// changed with it (for `Equatable` fields; other fields notify on every
/// change of the base).
///
/// ```swift
/// struct Item { var text: String; var on: Bool }
/// let item = Observable(Item(text: "first", on: false))
/// let on = item.projection(\.on)
/// on.value = true            // item.value.on == true
/// item.value.on = false      // on's observers see false
/// ```
@MainActor
public final class ProjectedCell<Base: MutableObservableCell, Field>: _ValueList<Field>,
  MutableObservableCell
{
  // The cell is its own graph node: it holds the field's last value, for
  // its observers, and recomputes it when the base changes. The small
  // fields come first, so that they pack beside a small field value.

  /// Whether the base is one of the kit's stored cells (``Observable``,
  /// ``ElementCell``) and the field is at `_fieldOffset` in its value: the
  /// field is then read in place, without the key path and without copying
  /// the rest of the value.
  @usableFromInline
  let _readsInPlace: Bool

  @usableFromInline
  let _nodeHeight: UInt32

  /// The field's byte offset in the base value when the key path names
  /// stored properties all the way down (`MemoryLayout.offset(of:)`), or
  /// -1: reads and writes then go through the key path.
  @usableFromInline
  let _fieldOffset: Int32

  /// The cell this one projects from.
  public let base: Base

  /// The field of the base value this cell reads and writes.
  public let keyPath: WritableKeyPath<Base.Value, Field>

  /// Reads the field from the base and stores it quietly under the
  /// duplicate policy; whether it changed.
  ///
  /// Made where the projection is made, so that it runs specialised with
  /// the policy inlined; for an `Equatable` field it captures nothing, so
  /// that it allocates nothing.
  @usableFromInline
  let _recomputeField: @MainActor (ProjectedCell) -> Bool

  /// Whether the field in the base's value has the same bytes as this
  /// cell's value, or was taken as it is because nobody reads this cell
  /// (``_takeFieldIfUnread()``), for a field read in place whose
  /// duplicates are the values `==` says are equal; `nil` otherwise.
  ///
  /// A change of the base that leaves the field's bytes as they are leaves
  /// the field equal to this cell's value: a recompute would find a
  /// duplicate and tell nobody. Marking asks this first and skips the
  /// queue, the recompute and the comparison (a row's title is compared
  /// on every toggle of its switch). Made where the projection is made,
  /// so that it runs specialised.
  @usableFromInline
  let _fieldIsUnchanged: (@MainActor (ProjectedCell) -> Bool)?

  @inlinable
  init(
    base: Base, keyPath: WritableKeyPath<Base.Value, Field>, fileID: StaticString, line: UInt,
    recompute: @escaping @MainActor (ProjectedCell) -> Bool,
    unchanged: (@MainActor (ProjectedCell) -> Bool)? = nil
  ) {
    let offset = MemoryLayout<Base.Value>.offset(of: keyPath).flatMap { Int32(exactly: $0) }
    let readsInPlace = offset != nil && base._storedList != nil
    _fieldOffset = offset ?? -1
    _readsInPlace = readsInPlace
    _nodeHeight = UInt32(base._heightOfDependent)
    self.base = base
    self.keyPath = keyPath
    _recomputeField = recompute
    _fieldIsUnchanged = readsInPlace ? unchanged : nil
    super.init(_withoutTracking { base.value[keyPath: keyPath] })
    _setOrigin(.projection, fileID: fileID, line: line)
    _connect(to: base, at: 0)
  }

  /// The field of the base's current value, for the recompute closure: it
  /// runs while the node recomputes, when reads are not tracked.
  @inlinable
  var _currentField: Field {
    guard _readsInPlace else { return base.value[keyPath: keyPath] }
    let storage = unsafeDowncast(base, to: _ValueList<Base.Value>.self)
    return Self._field(in: &storage._value, at: Int(_fieldOffset))
  }

  /// Whether the field in the base's current value has the bytes of this
  /// cell's value (only for a field read in place).
  @inlinable
  var _fieldBytesAreUnchanged: Bool {
    let storage = unsafeDowncast(base, to: _ValueList<Base.Value>.self)
    return Self._sameBytes(in: &storage._value, at: Int(_fieldOffset), as: &_value)
  }

  // The three below are nonisolated so that their closures are not main-actor
  // isolated: an isolated closure passed to the standard library costs a
  // run-time executor check on every call.

  /// The field at byte `offset` of `whole`, read in place.
  @inlinable
  nonisolated static func _field(in whole: inout Base.Value, at offset: Int) -> Field {
    withUnsafeMutablePointer(to: &whole) {
      UnsafeRawPointer($0).load(fromByteOffset: offset, as: Field.self)
    }
  }

  /// Whether the field at byte `offset` of `whole` has the bytes of
  /// `field`.
  ///
  /// Equal bytes are the same value; equal values may differ in their
  /// bytes (padding, a string's storage), which only means `false`.
  @inlinable
  nonisolated static func _sameBytes(
    in whole: inout Base.Value, at offset: Int, as field: inout Field
  ) -> Bool {
    withUnsafeMutablePointer(to: &whole) { whole in
      withUnsafeMutablePointer(to: &field) { field in
        let stored = UnsafeRawPointer(whole) + offset
        let own = UnsafeRawPointer(field)
        let size = MemoryLayout<Field>.size
        var byte = 0
        while byte &+ 8 <= size {
          guard
            stored.loadUnaligned(fromByteOffset: byte, as: UInt64.self)
              == own.loadUnaligned(fromByteOffset: byte, as: UInt64.self)
          else { return false }
          byte &+= 8
        }
        while byte < size {
          guard
            stored.load(fromByteOffset: byte, as: UInt8.self)
              == own.load(fromByteOffset: byte, as: UInt8.self)
          else { return false }
          byte &+= 1
        }
        return true
      }
    }
  }

  /// Replaces the field at byte `offset` of `whole`.
  @inlinable
  nonisolated static func _replaceField(
    in whole: inout Base.Value, at offset: Int, with field: Field
  ) {
    withUnsafeMutablePointer(to: &whole) {
      UnsafeMutableRawPointer($0).advanced(by: offset).assumingMemoryBound(to: Field.self).pointee =
        field
    }
  }

  isolated deinit {
    _graphCell(of: base)?._graphList._removeDependent(self)
  }

  override var _height: Int { Int(_nodeHeight) }

  /// Whether this cell can ignore a change of its base: it is up to date,
  /// and the field kept its bytes or was taken as it is
  /// (``_fieldIsUnchanged``).
  override func _sourceDidChange(at index: Int) -> Bool {
    guard _flags & _NodeFlag.state == 0 else { return false }
    // Called through the optional, not bound to a constant: a bound copy
    // retains the closure's context and releases it, two atomic operations
    // for every dependent of every change.
    return _fieldIsUnchanged?(self) ?? false
  }

  /// Takes the field of the base's value now, if this cell has no
  /// observer, no reader and no trace, no read since its last change could
  /// have registered an Observation tracker, and the field is plain bits
  /// (no reference to release) read in place; whether it did.
  ///
  /// Such a cell, a switch's write-only projection for one, would be
  /// queued, recomputed and flushed to tell nobody: about 290 instructions
  /// of a toggle through it. Taking the field reads bytes at an offset and
  /// releases nothing, so marking still runs no user code; the cell is up
  /// to date when the base's observers run, as a flushed one would be.
  ///
  /// Only for a field read in place, from ``_fieldIsUnchanged``, which
  /// runs specialised.
  @inlinable
  final func _takeFieldIfUnread() -> Bool {
    guard _isPOD(Field.self), !(_tracking?.isArmed ?? false), !_isTraced,
      case .none = _observers, case .none = _dependents
    else { return false }
    _value = _currentField
    _generation &+= 1
    return true
  }

  override func _recompute() {
    if _recomputeField(self) {
      _needsNotify = true
    }
  }

  override func _pullSources() {
    _graphCell(of: base)?._graphList._updateIfNeeded()
  }

  override var _sourceLists: [_ObserverListBase] {
    _graphCell(of: base).map { [$0._graphList] } ?? []
  }

  /// The field of the base cell's current value; setting it writes through
  /// the base cell.
  ///
  /// A refused write's report names this cell and where it was made (a
  /// setter cannot take its caller's location): write `cell.set(newValue)`
  /// (``set(_:fileID:line:)``) to have it name your line.
  @inlinable
  public var value: Field {
    get {
      _updateIfNeeded()
      _trackRead()
      return _value
    }
    _modify {
      var whole = _baseWriteStart()
      var newValue = _field(of: &whole)
      yield &newValue
      _ = _write(
        newValue, into: &whole, fileID: _Culprit.throughValue, line: _Culprit.line(of: self))
    }
    set { set(newValue, fileID: _Culprit.throughValue, line: _Culprit.line(of: self)) }
  }

  /// The base value a write starts from: the base's current state, which
  /// for an element cell is the array's element (see
  /// ``_ValueList/_writeStart()``), read without registering an Observation
  /// read (a write is not a dependency).
  @inlinable
  func _baseWriteStart() -> Base.Value {
    guard _readsInPlace else { return _slowBaseWriteStart() }
    let storage = unsafeDowncast(base, to: _ValueList<Base.Value>.self)
    // Outside delivery a stored cell's value is current: no call needed.
    return _Deliveries.count == 0 ? storage._value : storage._writeStart()
  }

  /// ``_baseWriteStart()`` for a base that is not a stored cell: another
  /// projection, a wrapper, or a cell that is not the kit's.
  @usableFromInline
  func _slowBaseWriteStart() -> Base.Value {
    if let list = _graphCell(of: base)?._graphList as? _ValueList<Base.Value> {
      return list._writeStart()
    }
    return _withoutTracking { base.value }
  }

  /// The field of a base value.
  @inlinable
  func _field(of whole: inout Base.Value) -> Field {
    _fieldOffset >= 0 ? Self._field(in: &whole, at: Int(_fieldOffset)) : whole[keyPath: keyPath]
  }

  /// The field of the base's write start, for a projection of this one.
  @inlinable
  override func _writeStart() -> Field {
    var whole = _baseWriteStart()
    return _field(of: &whole)
  }

  /// Replaces the field in `whole` and writes it through the base.
  @inlinable
  func _write(
    _ newValue: Field, into whole: inout Base.Value, fileID: StaticString, line: UInt
  ) -> Bool {
    if _fieldOffset >= 0 {
      Self._replaceField(in: &whole, at: Int(_fieldOffset), with: newValue)
    } else {
      whole[keyPath: keyPath] = newValue
    }
    return base.set(whole, fileID: fileID, line: line)
  }

  /// Writes the field through the base cell.
  ///
  /// `projection.set(newValue)` calls ``set(_:fileID:line:)``, which names
  /// the caller's line in a refusal's report; this one is what generic code
  /// calls through ``MutableObservableCell``, and its reports name the
  /// cell.
  ///
  /// - Parameter newValue: The new value of the field.
  /// - Returns: Whether the base cell accepted the write.
  @inlinable
  @_disfavoredOverload
  @discardableResult
  public func set(_ newValue: Field) -> Bool {
    set(newValue, fileID: _Culprit.throughValue, line: _Culprit.line(of: self))
  }

  /// Writes the field through the base cell; a refusal's report names the
  /// caller's line.
  ///
  /// - Parameters:
  ///   - newValue: The new value of the field.
  ///   - fileID: The culprit's file in a report; by default, the caller's.
  ///   - line: The culprit's line in a report; by default, the caller's.
  /// - Returns: Whether the base cell accepted the write.
  @inlinable
  @discardableResult
  public func set(_ newValue: Field, fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
    var whole = _baseWriteStart()
    return _write(newValue, into: &whole, fileID: fileID, line: line)
  }

  /// Calls `handler` with the field now, then with every change of it.
  ///
  /// The subscription keeps this cell (and so its base) alive.
  ///
  /// - Parameter handler: Called on the main actor with each value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @MainActor (Field) -> Void) -> Subscription {
    _updateIfNeeded()
    return _observe(retaining: self, changesOnly: false, handler)
  }

  /// Calls `handler` with every change of the field from now on.
  ///
  /// The subscription keeps this cell (and so its base) alive.
  ///
  /// - Parameter handler: Called on the main actor with each new value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observeChanges(_ handler: @escaping @MainActor (Field) -> Void) -> Subscription {
    _updateIfNeeded()
    return _observe(retaining: self, changesOnly: true, handler)
  }
}

extension ProjectedCell: _GraphCell {
  var _graphList: _ObserverListBase { self }

}

extension MutableObservableCell {
  /// A two-way cell onto one field of this cell's value.
  ///
  /// ```swift
  /// let on = itemCell.projection(\.on)
  /// on.bidirectionalBind(to: switchCell)
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The field to project.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  /// - Returns: A cell that reads and writes the field through this cell.
  @inlinable
  public func projection<Field>(
    _ keyPath: WritableKeyPath<Value, Field>, fileID: StaticString = #fileID, line: UInt = #line
  ) -> ProjectedCell<Self, Field> {
    guard let isDuplicate = _duplicateCheck(for: Field.self) else {
      return ProjectedCell(base: self, keyPath: keyPath, fileID: fileID, line: line) {
        $0._store($0._currentField, isDuplicate: nil)
      }
    }
    return ProjectedCell(base: self, keyPath: keyPath, fileID: fileID, line: line) {
      $0._store($0._currentField, isDuplicate: isDuplicate)
    }
  }

  /// A two-way cell onto one `Equatable` field of this cell's value; its
  /// observers are told only when the field changes.
  ///
  /// - Parameters:
  ///   - keyPath: The field to project.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  /// - Returns: A cell that reads and writes the field through this cell.
  @inlinable
  public func projection<Field: Equatable>(
    _ keyPath: WritableKeyPath<Value, Field>, fileID: StaticString = #fileID, line: UInt = #line
  ) -> ProjectedCell<Self, Field> {
    ProjectedCell(
      base: self, keyPath: keyPath, fileID: fileID, line: line,
      recompute: { $0._store($0._currentField, isDuplicate: { $0 == $1 }) },
      unchanged: { $0._fieldBytesAreUnchanged || $0._takeFieldIfUnread() })
  }
}

/// The record of one change of a stored ``Observable`` cell: its value
/// before and after.
@MainActor
@usableFromInline
final class _CellEdit<Value>: _UndoRecord {
  @usableFromInline
  weak var cell: Observable<Value>?
  @usableFromInline
  var before: Value
  @usableFromInline
  var after: Value

  @inlinable
  init(cell: Observable<Value>, before: Value, after: Value) {
    self.cell = cell
    self.before = before
    self.after = after
  }

  @usableFromInline
  var isAlive: Bool { cell != nil }

  @usableFromInline
  var object: AnyObject? { cell }

  /// Makes this record, of the same cell, the record of another change.
  @inlinable
  func reset(from oldValue: Value, to newValue: Value) {
    before = oldValue
    after = newValue
  }

  /// Folds a later change of the same cell into this one.
  @inlinable
  func absorb(_ newValue: Value) {
    after = newValue
  }

  /// A stored cell always accepts a value: a cell's record never conflicts.
  @usableFromInline
  func conflict(_ direction: _UndoDirection, _ presence: inout _Presence) -> String? {
    nil
  }

  @usableFromInline
  func apply(_ direction: _UndoDirection) {
    cell?.value = direction == .undo ? before : after
  }
}

/// What a history knows of a tracked cell: its value as last seen, the
/// old value of the next change.
@MainActor
@usableFromInline
final class _CellShadow<Value> {
  @usableFromInline
  var value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
  }
}

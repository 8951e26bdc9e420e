/// The record of one change of a stored ``Observable`` cell: its value
/// before and after.
@MainActor
final class _CellEdit<Value>: _UndoRecord {
  weak var cell: Observable<Value>?
  private let before: Value
  private var after: Value

  init(cell: Observable<Value>, before: Value, after: Value) {
    self.cell = cell
    self.before = before
    self.after = after
  }

  var isAlive: Bool { cell != nil }

  /// Folds a later change of the same cell into this one.
  func absorb(_ newValue: Value) {
    after = newValue
  }

  /// A stored cell always accepts a value: a cell's record never conflicts.
  func conflict(_ direction: _UndoDirection, _ presence: inout _Presence) -> String? {
    nil
  }

  func apply(_ direction: _UndoDirection) {
    cell?.value = direction == .undo ? before : after
  }
}

/// What a history knows of a tracked cell: its value as last seen, the
/// old value of the next change.
@MainActor
final class _CellShadow<Value> {
  var value: Value

  init(_ value: Value) {
    self.value = value
  }
}

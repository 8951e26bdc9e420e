import POMVVM
import TextUI

/// A feature whose screens share one ``POMVVM/UndoHistory`` and a list
/// cursor: undo and redo on either screen, and the `u` and `U` keys.
///
/// The Master-Detail and to-do features conform; each says where its
/// history, cursor and rows are, and gets the rest here.
@MainActor
protocol UndoableFeature: DemoFeature {
  /// The history of the feature's items.
  var history: UndoHistory { get }

  /// The selected row of the list screen.
  var cursor: ListCursor { get set }

  /// How many rows the list screen shows.
  var rowCount: Int { get }
}

extension UndoableFeature {
  /// Takes back the last change of the items, on either screen; the cursor
  /// stays on a row.
  ///
  /// - Returns: `false` if there was nothing to take back, or it could not
  ///   be (the history reported why).
  @discardableResult
  func undo() -> Bool {
    defer { cursor.clamp(toRowCount: rowCount) }
    return history.undo()
  }

  /// Makes the change taken back last again, on either screen; the cursor
  /// stays on a row.
  ///
  /// - Returns: `false` if there was nothing to make again, or it could not
  ///   be (the history reported why).
  @discardableResult
  func redo() -> Bool {
    defer { cursor.clamp(toRowCount: rowCount) }
    return history.redo()
  }

  /// Undoes on `u` and redoes on `U`, on either screen.
  ///
  /// - Parameter key: A key outside a text editor.
  /// - Returns: Whether the key was one of them.
  func handleHistoryKey(_ key: Key) -> Bool {
    switch key {
    case .character("u"): undo()
    case .character("U"): redo()
    default: return false
    }
    return true
  }
}

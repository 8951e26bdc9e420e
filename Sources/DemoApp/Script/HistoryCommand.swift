import POMVVM

/// The `undo` and `redo` script commands that the screens with an
/// ``POMVVM/UndoHistory`` share, and their help.
@MainActor
enum HistoryCommand {
  /// Takes back the last change, or refuses when there is none.
  ///
  /// - Parameters:
  ///   - history: The screen's history.
  ///   - undo: Takes the change back; whether it could.
  /// - Throws: ``ScriptError`` with `nothing to undo`, or when the history
  ///   refused (it reported why).
  static func undo(in history: UndoHistory, _ undo: () -> Bool) throws(ScriptError) {
    guard history.canUndo.value else { throw ScriptError("nothing to undo") }
    guard undo() else { throw ScriptError("the last change could not be undone") }
  }

  /// Makes the change taken back last again, or refuses when there is none.
  ///
  /// - Parameters:
  ///   - history: The screen's history.
  ///   - redo: Makes the change again; whether it could.
  /// - Throws: ``ScriptError`` with `nothing to redo`, or when the history
  ///   refused (it reported why).
  static func redo(in history: UndoHistory, _ redo: () -> Bool) throws(ScriptError) {
    guard history.canRedo.value else { throw ScriptError("nothing to redo") }
    guard redo() else { throw ScriptError("the change could not be redone") }
  }

  /// The help line's part for the undo and redo keys: `u undo: Rename  U redo`,
  /// with the name of the step each would take, where it has one.
  ///
  /// - Parameter history: The screen's history.
  /// - Returns: The keys' help.
  static func keyHelp(for history: UndoHistory) -> String {
    let undo = history.undoActionName.value.map { "u undo: \($0)" } ?? "u undo"
    let redo = history.redoActionName.value.map { "U redo: \($0)" } ?? "U redo"
    return undo + "  " + redo
  }
}

extension DemoFeature {
  /// The `undo` command's help.
  static var undoHelp: CommandHelp { CommandHelp("undo", "take back the last change") }

  /// The `redo` command's help.
  static var redoHelp: CommandHelp {
    CommandHelp("redo", "make the change taken back last again")
  }
}

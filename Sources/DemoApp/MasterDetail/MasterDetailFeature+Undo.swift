import MasterDetail
import POMVVM

extension MasterDetailFeature: UndoableFeature {
  /// The history of the items, which the list and the detail share.
  var history: UndoHistory { master.history }

  /// `undo` and `redo`, on either screen.
  ///
  /// - Returns: Whether the command was one of them.
  /// - Throws: ``ScriptError`` when there is nothing to undo or redo.
  func performHistoryCommand(_ command: ScriptCommand) throws(ScriptError) -> Bool {
    switch command.word {
    case "undo":
      try command.expectNoArgument()
      try HistoryCommand.undo(in: history, undo)
    case "redo":
      try command.expectNoArgument()
      try HistoryCommand.redo(in: history, redo)
    default:
      return false
    }
    return true
  }
}

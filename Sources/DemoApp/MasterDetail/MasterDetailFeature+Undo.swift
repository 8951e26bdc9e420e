import MasterDetail
import POMVVM

extension MasterDetailFeature {
  /// Takes back the last change of the items, on either screen.
  ///
  /// - Returns: `false` if there was nothing to take back, or it could not
  ///   be (the history reported why).
  @discardableResult
  func undo() -> Bool {
    defer { cursor.clamp(toRowCount: rowCount) }
    return master.history.undo()
  }

  /// Makes the change taken back last again, on either screen.
  ///
  /// - Returns: `false` if there was nothing to make again, or it could not
  ///   be (the history reported why).
  @discardableResult
  func redo() -> Bool {
    defer { cursor.clamp(toRowCount: rowCount) }
    return master.history.redo()
  }

  /// `undo` and `redo`, on either screen.
  ///
  /// - Returns: Whether the command was one of them.
  /// - Throws: ``ScriptError`` when there is nothing to undo or redo.
  func performHistoryCommand(_ command: ScriptCommand) throws(ScriptError) -> Bool {
    switch command.word {
    case "undo":
      try command.expectNoArgument()
      try HistoryCommand.undo(in: master.history, undo)
    case "redo":
      try command.expectNoArgument()
      try HistoryCommand.redo(in: master.history, redo)
    default:
      return false
    }
    return true
  }

  /// Gives the detail screen a new view model onto its item when an undo or
  /// redo has put the deleted item back in the list: the old one's cells
  /// stay detached, as the kit's law wants, and the new one edits the item
  /// again.
  func reopenDetailIfItCameBack() {
    guard screen == .detail, let viewModel = detail.viewModel, viewModel.isDetached,
      let again = viewModel.reopened()
    else { return }
    detail.bind(to: again)
  }
}

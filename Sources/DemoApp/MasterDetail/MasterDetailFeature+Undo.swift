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

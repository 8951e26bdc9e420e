import POMVVM

extension ToDoFeature {
  /// Takes back the last change of the list, on either screen; the store
  /// saves it like any other change.
  ///
  /// - Returns: `false` if there was nothing to take back, or it could not
  ///   be (the history reported why).
  @discardableResult
  func undo() -> Bool {
    defer { cursor.clamp(toRowCount: rowCount) }
    return list.history.undo()
  }

  /// Makes the change taken back last again, on either screen; the store
  /// saves it like any other change.
  ///
  /// - Returns: `false` if there was nothing to make again, or it could not
  ///   be (the history reported why).
  @discardableResult
  func redo() -> Bool {
    defer { cursor.clamp(toRowCount: rowCount) }
    return list.history.redo()
  }

  /// Gives the detail screen a new editor of its item when an undo or redo
  /// has put the deleted item back in the list: the old editor stays
  /// detached, as the kit's law wants, and the new one edits the item again.
  func reopenEditorIfItCameBack() {
    guard screen == .detail, let viewModel = editorView.viewModel, viewModel.isDetached,
      let again = viewModel.reopened()
    else { return }
    editorView.bind(to: again)
  }
}

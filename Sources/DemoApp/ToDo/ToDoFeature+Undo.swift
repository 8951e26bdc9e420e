import POMVVM

extension ToDoFeature: UndoableFeature {
  /// The history of the list, which both screens share; the store saves an
  /// undone change like any other.
  var history: UndoHistory { list.history }

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

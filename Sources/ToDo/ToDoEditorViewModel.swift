import POMVVM

/// The view model of an editor for one to-do item: its title, editable, and
/// its deletion.
///
/// It edits the item in the shared store, so the list follows every edit.
/// When the item is deleted (here or elsewhere), the editor is detached and
/// refuses edits.
@MainActor
public final class ToDoEditorViewModel: ViewModel {
  /// The id of the item being edited.
  public let id: ToDoItem.ID

  /// The item's title, editable.
  public let title: ProjectedCell<ElementCell<ToDoItem>, String>

  private let store: Store<ToDoItem>

  private let history: UndoHistory

  init(item: ElementCell<ToDoItem>, in store: Store<ToDoItem>, history: UndoHistory) {
    id = item.id
    title = item.projection(\.title)
    self.store = store
    self.history = history
  }

  /// Whether the item was deleted; a deleted item refuses edits.
  public var isDetached: Bool { title.base.isDetached }

  /// A new editor of the same item, when it is in the list again after
  /// being deleted (an undo or a redo put it back); `nil` while it is
  /// deleted.
  ///
  /// This editor stays detached, as the kit's law wants; the new one edits
  /// the item as it is now.
  ///
  /// - Returns: The new editor, or `nil` if no item has this id.
  public func reopened() -> ToDoEditorViewModel? {
    store.items.cell(for: id).map { ToDoEditorViewModel(item: $0, in: store, history: history) }
  }

  /// Deletes the item being edited.
  ///
  /// - Returns: `false` if it was already deleted (reported to
  ///   ``Diagnostics``).
  @discardableResult
  public func delete() -> Bool {
    guard history.transaction("Delete", { store.items.remove(id: id) }) != nil else {
      Diagnostics.report("delete refused: the to-do item with id \(id) was already deleted")
      return false
    }
    return true
  }
}

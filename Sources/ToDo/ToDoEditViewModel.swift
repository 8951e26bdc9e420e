import POMVVM

/// The view model of the sheet that edits one to-do item through a draft:
/// the item's fields are copied when the sheet opens, edited there, and
/// written back only by ``done()``.
///
/// ``cancel()`` closes the sheet and leaves the item as it was; ``done()``
/// writes the draft into the store in one undoable step ("Edit") and closes
/// the sheet. The list presents it in its ``ToDoListViewModel/sheet``, tied
/// to the item: when the item is deleted while the sheet is open (by another
/// screen or an undo), the sheet closes and the draft is dropped.
@MainActor
public final class ToDoEditViewModel: ViewModel, Dismissible {
  /// The id of the item being edited.
  public let id: ToDoItem.ID

  /// The item as it was when the sheet opened.
  public let original: ToDoItem

  /// The draft's title, edited freely; the item keeps its own until
  /// ``done()``.
  public let title: Observable<String>

  /// The draft's done mark.
  public let isCompleted: Observable<Bool>

  private let store: Store<ToDoItem>

  private let history: UndoHistory

  /// Called after ``done()`` wrote a draft that changed the done mark.
  private let didChangeCompletion: @MainActor () -> Void

  init(
    item: ToDoItem, in store: Store<ToDoItem>, history: UndoHistory,
    didChangeCompletion: @escaping @MainActor () -> Void
  ) {
    self.didChangeCompletion = didChangeCompletion
    id = item.id
    original = item
    title = Observable(item.title)
    isCompleted = Observable(item.isCompleted)
    self.store = store
    self.history = history
  }

  /// The item the draft describes: the item's id with the draft's fields.
  public var draft: ToDoItem {
    ToDoItem(id: id, title: title.value, isCompleted: isCompleted.value)
  }

  /// Closes the sheet; the item stays as it is.
  ///
  /// - Returns: `false` if the sheet was not shown (reported to
  ///   ``POMVVM/Diagnostics``).
  @discardableResult
  public func cancel() -> Bool {
    dismiss()
  }

  /// Writes the draft into the item, in one step of the list's history
  /// ("Edit"), and closes the sheet.
  ///
  /// Only the fields the draft changed are written: a field changed
  /// elsewhere while the sheet was open (a toggle on the list, say) and left
  /// alone in the draft keeps its new value.
  /// A draft that changes the done mark sorts the list as a toggle does
  /// (``ToDoListViewModel/toggle(row:)``), a moment later.
  /// A draft equal to the item writes nothing and records no step. If the
  /// item was deleted meanwhile, nothing is written and the refusal is
  /// reported to ``POMVVM/Diagnostics``.
  ///
  /// - Returns: `false` if the item was deleted (the sheet closes anyway).
  @discardableResult
  public func done() -> Bool {
    guard let index = store.items.index(id: id) else {
      Diagnostics.report("done refused: the to-do item with id \(id) was deleted")
      if isShown { dismiss() }
      return false
    }
    let item = store.items[index]
    var edited = item
    if title.value != original.title { edited.title = title.value }
    if isCompleted.value != original.isCompleted { edited.isCompleted = isCompleted.value }
    if edited != item {
      history.transaction("Edit") { store.items.replace(at: index, with: edited) }
    }
    if edited.isCompleted != item.isCompleted { didChangeCompletion() }
    dismiss()
    return true
  }
}

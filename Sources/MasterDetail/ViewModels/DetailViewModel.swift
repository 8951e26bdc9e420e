import Foundation
import POMVVM

/// The view model of the detail screen: the item's date, text and switch,
/// editable, and the item's deletion.
///
/// It edits the same element as the item's row. When the item is deleted
/// elsewhere, ``isDetached`` becomes `true` and every edit is refused
/// (reported, not crashed on, and not kept on a ghost copy). Its switch
/// operations are the ``Switchable`` defaults, shared with
/// ``DateCellViewModel``.
///
/// ## When an undo brings the item back
///
/// The cells of a deleted item stay detached, even when an undo puts the
/// item back: that is the kit's law, so that no ghost copy takes edits.
/// A screen that still shows the item gets it back, editable, by asking
/// for a new view model once the id is in the list again, with
/// ``reopened()``, and rebinding to it:
///
/// ```swift
/// items.observeChanges { _ in
///   if detail.isDetached, let again = detail.reopened() { detailView.bind(to: again) }
/// }
/// ```
@MainActor
public final class DetailViewModel: ViewModel, Switchable, ItemDataSource, Dismissible {
  /// The id of the item the screen shows.
  public let id: Item.ID

  /// The delete confirmation, while it shows (``askToDelete()``).
  public let alert = Presentation<AlertState<DetailAlertAction>>()

  /// When the item was added.
  public let date: ProjectedCell<ElementCell<Item>, Date>

  /// The item's text, editable.
  public let text: ProjectedCell<ElementCell<Item>, String>

  /// The item's switch.
  public let on: ProjectedCell<ElementCell<Item>, Bool>

  private let items: ObservableArray<Item>
  private let history: UndoHistory

  init(item: ElementCell<Item>, in items: ObservableArray<Item>, history: UndoHistory) {
    id = item.id
    date = item.projection(\.date)
    text = item.projection(\.text)
    on = item.projection(\.on)
    self.items = items
    self.history = history
  }

  /// Emphasis: the detail is about this one item (overrides the accent
  /// that rows use by default).
  public var textStyle: TextStyle { .emphasis }

  /// Whether the item was deleted; a deleted item refuses every edit.
  public var isDetached: Bool { on.base.isDetached }

  /// A cell that becomes `true` when the item is deleted.
  public var detachment: Derived<Bool> { on.base.detachment }

  /// A new view model onto the same item, when it is in the list again
  /// after being deleted (an undo put it back); `nil` while it is deleted.
  ///
  /// The new view model edits the item as it is now, with its text and
  /// switch as the undo restored them.
  ///
  /// - Returns: The new view model, or `nil` if no item has this id.
  public func reopened() -> DetailViewModel? {
    items.cell(for: id).map { DetailViewModel(item: $0, in: items, history: history) }
  }

  /// Asks the user to confirm the deletion: presents an alert with a
  /// destructive Delete and a Cancel.
  ///
  /// - Returns: `false`, presenting nothing, if the item was already deleted.
  @discardableResult
  public func askToDelete() -> Bool {
    guard !isDetached else { return false }
    alert.present(
      AlertState(
        title: "Delete “\(text.value)”?",
        message: "Undo brings it back.",
        buttons: [.destructive("Delete", action: .confirmDelete), .cancel()]))
    return true
  }

  /// Takes the user's answer to the delete confirmation: Delete deletes the
  /// item (and its detail leaves the stack it was pushed on); Cancel only
  /// dismisses.
  ///
  /// - Parameter button: The button chosen.
  public func answer(_ button: ButtonState<DetailAlertAction>) {
    switch alert.answer(button) {
    case .confirmDelete?: delete()
    case nil: break
    }
  }

  /// Deletes the item the screen shows.
  ///
  /// - Returns: `false` if the item was already deleted (reported to
  ///   ``Diagnostics``).
  @discardableResult
  public func delete() -> Bool {
    guard !isDetached, history.transaction("Delete", { items.remove(id: id) }) != nil else {
      Diagnostics.report("delete refused: the item with id \(id) was already deleted")
      return false
    }
    return true
  }
}

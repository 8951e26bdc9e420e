import POMVVM

/// The view model of one row of the list: the item's text and switch.
///
/// It edits the shared item through its element cell, so a toggle here is
/// a toggle everywhere. Its switch operations are the ``Switchable``
/// defaults; it has no switch code of its own.
@MainActor
public final class DateCellViewModel: ViewModel, Switchable, ItemDataSource {
  /// The id of the item the row shows.
  public let id: Item.ID

  /// The item's text.
  public let text: ProjectedCell<ElementCell<Item>, String>

  /// The item's switch.
  public let on: ProjectedCell<ElementCell<Item>, Bool>

  init(item: ElementCell<Item>) {
    id = item.id
    text = item.projection(\.text)
    on = item.projection(\.on)
  }

  /// Whether the item was deleted; a deleted row refuses to switch.
  public var isDetached: Bool { on.base.isDetached }
}

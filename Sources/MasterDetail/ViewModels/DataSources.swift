import POMVVM

/// What the list screen shows.
@MainActor
public protocol MasterDataSource {
  /// The items, shared with every row and detail view model.
  var items: ObservableArray<Item> { get }
  /// How many items have their switch on.
  var openSwitchCount: ArrayCount<Item> { get }
}

/// What the list screen can do.
@MainActor
public protocol MasterBusinessDelegate {
  /// Inserts an item at the top, dated by the view model's clock.
  ///
  /// - Parameter text: The item's text; `nil` uses the date.
  /// - Returns: The new item.
  @discardableResult
  func insertNowDate(text: String?) -> Item

  /// Deletes the item at a row.
  ///
  /// - Parameter index: The item's row.
  /// - Returns: The deleted item, or `nil` if the row does not exist.
  @discardableResult
  func delete(at index: Int) -> Item?
}

/// What a view that shows one item reads.
@MainActor
public protocol ItemDataSource {
  /// The type of the cell that holds the item's text.
  associatedtype TextCell: ObservableCell<String>

  /// The item's text.
  var text: TextCell { get }

  /// How to emphasize the text.
  var textStyle: TextStyle { get }
}

// MARK: - Default implementations

extension ItemDataSource {
  /// The accent style, shared by every item view model that does not choose
  /// its own.
  public var textStyle: TextStyle { .accent }
}

import Foundation
import POMVVM

/// The list screen's view model: the shared items, the count of open
/// switches, and the view models of rows and details.
///
/// ```swift
/// let master = withDependencies {
///   $0.date = .constant(Date(timeIntervalSince1970: 0))
/// } operation: {
///   MasterViewModel()
/// }
/// master.insertNowDate(text: "first")
/// master.cellViewModel(at: 0)?.toggleSwitch()
/// master.openSwitchCount.value   // 1
/// ```
@MainActor
public final class MasterViewModel: ViewModel, MasterDataSource, MasterBusinessDelegate {
  /// The items, newest first.
  public let items: ObservableArray<Item>

  /// How many items have their switch on, kept from the items' change sets
  /// (never by rescanning them).
  public let openSwitchCount: ArrayCount<Item>

  /// Every change of the items, to undo and redo.
  ///
  /// Adding is "Add", deleting is "Delete", and other edits are "Edit"
  /// unless a transaction names them.
  public let history = UndoHistory()

  /// The text the list searches for; empty shows every item.
  ///
  /// An item matches when its text contains it, ignoring case.
  public let searchText: Observable<String>

  /// Whether the list groups its items by switch state, in an Off and an
  /// On section.
  public let isGrouped = Observable(false)

  private let clock: (() -> Date)?
  @Dependency(\.date) private var date
  private var nextID: Int

  /// Creates the view model.
  ///
  /// - Parameters:
  ///   - items: The initial items; their ids must be unique.
  ///   - clock: The time for new items; by default, the `date` dependency
  ///     (`@Dependency(\.date)`), which a test sets with `withDependencies`.
  public init(items: [Item] = [], clock: (() -> Date)? = nil) {
    self.items = ObservableArray(items)
    self.clock = clock
    searchText = Observable("").labelled("search text")
    openSwitchCount = self.items.liveCount(where: \.on).labelled("open switches")
    nextID = (items.map(\.id).max() ?? 0) + 1
    history.track(self.items, actionName: "Edit")
  }

  /// Inserts an item at the top, dated by the clock (or the `date`
  /// dependency).
  ///
  /// - Parameter text: The item's text; `nil` uses the date's description.
  /// - Returns: The new item.
  @discardableResult
  public func insertNowDate(text: String? = nil) -> Item {
    let date = clock?() ?? self.date.now
    let item = Item(id: nextID, date: date, text: text ?? date.description)
    nextID += 1
    history.transaction("Add") { items.insert(item, at: 0) }
    return item
  }

  /// Deletes the item at a row.
  ///
  /// - Parameter index: The item's row, from 0.
  /// - Returns: The deleted item, or `nil` if the row does not exist.
  @discardableResult
  public func delete(at index: Int) -> Item? {
    guard items.indices.contains(index) else { return nil }
    return history.transaction("Delete") { items.remove(at: index) }
  }

  /// Deletes the item with an id.
  ///
  /// - Parameter id: The item's id.
  /// - Returns: The deleted item, or `nil` if no item has that id.
  @discardableResult
  public func delete(id: Item.ID) -> Item? {
    history.transaction("Delete") { items.remove(id: id) }
  }

  /// The view model for the row that shows the item at an index.
  ///
  /// - Parameter index: The row, from 0.
  /// - Returns: The row's view model, or `nil` if the row does not exist.
  public func cellViewModel(at index: Int) -> DateCellViewModel? {
    guard items.indices.contains(index) else { return nil }
    return cellViewModel(for: items[index].id)
  }

  /// The view model for the row that shows the item with an id.
  ///
  /// - Parameter id: The item's id.
  /// - Returns: The row's view model, or `nil` if no item has that id.
  public func cellViewModel(for id: Item.ID) -> DateCellViewModel? {
    items.cell(for: id).map(DateCellViewModel.init(item:))
  }

  /// The view model for the detail screen of an item.
  ///
  /// - Parameter id: The item's id.
  /// - Returns: The detail's view model, or `nil` if no item has that id.
  public func detailViewModel(for id: Item.ID) -> DetailViewModel? {
    guard let cell = items.cell(for: id) else { return nil }
    return DetailViewModel(item: cell, in: items, history: history)
  }

  /// The screens pushed over the list: an item's detail, tied to its item,
  /// so that deleting the item anywhere (another screen, an undo) takes
  /// its detail off the stack.
  public let path = StackPath<MasterDetailScreen>()

  /// Pushes the detail of an item, tied to the item: when the item is
  /// deleted (from the list, from the detail, by an undo), the detail
  /// leaves the stack, and a redo does not bring it back.
  ///
  /// - Parameter id: The item's id.
  /// - Returns: The detail's view model, or `nil` if no item has that id.
  @discardableResult
  public func open(id: Item.ID) -> DetailViewModel? {
    guard let cell = items.cell(for: id) else { return nil }
    let detail = DetailViewModel(item: cell, in: items, history: history)
    guard path.push(.detail(detail), tiedTo: cell) != nil else { return nil }
    return detail
  }

  /// The detail on top of the stack, if one shows.
  public var openDetail: DetailViewModel? { path.last?.detail }

  /// A live query of the items that match ``searchText``, in the array's
  /// order; it filters again, in one change, when the text changes.
  ///
  /// - Returns: The query; it lives as long as you hold it.
  /// - Complexity: O(*n* log *n*) to make.
  public func searchResults() -> LiveQuery<Item> {
    let searchText = searchText
    return items.query(
      where: {
        searchText.value.isEmpty || $0.text.localizedCaseInsensitiveContains(searchText.value)
      },
      reading: searchText)
  }

  /// A live query of the items that match ``searchText``, grouped by switch
  /// state.
  ///
  /// An Off and an On section, each in the array's order; a toggled item
  /// moves to the other section.
  ///
  /// - Returns: The query; it lives as long as you hold it.
  /// - Complexity: O(*n* log *n*) to make.
  public func groupedBySwitch() -> SectionedQuery<SwitchSection, Item> {
    let searchText = searchText
    return items.query(
      where: {
        searchText.value.isEmpty || $0.text.localizedCaseInsensitiveContains(searchText.value)
      },
      sectionedBy: SwitchSection.init, reading: searchText)
  }
}

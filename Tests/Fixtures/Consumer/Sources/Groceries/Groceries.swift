import POMVVM

/// One thing to buy.
public struct Grocery: Identifiable, Equatable, Sendable {
  /// The grocery's identity.
  public let id: Int
  /// What to buy.
  public var name: String
  /// Whether it is in the basket.
  public var isBought: Bool

  /// Creates a grocery.
  ///
  /// - Parameters:
  ///   - id: The grocery's identity.
  ///   - name: What to buy.
  ///   - isBought: Whether it is in the basket.
  public init(id: Int, name: String, isBought: Bool = false) {
    self.id = id
    self.name = name
    self.isBought = isBought
  }
}

/// The shopping list: the groceries and how many are bought.
@MainActor
public final class GroceryListViewModel: ViewModel {
  /// The groceries, shared with every row.
  public let groceries: ObservableArray<Grocery>
  /// How many groceries are bought.
  public let boughtCount: ArrayCount<Grocery>
  private var nextID: Int

  /// Creates a list.
  ///
  /// - Parameter groceries: The first groceries; their ids must be unique.
  public init(_ groceries: [Grocery] = []) {
    self.groceries = ObservableArray(groceries)
    boughtCount = self.groceries.liveCount(where: \.isBought)
    nextID = (groceries.map(\.id).max() ?? 0) + 1
  }

  /// Adds a grocery at the end.
  ///
  /// - Parameter name: What to buy.
  /// - Returns: The new grocery.
  @discardableResult
  public func add(_ name: String) -> Grocery {
    let grocery = Grocery(id: nextID, name: name)
    nextID += 1
    groceries.append(grocery)
    return grocery
  }

  /// The view model of the row that shows a grocery.
  ///
  /// - Parameter id: The grocery's id.
  /// - Returns: The row's view model, or `nil` if no grocery has that id.
  public func row(for id: Grocery.ID) -> GroceryRowViewModel? {
    groceries.cell(for: id).map(GroceryRowViewModel.init)
  }
}

/// The view model of one row: the grocery's name, and a switch for whether
/// it is bought.
@MainActor
public final class GroceryRowViewModel: ViewModel, Switchable {
  /// The grocery's id.
  public let id: Grocery.ID
  /// The grocery's name.
  public let name: ProjectedCell<ElementCell<Grocery>, String>
  /// Whether the grocery is bought.
  public let on: ProjectedCell<ElementCell<Grocery>, Bool>

  init(_ grocery: ElementCell<Grocery>) {
    id = grocery.id
    name = grocery.projection(\.name)
    on = grocery.projection(\.isBought)
  }
}

/// A row of the shopping list, rendered as text: `[x] milk`.
@MainActor
public final class GroceryRowView: BindableCell {
  /// The row's view model.
  public var viewModel: GroceryRowViewModel?
  /// The tokens of the row's current binding.
  public let bindings = SubscriptionBag()
  /// The row's text.
  public let text = Observable("")

  /// Creates an unbound row.
  public init() {}

  /// Shows the grocery's name and whether it is bought.
  ///
  /// - Parameter viewModel: The row's view model.
  /// - Returns: The observations' tokens.
  public func makeBindings(to viewModel: GroceryRowViewModel) -> [any SubscriptionToken] {
    let show = { [text] in
      text.value = "\(viewModel.on.value ? "[x]" : "[ ]") \(viewModel.name.value)"
    }
    return [viewModel.on.observe { _ in show() }, viewModel.name.observe { _ in show() }]
  }
}

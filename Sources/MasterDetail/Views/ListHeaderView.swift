import POMVVM

/// The list's header, rendered as text: `Items (open switches: N)`.
@MainActor
public final class ListHeaderView: BindableView {
  /// The list the header describes.
  public var viewModel: MasterViewModel?

  /// The tokens of the header's current binding.
  public let bindings = SubscriptionBag()

  /// The header's title.
  public let title = Observable("")

  /// Creates an unbound header.
  public init() {}

  /// Binds the title to the count of open switches.
  ///
  /// - Parameter viewModel: The list's view model.
  /// - Returns: The binding tokens.
  public func makeBindings(to viewModel: MasterViewModel) -> [any SubscriptionToken] {
    [viewModel.openSwitchCount.map { "Items (open switches: \($0))" }.bind(to: title)]
  }
}

import POMVVM
import ToDo

/// A line that shows why the to-do store's last save failed, rendered as
/// text; nothing while saves succeed.
///
/// ```
/// Save failed: cannot save todo.json: Permission denied; the file on disk was not changed
/// ```
///
/// The to-do list's own view does not show save errors, so the demo app
/// adds this view under it. It observes the store through the list's view
/// model, ``ToDo/ToDoListViewModel/store``, as every other view observes its
/// view model.
@MainActor
public final class SaveStatusView: BindableView {
  /// The list whose store the view watches.
  public var viewModel: ToDoListViewModel?

  /// The tokens of the view's current binding.
  public let bindings = SubscriptionBag()

  /// The message: `Save failed: …`, or empty while saves succeed.
  public let message = Observable("")

  /// Creates an unbound view.
  public init() {}

  /// Follows the store's save error.
  ///
  /// - Parameter viewModel: The list's view model.
  /// - Returns: The binding's token.
  public func makeBindings(to viewModel: ToDoListViewModel) -> [any SubscriptionToken] {
    [viewModel.saveError.map { $0.map { "Save failed: \($0)" } ?? "" }.bind(to: message)]
  }

  /// The view as lines of text: the message, or no line at all.
  public var lines: [String] {
    message.value.isEmpty ? [] : [message.value]
  }
}

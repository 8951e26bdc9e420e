/// A token that runs an action once, when it is cancelled.
///
/// Use it for what a view sets up by hand besides bindings — sub-views it
/// binds, rows it creates — so that the view's bag tears it down with the
/// bindings:
///
/// ```swift
/// func makeBindings(to viewModel: ListViewModel) -> [any SubscriptionToken] {
///   header.bind(to: viewModel)
///   return [
///     viewModel.items.observe { ... },
///     TeardownToken { [weak self] in self?.header.unbind() },
///   ]
/// }
/// ```
///
/// Releasing the token does not run the action; only ``cancel()`` does, as
/// a ``SubscriptionBag`` does when it is emptied or released.
///
/// - Important: Capture the view weakly, not `unowned`: when the view is
///   deallocated, its bag is released after it and runs the action when the
///   view is already gone.
@MainActor
public final class TeardownToken: SubscriptionToken {
  private var action: (@MainActor () -> Void)?

  /// Creates a token.
  ///
  /// - Parameter action: What to do when the token is cancelled.
  public init(_ action: @escaping @MainActor () -> Void) {
    self.action = action
  }

  /// Runs the action, the first time only.
  public func cancel() {
    guard let action else { return }
    self.action = nil
    action()
  }

  /// Whether the action has not run yet.
  public var isActive: Bool { action != nil }
}

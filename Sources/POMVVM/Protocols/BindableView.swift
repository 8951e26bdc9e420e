/// A view bound to a view model: it shows what the view model's cells hold
/// and sends its actions back as events.
///
/// A conforming view provides storage for the bound view model and its
/// binding tokens, and its binding code, ``makeBindings(to:)``. The default
/// ``bind(to:)`` does the bookkeeping: it ends every binding to the previous
/// view model before making the new ones. So a reused list row never keeps
/// following the item it showed before — a leak and a source of stale
/// updates in hand-written binding code.
///
/// ```swift
/// final class RowView: BindableCell {
///   var viewModel: RowViewModel?
///   let bindings = SubscriptionBag()
///   var line = ""
///
///   func makeBindings(to viewModel: RowViewModel) -> [any SubscriptionToken] {
///     [viewModel.title.observe { [weak self] in self?.line = $0 }]
///   }
/// }
/// ```
@MainActor
public protocol BindableView: AnyObject {
  /// The type of view model the view shows.
  associatedtype ViewModelType

  /// The view model the view is bound to, if any; set by ``bind(to:)``.
  var viewModel: ViewModelType? { get set }

  /// The tokens of the current binding; ``bind(to:)`` and ``unbind()``
  /// cancel them.
  var bindings: SubscriptionBag { get }

  /// Makes the bindings between the view and a view model, and returns
  /// every token, so that rebinding can end them.
  ///
  /// - Parameter viewModel: The view model to bind to.
  /// - Returns: The tokens of the new bindings and observations.
  func makeBindings(to viewModel: ViewModelType) -> [any SubscriptionToken]

  /// Binds the view to a view model, ending its bindings to the previous
  /// one.
  ///
  /// - Parameter viewModel: The view model to show.
  func bind(to viewModel: ViewModelType)
}

// MARK: - Default implementations

extension BindableView {
  /// Binds the view to a view model: cancels every binding to the previous
  /// view model, stores the new one, and keeps the tokens that
  /// ``makeBindings(to:)`` returns.
  ///
  /// Binding the same view model again rebinds it; it does not subscribe
  /// twice.
  ///
  /// - Parameter viewModel: The view model to show.
  public func bind(to viewModel: ViewModelType) {
    bindings.cancelAll()
    self.viewModel = viewModel
    for token in makeBindings(to: viewModel) {
      bindings.insert(token)
    }
  }

  /// Ends every binding and forgets the view model.
  public func unbind() {
    bindings.cancelAll()
    viewModel = nil
  }
}

/// A bindable view that is a row of a list: it is reused, so it is bound
/// again and again to the view models of different items.
@MainActor
public protocol BindableCell: BindableView {}

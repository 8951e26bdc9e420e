/// Something that ends an observation or a binding when you cancel it.
///
/// The kit hands out two kinds of token:
///
/// - ``Subscription``, returned by `observe(_:)`: the observation ends when
///   you call ``cancel()`` or when the subscription is released.
/// - ``BindingToken``, returned by `bind(to:)` and `bidirectionalBind(to:)`:
///   the binding lives as long as both cells and ends early only when you call
///   ``cancel()``; releasing the token does not end it.
///
/// Keep many tokens together in a ``SubscriptionBag``.
@MainActor
public protocol SubscriptionToken: AnyObject {
  /// Ends the observation or binding; calling it again does nothing.
  func cancel()

  /// Whether the observation or binding is still delivering values.
  var isActive: Bool { get }
}

extension SubscriptionToken {
  /// Adds this token to a bag, which then keeps it and cancels it with the
  /// bag.
  ///
  /// - Parameter bag: The bag that keeps the token.
  public func store(in bag: SubscriptionBag) {
    bag.insert(self)
  }
}

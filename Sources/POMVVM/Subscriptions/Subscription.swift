/// A token for one observation: the observation ends when you call
/// ``cancel()`` or when the subscription is released.
///
/// You get a subscription from `observe(_:)` or `observeChanges(_:)` on a cell
/// or an event stream. Keep it as long as you want the handler to run:
///
/// ```swift
/// let count = Observable(0)
/// let subscription = count.observe { print("count is", $0) }
/// count.value = 1          // prints "count is 1"
/// subscription.cancel()
/// count.value = 2          // prints nothing
/// ```
///
/// A subscription does not keep a stored ``Observable`` alive: when the cell
/// is deallocated, its subscriptions end. Derived cells (``Derived``,
/// ``ProjectedCell``) are kept alive by their subscriptions, since nothing
/// else might hold them.
///
/// `Subscription` is a class that only the kit subclasses: it is `public`,
/// not `open`, so code outside the kit cannot subclass it and break the
/// invariants its observer lists rely on. To make a token of your own, conform
/// to ``SubscriptionToken``.
@MainActor
public class Subscription: SubscriptionToken {
  @usableFromInline
  init() {}

  /// Ends the observation; the handler is not called again and is released.
  ///
  /// Cancelling from inside the handler itself, or from inside another
  /// observer of the same cell, takes effect at once: a cancelled handler is
  /// never called again, not even by a notification that is under way.
  public func cancel() {}

  /// Whether the handler is still called on changes.
  public var isActive: Bool { false }
}

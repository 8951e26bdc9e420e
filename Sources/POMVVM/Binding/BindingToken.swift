/// A token for a binding between cells.
///
/// A binding lives as long as both of its cells: it ends by itself when
/// either is deallocated, and early when you call ``cancel()``. Releasing
/// the token does not end it, which is why `bind(to:)` results may be
/// discarded. Keep the token (or put it in a ``SubscriptionBag``) when the
/// binding must end before its cells do, as a reused list row's bindings
/// must.
@MainActor
public final class BindingToken: SubscriptionToken {
  private var parts: [Subscription] = []
  private var ended = false

  @usableFromInline
  init() {}

  /// Ends the binding: neither cell writes to the other again.
  public func cancel() {
    guard !ended else { return }
    ended = true
    let ending = parts
    parts = []
    for part in ending {
      part.cancel()
    }
  }

  /// Whether the binding still propagates values.
  public var isActive: Bool { !ended }

  /// Takes the subscriptions that make up the binding; if the binding has
  /// already ended (a cell went away while it was being set up), cancels them.
  @usableFromInline
  func adopt(_ subscriptions: [Subscription]) {
    if ended {
      for subscription in subscriptions {
        subscription.cancel()
      }
    } else {
      parts += subscriptions
    }
  }
}

/// The end of a binding that a cell holds, through its handler.
///
/// The binding's subscriptions and their handlers keep each other alive, so
/// the binding lives without its token. When a cell is deallocated it
/// releases its handlers, and this endpoint with them; the endpoint then
/// ends the whole binding.
@MainActor
@usableFromInline
final class _BindingEndpoint {
  let token: BindingToken

  @usableFromInline
  init(_ token: BindingToken) {
    self.token = token
  }

  isolated deinit {
    token.cancel()
  }
}

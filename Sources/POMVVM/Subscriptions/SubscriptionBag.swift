/// A bag of tokens that are cancelled together: when you call
/// ``cancelAll()`` or when the bag is released.
///
/// A view model or a view keeps its subscriptions in a bag, so that its
/// observations end with it:
///
/// ```swift
/// let bag = SubscriptionBag()
/// name.observe { print($0) }.store(in: bag)
/// name.bind(to: label).store(in: bag)
/// ```
///
/// A subscription that an owner-scoped `observe(_:_:)` put in an owner's bag
/// leaves the bag by itself when it ends before the owner: when it is
/// cancelled, or when the cell, array or stream it observes is deallocated.
/// So a view model that observes each screen it pushes keeps only the
/// subscriptions of the screens that still exist.
@MainActor
public final class SubscriptionBag {
  /// The tokens, by the order of their insertion.
  private var tokens: [UInt64: any SubscriptionToken] = [:]
  private var nextKey: UInt64 = 0

  /// Creates an empty bag.
  public init() {}

  isolated deinit {
    for token in Self.inInsertionOrder(tokens) {
      token.cancel()
    }
  }

  /// The number of tokens in the bag.
  public var count: Int { tokens.count }

  /// Whether the bag holds no tokens.
  public var isEmpty: Bool { tokens.isEmpty }

  /// Adds a token; the bag keeps it until ``cancelAll()`` or its own release.
  ///
  /// - Parameter token: The token to keep.
  /// - Complexity: Amortized O(1).
  public func insert(_ token: any SubscriptionToken) {
    _ = _insert(token)
  }

  /// Adds a token, and returns the key that ``_remove(_:)`` takes.
  package func _insert(_ token: any SubscriptionToken) -> UInt64 {
    nextKey += 1
    tokens[nextKey] = token
    return nextKey
  }

  /// Drops the token with `key`, if the bag still has it, without
  /// cancelling it: it has ended already.
  ///
  /// - Complexity: O(1) on average.
  package func _remove(_ key: UInt64) {
    tokens[key] = nil
  }

  /// Cancels every token in the bag and empties it.
  ///
  /// Tokens added while the bag is being emptied (by a handler that runs as a
  /// token is cancelled) are kept, not cancelled.
  ///
  /// - Complexity: O(*n*), where *n* is the number of tokens.
  public func cancelAll() {
    let cancelled = Self.inInsertionOrder(tokens)
    tokens = [:]
    for token in cancelled {
      token.cancel()
    }
  }

  private static func inInsertionOrder(_ tokens: [UInt64: any SubscriptionToken])
    -> [any SubscriptionToken]
  {
    tokens.sorted { $0.key < $1.key }.map(\.value)
  }
}

/// The place of an owner-scoped subscription in its owner's bag, which it
/// leaves when the subscription's handler is released.
///
/// The handler captures the slot. An observer list releases a handler when
/// its subscription ends — cancelled, or its cell, array or stream
/// deallocated — so the slot's release is the moment the bag must drop the
/// token: O(1), with nothing added to the notification path.
@MainActor
@usableFromInline
final class _BagSlot {
  private weak var bag: SubscriptionBag?
  private var key: UInt64 = 0

  @usableFromInline
  init() {}

  /// Keeps `subscription` in `bag`, until this slot is released.
  @usableFromInline
  func keep(_ subscription: Subscription, in bag: SubscriptionBag) {
    self.bag = bag
    key = bag._insert(subscription)
  }

  isolated deinit {
    bag?._remove(key)
  }
}

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
@MainActor
public final class SubscriptionBag {
  private var tokens: [any SubscriptionToken] = []

  /// Creates an empty bag.
  public init() {}

  isolated deinit {
    for token in tokens {
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
    tokens.append(token)
  }

  /// Cancels every token in the bag and empties it.
  ///
  /// Tokens added while the bag is being emptied (by a handler that runs as a
  /// token is cancelled) are kept, not cancelled.
  ///
  /// - Complexity: O(*n*), where *n* is the number of tokens.
  public func cancelAll() {
    let cancelled = tokens
    tokens = []
    for token in cancelled {
      token.cancel()
    }
  }
}

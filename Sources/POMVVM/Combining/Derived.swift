/// A read-only cell computed from other cells: the result of
/// ``combine(_:_:initial:transform:)`` and ``ObservableCell/map(_:)``.
///
/// A derived cell keeps its sources alive and is itself kept alive by its
/// subscriptions and bindings, so a chain such as
/// `name.map(\.count).bind(to: countLabel)` works without storing the
/// intermediate cell. It stops following its sources when the last reference
/// to it goes away.
///
/// Like a stored cell, a derived cell of `Equatable` values notifies only
/// when its value changes.
@MainActor
public final class Derived<Value>: ObservableCell {
  private let storage: Observable<Value>
  private var upstream: [Subscription] = []
  private var sources: [AnyObject] = []

  init(_ initial: Value) {
    storage = Observable(initial)
  }

  /// Connects the cell to its sources; the handlers hold the cell weakly.
  func connect(sources: [AnyObject], upstream: [Subscription]) {
    self.sources = sources
    self.upstream = upstream
  }

  /// Stores a newly computed value, notifying observers if it changed.
  func update(_ newValue: Value) {
    storage.value = newValue
  }

  /// The current value.
  public var value: Value { storage.value }

  /// Calls `handler` with the current value now, then with every change.
  ///
  /// The subscription keeps this cell (and so its sources) alive.
  ///
  /// - Parameter handler: Called on the main actor with each value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    storage._observe(retaining: self, changesOnly: false, handler)
  }

  /// Calls `handler` with every change from now on.
  ///
  /// The subscription keeps this cell (and so its sources) alive.
  ///
  /// - Parameter handler: Called on the main actor with each new value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observeChanges(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    storage._observe(retaining: self, changesOnly: true, handler)
  }
}

extension ObservableCell {
  /// A read-only cell holding `transform` of this cell's value, recomputed on
  /// every change.
  ///
  /// ```swift
  /// let name = Observable("Ada")
  /// let length = name.map(\.count)   // 3
  /// name.value = "Grace"             // length.value == 5
  /// ```
  ///
  /// - Parameter transform: Computes the derived value; called now and on
  ///   every change of this cell.
  /// - Returns: The derived cell.
  public func map<Result>(_ transform: @escaping (Value) -> Result) -> Derived<Result> {
    let derived = Derived(transform(value))
    let upstream = observeChanges { [weak derived] value in
      derived?.update(transform(value))
    }
    derived.connect(sources: [self], upstream: [upstream])
    return derived
  }
}

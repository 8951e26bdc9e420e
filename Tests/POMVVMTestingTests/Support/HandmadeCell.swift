import POMVVMTesting

/// A cell written outside the kit, the way an app might write one, with
/// optional flaws that break one law each.
///
/// Its subscriptions come from a private event stream, since only the kit
/// makes ``Subscription``s; the cell skips observers whose subscription was
/// cancelled or released.
@MainActor
final class HandmadeCell<Value>: MutableObservableCell {
  private final class Observer {
    weak var subscription: Subscription?
    var kept: Subscription?
    let handler: @MainActor (Value) -> Void

    init(_ handler: @escaping @MainActor (Value) -> Void) {
      self.handler = handler
    }
  }

  private var stored: Value
  private let isDuplicate: (Value, Value) -> Bool
  private let flaws: HandmadeCellFlaws
  private var observers: [Observer] = []
  private let subscriptions = EventStream<Void>()

  init(_ value: Value, flaws: HandmadeCellFlaws = []) where Value: Equatable {
    stored = value
    isDuplicate = { $0 == $1 }
    self.flaws = flaws
  }

  var value: Value {
    get { stored }
    set { set(newValue) }
  }

  @discardableResult
  func set(_ newValue: Value) -> Bool {
    if flaws.contains(.forgetsWrites) { return true }
    if !flaws.contains(.notifiesEqualSets) && isDuplicate(stored, newValue) { return true }
    stored = newValue
    let pass = flaws.contains(.reversesOrder) ? observers.reversed() : observers
    for observer in pass {
      guard flaws.contains(.ignoresCancellation) || observer.subscription?.isActive == true else {
        continue
      }
      // A set made by an earlier observer has been delivered already; go on
      // with the value the cell holds now.
      observer.handler(flaws.contains(.deliversStaleValues) ? newValue : stored)
    }
    return true
  }

  func observe(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    let subscription = observeChanges(handler)
    handler(stored)
    return subscription
  }

  func observeChanges(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    let observer = Observer(handler)
    let subscription = subscriptions.observe { _ in }
    observer.subscription = subscription
    if flaws.contains(.ignoresCancellation) {
      observer.kept = subscription
    }
    observers.append(observer)
    return subscription
  }
}

/// The flaws a ``HandmadeCell`` can have, one per law it breaks.
struct HandmadeCellFlaws: OptionSet {
  let rawValue: Int

  /// Takes writes and drops them.
  static let forgetsWrites = HandmadeCellFlaws(rawValue: 1 << 0)
  /// Notifies when a set changes nothing.
  static let notifiesEqualSets = HandmadeCellFlaws(rawValue: 1 << 1)
  /// Tells the last subscriber first.
  static let reversesOrder = HandmadeCellFlaws(rawValue: 1 << 2)
  /// Keeps calling observers whose subscription ended.
  static let ignoresCancellation = HandmadeCellFlaws(rawValue: 1 << 3)
  /// Finishes a notification pass with the value it started with, even
  /// when an observer set a newer one meanwhile.
  static let deliversStaleValues = HandmadeCellFlaws(rawValue: 1 << 4)
}

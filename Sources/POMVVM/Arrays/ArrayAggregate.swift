/// Something derived from an array and kept up to date from its change sets.
///
/// An aggregate costs O(changed elements) per change, never a rescan of the
/// array. Not API: use ``ObservableArray/count(where:)`` or
/// ``ObservableArray/element(for:)``.
@MainActor
public class _ArrayAggregate<Element: Identifiable> {
  init() {}

  /// Applies one change.
  func _apply(_ change: ArrayChange<Element>) {}
}

/// The array's reference to an aggregate: weak, so an aggregate lives only
/// as long as its users.
struct _WeakAggregate<Element: Identifiable> {
  weak var aggregate: _ArrayAggregate<Element>?
}

/// The number of elements of an ``ObservableArray`` that match a predicate,
/// as a read-only cell kept up to date from the array's change sets.
///
/// Toggling one element costs O(1) whatever the size of the array: an
/// insertion, removal or update adjusts the count by the difference it
/// makes; only a reload counts again from scratch (see ``recounts``).
///
/// ```swift
/// let openSwitches = items.count(where: \.on)
/// items.update(Item(id: 1, text: "first", on: true))   // openSwitches.value + 1
/// ```
@MainActor
public final class ArrayCount<Element: Identifiable>: _ArrayAggregate<Element>, ObservableCell {
  private let predicate: (Element) -> Bool
  private let storage: Observable<Int>

  /// How many changes were handled by counting every element again: only
  /// reloads do, so this stays 0 while the array is patched.
  public private(set) var recounts = 0

  init(_ elements: [Element], predicate: @escaping (Element) -> Bool) {
    self.predicate = predicate
    storage = Observable(elements.count(where: predicate))
  }

  /// The number of matching elements.
  ///
  /// - Complexity: O(1).
  public var value: Int { storage.value }

  /// Calls `handler` with the count now, then with every change of it.
  ///
  /// The subscription keeps this cell alive.
  ///
  /// - Parameter handler: Called on the main actor with each count.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel.
  public func observe(_ handler: @escaping @MainActor (Int) -> Void) -> Subscription {
    storage._observe(retaining: self, changesOnly: false, handler)
  }

  /// Calls `handler` with every change of the count from now on.
  ///
  /// The subscription keeps this cell alive.
  ///
  /// - Parameter handler: Called on the main actor with each new count.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel.
  public func observeChanges(_ handler: @escaping @MainActor (Int) -> Void) -> Subscription {
    storage._observe(retaining: self, changesOnly: true, handler)
  }

  override func _apply(_ change: ArrayChange<Element>) {
    let changeSet = change.changeSet
    if let reload = changeSet.reload {
      recounts += 1
      storage.value = reload.new.count(where: predicate)
      return
    }
    var delta = 0
    for removal in changeSet.removals where predicate(removal.element) {
      delta -= 1
    }
    for insertion in changeSet.insertions where predicate(insertion.element) {
      delta += 1
    }
    for update in changeSet.updates {
      delta += (predicate(update.newElement) ? 1 : 0) - (predicate(update.oldElement) ? 1 : 0)
    }
    if delta != 0 {
      storage.value += delta
    }
  }
}

/// Follows the element with one id through the array's change sets.
@MainActor
final class _ElementLookup<Element: Identifiable>: _ArrayAggregate<Element> {
  let id: Element.ID
  weak var output: Derived<Element?>?

  init(id: Element.ID) {
    self.id = id
  }

  override func _apply(_ change: ArrayChange<Element>) {
    guard let output else { return }
    let changeSet = change.changeSet
    if let reload = changeSet.reload {
      output.update(reload.new.first { $0.id == id })
      return
    }
    for removal in changeSet.removals where removal.element.id == id {
      output.update(nil)
    }
    for insertion in changeSet.insertions where insertion.element.id == id {
      output.update(insertion.element)
    }
    for update in changeSet.updates where update.newElement.id == id {
      output.update(update.newElement)
    }
  }
}

extension ObservableArray {
  /// A read-only cell with the number of elements that match `predicate`,
  /// kept up to date in O(1) per changed element.
  ///
  /// - Parameter predicate: Whether an element counts.
  /// - Returns: The counting cell; it stops following the array when the
  ///   last reference to it goes away.
  /// - Complexity: O(*n*) to create; then O(*k*) per change of *k*
  ///   elements (O(*n*) for a reload).
  public func count(where predicate: @escaping (Element) -> Bool) -> ArrayCount<Element> {
    let count = ArrayCount(_elements, predicate: predicate)
    _register(count)
    return count
  }

  /// A read-only cell with the element that has `id`, or `nil` while no
  /// element has it.
  ///
  /// Unlike an ``ElementCell``, it follows the id: when an element with the
  /// same id is inserted again, the cell shows it.
  ///
  /// - Parameter id: The id to follow.
  /// - Returns: The cell; it stops following the array when the last
  ///   reference to it goes away.
  /// - Complexity: O(1) to create; then O(*k*) per change of *k* elements
  ///   (O(*n*) for a reload).
  public func element(for id: Element.ID) -> Derived<Element?> {
    let lookup = _ElementLookup<Element>(id: id)
    let output = Derived<Element?>(self[id: id])
    lookup.output = output
    output.connect(sources: [lookup], upstream: [])
    _register(lookup)
    return output
  }

  func _register(_ aggregate: _ArrayAggregate<Element>) {
    _aggregates.removeAll { $0.aggregate == nil }
    _aggregates.append(_WeakAggregate(aggregate: aggregate))
  }

  func _updateAggregates(for change: ArrayChange<Element>) {
    var released = false
    for entry in _aggregates {
      if let aggregate = entry.aggregate {
        aggregate._apply(change)
      } else {
        released = true
      }
    }
    if released {
      _aggregates.removeAll { $0.aggregate == nil }
    }
  }
}

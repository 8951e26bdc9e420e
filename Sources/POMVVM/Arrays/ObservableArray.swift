/// An array of identifiable items shared by several view models — a list
/// and a detail — that tells its observers exactly what changed.
///
/// Every mutation publishes one ``ChangeSet`` (removals, insertions, moves,
/// updates, or a reload) that a list view uses to patch its rows:
///
/// ```swift
/// let items = ObservableArray([Item(id: 1, text: "first", on: false)])
/// let subscription = items.observe { change in print(change.changeSet) }
/// items.insert(Item(id: 2, text: "second", on: false), at: 0)   // insert [0]
/// items.update(Item(id: 1, text: "first", on: true))            // update [1]
/// ```
///
/// ## Sharing an element
///
/// ``cell(for:)`` gives a two-way cell onto the element with an id, so a
/// list row and a detail screen edit the same element. When the element is
/// removed, its cell is *detached*: it refuses writes, visibly, instead of
/// crashing or keeping a ghost copy. See ``ElementCell``.
///
/// ## Ids
///
/// Ids are unique. Inserting an id that is already present is a programmer
/// error, stopped by a precondition that names the id.
///
/// ## Re-entrancy
///
/// Observers may mutate the array. The mutation takes effect at once, and
/// its change is delivered after the current one has reached every element
/// cell, aggregate and observer, so everyone sees the changes in order and
/// each change set applies to the contents the previous one produced.
@MainActor
public final class ObservableArray<Element: Identifiable> {
  @usableFromInline
  var _elements: [Element]

  /// Every id present, with a hint of its position; hints are verified on use
  /// and repaired lazily after a mutation shifted them.
  @usableFromInline
  var _positions: [Element.ID: Int]

  /// Whether two elements with the same id have the same value; `nil` when
  /// `Element` is not `Equatable` (then every rewrite counts as an update).
  @usableFromInline
  let _isUnchanged: ((Element, Element) -> Bool)?

  let _observers = EventStream<ArrayChange<Element>>()
  var _cells: [Element.ID: _WeakElementCell<Element>] = [:]
  var _aggregates: [_WeakAggregate<Element>] = []
  private var pending: [ArrayChange<Element>] = []
  private var isDelivering = false

  /// Creates an array; if `Element` is `Equatable` at run time, rewriting an
  /// element with an equal value is not a change.
  ///
  /// - Parameter elements: The initial elements; their ids must be unique.
  /// - Complexity: O(*n*).
  @inlinable
  public convenience init(_ elements: [Element] = []) {
    self.init(elements, isUnchanged: _duplicateCheck(for: Element.self))
  }

  /// Creates an array whose rewrites with an equal value are not changes.
  ///
  /// - Parameter elements: The initial elements; their ids must be unique.
  /// - Complexity: O(*n*).
  @inlinable
  public convenience init(_ elements: [Element] = []) where Element: Equatable {
    self.init(elements, isUnchanged: { $0 == $1 })
  }

  @usableFromInline
  init(_ elements: [Element], isUnchanged: ((Element, Element) -> Bool)?) {
    _elements = elements
    _isUnchanged = isUnchanged
    _positions = Self._positions(of: elements)
  }

  /// The elements, as an array.
  ///
  /// - Complexity: O(1).
  public var elements: [Element] { _elements }

  /// The element with the given id, if present.
  ///
  /// - Parameter id: The element's id.
  /// - Complexity: O(1) on average.
  public subscript(id id: Element.ID) -> Element? {
    _index(of: id).map { _elements[$0] }
  }

  /// The index of the element with the given id, if present.
  ///
  /// - Parameter id: The element's id.
  /// - Returns: The index, or `nil`.
  /// - Complexity: O(1) on average; the first lookup after a mutation that
  ///   shifted many positions repairs the index in O(*n*).
  public func index(id: Element.ID) -> Int? {
    _index(of: id)
  }

  /// Whether an element with the given id is present.
  ///
  /// - Parameter id: The element's id.
  /// - Returns: `true` if an element has that id.
  /// - Complexity: O(1) on average.
  public func contains(id: Element.ID) -> Bool {
    _positions[id] != nil
  }

  /// Calls `handler` with every change from now on.
  ///
  /// Element cells and aggregates (``count(where:)``) are brought up to date
  /// before observers are called, so an observer reads consistent values.
  ///
  /// - Parameter handler: Called on the main actor with each change.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel; each change costs O(1) to deliver.
  public func observe(_ handler: @escaping @MainActor (ArrayChange<Element>) -> Void)
    -> Subscription
  {
    _observers.observe(handler)
  }

  /// Observes on behalf of `owner`, which receives the changes without a
  /// `[weak self]`; the observation ends when the owner is deallocated.
  ///
  /// - Parameters:
  ///   - owner: The object the observation belongs to; the subscription is
  ///     kept in its bag.
  ///   - handler: Called with the owner and each change.
  /// - Returns: The subscription, already kept by the owner.
  /// - Complexity: Amortized O(1) to subscribe and to cancel.
  @discardableResult
  public func observe<Owner: SubscriptionOwner>(
    _ owner: Owner, _ handler: @escaping @MainActor (Owner, ArrayChange<Element>) -> Void
  ) -> Subscription {
    _observers.observe(owner, handler)
  }

  // MARK: - Internals shared by the mutations

  /// The index of `id`, checking `hint` first.
  @usableFromInline
  func _index(of id: Element.ID, hint: Int? = nil) -> Int? {
    if let hint, hint >= 0, hint < _elements.count, _elements[hint].id == id {
      return hint
    }
    guard let stored = _positions[id] else { return nil }
    // Single insertions and removals shift positions by one or two.
    for offset in [0, 1, -1, 2, -2] {
      let candidate = stored + offset
      if candidate >= 0, candidate < _elements.count, _elements[candidate].id == id {
        if offset != 0 { _positions[id] = candidate }
        return candidate
      }
    }
    _positions = Self._positions(of: _elements)
    return _positions[id]
  }

  @usableFromInline
  static func _positions(of elements: [Element]) -> [Element.ID: Int] {
    var positions: [Element.ID: Int] = [:]
    positions.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      let previous = positions.updateValue(index, forKey: element.id)
      precondition(previous == nil, "ObservableArray: duplicate id \(element.id)")
    }
    return positions
  }

  /// Publishes a change: element cells first, then aggregates, then
  /// observers.
  ///
  /// A change published while another is being delivered waits for it to
  /// finish.
  @usableFromInline
  func _publish(_ changeSet: ChangeSet<Element>) {
    guard !changeSet.isEmpty else { return }
    pending.append(ArrayChange(changeSet: changeSet, newElements: _elements))
    guard !isDelivering else { return }
    isDelivering = true
    defer { isDelivering = false }
    var next = 0
    while next < pending.count {
      let change = pending[next]
      next += 1
      _updateCells(for: change)
      _updateAggregates(for: change)
      _observers.send(change)
    }
    pending.removeAll(keepingCapacity: true)
  }
}

extension ObservableArray: @MainActor RandomAccessCollection {
  /// The position of the first element.
  ///
  /// - Complexity: O(1).
  public var startIndex: Int { 0 }

  /// The position past the last element.
  ///
  /// - Complexity: O(1).
  public var endIndex: Int { _elements.count }

  /// The element at a position.
  ///
  /// - Parameter position: A valid index.
  /// - Complexity: O(1).
  public subscript(position: Int) -> Element { _elements[position] }
}

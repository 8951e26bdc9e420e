/// The array's registration of something derived from it and kept up to
/// date from its change sets (``ObservableArray/liveCount(where:)``,
/// ``ObservableArray/liveElement(for:fileID:line:)``).
///
/// An aggregate costs O(changed elements) per change, never a rescan of the
/// array. The entry refers to the aggregate weakly, so an aggregate lives
/// only as long as its users; `apply` is made where the aggregate is made,
/// so that it runs specialised for the element type.
///
/// Delivery asks the aggregate's `life`, which its deinit marks, rather than
/// loading the weak reference: a weak load costs a retain and a release
/// through the object's side table on every change.
@usableFromInline
struct _WeakAggregate<Element: Identifiable> {
  @usableFromInline
  weak var owner: AnyObject?
  /// Whether the aggregate lives; shared with it.
  @usableFromInline
  let life: _AggregateLife
  /// The number of the last change the aggregate already reflects: it was
  /// made from the contents after that change, so it skips it and those
  /// before it.
  @usableFromInline
  let since: UInt64
  /// Applies one change quietly and returns the list to notify, if the
  /// aggregate's value changed; call it only while `owner` lives.
  @usableFromInline
  let apply: @MainActor (ArrayChange<Element>) -> _ObserverListBase?

  @inlinable
  init(
    owner: AnyObject, life: _AggregateLife, since: UInt64,
    apply: @escaping @MainActor (ArrayChange<Element>) -> _ObserverListBase?
  ) {
    self.owner = owner
    self.life = life
    self.since = since
    self.apply = apply
  }
}

/// Whether an aggregate, a query or an array lives: its deinit says it no
/// longer does, so that calls to it stop without a weak reference (a weak
/// reference gives an object a side table, which makes every retain and
/// release of it take the slow path).
@MainActor
@usableFromInline
final class _AggregateLife {
  @usableFromInline
  @exclusivity(unchecked)
  var isAlive = true

  @usableFromInline
  init() {}
}

/// The number of elements of an ``ObservableArray`` that match a predicate,
/// as a read-only cell kept up to date from the array's change sets.
///
/// Toggling one element costs O(1) whatever the size of the array: an
/// insertion, removal or update adjusts the count by the difference it
/// makes; only a reload counts again from scratch.
///
/// The count is brought up to date before any observer of the change runs —
/// an observer of the array, of an element cell or of a projection reads the
/// new count.
///
/// ```swift
/// let openSwitches = items.liveCount(where: \.on)
/// items.update(Item(id: 1, text: "first", on: true))   // openSwitches.value + 1
/// ```
@MainActor
public final class ArrayCount<Element: Identifiable>: ObservableCell {
  @usableFromInline
  let predicate: (Element) -> Bool
  @usableFromInline
  let storage: Observable<Int>

  /// How many changes were handled by counting every element again: only
  /// reloads do, so this stays 0 while the array is patched.
  ///
  /// For the package's own tests; not API.
  @usableFromInline
  package var recounts = 0

  /// Marked when the count goes, so that its array skips it.
  @usableFromInline
  let _life = _AggregateLife()

  @usableFromInline
  init(_ elements: [Element], predicate: @escaping (Element) -> Bool) {
    self.predicate = predicate
    storage = Observable(elements.count(where: predicate))
    storage._setOrigin(.aggregate, fileID: "", line: 0)
  }

  isolated deinit {
    _life.isAlive = false
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
}

extension ArrayCount {
  /// Applies one change quietly; returns the list to notify if the count
  /// changed.
  @inlinable
  func _apply(_ change: ArrayChange<Element>) -> _ObserverListBase? {
    let changeSet = change.changeSet
    if let reload = changeSet.reload {
      recounts += 1
      return storage._setQuietly(reload.new.count(where: predicate)) ? storage : nil
    }
    var delta = 0
    for removal in changeSet.removals where predicate(removal.element) {
      delta -= 1
    }
    for insertion in changeSet.insertions where predicate(insertion.element) {
      delta += 1
    }
    // Each update is lent to the predicate (see `_Lending`), not copied: a
    // copy retains both elements' fields.
    let updates = changeSet.updates
    let lends = _Lending.canLend(ChangeSet<Element>.Update.self)
    for index in updates.indices {
      delta +=
        lends
        ? _Lending.withLent({ _Lending.bits(of: updates, at: index) }, { _countDelta(of: $0) })
        : _countDelta(of: updates[index])
    }
    guard delta != 0 else { return nil }
    storage._setQuietly(storage._value + delta)
    return storage
  }

  /// What an update changes in the count: 1, 0 or -1.
  @inlinable
  @inline(__always)
  func _countDelta(of update: ChangeSet<Element>.Update) -> Int {
    (predicate(update.newElement) ? 1 : 0) - (predicate(update.oldElement) ? 1 : 0)
  }
}

extension ArrayCount: _GraphCell {
  var _graphList: _ObserverListBase { storage }
}

/// Follows the element with one id through the array's change sets.
@MainActor
final class _ElementLookup<Element: Identifiable> {
  let id: Element.ID
  weak var output: Derived<Element?>?
  /// Marked when the lookup goes, so that its array skips it.
  let _life = _AggregateLife()

  init(id: Element.ID) {
    self.id = id
  }

  isolated deinit {
    _life.isAlive = false
  }

  func _apply(_ change: ArrayChange<Element>) -> _ObserverListBase? {
    guard let output else { return nil }
    let changeSet = change.changeSet
    var found: Element??
    if let reload = changeSet.reload {
      found = .some(reload.new.first { $0.id == id })
    } else {
      for removal in changeSet.removals where removal.element.id == id {
        found = .some(nil)
      }
      for insertion in changeSet.insertions where insertion.element.id == id {
        found = insertion.element
      }
      for update in changeSet.updates where update.newElement.id == id {
        found = update.newElement
      }
    }
    guard let found else { return nil }
    let storage = output._node
    return storage._setQuietly(found) ? storage : nil
  }
}

extension ObservableArray {
  /// A read-only cell with the number of elements that match `predicate`,
  /// kept up to date in O(1) per changed element.
  ///
  /// Give the count a label (``ObservableCell/labelled(_:)``) to name it
  /// in ``BindingGraph`` and ``PropagationTrace``.
  ///
  /// - Parameter predicate: Whether an element counts.
  /// - Returns: The counting cell; it stops following the array when the
  ///   last reference to it goes away.
  /// - Complexity: O(*n*) to create; then O(*k*) per change of *k*
  ///   elements (O(*n*) for a reload).
  @inlinable
  public func liveCount(where predicate: @escaping (Element) -> Bool) -> ArrayCount<Element> {
    let count = ArrayCount(_elements, predicate: predicate)
    // Unretained: the array calls it only while `life` says it lives. (An
    // `unowned(unsafe)` capture would retain it for each call, through its
    // side table: the array's entry holds it weakly.)
    let reference = Unmanaged.passUnretained(count)
    _register(count, life: count._life) { change in
      _withGuaranteed(reference) { $0._apply(change) }
    }
    return count
  }

  /// A read-only cell with the number of elements, kept up to date in O(1)
  /// per change.
  ///
  /// It is to `count` what ``liveCount(where:)`` is to `count(where:)`:
  ///
  /// ```swift
  /// let total = items.liveCount()           // every element
  /// let open = items.liveCount(where: \.on) // the open ones
  /// ```
  ///
  /// - Returns: The counting cell; it stops following the array when the
  ///   last reference to it goes away.
  /// - Complexity: O(*n*) to create; then O(*k*) per change of *k* elements
  ///   (O(*n*) for a reload).
  @inlinable
  public func liveCount() -> ArrayCount<Element> {
    liveCount { _ in true }
  }

  /// A read-only cell with the element that has `id`, or `nil` while no
  /// element has it.
  ///
  /// Unlike an ``ElementCell``, it follows the id: when an element with the
  /// same id is inserted again, the cell shows it.
  ///
  /// - Parameters:
  ///   - id: The id to follow.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  /// - Returns: The cell; it stops following the array when the last
  ///   reference to it goes away.
  /// - Complexity: O(1) to create; then O(*k*) per change of *k* elements
  ///   (O(*n*) for a reload).
  public func liveElement(
    for id: Element.ID, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Derived<Element?> {
    let lookup = _ElementLookup<Element>(id: id)
    // The lookup is the cell's source: the cell keeps it alive.
    let current = _index(of: id).map { _elements[$0] }
    let output = Derived(
      node: _DerivedNode(
        current, sources: [lookup], kind: .aggregate, fileID: fileID, line: line, compute: nil))
    lookup.output = output
    let reference = Unmanaged.passUnretained(lookup)
    _register(lookup, life: lookup._life) { change in
      _withGuaranteed(reference) { $0._apply(change) }
    }
    return output
  }

  /// Registers an aggregate made from the current contents.
  ///
  /// - Parameters:
  ///   - aggregate: The aggregate; the array holds it weakly.
  ///   - life: The aggregate's liveness flag, which its deinit clears.
  ///   - apply: Applies a change to it; called only while it lives.
  @inlinable
  func _register(
    _ aggregate: AnyObject, life: _AggregateLife,
    apply: @escaping @MainActor (ArrayChange<Element>) -> _ObserverListBase?
  ) {
    _aggregates.removeAll { !$0.life.isAlive }
    _aggregates.append(
      _WeakAggregate(owner: aggregate, life: life, since: _changeSequence, apply: apply))
  }
}

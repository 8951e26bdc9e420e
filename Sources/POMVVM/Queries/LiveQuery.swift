/// A live, read-only view of an ``ObservableArray``: the elements that match
/// a predicate, in a sort order, kept up to date as the array changes.
///
/// A query never copies the array: its rows are the array's elements, and
/// ``cell(for:)`` gives the array's own ``ElementCell``, so a filtered list
/// and a detail screen still edit one element.
///
/// ```swift
/// let active = items.query(where: { !$0.done }, sortedBy: { $0.title < $1.title })
/// let subscription = active.observeChanges { change in
///   print(change.changeSet)   // e.g. "move [3->0]" when a title changes
/// }
/// ```
///
/// ## Incremental
///
/// The query keeps the ids it shows in an order-statistic tree. One
/// element's change costs O(log *n*) and comes out, in the query's own
/// indices, as an update (it stayed in place), a move (its sort key
/// changed), or an insertion or a removal (its filter result changed).
/// Elements that compare equal keep the array's order, and follow it when the
/// array reorders them. A reload of the array, a new predicate or a new
/// order evaluate every element again, once, and publish one change: the
/// identity diff of the rows before and after.
///
/// ## Changes
///
/// ``observeChanges(_:)`` delivers ``ArrayChange``s whose change sets
/// follow the array's conventions, so ``ChangeSet/batchUpdate`` and
/// ``ListAdapter`` work the same: applying each change set to the query's
/// previous ``elements`` gives its new ones. A change's
/// ``ArrayChange/newElements`` are made only when someone reads them, so an
/// observer that needs only the change set pays O(log *n*), not O(*n*).
///
/// ## Reading during a delivery
///
/// An observer that runs before the query has heard of a change (an
/// observer of the array made before the query, an element cell's observer,
/// a later observer of the query after an earlier one changed the array)
/// may read the query at any moment: ``ids``, ``count``, ``elements``, the
/// subscript and ``index(id:)`` show the rows of the last change the query
/// published, with the values the elements had then, even an element the
/// array has removed since. Re-evaluating the query then starts from those
/// rows. A change made during a delivery is followed incrementally, with
/// every other change the query has not seen yet, as one change.
///
/// ## Lifetime
///
/// The query observes its array like any other observer and holds it
/// strongly; release the query and the observation ends.
@MainActor
public final class LiveQuery<Element: Identifiable> {
  @usableFromInline
  let _engine: _QueryEngine<Element, _Unsectioned>
  @usableFromInline
  let _observers = EventStream<ArrayChange<Element>>()
  @usableFromInline
  var _subscription: Subscription?
  @usableFromInline
  var _readers: [Subscription] = []
  // Touched on every change, only on the main actor, by accesses that do
  // not span a call out of the query: no run-time exclusivity checks.
  /// The number of changes published, to tell whether a nested change
  /// was published during a delivery.
  @usableFromInline
  @exclusivity(unchecked)
  var _publishCount = 0
  /// The contents of the last published change, while they may be read.
  @usableFromInline
  @exclusivity(unchecked)
  var _snapshots = _SnapshotSlot<LiveQuery>()
  /// The change the query publishes for an edit whose row stays, kept
  /// between edits with its emptied buffer of updates and its empty lists,
  /// so that publishing one retains and releases none of them; `nil` while
  /// it is out.
  @usableFromInline
  @exclusivity(unchecked)
  var _spareChange: ArrayChange<Element>? = ArrayChange(changeSet: ChangeSet(), newElements: [])

  @inlinable
  init(
    array: ObservableArray<Element>, isIncluded: @escaping (Element) -> Bool,
    areInIncreasingOrder: ((Element, Element) -> Bool)?, fileID: StaticString, line: UInt
  ) {
    _engine = _QueryEngine(
      array: array, isIncluded: isIncluded, areInIncreasingOrder: areInIncreasingOrder,
      sectionKey: { _ in .only }, sectionOrder: { _, _ in false }, flatKey: .only)
    _observers._setOrigin(.aggregate, fileID: fileID, line: line)
    _subscription = array._observe(for: self, life: _life)
    _subscription?._setOrigin(fileID: fileID, line: line)
  }

  /// Cleared when the query goes, so that its observer of the array stops.
  @usableFromInline
  let _life = _AggregateLife()

  isolated deinit {
    _life.isAlive = false
    _retireSnapshot()
  }

  /// The array the query views.
  public var array: ObservableArray<Element> { _engine.array }

  /// The number of rows.
  ///
  /// - Complexity: O(1).
  public var count: Int {
    _observers._trackRead()
    return _engine.count
  }

  /// The ids of the rows, in the query's order.
  ///
  /// - Complexity: O(*n*).
  public var ids: [Element.ID] {
    _observers._trackRead()
    return _engine.allIDs()
  }

  /// The rows, in the query's order: the array's elements themselves.
  ///
  /// While the array is ahead of the query (read from an observer that runs
  /// before the query sees a change), the rows of the last change the query
  /// published, with the values they had then.
  ///
  /// - Complexity: O(*n*).
  public var elements: [Element] {
    _observers._trackRead()
    return _engine.shownValues(of: _engine.allIDs())
  }

  /// The row at a position.
  ///
  /// - Parameter position: A position from `0` to `count - 1`.
  /// - Complexity: O(log *n*).
  public subscript(position: Int) -> Element {
    _engine.shownValue(of: id(at: position))
  }

  /// The id of the row at a position.
  ///
  /// - Parameter position: A position from `0` to `count - 1`.
  /// - Returns: The row's id.
  /// - Complexity: O(log *n*).
  public func id(at position: Int) -> Element.ID {
    _observers._trackRead()
    precondition(
      position >= 0 && position < _engine.count,
      "LiveQuery: position \(position) is out of range 0..<\(_engine.count)")
    return _engine.tree.id(at: position, in: 0)
  }

  /// The position of the row with an id, if the query shows it.
  ///
  /// - Parameter id: An element's id.
  /// - Returns: The row's position, or `nil`.
  /// - Complexity: O(log *n*).
  public func index(id: Element.ID) -> Int? {
    _observers._trackRead()
    return _engine.tree.rank(of: id)
  }

  /// Whether the query shows the element with an id.
  ///
  /// - Parameter id: An element's id.
  /// - Returns: `true` if the element is a row of the query.
  /// - Complexity: O(1) on average.
  public func contains(id: Element.ID) -> Bool {
    _observers._trackRead()
    return _engine.tree.contains(id)
  }

  /// The array's own cell onto the element with an id, if the query shows
  /// it: the same object as ``ObservableArray/cell(for:)``.
  ///
  /// The cell stays attached when the element later leaves the query (it
  /// follows the array, not the query), so a detail screen opened from a
  /// filtered list keeps editing the element.
  ///
  /// - Parameter id: An element's id.
  /// - Returns: The element's cell, or `nil` if the query does not show it.
  /// - Complexity: O(1) on average.
  public func cell(for id: Element.ID) -> ElementCell<Element>? {
    guard _engine.tree.contains(id) else { return nil }
    return _engine.array.cell(for: id)
  }

  /// Which elements the query shows.
  ///
  /// Setting it evaluates every element again at once and publishes one
  /// change.
  ///
  /// - Complexity: O(*n* log *n*) to set.
  @inlinable
  public var isIncluded: (Element) -> Bool {
    get { _engine.isIncluded }
    set {
      _engine.isIncluded = newValue
      reevaluate()
    }
  }

  /// The query's order, or `nil` for the array's order.
  ///
  /// Setting it orders the rows again at once and publishes one change.
  ///
  /// - Complexity: O(*n* log *n*) to set.
  @inlinable
  public var areInIncreasingOrder: ((Element, Element) -> Bool)? {
    get { _engine.areInIncreasingOrder }
    set {
      _engine.areInIncreasingOrder = newValue
      reevaluate()
    }
  }

  /// Evaluates every element again and publishes the difference as one
  /// change: for a predicate that reads state the query does not know of.
  ///
  /// - Complexity: O(*n* log *n*).
  @inlinable
  public func reevaluate() {
    // While the array is ahead of the rows (it changed from inside a
    // delivery that has not reached the query yet), any row may have a new
    // value.
    if _engine.isCurrent {
      _refilter()
    } else {
      let (oldValue, changed) = _engine.resolvers(_engine.behindNow())
      _reevaluate(oldValue: oldValue, changed: changed)
    }
  }

  /// How many times every element was evaluated again; for the package's
  /// tests.
  package var _rebuilds: Int { _engine.rebuilds }

  /// Calls `handler` with every change from now on, in the query's indices.
  ///
  /// - Parameter handler: Called on the main actor with each change.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel; each change
  ///   costs O(1) to deliver.
  public func observeChanges(_ handler: @escaping @MainActor (ArrayChange<Element>) -> Void)
    -> Subscription
  {
    _observers._add(handler)
  }

  /// Observes on behalf of `owner`, which receives the changes without a
  /// `[weak self]`; the observation ends when the owner is deallocated.
  ///
  /// - Parameters:
  ///   - owner: The object the observation belongs to; the subscription is
  ///     kept in its bag.
  ///   - fileID: Where the observation is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the observation is made; by default, the caller's line.
  ///   - handler: Called with the owner and each change.
  /// - Returns: The subscription, already kept by the owner.
  /// - Complexity: Amortized O(1) to subscribe and to cancel.
  @discardableResult
  public func observeChanges<Owner: SubscriptionOwner>(
    _ owner: Owner, fileID: StaticString = #fileID, line: UInt = #line,
    _ handler: @escaping @MainActor (Owner, ArrayChange<Element>) -> Void
  ) -> Subscription {
    _observers.observe(owner, fileID: fileID, line: line, handler)
  }

  // MARK: - Following the array

  @inlinable
  func _receive(_ change: ArrayChange<Element>) {
    switch _engine.plan(for: change) {
    case .ignore:
      return
    case .follow:
      _follow(change)
    case .catchUp(let behind):
      _retireSnapshot()
      let step = _engine.follow(behind)
      _publish(_changeSet(for: step))
    case .reevaluate(let oldValue, let changed):
      _reevaluate(oldValue: oldValue, changed: changed)
    }
  }

  /// Follows the change the array is delivering, the next one and no
  /// reload.
  @inlinable
  func _follow(_ change: ArrayChange<Element>) {
    _retireSnapshot()
    if let (_, row) = _engine.followInPlace(change.changeSet) {
      // One update whose row stays: no step, no rows to compare.
      guard row >= 0 else { return }
      // The array's update, read in place (a copy goes through value
      // witnesses), with the query's row; in the spare change, which
      // comes back emptied once it is delivered. An observer that keeps
      // the change keeps its own copy of the buffer. The spare is out
      // only while it is delivered, and the array never delivers inside
      // a delivery; a new change would do then.
      var spare = _spareChange.take() ?? ArrayChange(changeSet: ChangeSet(), newElements: [])
      spare._changeSet.updates.append(
        .init(
          oldIndex: row, newIndex: row, oldElement: change.changeSet.updates[0].oldElement,
          newElement: change.changeSet.updates[0].newElement))
      _publish(&spare)
      _ = spare._changeSet.updates.popLast()
      _spareChange = consume spare
      return
    }
    let step = _engine.follow(change)
    let changeSet = _changeSet(for: step)
    _engine.recycle(step)
    _publish(changeSet)
  }

  @inlinable
  func _reevaluate(oldValue: (Element.ID) -> Element, changed: ((Element.ID) -> Bool)?) {
    _retireSnapshot()
    let oldIDs = _engine.allIDs()
    var old: [Element] = []
    old.reserveCapacity(oldIDs.count)
    for id in oldIDs { old.append(oldValue(id)) }
    _ = _engine.evaluateAll()
    let newIDs = _engine.allIDs()
    var new: [Element] = []
    new.reserveCapacity(newIDs.count)
    for id in newIDs { new.append(_engine.value(of: id)) }
    var changedIDs: Set<Element.ID> = []
    if let changed {
      for id in newIDs where changed(id) { changedIDs.insert(id) }
    }
    _publish(Self._difference(from: old, to: new, changed: changedIDs))
  }

  /// Evaluates every element again while the array is as the rows show it:
  /// when the rows that stay keep their order (a new predicate), the
  /// change is their removals and insertions, found through array
  /// positions in O(*n*), without an identity diff.
  @inlinable
  func _refilter() {
    _retireSnapshot()
    // The array does not change here, so array positions identify the
    // rows before and after. Those of the old rows are still known when
    // the array has not changed since every element was last evaluated.
    let elements = _engine.array._elements
    let oldPositions: [Int32]
    if _engine.flatPositionsSequence == _engine.array._changeSequence {
      oldPositions = _engine.flatPositions
    } else {
      let oldIDs = _engine.tree.ids(of: 0)
      var positions: [Int32] = []
      positions.reserveCapacity(oldIDs.count)
      for id in oldIDs {
        let position = _required(_engine.array._index(of: id), "a row left the array")
        positions.append(Int32(truncatingIfNeeded: position))
      }
      oldPositions = positions
    }
    let oldCount = oldPositions.count
    var oldRank = [Int32](repeating: -1, count: elements.count)
    for rank in oldPositions.indices { oldRank[Int(oldPositions[rank])] = Int32(rank) }
    _ = _engine.evaluateAll(recordingOld: false)
    let positions = _engine.flatPositions
    var stays = [Bool](repeating: false, count: oldCount)
    var last: Int32 = -1
    var isOrdered = true
    var kept = 0
    for position in positions {
      let rank = oldRank[Int(position)]
      guard rank >= 0 else { continue }
      if rank < last {
        isOrdered = false
        break
      }
      last = rank
      stays[Int(rank)] = true
      kept += 1
    }
    var changeSet = ChangeSet<Element>()
    let changes = oldCount - kept + positions.count - kept
    if isOrdered && changes <= Swift.max(oldCount, positions.count) {
      changeSet.insertions.reserveCapacity(positions.count - kept)
      changeSet.removals.reserveCapacity(oldCount - kept)
      elements.withUnsafeBufferPointer { elements in
        for index in positions.indices where oldRank[Int(positions[index])] < 0 {
          changeSet.insertions.append(
            .init(index: index, element: elements[Int(positions[index])]))
        }
        for index in oldPositions.indices where !stays[index] {
          changeSet.removals.append(
            .init(index: index, element: elements[Int(oldPositions[index])]))
        }
      }
    } else {
      // The order changed too, or most rows did: diff by identity, which
      // falls back to a reload.
      var oldElements: [Element] = []
      oldElements.reserveCapacity(oldCount)
      for position in oldPositions { oldElements.append(elements[Int(position)]) }
      var newElements: [Element] = []
      newElements.reserveCapacity(positions.count)
      for position in positions { newElements.append(elements[Int(position)]) }
      changeSet =
        isOrdered
        ? .reload(from: oldElements, to: newElements)
        : Self._difference(from: oldElements, to: newElements, changed: [])
    }
    _publish(changeSet)
  }

  /// The identity diff of two contents, updates for the `changed` ids.
  ///
  /// Nonisolated, so that the diff's closures carry no executor checks.
  @inlinable
  nonisolated static func _difference(
    from old: [Element], to new: [Element], changed: Set<Element.ID>
  ) -> ChangeSet<Element> {
    var middle = (prefix: 0, oldEnd: 0, newEnd: 0)
    return _IdentityDiff.changeSet(
      from: old, to: new, oldContains: { _ in false },
      isUnchanged: { old, _ in changed.isEmpty || !changed.contains(old.id) }, middle: &middle)
  }

  /// The change set, in the query's indices, of one incremental step.
  @inlinable
  func _changeSet(for step: _QueryEngine<Element, _Unsectioned>.Step) -> ChangeSet<Element> {
    let touched = step.touched
    var changeSet = ChangeSet<Element>()
    var kept: [Int] = []
    for (index, row) in touched.enumerated() {
      switch (row.oldRow >= 0, row.newRow >= 0) {
      case (true, false):
        changeSet.removals.append(
          .init(index: row.oldRow, element: _required(row.oldValue, "no old value")))
      case (false, true):
        changeSet.insertions.append(.init(index: row.newRow, element: _engine.value(of: row.id)))
      case (true, true):
        kept.append(index)
      case (false, false):
        break
      }
    }
    let stays = _QueryEngine<Element, _Unsectioned>.staying(kept, in: touched)
    for (position, index) in kept.enumerated() {
      let row = touched[index]
      if !stays[position] { changeSet.moves.append(.init(from: row.oldRow, to: row.newRow)) }
      if row.changed {
        changeSet.updates.append(
          .init(
            oldIndex: row.oldRow, newIndex: row.newRow,
            oldElement: _required(row.oldValue, "no old value"),
            newElement: _engine.value(of: row.id)))
      }
    }
    if changeSet.removals.count > 1 { changeSet.removals.sort { $0.index < $1.index } }
    if changeSet.insertions.count > 1 { changeSet.insertions.sort { $0.index < $1.index } }
    if changeSet.moves.count > 1 { changeSet.moves.sort { $0.to < $1.to } }
    if changeSet.updates.count > 1 { changeSet.updates.sort { $0.newIndex < $1.newIndex } }
    return changeSet
  }

  @inlinable
  func _publish(_ changeSet: consuming ChangeSet<Element>) {
    guard !changeSet.isEmpty else { return }
    var change = ArrayChange(changeSet: changeSet, newElements: [])
    _publish(&change)
  }

  /// Publishes `change`, whose contents are set to the rows now for the
  /// delivery and let go of after it.
  @inlinable
  func _publish(_ change: inout ArrayChange<Element>) {
    if let tracking = _observers._tracking { tracking.changed() }
    _publishCount &+= 1
    let number = _publishCount
    _send(&change)
    // Unless a nested change retired it already, the change's contents are
    // let go of, or made now if an observer kept the change.
    if _publishCount == number { _retireSnapshot() }
  }

  /// Sends a change whose contents are made on demand.
  ///
  /// A function of its own, so that nothing here holds the contents once
  /// the observers are done: they are made only if an observer kept the
  /// change.
  @inlinable
  @inline(never)
  func _send(_ change: inout ArrayChange<Element>) {
    // The array's contents by reference while the array delivers: an
    // observer's write to the array then copies nothing.
    change._storage = .deferred(
      _snapshots.make(
        source: self, count: _engine.count, contents: _engine.array._currentContents(),
        sequence: _engine.array._changeSequence))
    _observers.send(change)
    change._storage = .empty
  }

  /// Lets go of the last change's contents; if someone still holds the
  /// change, they are made first.
  @inlinable
  func _retireSnapshot() {
    _snapshots.retire()
  }
}

extension LiveQuery: _ArrayFollower {
  @usableFromInline
  typealias Followed = Element
}

extension LiveQuery: _SnapshotSource {
  @usableFromInline
  func _snapshotRows(contents: _ChangeContents<Element>, sequence: UInt64) -> [Element] {
    _engine.values(of: _engine.allIDs(), contents: contents, sequence: sequence)
  }
}

/// The one section key of a flat query.
@usableFromInline
enum _Unsectioned: Hashable {
  case only
}

extension ObservableArray {
  /// A live query of the elements that match `isIncluded`, in the order
  /// `areInIncreasingOrder` gives (ties in the array's order), kept up to
  /// date as the array changes.
  ///
  /// ```swift
  /// let active = items.query(where: { !$0.done })
  /// let byTitle = items.query(sortedBy: { $0.title < $1.title })
  /// ```
  ///
  /// - Parameters:
  ///   - isIncluded: Which elements the query shows; by default, every one.
  ///   - areInIncreasingOrder: The query's order, a strict weak ordering; by
  ///     default, `nil`: the array's order.
  ///   - fileID: Where the query is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the query is made; by default, the caller's line.
  /// - Returns: The query; it lives as long as you hold it.
  /// - Complexity: O(*n* log *n*) to make; then O(log *n*) per changed
  ///   element.
  @inlinable
  public func query(
    where isIncluded: @escaping (Element) -> Bool = { _ in true },
    sortedBy areInIncreasingOrder: ((Element, Element) -> Bool)? = nil,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> LiveQuery<Element> {
    LiveQuery(
      array: self, isIncluded: isIncluded, areInIncreasingOrder: areInIncreasingOrder,
      fileID: fileID, line: line)
  }

  /// A live query whose predicate or order reads cells: when any of them
  /// changes, the query evaluates every element again and publishes one
  /// change, so a view model wires no observer by hand.
  ///
  /// ```swift
  /// let results = items.query(
  ///   where: { $0.text.contains(searchText.value) }, reading: searchText)
  /// ```
  ///
  /// - Parameters:
  ///   - isIncluded: Which elements the query shows.
  ///   - areInIncreasingOrder: The query's order; `nil` for the array's.
  ///   - cells: The cells that `isIncluded` or `areInIncreasingOrder` read.
  ///   - fileID: Where the query is made; by default, the caller's file.
  ///   - line: Where the query is made; by default, the caller's line.
  /// - Returns: The query; it observes the cells as long as it lives.
  /// - Complexity: O(*n* log *n*) to make, and per change of a read cell.
  @inlinable
  public func query(
    where isIncluded: @escaping (Element) -> Bool = { _ in true },
    sortedBy areInIncreasingOrder: ((Element, Element) -> Bool)? = nil,
    reading cells: any ObservableCell..., fileID: StaticString = #fileID, line: UInt = #line
  ) -> LiveQuery<Element> {
    let query = LiveQuery(
      array: self, isIncluded: isIncluded, areInIncreasingOrder: areInIncreasingOrder,
      fileID: fileID, line: line)
    query._readers = cells.map { cell in
      _observeChanges(of: cell) { [weak query] in query?.reevaluate() }
    }
    return query
  }
}

/// Calls `action` on every change of `cell`, whatever its value type.
@MainActor
@usableFromInline
func _observeChanges(of cell: some ObservableCell, _ action: @escaping @MainActor () -> Void)
  -> Subscription
{
  cell.observeChanges { _ in action() }
}

// The binding graph finds a query by property path, as it finds cells: its
// node is the list its observers subscribe to, labelled with where the
// query was made.
extension LiveQuery: _GraphCell {
  var _graphList: _ObserverListBase { _observers }
}

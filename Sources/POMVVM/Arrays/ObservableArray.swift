/// An array of identifiable items shared by several view models — a list
/// and a detail — that tells its observers exactly what changed.
///
/// Every mutation that changes the contents publishes exactly one
/// ``ChangeSet`` (removals, insertions, moves, updates, or a reload) that a
/// list view uses to patch its rows; a mutation that changes nothing (a move
/// to the same place, a rewrite with an equal value, an empty batch)
/// publishes none:
///
/// ```swift
/// let items = ObservableArray([Item(id: 1, text: "first", on: false)])
/// let subscription = items.observeChanges { change in print(change.changeSet) }
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
/// Ids are unique. Inserting one element whose id is already present is a
/// programmer error, stopped by a precondition that names the id. Contents
/// that come from outside — a server's response, a file — may repeat ids,
/// so the entry points that take many elements never stop on them: they
/// refuse visibly, reporting the repeated ids to ``Diagnostics``.
/// ``replaceAll(with:fileID:line:)-3cbio`` (and so ``batch(fileID:line:_:)``) and
/// ``append(contentsOf:fileID:line:)`` leave the array unchanged and
/// return `false`; the initializers keep the first element of each id and
/// drop the later ones. An element's `id`,
/// and its id's `hash(into:)` and `==`, run while the array updates its
/// index, so they must not use the array.
///
/// ## Re-entrancy
///
/// Observers may mutate the array. The mutation takes effect at once, and
/// its change is delivered after the current one has reached every element
/// cell, aggregate and observer, so everyone sees the changes in order and
/// each change set applies to the contents the previous one produced. An
/// element cell or aggregate created while changes wait starts from the
/// current contents and skips the waiting changes it already reflects; a
/// cell whose element a waiting change removed is detached at once.
///
/// ## Order of delivery
///
/// Within one change, every element cell and aggregate is brought up to
/// date first; then the observers of element cells, of aggregates, of the
/// array, and last of projections and other derived cells are called. So
/// every observer of a change, whoever it belongs to, reads current values.
@MainActor
public final class ObservableArray<Element: Identifiable> {
  // The stored state skips Swift's run-time exclusivity checks, which cost
  // about a sixth of a toggle through an element cell: it is touched only
  // on the main actor, and no access to it spans a call out of the kit
  // other than to the elements' ids (`id`, `hash(into:)`, `==`), which must
  // not use the array.

  @usableFromInline
  @exclusivity(unchecked)
  var _elements: [Element]

  /// Every element's position, by id; mutations keep it exact.
  @usableFromInline
  @exclusivity(unchecked)
  var _idIndex: _PositionIndex<Element>

  /// Whether two elements with the same id have the same value; `nil` when
  /// `Element` is not `Equatable` (then every rewrite counts as an update).
  @usableFromInline
  let _isUnchanged: ((Element, Element) -> Bool)?

  @usableFromInline
  let _observers = EventStream<ArrayChange<Element>>()
  @usableFromInline
  @exclusivity(unchecked)
  var _cells = _CellTable<Element>()
  /// The element cells made while changes waited to be delivered, with the
  /// last change each already reflects; emptied when the queue drains.
  @usableFromInline
  @exclusivity(unchecked)
  var _cellsMadeMidDelivery: [ObjectIdentifier: UInt64] = [:]
  @usableFromInline
  @exclusivity(unchecked)
  var _aggregates: [_WeakAggregate<Element>] = []
  /// The element cell whose write is being published, if any.
  ///
  /// The delivery updates that cell without looking its id up. The cell
  /// sets it only for the duration of its write, during which it lives
  /// (its `set` is on the stack): it is held unretained, and read without
  /// a retain (``_withGuaranteed(_:_:)``).
  @usableFromInline
  @exclusivity(unchecked)
  var _writingCell: Unmanaged<ElementCell<Element>>?
  /// The number of changes published so far; each change is numbered.
  @usableFromInline
  @exclusivity(unchecked)
  var _changeSequence: UInt64 = 0
  @usableFromInline
  @exclusivity(unchecked)
  var _pending: [_PendingChange<Element>] = []
  /// Whether the array lives, for the records of an ``UndoHistory``, which
  /// refer to it without a weak reference: one would make every retain and
  /// release of the array, on every change, take the slow path.
  @usableFromInline
  let _life = _AggregateLife()
  /// An empty buffer with room for one update, which the next in-place
  /// edit publishes its change in (``_publishUpdate(_:)``).
  @usableFromInline
  @exclusivity(unchecked)
  var _spareUpdates: [ChangeSet<Element>.Update] = []
  /// The emptied buffer of the last one-update change that waited in the
  /// queue: a reaction's edit of one element, which the next reaction's
  /// reuses.
  @usableFromInline
  @exclusivity(unchecked)
  var _spareQueuedUpdates: [ChangeSet<Element>.Update] = []
  /// The contents object the next change publishes its contents in, kept
  /// from a delivered change that nobody held (``_releaseContents(of:)``).
  @usableFromInline
  @exclusivity(unchecked)
  var _spareContents: _ArrayContents<Element>?
  /// More spare contents objects, for changes published during a delivery
  /// (making one looks up its generic class's metadata, which costs more
  /// than the rest of a small change's delivery).
  @usableFromInline
  @exclusivity(unchecked)
  var _moreSpareContents: [_ArrayContents<Element>] = []
  /// The contents object of the last change published.
  ///
  /// Set only while the array delivers (for ``_currentContents()``), `nil`
  /// otherwise. Unowned: a change being delivered or queued holds it until
  /// the delivery ends.
  @usableFromInline
  @exclusivity(unchecked)
  unowned(unsafe) var _latestContents: _ArrayContents<Element>?
  @usableFromInline
  @exclusivity(unchecked)
  var _isDelivering = false
  /// The number of the change being delivered, or of the last one
  /// delivered: observers that read the array mid-delivery (a
  /// ``ListAdapter``) tell from it which changes they have yet to receive.
  @usableFromInline
  @exclusivity(unchecked)
  var _deliveringSequence: UInt64 = 0
  /// How many queries follow the array (``LiveQuery``, ``SectionedQuery``).
  @usableFromInline
  @exclusivity(unchecked)
  var _queryCount = 0
  /// The change being delivered, while `_deliver(_:)` runs, if a query
  /// follows the array: its bits, copied without a retain from
  /// `_deliver(_:)`'s argument, which holds the change while they are kept.
  ///
  /// An observer that reads a query before the query has seen the change
  /// needs it (``_deliveringChange``). It is kept once for every query, and
  /// not at all for an array no query follows; a copy that retained the
  /// change's six buffers would cost every edit with a query about 300
  /// instructions, for a change read only at such a moment.
  @usableFromInline
  @exclusivity(unchecked)
  var _deliveringBits = _ChangeBits()
  @usableFromInline
  @exclusivity(unchecked)
  var _keepsDeliveringChange = false

  /// A copy of the change being delivered, while `_deliver(_:)` runs, if a
  /// query follows the array.
  @inlinable
  var _deliveringChange: ArrayChange<Element>? {
    guard _keepsDeliveringChange else { return nil }
    return _deliveringBits.change(of: Element.self)
  }

  /// The number of the change whose delivery is under way, queued changes
  /// delivered after it included (they were made while it was delivered);
  /// `nil` when the array is not delivering.
  @inlinable
  var _deliveryRoot: UInt64? {
    guard _isDelivering else { return nil }
    // Changes are numbered in order, and every change published during a
    // delivery is queued: the first queued one follows the root.
    return _pending.isEmpty ? _deliveringSequence : _pending[0].sequence &- 1
  }

  /// Creates an array; if `Element` is `Equatable` at run time, rewriting an
  /// element with an equal value is not a change.
  ///
  /// - Parameters:
  ///   - elements: The initial elements; their ids must be unique.
  ///   - fileID: Where the array is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the array is made; by default, the caller's line.
  /// - Complexity: O(*n*).
  @inlinable
  public convenience init(
    _ elements: [Element] = [], fileID: StaticString = #fileID, line: UInt = #line
  ) {
    self.init(
      elements, isUnchanged: _duplicateCheck(for: Element.self), fileID: fileID, line: line)
  }

  /// Creates an array whose rewrites with an equal value are not changes.
  ///
  /// - Parameters:
  ///   - elements: The initial elements; their ids must be unique.
  ///   - fileID: Where the array is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the array is made; by default, the caller's line.
  /// - Complexity: O(*n*).
  @inlinable
  public convenience init(
    _ elements: [Element] = [], fileID: StaticString = #fileID, line: UInt = #line
  ) where Element: Equatable {
    self.init(elements, isUnchanged: { $0 == $1 }, fileID: fileID, line: line)
  }

  @usableFromInline
  init(
    _ elements: [Element], isUnchanged: ((Element, Element) -> Bool)?, fileID: StaticString,
    line: UInt
  ) {
    var (index, repeated) = _PositionIndex.indexing(elements)
    var kept = elements
    if !repeated.isEmpty {
      // Outside data may repeat ids: keep the first element of each.
      kept = Self._removing(repeated, from: elements)
      index = _PositionIndex(kept)
    }
    _elements = kept
    _isUnchanged = isUnchanged
    _idIndex = index
    _observers._setOrigin(.array, fileID: fileID, line: line)
    _LiveArrays.insert(self)
    if !repeated.isEmpty {
      let ids = _IdentityDiff.repeatedIDs(in: elements)
      Diagnostics.report(
        "ObservableArray dropped \(repeated.count) element\(repeated.count == 1 ? "" : "s") whose "
          + "ids repeat an earlier element's, \(Self._naming(ids)); it keeps the first element of "
          + "each id",
        fileID: fileID, line: line)
    }
  }

  /// `elements` without the ones at `positions`, which are in increasing
  /// order.
  static func _removing(_ positions: [Int], from elements: [Element]) -> [Element] {
    var kept: [Element] = []
    kept.reserveCapacity(elements.count - positions.count)
    var next = positions.startIndex
    for (position, element) in elements.enumerated() {
      if next < positions.endIndex && positions[next] == position {
        next += 1
      } else {
        kept.append(element)
      }
    }
    return kept
  }

  /// "the id 7" or "the ids 7, 8", with control characters visible and at
  /// most ten ids named: a report may quote outside data.
  static func _naming(_ ids: [Element.ID]) -> String {
    let shown = ids.prefix(10).map { _visibleControls(String(describing: $0)) }
    let more = ids.count > shown.count ? " and \(ids.count - shown.count) more" : ""
    return (ids.count == 1 ? "the id " : "the ids ") + shown.joined(separator: ", ") + more
  }

  isolated deinit {
    _life.isAlive = false
    _LiveArrays.remove(_observers)
  }

  /// The elements, as an array.
  ///
  /// - Complexity: O(1).
  public var elements: [Element] {
    _observers._trackRead()
    return _elements
  }

  /// The element with the given id, if present.
  ///
  /// - Parameter id: The element's id.
  /// - Complexity: O(1) on average.
  public subscript(id id: Element.ID) -> Element? {
    _observers._trackRead()
    return _index(of: id).map { _elements[$0] }
  }

  /// The index of the element with the given id, if present.
  ///
  /// - Parameter id: The element's id.
  /// - Returns: The index, or `nil`.
  /// - Complexity: O(1) on average.
  public func index(id: Element.ID) -> Int? {
    _observers._trackRead()
    return _index(of: id)
  }

  /// Whether an element with the given id is present.
  ///
  /// - Parameter id: The element's id.
  /// - Returns: `true` if an element has that id.
  /// - Complexity: O(1) on average.
  public func contains(id: Element.ID) -> Bool {
    _observers._trackRead()
    return _index(of: id) != nil
  }

  /// Calls `handler` with every change from now on.
  ///
  /// Element cells and aggregates (``liveCount(where:)``) are brought up to date
  /// before any observer is called, so an observer reads consistent values.
  /// Like a cell's `observeChanges(_:)`, it calls `handler` only with
  /// changes, never with the current contents (which are ``elements``): an
  /// array has no "current change" to deliver at once.
  ///
  /// - Parameter handler: Called on the main actor with each change.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel; each change costs O(1) to deliver.
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

  // MARK: - Internals shared by the mutations

  /// The index of `id`.
  @inlinable
  func _index(of id: Element.ID) -> Int? {
    _idIndex.find(id, in: _elements)
  }

  /// Publishes a change.
  ///
  /// Delivery brings every element cell and aggregate up to date first,
  /// quietly; then it tells their observers, then the array's observers, and
  /// last the derived cells that read them. A change published while another
  /// is being delivered waits for it to finish.
  @inlinable
  func _publish(_ changeSet: consuming ChangeSet<Element>) {
    guard !changeSet.isEmpty else { return }
    if let tracking = _observers._tracking { tracking.changed() }
    _changeSequence &+= 1
    // Only removals and reloads take elements out: an update or an
    // insertion skips the (unspecialized) search for leaving cells.
    let leaving =
      _cells.isEmpty || (changeSet.removals.isEmpty && changeSet.reload == nil)
      ? [] : _releaseCells(leaving: changeSet)
    // The change set is taken, not copied: a copy retains its five buffers.
    // The change holds a contents object, not the storage, so that an
    // observer's write does not copy every element.
    var change = _PendingChange(
      change: ArrayChange(changeSet: changeSet, array: _takeContents()),
      sequence: _changeSequence, leaving: leaving)
    guard !_isDelivering else {
      _pending.append(consume change)
      return
    }
    _isDelivering = true
    _Deliveries.count &+= 1
    defer {
      _isDelivering = false
      _latestContents = nil
      _Deliveries.count &-= 1
      if !_cellsMadeMidDelivery.isEmpty { _cellsMadeMidDelivery.removeAll() }
    }
    _deliver(change)
    guard !_pending.isEmpty else {
      _releaseContents(of: &change)
      return
    }
    var next = 0
    while next < _pending.count {
      // Lent, not copied (a copy retains the change's buffers and
      // releases them after): a queued change stays in the queue, whole,
      // until the loop ends; observers' writes only append to it.
      if _Lending.canLend(_PendingChange<Element>.self) {
        _Lending.withLent({ _Lending.bits(of: _pending, at: next) }, _deliver)
      } else {
        _deliver(_pending[next])
      }
      next += 1
    }
    _releaseQueuedContents(root: &change)
    // Not `removeAll(keepingCapacity:)`: it destroys through the value
    // witnesses, which costs more than the queued change's delivery.
    while var queued = _pending.popLast() { _reclaimUpdates(of: &queued) }
  }

  /// Keeps the buffer of a delivered one-update change from the queue,
  /// emptied, as the spare for the next (if there is none yet).
  ///
  /// If an observer kept the change, emptying the buffer copies it, as
  /// queuing the next update would have allocated one.
  @inlinable
  func _reclaimUpdates(of queued: inout _PendingChange<Element>) {
    guard _spareQueuedUpdates.capacity == 0, queued.change._changeSet.updates.count == 1 else {
      return
    }
    var updates: [ChangeSet<Element>.Update] = []
    swap(&updates, &queued.change._changeSet.updates)
    _ = updates.popLast()
    _spareQueuedUpdates = updates
  }

  /// A contents object for the change just numbered: the spare one, or a
  /// new one.
  @inlinable
  func _takeContents() -> _ArrayContents<Element> {
    guard let contents = _spareContents.take() ?? _moreSpareContents.popLast() else {
      let made = _ObservableArrayContents(
        array: self, sequence: _changeSequence, count: _elements.count)
      _latestContents = made
      return made
    }
    contents.sequence = _changeSequence
    contents.count = _elements.count
    _latestContents = contents
    return contents
  }

  /// Observes the changes for a query, which receives them until its
  /// `life` ends.
  ///
  /// Not through a weak reference: one gives the query a side table, which
  /// makes every retain of it take the slow path. The flag stops the
  /// observer once the query is going; until then the query is valid, even
  /// between its last release off the main actor and its deinit.
  ///
  /// The query's `_receive(_:)` is called directly, not through a closure
  /// the query passes: one call fewer on every change.
  @inlinable
  func _observe<Query: _ArrayFollower>(for query: Query, life: _AggregateLife) -> Subscription
  where Query.Followed == Element {
    observeChanges { [unowned(unsafe) query] change in
      if life.isAlive { query._receive(change) }
    }
  }

  /// The contents as they are now, for a query's change: by reference
  /// while the array delivers (the last change's contents object), so that
  /// an observer's write copies nothing; the storage otherwise.
  @inlinable
  func _currentContents() -> _ChangeContents<Element> {
    if _isDelivering, let latest = _latestContents { return .array(latest) }
    return .stored(_elements)
  }

  /// Takes the contents object back from a delivered change.
  ///
  /// Nothing was queued behind the change: the array is still at it. It
  /// becomes the spare if nobody else holds it; otherwise it keeps the
  /// storage, which a later write then copies, as it must.
  @inlinable
  func _releaseContents(of pending: inout _PendingChange<Element>) {
    guard case .array(var contents) = pending.change._storage else { return }
    pending.change._storage = .empty
    if isKnownUniquelyReferenced(&contents) {
      _spareContents = contents
    } else if contents._frozen == nil {
      contents.freeze(_elements)
    }
  }

  /// Takes the contents objects back from the changes of a delivery in
  /// which observers changed the array: one still held is frozen with the
  /// contents right after its change, rebuilt from the changes after it.
  @inlinable
  func _releaseQueuedContents(root: inout _PendingChange<Element>) {
    var contents = _elements
    var through = _changeSequence
    var later = _pending.endIndex
    func release(_ pending: inout _PendingChange<Element>) {
      guard case .array(var held) = pending.change._storage else { return }
      pending.change._storage = .empty
      if isKnownUniquelyReferenced(&held) {
        held._frozen = nil
        if _spareContents == nil {
          _spareContents = held
        } else if _moreSpareContents.count < 8 {
          _moreSpareContents.append(held)
        }
        return
      }
      guard held._frozen == nil else { return }
      while through > pending.sequence {
        later -= 1
        contents = _reverting(_pending[later], from: contents)
        through &-= 1
      }
      held.freeze(contents)
    }
    for index in _pending.indices.reversed() { release(&_pending[index]) }
    release(&root)
  }

  /// The contents right after the change numbered `sequence`, which is
  /// being delivered: the current ones, with every change queued after it
  /// reverted.
  ///
  /// - Complexity: O(*n* × *k*), where *k* is the number of changes
  ///   reverted.
  @usableFromInline
  func _contents(asOf sequence: UInt64) -> [Element] {
    var contents = _elements
    for queued in _pending.reversed() where queued.sequence > sequence {
      contents = _reverting(queued, from: contents)
    }
    return contents
  }

  /// The contents right before a queued change, from those right after it.
  @usableFromInline
  func _reverting(_ queued: _PendingChange<Element>, from contents: [Element]) -> [Element] {
    if let reload = queued.change.changeSet.reload { return reload.old }
    do {
      return try queued.change.changeSet.inverted.applied(to: contents)
    } catch {
      preconditionFailure("ObservableArray: a queued change does not fit its contents: \(error)")
    }
  }

  @inlinable
  func _deliver(_ pending: _PendingChange<Element>) {
    _deliveringSequence = pending.sequence
    let keepsChange = _queryCount != 0
    if keepsChange {
      _deliveringBits = _ChangeBits(pending.change)
      _keepsDeliveringChange = true
    }
    var touched = _TouchedLists()
    _updateCells(for: pending, into: &touched)
    _updateAggregates(for: pending, into: &touched)
    touched.notify()
    _observers.send(pending.change)
    _Scheduler.drain()
    if keepsChange { _keepsDeliveringChange = false }
  }

  @inlinable
  func _updateAggregates(
    for pending: _PendingChange<Element>, into touched: inout _TouchedLists
  ) {
    var released = false
    // By index, not by copies of the entries: a copy copies a weak
    // reference.
    var index = 0
    while index < _aggregates.count {
      defer { index += 1 }
      guard _aggregates[index].life.isAlive else {
        released = true
        continue
      }
      if _aggregates[index].since < pending.sequence,
        let list = _aggregates[index].apply(pending.change)
      {
        touched.append(_Touched(list))
      }
    }
    if released {
      _aggregates.removeAll { !$0.life.isAlive }
    }
  }
}

/// A query that follows an array's changes (``ObservableArray/_observe(for:life:)``).
@MainActor
@usableFromInline
protocol _ArrayFollower: AnyObject {
  /// The array's elements.
  associatedtype Followed: Identifiable
  /// Follows one change of the array.
  func _receive(_ change: ArrayChange<Followed>)
}

/// The bits of an ``ArrayChange``, copied without retaining what it holds:
/// a borrowed change, valid only while its owner keeps the change alive.
///
/// `ArrayChange`'s layout does not depend on `Element` (its parts are
/// arrays and one class reference): 56 bytes on 64-bit platforms.
@usableFromInline
struct _ChangeBits {
  @usableFromInline
  var bits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
    (0, 0, 0, 0, 0, 0, 0, 0)

  @inlinable
  init() {}

  /// The bits of `change`, which the caller keeps alive while they are
  /// used.
  @inlinable
  nonisolated init<Element>(_ change: ArrayChange<Element>) {
    precondition(
      MemoryLayout<ArrayChange<Element>>.size <= MemoryLayout<Self>.size,
      "ObservableArray: a change does not fit its borrowed copy")
    withUnsafeMutableBytes(of: &bits) { target in
      withUnsafeBytes(of: change) { target.copyMemory(from: $0) }
    }
  }

  /// A copy of the change (retained), while its owner still holds it.
  @inlinable
  nonisolated func change<Element>(of _: Element.Type) -> ArrayChange<Element> {
    withUnsafeBytes(of: bits) { $0.load(as: ArrayChange<Element>.self) }
  }
}

/// A change waiting to be delivered, with its number and the cells of the
/// elements it removed.
@usableFromInline
struct _PendingChange<Element: Identifiable> {
  /// A variable only so that the array can take the change's contents
  /// object back once it is delivered.
  @usableFromInline
  var change: ArrayChange<Element>
  @usableFromInline
  let sequence: UInt64
  @usableFromInline
  let leaving: [_LeavingCell<Element>]

  @inlinable
  init(change: ArrayChange<Element>, sequence: UInt64, leaving: [_LeavingCell<Element>]) {
    self.change = change
    self.sequence = sequence
    self.leaving = leaving
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
  public var endIndex: Int {
    _observers._trackRead()
    return _elements.count
  }

  /// The element at a position.
  ///
  /// - Parameter position: A valid index.
  /// - Complexity: O(1).
  public subscript(position: Int) -> Element {
    _observers._trackRead()
    return _elements[position]
  }

  /// An iterator over the elements as they are now.
  ///
  /// - Complexity: O(1).
  public func makeIterator() -> IndexingIterator<[Element]> {
    _observers._trackRead()
    return _elements.makeIterator()
  }
}

/// How many arrays are delivering a change now.
///
/// Only while one is can an element cell hold a value older than its
/// array's element (a change published meanwhile waits): a write through a
/// cell checks the array (``_ValueList/_writeStart()``) only then, and reads
/// the cell's own value in one test otherwise.
@MainActor
@usableFromInline
enum _Deliveries {
  @usableFromInline
  @exclusivity(unchecked)
  static var count: UInt32 = 0
}

/// The contents of an ``ObservableArray`` right after one of its changes,
/// read from the array while it is at that change (see ``_ArrayContents``).
@usableFromInline
final class _ObservableArrayContents<Element: Identifiable>: _ArrayContents<Element>,
  @unchecked Sendable
{
  // The array owns its spare contents object, and a held one is frozen
  // before its delivery ends: an unfrozen one never outlives its array.
  @usableFromInline
  unowned(unsafe) let array: ObservableArray<Element>

  @usableFromInline
  init(array: ObservableArray<Element>, sequence: UInt64, count: Int) {
    self.array = array
    super.init(sequence: sequence, count: count)
  }

  @MainActor
  @usableFromInline
  override func _read() -> [Element] {
    if array._changeSequence == sequence { return array._elements }
    // The array moved ahead while this change was delivered: rebuild once.
    let made = array._contents(asOf: sequence)
    _frozen = made
    return made
  }
}

/// Keeps a ``ListView`` in step with an ``ObservableArray``: it owns the
/// hard part of a list screen — what to tell the view, and when.
///
/// The adapter keeps the ids of the rows the view shows now, and nothing
/// else. Each update goes from *those* to what the array holds:
///
/// - While the view can take updates (``ListView/canUpdateRows``), each
///   change of the array becomes one update at once, in O(changes).
/// - While it cannot (off screen, mid-animation, not loaded), the adapter
///   only notes which ids changed. When the view is ready — call
///   ``updateIfNeeded()`` then, or let the next change find it ready — it
///   sends *one* update, an identity diff from the ids the view shows to
///   the array's, however many changes there were.
/// - Updates never interleave: an update asked for while the view applies
///   one (the array changing from inside ``ListView/updateRows(_:)``, say)
///   is applied after it.
///
/// The first update reloads the view with the array's rows, so binding a
/// view to a new array — a rebinding — shows the new array's rows. Cancel
/// the adapter (or release it) and the view keeps the rows it last showed.
///
/// ```swift
/// func makeBindings(to viewModel: GroceriesViewModel) -> [any SubscriptionToken] {
///   [ListAdapter(viewModel.items, view: self)]   // the bag keeps it
/// }
/// ```
///
/// The adapter holds the view weakly and the array strongly, until it is
/// cancelled; keep the adapter in the view's bag, so that it lives as long
/// as the binding.
@MainActor
public final class ListAdapter<View: ListView>: SubscriptionToken {
  /// The type of the array's elements.
  public typealias Element = View.Element

  /// The view the adapter updates, if it is still there.
  public var view: View? { _view }

  /// The ids of the rows the view shows, as of its last update.
  public var ids: [Element.ID] { _ids }

  // The adapter runs on every change of its array: its internals are
  // inlinable, so that they run specialised for the view's element type,
  // and its state skips run-time exclusivity checks, as the array's does:
  // it is touched only on the main actor, and no access to it spans a call
  // out of the adapter.
  @usableFromInline
  @exclusivity(unchecked)
  weak var _view: View?
  @usableFromInline
  @exclusivity(unchecked)
  var _ids: [Element.ID] = []
  @usableFromInline
  @exclusivity(unchecked)
  var _array: ObservableArray<Element>?
  @usableFromInline
  @exclusivity(unchecked)
  var _subscription: Subscription?
  /// The number of the array's last change that the ids and `_pending`
  /// account for: a change delivered later with a number up to this one is
  /// already shown (the adapter read the array in the middle of a
  /// delivery, when later changes were in its contents already).
  @usableFromInline
  @exclusivity(unchecked)
  var _reflected: UInt64
  /// What changed since the view's last update, while it was not ready.
  @usableFromInline
  @exclusivity(unchecked)
  var _pending: _PendingRows<Element.ID>? = _PendingRows(needsReload: true)
  @usableFromInline
  @exclusivity(unchecked)
  var _isApplying = false
  /// The query the adapter follows, if it was made with one; `_array` is
  /// then `nil`.
  @usableFromInline
  @exclusivity(unchecked)
  var _query: LiveQuery<Element>?
  /// The number of the array's last change when the adapter read the query
  /// in the middle of one of its deliveries; `nil` otherwise.
  ///
  /// Until the
  /// array delivers a later change, a change the query delivers may be one
  /// the ids show already, so each is diffed against the query rather than
  /// followed.
  @usableFromInline
  @exclusivity(unchecked)
  var _queryAheadOf: UInt64?

  /// Starts keeping a view in step with an array: the view is reloaded with
  /// the array's rows as soon as it can take an update.
  ///
  /// - Parameters:
  ///   - array: The array whose elements are the rows.
  ///   - view: The view; the adapter holds it weakly.
  ///   - fileID: Where the adapter is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``, which show it as an observer of the array;
  ///     by default, the caller's file.
  ///   - line: Where the adapter is made; by default, the caller's line.
  /// - Complexity: O(*n*) for the first update.
  @inlinable
  public init(
    _ array: ObservableArray<Element>, view: View, fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    _array = array
    _view = view
    // The first update reads the array's contents, which hold every change
    // published so far, delivered or not.
    _reflected = array._changeSequence
    // The adapter holds the array until it cancels the subscription.
    let this = _WeakReference(self)
    _subscription = array.observeChanges { [unowned(unsafe) array] change in
      this.object?._receive(change, number: array._deliveringSequence)
    }
    _subscription?._setOrigin(fileID: fileID, line: line)
    updateIfNeeded()
  }

  /// Starts keeping a view in step with a live query, exactly as with an
  /// array: the view is reloaded with the query's rows as soon as it can
  /// take an update, then patched with every change the query publishes.
  ///
  /// ```swift
  /// let active = items.query(where: { !$0.done })
  /// bag.insert(ListAdapter(active, view: self))
  /// ```
  ///
  /// An edit that keeps its row in place costs O(log *n*): the update's
  /// ``ListUpdate/elements`` are made only if the view reads them.
  ///
  /// - Parameters:
  ///   - query: The query whose rows the view shows.
  ///   - view: The view; the adapter holds it weakly.
  ///   - fileID: Where the adapter is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the adapter is made; by default, the caller's line.
  /// - Complexity: O(*n*) for the first update.
  public init(
    _ query: LiveQuery<Element>, view: View, fileID: StaticString = #fileID, line: UInt = #line
  ) {
    _query = query
    _view = view
    _reflected = 0
    let this = _WeakReference(self)
    _subscription = query.observeChanges { change in
      this.object?._receive(fromQuery: change)
    }
    _subscription?._setOrigin(fileID: fileID, line: line)
    updateIfNeeded()
  }

  /// Whether changes wait for the view to be ready.
  ///
  /// - Complexity: O(1).
  public var needsUpdate: Bool { _pending != nil }

  /// Sends the view one update with everything that changed while it was
  /// not ready, if it is ready now; otherwise does nothing.
  ///
  /// Call it when the view becomes ready (it appears, an animation ends).
  /// Called while the view applies an update, it waits for that update.
  /// Called while the array delivers a change that the adapter has yet to
  /// receive (from an observer of the array that runs before it), it waits
  /// for that change, which comes later in the same delivery. The update
  /// shows every change published so far, those still waiting to be
  /// delivered included, and the adapter then skips them as they arrive.
  ///
  /// - Complexity: O(*n* + *m* log *m*) when changes wait, where *m* is
  ///   the number of rows outside the common prefix and suffix; O(1)
  ///   otherwise.
  @inlinable
  public func updateIfNeeded() {
    if _query != nil {
      _updateFromQueryIfNeeded()
      return
    }
    guard var waiting = _pending, !_isApplying, let array = _array, let view = _view,
      view.canUpdateRows
    else {
      return
    }
    if array._isDelivering {
      // The change being delivered reaches this adapter later: it calls
      // this again then, with the change noted.
      guard _reflected >= array._deliveringSequence else { return }
      // The array's contents are ahead of the delivery: the changes
      // still queued are shown by this update, so they count as changed.
      _noteQueued(in: array, into: &waiting)
    }
    _pending = nil
    _reflected = array._changeSequence
    let elements = array._elements
    let (newIDs, changes) = Self._changes(
      from: _ids, to: elements, changed: waiting.changed, reload: waiting.needsReload)
    _ids = newIDs
    guard !changes.isEmpty else { return }
    _perform(ListUpdate(changes: changes, ids: newIDs, elements: elements), on: view)
  }

  /// The ids of `elements`, and the change to them from `ids`: a reload,
  /// or an identity diff that counts the `changed` ids as updates.
  ///
  /// Nonisolated, so that the closures it runs over every row carry no
  /// main-actor checks.
  @inlinable
  nonisolated static func _changes(
    from ids: [Element.ID], to elements: [Element], changed: Set<Element.ID>, reload: Bool
  ) -> ([Element.ID], ChangeSet<Element.ID>) {
    let newIDs = elements.map { $0.id }
    if reload {
      return (newIDs, .reload(from: ids, to: newIDs))
    }
    let old = ids.map { _ListRow(id: $0) }
    let new = newIDs.map { _ListRow(id: $0) }
    var middle = (prefix: 0, oldEnd: 0, newEnd: 0)
    // The array's ids are unique: nothing in `new` repeats an old id.
    let diff = _IdentityDiff.changeSet(
      from: old, to: new, oldContains: { _ in false },
      isUnchanged: { old, _ in !changed.contains(old.id) }, middle: &middle)
    return (newIDs, diff._mapElements { $0.id })
  }

  /// Stops following the array; the view keeps the rows it shows.
  public func cancel() {
    _subscription?.cancel()
    _subscription = nil
    _array = nil
    _query = nil
    _queryAheadOf = nil
    _pending = nil
  }

  /// Whether the adapter still follows the array.
  public var isActive: Bool { _subscription != nil }

  // MARK: - Internals

  /// Notes the changes of `array` queued behind the one being delivered
  /// and not yet accounted for.
  @usableFromInline
  func _noteQueued(in array: ObservableArray<Element>, into waiting: inout _PendingRows<Element.ID>)
  {
    for queued in array._pending where queued.sequence > _reflected {
      waiting.note(queued.change.changeSet)
    }
  }

  @inlinable
  func _receive(_ change: ArrayChange<Element>, number: UInt64) {
    // A change the ids already show is skipped.
    guard number > _reflected else { return }
    _reflected = number
    guard _pending == nil, !_isApplying, let view = _view, view.canUpdateRows else {
      _note(change)
      updateIfNeeded()
      return
    }
    let changes = change.changeSet
    guard _follow(changes), _ids.count == change._newCount else {
      // The ids were not those the change starts from: start over.
      _pending = _PendingRows(needsReload: true)
      updateIfNeeded()
      return
    }
    _perform(ListUpdate(changes, ids: _ids, elements: change._newElements), on: view)
  }

  /// Brings the ids up to date with a change; `false` if it does not fit.
  @inlinable
  func _follow(_ changes: ChangeSet<Element>) -> Bool {
    if let reload = changes.reload {
      _ids = reload.new.map { $0.id }
      return true
    }
    if changes.removals.isEmpty && changes.insertions.isEmpty && changes.moves.isEmpty {
      return true
    }
    guard changes.count <= 8 else {
      do {
        _ids = try changes._mapElements { $0.id }.applied(to: _ids)
        return true
      } catch {
        return false
      }
    }
    // A few rows: shift the ids in place rather than copy them all.
    for move in changes.moves where !_ids.indices.contains(move.from) { return false }
    let moved = changes.moves.map { (index: $0.to, id: _ids[$0.from]) }
    var leaving = changes.removals.map { $0.index } + changes.moves.map { $0.from }
    leaving.sort(by: >)
    for index in leaving {
      guard _ids.indices.contains(index) else { return false }
      _ids.remove(at: index)
    }
    var entering = changes.insertions.map { (index: $0.index, id: $0.element.id) } + moved
    entering.sort { $0.index < $1.index }
    for (index, id) in entering {
      guard index >= 0 && index <= _ids.count else { return false }
      _ids.insert(id, at: index)
    }
    return true
  }

  /// ``updateIfNeeded()`` for an adapter that follows a query.
  @usableFromInline
  func _updateFromQueryIfNeeded() {
    guard let waiting = _pending, !_isApplying, let query = _query, let view = _view,
      view.canUpdateRows
    else {
      return
    }
    _pending = nil
    if query._observers._depth > 0 {
      // The query may have changed again since the change it delivers, and
      // this adapter may have yet to receive that change: the rows read
      // now are ahead of the changes still to come.
      let sequence = query.array._changeSequence
      _queryAheadOf = Swift.min(_queryAheadOf ?? sequence, sequence)
    } else {
      _queryAheadOf = nil
    }
    let elements = query.elements
    let (newIDs, changes) = Self._changes(
      from: _ids, to: elements, changed: waiting.changed, reload: waiting.needsReload)
    _ids = newIDs
    guard !changes.isEmpty else { return }
    _perform(ListUpdate(changes: changes, ids: newIDs, elements: elements), on: view)
  }

  /// Takes one change of the query.
  func _receive(fromQuery change: ArrayChange<Element>) {
    if let mark = _queryAheadOf, let array = _query?.array {
      if array._isDelivering && array._deliveringSequence > mark {
        // A change of the array made after the adapter read the query:
        // every change of the query from now on is new to it.
        _queryAheadOf = nil
      } else {
        // Perhaps shown already, perhaps not: diff against the query, with
        // the rows this change touched counted as changed.
        _note(change)
        updateIfNeeded()
        return
      }
    }
    guard _pending == nil, !_isApplying, let view = _view, view.canUpdateRows else {
      _note(change)
      updateIfNeeded()
      return
    }
    guard _follow(change.changeSet), _ids.count == change._newCount else {
      // The ids were not those the change starts from: start over.
      _pending = _PendingRows(needsReload: true)
      updateIfNeeded()
      return
    }
    _perform(ListUpdate(change, ids: _ids), on: view)
  }

  /// Notes a change the view cannot take now.
  @inlinable
  func _note(_ change: ArrayChange<Element>) {
    var waiting = _pending ?? _PendingRows(needsReload: false)
    waiting.note(change.changeSet)
    _pending = waiting
  }

  @inlinable
  func _perform(_ update: ListUpdate<Element>, on view: View) {
    _isApplying = true
    view.updateRows(update)
    _isApplying = false
    // Changes made during the update waited for it.
    if _pending != nil {
      updateIfNeeded()
    }
  }
}

/// What changed while a view could not take updates.
@usableFromInline
struct _PendingRows<ID: Hashable> {
  @usableFromInline
  var needsReload: Bool
  @usableFromInline
  var changed: Set<ID> = []

  @inlinable
  init(needsReload: Bool) {
    self.needsReload = needsReload
  }

  /// Counts the rows a change touched as changed.
  @inlinable
  mutating func note<Element: Identifiable>(_ changeSet: ChangeSet<Element>)
  where Element.ID == ID {
    if changeSet.isReload {
      needsReload = true
      changed = []
    } else if !needsReload {
      // A re-inserted id may come back with another value: count it changed.
      for update in changeSet.updates {
        changed.insert(update.newElement.id)
      }
      for insertion in changeSet.insertions {
        changed.insert(insertion.element.id)
      }
    }
  }
}

/// An id as an element, for the identity diff.
@usableFromInline
struct _ListRow<ID: Hashable>: Identifiable {
  @usableFromInline
  let id: ID

  @inlinable
  init(id: ID) {
    self.id = id
  }
}

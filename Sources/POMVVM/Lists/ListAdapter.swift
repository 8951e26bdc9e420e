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
  public private(set) weak var view: View?

  /// The ids of the rows the view shows, as of its last update.
  public private(set) var ids: [Element.ID] = []

  private var array: ObservableArray<Element>?
  private var subscription: Subscription?
  /// Tells which changes the adapter has not seen yet.
  private var cursor = _ListCursor()
  /// What changed since the view's last update, while it was not ready.
  private var pending: _PendingRows<Element.ID>? = _PendingRows(needsReload: true)
  private var isApplying = false

  /// Starts keeping a view in step with an array: the view is reloaded with
  /// the array's rows as soon as it can take an update.
  ///
  /// - Parameters:
  ///   - array: The array whose elements are the rows.
  ///   - view: The view; the adapter holds it weakly.
  /// - Complexity: O(*n*) for the first update.
  public init(_ array: ObservableArray<Element>, view: View) {
    self.array = array
    self.view = view
    register(with: array)
    subscription = array.observeChanges { [weak self] change in
      self?.receive(change)
    }
    updateIfNeeded()
  }

  /// Whether changes wait for the view to be ready.
  ///
  /// - Complexity: O(1).
  public var needsUpdate: Bool { pending != nil }

  /// Sends the view one update with everything that changed while it was
  /// not ready, if it is ready now; otherwise does nothing.
  ///
  /// Call it when the view becomes ready (it appears, an animation ends).
  /// Called while the view applies an update, it waits for that update.
  ///
  /// - Complexity: O(*n* + *m* log *m*) when changes wait, where *m* is
  ///   the number of rows outside the common prefix and suffix; O(1)
  ///   otherwise.
  public func updateIfNeeded() {
    guard let waiting = pending, !isApplying, let array, let view, view.canUpdateRows else {
      return
    }
    pending = nil
    let elements = array._elements
    let newIDs = elements.map(\.id)
    let changes: ChangeSet<Element.ID>
    if waiting.needsReload {
      changes = .reload(from: ids, to: newIDs)
    } else {
      let old = ids.map { _ListRow(id: $0) }
      let new = newIDs.map { _ListRow(id: $0) }
      var middle = (prefix: 0, oldEnd: 0, newEnd: 0)
      let changed = waiting.changed
      // The array's ids are unique: nothing in `new` repeats an old id.
      let diff = _IdentityDiff.changeSet(
        from: old, to: new, oldContains: { _ in false },
        isUnchanged: { old, _ in !changed.contains(old.id) }, middle: &middle)
      changes = diff._mapElements(\.id)
    }
    // The array may be ahead of the change being delivered: whatever waits
    // to be delivered is in `elements` already.
    register(with: array)
    ids = newIDs
    guard !changes.isEmpty else { return }
    perform(ListUpdate(changes: changes, ids: newIDs, elements: elements), on: view)
  }

  /// Stops following the array; the view keeps the rows it shows.
  public func cancel() {
    subscription?.cancel()
    subscription = nil
    array = nil
    pending = nil
    cursor = _ListCursor()
  }

  /// Whether the adapter still follows the array.
  public var isActive: Bool { subscription != nil }

  // MARK: - Internals

  private func register(with array: ObservableArray<Element>) {
    let cursor = _ListCursor()
    self.cursor = cursor
    array._register(cursor) { [unowned(unsafe) cursor] _ in
      cursor.isFresh = true
      return nil
    }
  }

  private func receive(_ change: ArrayChange<Element>) {
    // A change the adapter's ids already reflect (one that waited while a
    // coalesced update read the array) is skipped.
    guard cursor.isFresh else { return }
    cursor.isFresh = false
    guard pending == nil, !isApplying, let view, view.canUpdateRows else {
      note(change)
      updateIfNeeded()
      return
    }
    let changes = change.changeSet._mapElements(\.id)
    guard follow(changes), ids.count == change.newElements.count else {
      // The ids were not those the change starts from: start over.
      pending = _PendingRows(needsReload: true)
      updateIfNeeded()
      return
    }
    perform(ListUpdate(changes: changes, ids: ids, elements: change.newElements), on: view)
  }

  /// Brings the ids up to date with a change; `false` if it does not fit.
  private func follow(_ changes: ChangeSet<Element.ID>) -> Bool {
    if let reload = changes.reload {
      ids = reload.new
      return true
    }
    if changes.removals.isEmpty && changes.insertions.isEmpty && changes.moves.isEmpty {
      return true
    }
    guard changes.count <= 8 else {
      do {
        ids = try changes.applied(to: ids)
        return true
      } catch {
        return false
      }
    }
    // A few rows: shift the ids in place rather than copy them all.
    for move in changes.moves where !ids.indices.contains(move.from) { return false }
    let moved = changes.moves.map { (index: $0.to, id: ids[$0.from]) }
    var leaving = changes.removals.map(\.index) + changes.moves.map(\.from)
    leaving.sort(by: >)
    for index in leaving {
      guard ids.indices.contains(index) else { return false }
      ids.remove(at: index)
    }
    var entering = changes.insertions.map { (index: $0.index, id: $0.element) } + moved
    entering.sort { $0.index < $1.index }
    for (index, id) in entering {
      guard index >= 0 && index <= ids.count else { return false }
      ids.insert(id, at: index)
    }
    return true
  }

  /// Notes a change the view cannot take now.
  private func note(_ change: ArrayChange<Element>) {
    var waiting = pending ?? _PendingRows(needsReload: false)
    if change.changeSet.isReload {
      waiting.needsReload = true
      waiting.changed = []
    } else if !waiting.needsReload {
      // A re-inserted id may come back with another value: count it changed.
      for update in change.changeSet.updates {
        waiting.changed.insert(update.newElement.id)
      }
      for insertion in change.changeSet.insertions {
        waiting.changed.insert(insertion.element.id)
      }
    }
    pending = waiting
  }

  private func perform(_ update: ListUpdate<Element>, on view: View) {
    isApplying = true
    view.updateRows(update)
    isApplying = false
    // Changes made during the update waited for it.
    if pending != nil {
      updateIfNeeded()
    }
  }
}

/// Marks the change being delivered as one the adapter has not seen: the
/// array tells it, like an aggregate, only of changes after it was made.
final class _ListCursor {
  var isFresh = false
}

/// What changed while a view could not take updates.
struct _PendingRows<ID: Hashable> {
  var needsReload: Bool
  var changed: Set<ID> = []
}

/// An id as an element, for the identity diff.
struct _ListRow<ID: Hashable>: Identifiable {
  let id: ID
}

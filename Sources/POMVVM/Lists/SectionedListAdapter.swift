/// Keeps a ``SectionedListView`` in step with a ``SectionedQuery``, the way
/// a ``ListAdapter`` keeps a ``ListView`` in step with an array.
///
/// The adapter keeps the keys and ids of the sections the view shows now,
/// and each update goes from *those* to what the query holds:
///
/// - While the view can take updates (``SectionedListView/canUpdateSections``),
///   each change of the query becomes one update at once: the query's own
///   batch update, which costs what the change touched — O(1) for an edit
///   in place, O(*k*) otherwise, plus for each row that enters or leaves a
///   walk over its section's chunks of up to 1,024 ids and a shift inside
///   one of them — never a shift of a whole section, never O(*n*).
/// - While it cannot, the adapter follows the query's changes and notes
///   which ids changed. When the view is ready — call ``updateIfNeeded()``
///   then, or let the next change find it ready — it sends *one* update, an
///   identity diff from the sections the view shows, however many changes
///   there were.
/// - Updates never interleave: an update asked for while the view applies
///   one is applied after it.
///
/// The first update reloads the view. Cancel the adapter (or release it)
/// and the view keeps the sections it last showed.
///
/// ```swift
/// let byState = items.query(sectionedBy: \.on)
/// bag.insert(SectionedListAdapter(byState, view: self))   // the bag keeps it
/// ```
///
/// The adapter holds the view weakly and the query strongly, until it is
/// cancelled.
@MainActor
public final class SectionedListAdapter<View: SectionedListView>: SubscriptionToken
where View.Key: Comparable {
  /// The type of the sections' keys.
  public typealias Key = View.Key
  /// The type of the array's elements.
  public typealias Element = View.Element

  /// The view the adapter updates, if it is still there.
  public var view: View? { _view }

  /// The keys of the sections the view shows, as of its last update.
  public var keys: [Key] { (_shown ?? _latest).keys }

  /// The ids of the rows of each section the view shows, as of its last
  /// update.
  ///
  /// - Complexity: O(*n*): the adapter keeps a large section in chunks, and
  ///   makes the arrays when they are read.
  public var ids: [[Element.ID]] { (_shown ?? _latest).ids }

  // The adapter runs on every change of its query: its receiving path is
  // inlinable, so that it runs specialised for the view's types, and its
  // state skips run-time exclusivity checks, as ListAdapter's does: it is
  // touched only on the main actor, and no access to it spans a call out
  // of the adapter.
  @usableFromInline
  @exclusivity(unchecked)
  weak var _view: View?
  @usableFromInline
  @exclusivity(unchecked)
  var _query: SectionedQuery<Key, Element>?
  @usableFromInline
  @exclusivity(unchecked)
  var _subscription: Subscription?
  /// The sections as of the last change the adapter received, in an
  /// object that the update source reads too (``_latest``).
  @usableFromInline
  let _latestBox = _SectionedRowsBox<Key, Element.ID>()
  /// The ids and values of the last update, kept for the next.
  ///
  /// It reads the rows from ``_latestBox`` while the adapter alone holds
  /// it; one that a view holds is given a copy of the rows before they
  /// change (``_letGoOfSourceRows()``).
  @usableFromInline
  @exclusivity(unchecked)
  var _source: _SectionedUpdateSource<Key, Element>?
  /// The sections the view shows, when they are not `_latest`.
  @usableFromInline
  @exclusivity(unchecked)
  var _shown: _SectionedRows<Key, Element.ID>?
  /// What changed since the view's last update, while it was not ready.
  @usableFromInline
  @exclusivity(unchecked)
  var _pending: _PendingRows<Element.ID>? = _PendingRows(needsReload: true)
  @usableFromInline
  @exclusivity(unchecked)
  var _isApplying = false
  /// How many of the query's changes `_latest` reflects, counted as the
  /// query counts those it published: while it is behind, a change of the
  /// query is on its way to the adapter.
  @usableFromInline
  @exclusivity(unchecked)
  var _received = 0

  /// Starts keeping a view in step with a sectioned query: the view is
  /// reloaded with the query's sections as soon as it can take an update.
  ///
  /// - Parameters:
  ///   - query: The query whose sections the view shows.
  ///   - view: The view; the adapter holds it weakly.
  ///   - fileID: Where the adapter is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the adapter is made; by default, the caller's line.
  /// - Complexity: O(*n*) for the first update.
  @inlinable
  public init(
    _ query: SectionedQuery<Key, Element>, view: View, fileID: StaticString = #fileID,
    line: UInt = #line
  ) {
    _query = query
    _view = view
    _latest = Self._rows(of: query)
    _received = query._publishCount
    _shown = _SectionedRows()
    let this = _WeakReference(self)
    _subscription = query.observeChanges { change in
      this.object?._receive(change)
    }
    _subscription?._setOrigin(fileID: fileID, line: line)
    updateIfNeeded()
  }

  /// Whether changes wait for the view to be ready.
  ///
  /// - Complexity: O(1).
  public var needsUpdate: Bool { _pending != nil }

  /// Whether the adapter still follows the query.
  public var isActive: Bool { _subscription != nil }

  /// Sends the view one update with everything that changed while it was
  /// not ready, if it is ready now; otherwise does nothing.
  ///
  /// Call it when the view becomes ready (it appears, an animation ends).
  /// Called while the view applies an update, it waits for that update.
  ///
  /// - Complexity: O(*n* + *m* log *m*) when changes wait; O(1) otherwise.
  public func updateIfNeeded() {
    guard let waiting = _pending, !_isApplying, let query = _query, let view = _view,
      view.canUpdateSections,
      // A change of the query still on its way here calls this again.
      _received >= query._publishCount
    else {
      return
    }
    _pending = nil
    let shown = _shown ?? _latest
    _shown = nil
    let batch =
      waiting.needsReload
      ? SectionedBatchUpdate.reloadData
      : SectionedBatchUpdate.difference(
        from: shown.pairs, to: _latest.pairs, changedIDs: waiting.changed)
    guard !batch.isEmpty else { return }
    _perform(_update(batch, query: query, change: nil), on: view)
  }

  /// Stops following the query; the view keeps the sections it shows.
  public func cancel() {
    _subscription?.cancel()
    _subscription = nil
    _query = nil
    _pending = nil
  }

  // MARK: - Internals

  /// The sections as of the last change the adapter received.
  @inlinable
  var _latest: _SectionedRows<Key, Element.ID> {
    _read { yield _latestBox.rows }
    _modify { yield &_latestBox.rows }
  }

  /// The query's sections as keys and ids.
  @usableFromInline
  static func _rows(of query: SectionedQuery<Key, Element>) -> _SectionedRows<Key, Element.ID> {
    let engine = query._engine
    return _SectionedRows(
      keys: engine.sections.map(\.key), ids: engine.sections.map { engine.tree.ids(of: $0.tree) })
  }

  /// Starts over from a change's own sections: the query may be ahead of
  /// them, with changes still to come to the adapter.
  @usableFromInline
  func _restart(from change: SectionedChange<Key, Element>) {
    let sections = change.newSections
    _letGoOfSourceRows()
    _latest = _SectionedRows(keys: sections.map(\.key), ids: sections.map(\.ids))
    _pending = _PendingRows(needsReload: true)
  }

  @inlinable
  func _receive(_ change: SectionedChange<Key, Element>) {
    // A change that the rows already show (the adapter was made while the
    // query delivered it) is skipped.
    guard let query = _query, change._number > _received else { return }
    _received = change._number
    let batch = change.batchUpdate
    // The view is read once: a weak reference's every read takes the
    // runtime's slow path.
    let view = _view
    let isReady = _pending == nil && !_isApplying && (view?.canUpdateSections ?? false)
    if !isReady && _shown == nil {
      // The view keeps showing these while the adapter follows the query.
      _shown = _latest
    }
    if !isReady && _pending == nil { _pending = _PendingRows(needsReload: false) }
    if !isReady, _pending?.needsReload == false {
      // Rows redrawn inside the batch, read before it.
      for path in batch.reloads {
        if let id = _latest.id(at: path) { _pending?.changed.insert(id) }
      }
    }
    guard !batch.isReloadData, _follow(change, query: query) else {
      // A reload, or a batch that does not fit: start over from the
      // change's own sections, which the query may be ahead of.
      _restart(from: change)
      updateIfNeeded()
      return
    }
    guard isReady, let view else {
      if _pending?.needsReload == false {
        // Rows that moved and changed, and rows that entered (an id may
        // come back with another value), read after it; rows of a new
        // section entered with it.
        for path in batch.reconfigurations + batch.insertions {
          if let id = _latest.id(at: path) { _pending?.changed.insert(id) }
        }
        for section in batch.sectionInsertions where _latest.sections.indices.contains(section) {
          for id in _latest.sections[section].ids { _pending?.changed.insert(id) }
        }
      }
      updateIfNeeded()
      return
    }
    _perform(_update(batch, query: query, change: change), on: view)
  }

  /// Brings `_latest` up to date with a change; `false` if it does not fit.
  @inlinable
  func _follow(_ change: SectionedChange<Key, Element>, query: SectionedQuery<Key, Element>)
    -> Bool
  {
    let batch = change.batchUpdate
    if batch.reloads.isEmpty == false && batch.deletions.isEmpty && batch.insertions.isEmpty
      && batch.moves.isEmpty && batch.sectionDeletions.isEmpty
      && batch.sectionInsertions.isEmpty && batch.sectionMoves.isEmpty
    {
      // Edits in place, the common case: nothing to follow.
      return true
    }
    _letGoOfSourceRows()
    let fits: Bool
    if query._observers._pending.isEmpty {
      // No change of the query waits behind this one: the query is as the
      // change left it, and reading it costs O(log n) per row read. The
      // reads go to its engine: they are the adapter's, not a reader's
      // that Observation should track.
      let engine = query._engine
      fits = _latest.follow(
        batch, key: { engine.sections[$0].key },
        sectionIDs: { engine.ids(inSection: $0) },
        id: { query._id(at: $0) })
      return fits && _latest.keys.count == engine.sections.count && _latest.count == engine.count
    }
    // The query is ahead of this change: read the change's own sections.
    let sections = change.newSections
    fits = _latest.follow(
      batch, key: { sections[$0].key }, sectionIDs: { sections[$0].ids },
      id: { sections[$0.section].ids[$0.row] })
    return fits && _latest.keys.count == sections.count
  }

  /// The update to `_latest`, whose elements are read from the array by id.
  @inlinable
  func _update(
    _ batch: SectionedBatchUpdate, query: SectionedQuery<Key, Element>,
    change: SectionedChange<Key, Element>?
  ) -> SectionedListUpdate<Key, Element> {
    if !isKnownUniquelyReferenced(&_source) {
      // None yet, or a view holds the last update: it keeps that one, with
      // the rows as they are now, and the new one reads the adapter's.
      let held = _source
      held?._keepRows()
      _source = _SectionedUpdateSource(engine: query._engine, rows: _latestBox)
      // The rows have not changed since: neither have their ids.
      if let held { _source?.made = held.made }
    }
    // A reload shows `_latest` too: the sections of the last change the
    // adapter received, which the query may be ahead of.
    let source = _required(_source, "no update source")
    source.isLatest = _received >= query._publishCount
    if !source.values.isEmpty { source.values = [:] }
    if !source.isLatest, let change {
      for section in change.newSections {
        for element in section.elements { source.values[element.id] = element }
      }
    }
    return SectionedListUpdate(batch: batch, keys: source.rows.keys, source: source)
  }

  /// Readies `_source` for a change of `_latest`: if no view holds an
  /// update, the source goes on reading the rows, and forgets the ids it
  /// made of them; else the source keeps the rows as they are now, and
  /// is left to the view.
  @inlinable
  func _letGoOfSourceRows() {
    if isKnownUniquelyReferenced(&_source) {
      if _source?.made != nil { _source?.made = nil }
    } else {
      _source?._keepRows()
      _source = nil
    }
  }

  @inlinable
  func _perform(_ update: SectionedListUpdate<Key, Element>, on view: View) {
    _isApplying = true
    view.updateSections(update)
    _isApplying = false
    // Changes made during the update waited for it.
    if _pending != nil {
      updateIfNeeded()
    }
  }
}

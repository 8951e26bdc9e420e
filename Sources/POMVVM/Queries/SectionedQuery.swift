/// A live, read-only view of an ``ObservableArray`` grouped in sections: the
/// elements that match a predicate, by section key, each section in the
/// query's order.
///
/// Sections come in ascending key order (or the order you give); a section
/// exists while it has rows. Like ``LiveQuery``, it never copies elements:
/// ``cell(for:)`` is the array's own cell.
///
/// ```swift
/// let byState = items.query(sortedBy: { $0.date > $1.date }, sectionedBy: \.on)
/// let subscription = byState.observeChanges { change in
///   print(change.batchUpdate)   // e.g. "move [0.2->1.0]" when a row toggles
/// }
/// ```
///
/// ## Incremental
///
/// One element's change costs O(log *n*) (plus O(*s*) for *s* sections
/// when a section appears or empties). An element whose section key changes
/// is one row move across sections, plus a section insertion or deletion
/// when a section appears or empties — never a reload of the whole view.
/// Every ``SectionedChange/batchUpdate`` obeys UIKit's rules for a batch
/// (see ``SectionedBatchUpdate``).
@MainActor
public final class SectionedQuery<Key: Hashable & Comparable, Element: Identifiable> {
  @usableFromInline
  let _engine: _QueryEngine<Element, Key>
  @usableFromInline
  let _observers = EventStream<SectionedChange<Key, Element>>()
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
  @usableFromInline
  @exclusivity(unchecked)
  var _snapshots = _SnapshotSlot<SectionedQuery>()
  /// The change the query published last for a row redrawn in place,
  /// kept for the next one, which writes its path over the old one: its
  /// batch's one reload and one changed row are neither allocated, nor
  /// appended and removed again; `nil` before the first and while it is
  /// out (``_publishReload(_:)``).
  @usableFromInline
  @exclusivity(unchecked)
  var _spareReload: SectionedChange<Key, Element>?
  /// The same for a row moved across sections and changed: one move, one
  /// reconfiguration and one changed row (``_publishMove(_:changed:)``).
  @usableFromInline
  @exclusivity(unchecked)
  var _spareMove: SectionedChange<Key, Element>?

  @inlinable
  init(
    array: ObservableArray<Element>, isIncluded: @escaping (Element) -> Bool,
    areInIncreasingOrder: ((Element, Element) -> Bool)?, sectionKey: @escaping (Element) -> Key,
    sectionOrder: @escaping (Key, Key) -> Bool, fileID: StaticString, line: UInt
  ) {
    _engine = _QueryEngine(
      array: array, isIncluded: isIncluded, areInIncreasingOrder: areInIncreasingOrder,
      sectionKey: sectionKey, sectionOrder: sectionOrder, flatKey: nil)
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

  /// The sections, in order, each with its rows.
  ///
  /// While the array is ahead of the query (read from an observer that runs
  /// before the query sees a change), the sections of the last change the
  /// query published, with the values their rows had then.
  ///
  /// - Complexity: O(*n*).
  public var sections: [QuerySection<Key, Element>] {
    _observers._trackRead()
    return _engine.sections.map { section in
      QuerySection(
        key: section.key, elements: _engine.shownValues(of: _engine.tree.ids(of: section.tree)))
    }
  }

  /// The keys of the sections, in order.
  ///
  /// - Complexity: O(*s*), where *s* is the number of sections.
  public var keys: [Key] {
    _observers._trackRead()
    return _engine.sections.map(\.key)
  }

  /// The number of sections.
  ///
  /// - Complexity: O(1).
  public var sectionCount: Int {
    _observers._trackRead()
    return _engine.sections.count
  }

  /// The number of rows in every section together.
  ///
  /// - Complexity: O(1).
  public var count: Int {
    _observers._trackRead()
    return _engine.count
  }

  /// The number of rows of a section.
  ///
  /// - Parameter section: A section index.
  /// - Returns: Its number of rows.
  /// - Complexity: O(1).
  public func numberOfRows(inSection section: Int) -> Int {
    _observers._trackRead()
    return _engine.tree.count(of: _engine.sections[section].tree)
  }

  /// The id of the row at a path.
  ///
  /// - Parameter path: A valid row path.
  /// - Returns: The row's id.
  /// - Complexity: O(log *n*).
  public func id(at path: RowPath) -> Element.ID {
    _observers._trackRead()
    return _id(at: path)
  }

  /// The id of the row at a path, read without Observation tracking: for
  /// the kit's own reads during a delivery.
  @inlinable
  func _id(at path: RowPath) -> Element.ID {
    let tree = _engine.sections[path.section].tree
    precondition(
      path.row >= 0 && path.row < _engine.tree.count(of: tree),
      "SectionedQuery: row \(path) is out of range")
    return _engine.tree.id(at: path.row, in: tree)
  }

  /// The row at a path.
  ///
  /// - Parameter path: A valid row path.
  /// - Complexity: O(log *n*).
  public subscript(path: RowPath) -> Element {
    _engine.shownValue(of: id(at: path))
  }

  /// The path of the row with an id, if the query shows it.
  ///
  /// - Parameter id: An element's id.
  /// - Returns: The row's path, or `nil`.
  /// - Complexity: O(log *n* + log *s*).
  public func path(of id: Element.ID) -> RowPath? {
    _observers._trackRead()
    return _engine.path(of: id)
  }

  /// The array's own cell onto the element with an id, if the query shows
  /// it: the same object as ``ObservableArray/cell(for:)``.
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

  /// The order of the rows in each section, or `nil` for the array's
  /// order.
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
  /// change.
  ///
  /// - Complexity: O(*n* log *n*).
  @inlinable
  public func reevaluate() {
    _reevaluate(changed: _engine.isCurrent ? nil : _engine.resolvers(_engine.behindNow()).changed)
  }

  /// How many times every element was evaluated again; for the package's
  /// tests.
  package var _rebuilds: Int { _engine.rebuilds }

  /// Calls `handler` with every change from now on.
  ///
  /// - Parameter handler: Called on the main actor with each change.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel; each change
  ///   costs O(1) to deliver.
  public func observeChanges(
    _ handler: @escaping @MainActor (SectionedChange<Key, Element>) -> Void
  ) -> Subscription {
    _observers._add(handler)
  }

  /// Observes on behalf of `owner`, which receives the changes without a
  /// `[weak self]`; the observation ends when the owner is deallocated.
  ///
  /// - Parameters:
  ///   - owner: The object the observation belongs to; the subscription is
  ///     kept in its bag.
  ///   - fileID: Where the observation is made; by default, the caller's file.
  ///   - line: Where the observation is made; by default, the caller's line.
  ///   - handler: Called with the owner and each change.
  /// - Returns: The subscription, already kept by the owner.
  /// - Complexity: Amortized O(1) to subscribe and to cancel.
  @discardableResult
  public func observeChanges<Owner: SubscriptionOwner>(
    _ owner: Owner, fileID: StaticString = #fileID, line: UInt = #line,
    _ handler: @escaping @MainActor (Owner, SectionedChange<Key, Element>) -> Void
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
      _publish(_engine.follow(behind))
    case .reevaluate(_, let changed):
      _reevaluate(changed: changed)
    }
  }

  /// Follows the change the array is delivering, the next one and no
  /// reload.
  @inlinable
  func _follow(_ change: ArrayChange<Element>) {
    _retireSnapshot()
    switch _engine.followLone(change.changeSet, movingAcrossSections: true) {
    case .stays(let section, let row)?:
      // One update whose row stays: no step, no rows to compare.
      guard row >= 0 else { return }
      _publishReload(RowPath(section: section, row: row))
      return
    case .moved(let from, let to)?:
      // One update whose row moved to another section: no step either.
      _publishMove(.init(from: from, to: to), changed: true)
      return
    case nil:
      break
    }
    let step = _engine.follow(change)
    _publish(step)
    _engine.recycle(step)
  }

  @inlinable
  func _reevaluate(changed: ((Element.ID) -> Bool)?) {
    _retireSnapshot()
    let old = _engine.evaluateAll()
    let new = _engine.sections.map { (key: $0.key, ids: _engine.tree.ids(of: $0.tree)) }
    var changedIDs: Set<Element.ID> = []
    if let changed {
      for section in new {
        for id in section.ids where changed(id) { changedIDs.insert(id) }
      }
    }
    _publish(SectionedBatchUpdate.difference(from: old, to: new, changedIDs: changedIDs))
  }

  /// Publishes one incremental step: a row redrawn in place, or moved
  /// across sections that stay, through the spare change; any other step
  /// as its batch update.
  @inlinable
  func _publish(_ step: _QueryEngine<Element, Key>.Step) {
    let touched = step.touched
    if touched.count == 1, step.deletedSections.isEmpty, step.insertedSections.isEmpty,
      touched[0].oldRow >= 0, touched[0].newRow >= 0
    {
      // One row that stays shown, the common case: no sets and no sorts.
      // Its fields are read in place: a copy goes through its value
      // witnesses.
      let to = RowPath(section: touched[0].newSection, row: touched[0].newRow)
      if touched[0].oldKey != touched[0].newKey {
        // Across sections (a toggle of the grouping field): one move.
        _publishMove(
          .init(from: RowPath(section: touched[0].oldSection, row: touched[0].oldRow), to: to),
          changed: touched[0].changed)
        return
      }
      if touched[0].oldRow == touched[0].newRow, touched[0].oldSection == touched[0].newSection {
        if touched[0].changed { _publishReload(to) }
        return
      }
    }
    _publish(_batchUpdate(for: step))
  }

  /// Publishes the batch of one row redrawn in place: its reload and its
  /// changed row, written over those of the last such change.
  ///
  /// An observer that keeps the change keeps its own copy of the batch
  /// (writing the next paths then copies it, as a new batch would have
  /// allocated). The spare is out only while it is delivered, and the
  /// array never delivers inside a delivery; a new change would do then.
  @inlinable
  func _publishReload(_ path: RowPath) {
    // Taken out, not bound and copied: the spare's batch stays unique.
    var change =
      _spareReload.take()
      ?? SectionedChange(_batchUpdate: SectionedBatchUpdate(reloads: [path], changedRows: [path]))
    change._batchUpdate._replaceReload(with: path)
    _publish(&change)
    _spareReload = consume change
  }

  /// Publishes the batch of one row moved across sections that stay: its
  /// move, and if its value changed, its reconfiguration and changed row,
  /// written over those of the last such change (``_publishReload(_:)``
  /// says how the spare is reused).
  @inlinable
  func _publishMove(_ move: SectionedBatchUpdate.RowMove, changed: Bool) {
    guard changed else {
      // Moved by a change undone in between: rare, and not kept.
      _publish(SectionedBatchUpdate(moves: [move]))
      return
    }
    var change =
      _spareMove.take()
      ?? SectionedChange(
        _batchUpdate: SectionedBatchUpdate(
          moves: [move], reconfigurations: [move.to], changedRows: [move.to]))
    change._batchUpdate._replaceChangedMove(with: move)
    _publish(&change)
    _spareMove = consume change
  }

  /// The batch update of one incremental step (other than one row redrawn
  /// in place or moved across sections: `_publish(_:)` takes those).
  @inlinable
  func _batchUpdate(for step: _QueryEngine<Element, Key>.Step) -> SectionedBatchUpdate {
    let touched = step.touched
    var batch = SectionedBatchUpdate(
      sectionDeletions: step.deletedSections, sectionInsertions: step.insertedSections)
    let deleted = Set(step.deletedSections)
    let inserted = Set(step.insertedSections)
    var kept: [Int] = []
    var changedRows: [RowPath] = []
    for (index, row) in touched.enumerated() {
      // A row of a deleted section goes with it; a row of an inserted one
      // comes with it.
      let leaves = row.oldRow >= 0 && !deleted.contains(row.oldSection)
      let enters = row.newRow >= 0 && !inserted.contains(row.newSection)
      let from = RowPath(section: row.oldSection, row: row.oldRow)
      let to = RowPath(section: row.newSection, row: row.newRow)
      if leaves && enters {
        if row.oldKey == row.newKey {
          kept.append(index)
        } else {
          batch.moves.append(.init(from: from, to: to))
          if row.changed {
            batch.reconfigurations.append(to)
            changedRows.append(to)
          }
        }
      } else {
        if leaves { batch.deletions.append(from) }
        if enters { batch.insertions.append(to) }
      }
    }
    let stays = _QueryEngine<Element, Key>.staying(kept, in: touched)
    for (position, index) in kept.enumerated() {
      let row = touched[index]
      let from = RowPath(section: row.oldSection, row: row.oldRow)
      let to = RowPath(section: row.newSection, row: row.newRow)
      if stays[position] {
        if row.changed { batch.reloads.append(from) }
      } else {
        batch.moves.append(.init(from: from, to: to))
        if row.changed { batch.reconfigurations.append(to) }
      }
      if row.changed { changedRows.append(to) }
    }
    batch.changedRows = changedRows.sorted()
    batch.deletions.sort()
    batch.insertions.sort()
    batch.reloads.sort()
    batch.reconfigurations.sort()
    batch.moves.sort { $0.to < $1.to }
    return batch
  }

  @inlinable
  func _publish(_ batch: consuming SectionedBatchUpdate) {
    guard !batch.isEmpty else { return }
    var change = SectionedChange<Key, Element>(_batchUpdate: batch)
    _publish(&change)
  }

  /// Publishes `change`, whose sections are set to the rows now for the
  /// delivery and let go of after it.
  @inlinable
  func _publish(_ change: inout SectionedChange<Key, Element>) {
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
  func _send(_ change: inout SectionedChange<Key, Element>) {
    // The array's contents by reference while the array delivers: an
    // observer's write to the array then copies nothing.
    change._sections = .deferred(
      _snapshots.make(
        source: self, count: _engine.sections.count,
        contents: _engine.array._currentContents(), sequence: _engine.array._changeSequence))
    change._number = _publishCount
    _observers.send(change)
    change._sections = .empty
  }

  /// Lets go of the last change's contents; if someone still holds the
  /// change, they are made first.
  @inlinable
  func _retireSnapshot() {
    _snapshots.retire()
  }
}

extension SectionedQuery: _ArrayFollower {
  @usableFromInline
  typealias Followed = Element
}

extension SectionedQuery: _SnapshotSource {
  @usableFromInline
  func _snapshotRows(contents: _ChangeContents<Element>, sequence: UInt64)
    -> [QuerySection<Key, Element>]
  {
    _engine.sections.map { section in
      let ids = _engine.tree.ids(of: section.tree)
      return QuerySection(
        key: section.key,
        elements: _engine.values(of: ids, contents: contents, sequence: sequence))
    }
  }
}

extension ObservableArray {
  /// A live query of the elements that match `isIncluded`, grouped by
  /// `sectionKey`, in ascending key order (or `sectionOrder`), each section
  /// in the order `areInIncreasingOrder` gives (ties in the array's order).
  ///
  /// ```swift
  /// let byDay = items.query(sortedBy: { $0.date < $1.date }, sectionedBy: { $0.day })
  /// ```
  ///
  /// - Parameters:
  ///   - isIncluded: Which elements the query shows; by default, every one.
  ///   - areInIncreasingOrder: The order of the rows in a section; by
  ///     default, the array's order.
  ///   - sectionKey: The key of an element's section.
  ///   - sectionOrder: The order of the sections; by default, ascending
  ///     keys.
  ///   - cells: The cells that `isIncluded` or `areInIncreasingOrder` read:
  ///     when one changes, every element is evaluated again; by default,
  ///     none.
  ///   - fileID: Where the query is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the query is made; by default, the caller's line.
  /// - Returns: The query; it lives as long as you hold it.
  /// - Complexity: O(*n* log *n*) to make; then O(log *n*) per changed
  ///   element, plus O(*s*) when a section appears or empties.
  @inlinable
  public func query<Key: Hashable & Comparable>(
    where isIncluded: @escaping (Element) -> Bool = { _ in true },
    sortedBy areInIncreasingOrder: ((Element, Element) -> Bool)? = nil,
    sectionedBy sectionKey: @escaping (Element) -> Key,
    sectionOrder: @escaping (Key, Key) -> Bool = { $0 < $1 },
    reading cells: any ObservableCell..., fileID: StaticString = #fileID, line: UInt = #line
  ) -> SectionedQuery<Key, Element> {
    let query = SectionedQuery(
      array: self, isIncluded: isIncluded, areInIncreasingOrder: areInIncreasingOrder,
      sectionKey: sectionKey, sectionOrder: sectionOrder, fileID: fileID, line: line)
    query._readers = cells.map { cell in
      _observeChanges(of: cell) { [weak query] in query?.reevaluate() }
    }
    return query
  }
}

// Found by the binding graph like a cell; see `LiveQuery`.
extension SectionedQuery: _GraphCell {
  var _graphList: _ObserverListBase { _observers }
}

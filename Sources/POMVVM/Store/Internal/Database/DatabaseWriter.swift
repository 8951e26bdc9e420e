import Dispatch

/// What the main actor does for a store's back end besides saving: the
/// database back end's session.
@MainActor
protocol _StoreSession: AnyObject {
  /// A save's outcome was published.
  func published(_ outcome: _SaveOutcome)
  /// Takes in other processes' commits now.
  func refresh() async
}

/// Writes a database store's bursts on the store's save thread, one
/// transaction each, and reads other processes' commits there, between
/// bursts, every `pollInterval` and on request.
final class _DatabaseWriter<Element: Identifiable & Codable & Sendable>: _StoreSaving,
  @unchecked Sendable
where Element.ID: Codable {
  let database: _StoreDatabase<Element>
  private let loop: _SaveLoop<_DatabaseBurst<Element>>
  /// Other processes' commits on their way to the main actor, and whether
  /// a task that takes them is scheduled.
  private let arrivals: _Locked<(changes: [_RemoteChanges<Element>], isScheduled: Bool)>
  private let notify: _Locked<(@Sendable () -> Void)?>

  init(
    database: _StoreDatabase<Element>, delay: DispatchTimeInterval,
    pollInterval: DispatchTimeInterval
  ) {
    self.database = database
    let arrivals = _Locked<(changes: [_RemoteChanges<Element>], isScheduled: Bool)>(([], false))
    let notify = _Locked<(@Sendable () -> Void)?>(nil)
    self.arrivals = arrivals
    self.notify = notify
    loop = _SaveLoop(
      delay: delay, retryDelay: .seconds(1), pollInterval: pollInterval,
      poll: {
        guard let changes = database.readChanges(force: false) else { return }
        let schedules = arrivals.withLock { arrivals in
          arrivals.changes.append(changes)
          defer { arrivals.isScheduled = true }
          return !arrivals.isScheduled
        }
        if schedules, let notify = notify.withLock({ $0 }) {
          notify()
        }
      },
      write: { burst in
        guard let error = database.commit(burst) else { return (nil, nil) }
        return (error, burst)
      })
  }

  /// Sets where the outcome of every background write goes.
  func onOutcome(_ report: @escaping @Sendable (_SaveOutcome) -> Void) {
    loop.onOutcome(report)
  }

  /// Sets what schedules the main actor's taking of other processes'
  /// commits (``takeArrivals()``), when the first waits.
  func onArrival(_ notify: @escaping @Sendable () -> Void) {
    self.notify.withLock { $0 = notify }
  }

  /// Other processes' commits read so far, oldest first.
  func takeArrivals() -> [_RemoteChanges<Element>] {
    arrivals.withLock { arrivals in
      defer { arrivals = ([], false) }
      return arrivals.changes
    }
  }

  func submit(_ burst: _DatabaseBurst<Element>, generation: Int) {
    loop.submit(burst, generation: generation)
  }

  /// Reads other processes' commits now, and calls `done` once they are
  /// waiting in ``takeArrivals()``.
  func refresh(then done: @escaping @Sendable () -> Void) {
    loop.pollNow(then: done)
  }

  func flush() -> _SaveOutcome {
    loop.flush()
  }

  func close() {
    loop.close { database.connection.close() }
  }

  var writeCount: Int { loop.writeCount }
}

/// A database store's work on the main actor: turning the array's changes
/// into bursts, and other processes' commits into changes of the array.
@MainActor
final class _DatabaseSession<Element: Identifiable & Codable & Sendable>: _StoreSession
where Element.ID: Codable {
  typealias ID = Element.ID

  let writer: _DatabaseWriter<Element>
  private weak var store: Store<Element>?
  /// The ids this store changed and has not saved yet, with the number of
  /// their last change: another process's value of them waits until they
  /// are saved (or their save is refused as a conflict).
  private var unsaved: [ID: Int] = [:]
  /// Other processes' values of unsaved ids, taken in once they are saved.
  private var waiting: [ID: (element: Element?, after: ID?, version: Int64)] = [:]
  /// Whether the array's change being made is another process's commit,
  /// which is not saved again.
  private(set) var isApplying = false

  init(writer: _DatabaseWriter<Element>, store: Store<Element>) {
    self.writer = writer
    self.store = store
  }

  // MARK: - This store's changes

  /// The burst that saves a change of the array (`nil`: only the
  /// sequence changed).
  func burst(for change: ArrayChange<Element>?, generation: Int, nextSequenceNumber: Int?)
    -> _DatabaseBurst<Element>
  {
    var burst = _DatabaseBurst<Element>()
    burst.nextSequenceNumber = nextSequenceNumber
    guard let change else { return burst }
    let changeSet = change.changeSet
    if let reload = changeSet.reload {
      let newIDs = reload.new.map(\.id)
      let kept = Set(newIDs)
      let old = Set(reload.old.map(\.id))
      for element in reload.old where !kept.contains(element.id) {
        burst.operations.append(.remove(element.id))
        unsaved[element.id] = generation
      }
      var previous: ID?
      for element in reload.new {
        if !old.contains(element.id) {
          burst.operations.append(.place(element.id, after: previous, before: nil, isNew: true))
        }
        burst.values[element.id] = element
        unsaved[element.id] = generation
        previous = element.id
      }
      burst.operations.append(.renumber(newIDs))
      return burst
    }
    for removal in changeSet.removals {
      burst.operations.append(.remove(removal.element.id))
      unsaved[removal.element.id] = generation
    }
    if !changeSet.insertions.isEmpty || !changeSet.moves.isEmpty {
      let elements = change.newElements
      var entering: [(index: Int, isNew: Bool)] =
        changeSet.insertions.map { ($0.index, true) } + changeSet.moves.map { ($0.to, false) }
      entering.sort { $0.index < $1.index }
      // The index of the next element that stays where it was, for each
      // entering one: the entering ones after it come next, in order.
      // Computed from the end, so that a run of k insertions (an append)
      // costs O(k), not O(k²).
      var stays = [Int](repeating: 0, count: entering.count)
      for position in entering.indices.reversed() {
        let next = entering[position].index + 1
        let following = position + 1
        stays[position] =
          following < entering.count && entering[following].index == next
          ? stays[following] : next
      }
      for (position, (index, isNew)) in entering.enumerated() {
        let next = stays[position]
        let id = elements[index].id
        burst.operations.append(
          .place(
            id, after: index > 0 ? elements[index - 1].id : nil,
            before: next < elements.count ? elements[next].id : nil, isNew: isNew))
        if isNew {
          burst.values[id] = elements[index]
        }
        unsaved[id] = generation
      }
    }
    for update in changeSet.updates {
      burst.values[update.newElement.id] = update.newElement
      unsaved[update.newElement.id] = generation
    }
    return burst
  }

  func published(_ outcome: _SaveOutcome) {
    guard outcome.error == nil else { return }
    var saved: [ID] = []
    for (id, generation) in unsaved where generation <= outcome.generation {
      saved.append(id)
    }
    var arrived = _RemoteChanges<Element>(through: 0)
    for id in saved {
      unsaved[id] = nil
      // Saved without a conflict: the other process's value is newer.
      if let waiting = waiting.removeValue(forKey: id) {
        if let element = waiting.element {
          arrived.rows.append((element, waiting.after, waiting.version))
        } else {
          arrived.removed.append((id, waiting.version))
        }
      }
    }
    if !arrived.rows.isEmpty || !arrived.removed.isEmpty {
      let ids = arrived.rows.map(\.element.id) + arrived.removed.map(\.id)
      writer.database.sync.withLock { sync in
        for id in ids { sync.stale[id] = nil }
      }
      apply(arrived)
    }
  }

  // MARK: - Other processes' commits

  func refresh() async {
    let writer = writer
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      writer.refresh { continuation.resume() }
    }
    takeArrivals()
  }

  /// Takes in the commits that arrived, oldest first.
  func takeArrivals() {
    for changes in writer.takeArrivals() {
      takeIn(changes)
    }
  }

  /// Takes in one read of other processes' commits: the rows this store
  /// has not changed are applied to the array, as one change; the others
  /// wait until this store's changes of them are saved.
  private func takeIn(_ changes: _RemoteChanges<Element>) {
    var ready = _RemoteChanges<Element>(through: changes.through)
    var stale: [ID: Int64] = [:]
    for row in changes.rows {
      if unsaved[row.element.id] != nil {
        waiting[row.element.id] = (row.element, row.after, row.version)
        stale[row.element.id] = row.version - 1
      } else {
        ready.rows.append(row)
      }
    }
    for removal in changes.removed {
      if unsaved[removal.id] != nil {
        waiting[removal.id] = (nil, nil, removal.version)
        stale[removal.id] = removal.version - 1
      } else {
        ready.removed.append(removal)
      }
    }
    writer.database.sync.withLock { sync in
      sync.lastSynced = max(sync.lastSynced, changes.through)
      for (id, version) in stale where sync.stale[id] == nil {
        sync.stale[id] = version
      }
    }
    if let next = changes.nextSequenceNumber {
      store?.adoptSequence(next)
    }
    apply(ready)
  }

  /// Applies other processes' rows to the array, as one change of only
  /// those elements.
  private func apply(_ changes: _RemoteChanges<Element>) {
    guard let items = store?.items, !changes.rows.isEmpty || !changes.removed.isEmpty else {
      return
    }
    isApplying = true
    defer { isApplying = false }
    // One row edited in place, or one removed: the array's own mutation.
    if changes.removed.isEmpty, changes.rows.count == 1, let row = changes.rows.first,
      let index = items.index(id: row.element.id),
      (index > 0 ? items[index - 1].id : nil) == row.after
    {
      items.replace(at: index, with: row.element)
      return
    }
    if changes.rows.isEmpty, changes.removed.count == 1 {
      _ = items.remove(id: changes.removed[0].id)
      return
    }
    if let patch = Self.patch(for: changes, in: items),
      items._patch(leaving: patch.leaving, entering: patch.entering, updates: patch.updates)
    {
      return
    }
    replaceAll(with: changes, in: items)
  }

  /// What a read of other processes' commits changes in the array.
  ///
  /// In the terms of `ObservableArray._patch`: the elements that leave
  /// their place (removed, or moved), the runs that enter after an element
  /// that stays, and the elements edited in place. `nil` if the rows do
  /// not describe one order (then the array is rebuilt instead).
  ///
  /// Each row comes with the id of the row before it in the database. A
  /// changed element stays in place if the element before it here, not
  /// counting the changed and removed ones, is the one it follows in the
  /// database, not counting the changed ones (its anchor), and it comes
  /// after the others that stay behind that anchor; any other changed
  /// element leaves and enters again after its anchor among the elements
  /// that stay. O(k log k) for k rows, apart from the look-ups by id.
  static func patch(for changes: _RemoteChanges<Element>, in items: ObservableArray<Element>)
    -> (
      leaving: [Int], entering: [ObservableArray<Element>._EnteringRun],
      updates: [(position: Int, element: Element)]
    )?
  {
    var rows: [ID: (element: Element, after: ID?)] = [:]
    for row in changes.rows {
      guard rows.updateValue((row.element, row.after), forKey: row.element.id) == nil else {
        return nil
      }
    }
    var removed: [ID: Int] = [:]
    for removal in changes.removed {
      guard rows[removal.id] == nil else { return nil }
      if let position = items.index(id: removal.id) {
        removed[removal.id] = position
      }
    }
    // Where each changed element is now, and the element before it, not
    // counting changed and removed ones: from the positions in order.
    var present: [(position: Int, id: ID)] = []
    for id in rows.keys {
      if let position = items.index(id: id) { present.append((position, id)) }
    }
    var skipped = present.map(\.position) + Array(removed.values)
    skipped.sort()
    var before: [Int: ID?] = [:]
    for (offset, position) in skipped.enumerated() {
      if offset > 0, skipped[offset - 1] == position - 1 {
        before[position] = before[skipped[offset - 1]] ?? nil
      } else {
        before[position] = position > 0 ? items[position - 1].id : nil
      }
    }
    // Each row's anchor: the first row before it in the database that did
    // not change (nil: the start), and how far behind it it is.
    guard let anchors = chains(of: rows, through: { rows[$0] != nil }) else { return nil }
    // In place: behind its anchor here too, and in the database's order
    // among the others behind that anchor.
    var candidates: [(depth: Int, position: Int, id: ID)] = []
    for (position, id) in present {
      guard let anchor = anchors[id], let previous = before[position], previous == anchor.anchor
      else { continue }
      candidates.append((anchor.depth, position, id))
    }
    candidates.sort { $0.depth < $1.depth }
    var lastPosition: [ID?: Int] = [:]
    var inPlace: [ID: Int] = [:]
    for candidate in candidates {
      let anchor = anchors[candidate.id]?.anchor ?? nil
      if let last = lastPosition[anchor], last > candidate.position { continue }
      lastPosition[anchor] = candidate.position
      inPlace[candidate.id] = candidate.position
    }
    // The others enter after the nearest row before them that stays.
    guard
      let entries = chains(of: rows, through: { rows[$0] != nil && inPlace[$0] == nil })
    else { return nil }
    var runs: [ID?: [(depth: Int, element: Element)]] = [:]
    var leaving = Array(removed.values)
    var updates: [(position: Int, element: Element)] = []
    for (id, row) in rows {
      if let position = inPlace[id] {
        updates.append((position, row.element))
        continue
      }
      if let position = items.index(id: id) { leaving.append(position) }
      guard let (anchor, depth) = entries[id] else { return nil }
      runs[anchor, default: []].append((depth, row.element))
    }
    leaving.sort()
    var entering: [ObservableArray<Element>._EnteringRun] = []
    var atEnd = Set<ID>()
    for (anchor, run) in runs {
      let elements = run.sorted { $0.depth < $1.depth }.map(\.element)
      guard let anchor else {
        entering.append(.init(after: -1, elements: elements))
        continue
      }
      // An anchor that is not here (this store removed it and has not
      // saved that yet), or leaves: at the end.
      if let position = items.index(id: anchor), removed[anchor] == nil {
        entering.append(.init(after: position, elements: elements))
      } else {
        atEnd.formUnion(elements.map(\.id))
      }
    }
    entering.sort { ($0.after ?? .max) < ($1.after ?? .max) }
    if !atEnd.isEmpty {
      // In the rows' order.
      entering.append(
        .init(
          after: nil,
          elements: changes.rows.lazy.map(\.element).filter { atEnd.contains($0.id) }))
    }
    return (leaving, entering, updates)
  }

  /// For each row, the first id before it, following the rows' `after`
  /// while `passes` holds for it (`nil`: the start), and how many rows it
  /// passed; `nil` if the rows' `after` go round in a circle.
  ///
  /// Iterative, and each row is walked once: a commit of many rows in a
  /// row (an append of thousands) makes long chains.
  static func chains(
    of rows: [ID: (element: Element, after: ID?)], through passes: (ID) -> Bool
  ) -> [ID: (anchor: ID?, depth: Int)]? {
    var result: [ID: (anchor: ID?, depth: Int)] = [:]
    result.reserveCapacity(rows.count)
    var chain: [ID] = []
    for start in rows.keys where result[start] == nil {
      chain.removeAll(keepingCapacity: true)
      var current = start
      var end: (anchor: ID?, depth: Int)
      while true {
        if let known = result[current] {
          end = known
          break
        }
        chain.append(current)
        guard chain.count <= rows.count, let row = rows[current] else { return nil }
        if let after = row.after, passes(after) {
          current = after
        } else {
          end = (row.after, -1)
          break
        }
      }
      for id in chain.reversed() {
        end.depth += 1
        result[id] = end
      }
    }
    return result
  }

  /// Applies other processes' rows by rebuilding the array's contents: one
  /// `replaceAll` that reports only their ids as changed.
  private func replaceAll(with changes: _RemoteChanges<Element>, in items: ObservableArray<Element>)
  {
    var leaving = Set(changes.removed.map(\.id))
    let changed = Set(changes.rows.map(\.element.id))
    leaving.formUnion(changed)
    // The rows that enter after each id (or at the start), in order.
    var following: [ID: [Element]] = [:]
    var atStart: [Element] = []
    var placed = Set<ID>()
    for row in changes.rows {
      // A row whose neighbour is not here (this store removed it and has
      // not saved that yet) goes at the end, below.
      if let after = row.after {
        following[after, default: []].append(row.element)
      } else {
        atStart.append(row.element)
      }
    }
    var contents: [Element] = []
    contents.reserveCapacity(items.count + changes.rows.count)
    func append(_ element: Element) {
      guard placed.insert(element.id).inserted else { return }
      contents.append(element)
      for next in following.removeValue(forKey: element.id) ?? [] {
        append(next)
      }
    }
    for element in atStart { append(element) }
    for element in items where !leaving.contains(element.id) {
      append(element)
    }
    // Rows whose neighbour is nowhere: at the end, in their order.
    for row in changes.rows where !placed.contains(row.element.id) {
      append(row.element)
    }
    _ = items._replaceAll(
      with: contents, isUnchanged: { old, _ in !changed.contains(old.id) },
      fileID: #fileID, line: #line)
  }
}

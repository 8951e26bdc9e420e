/// Undo and redo for shared state: every change of the arrays and cells it
/// tracks becomes a step that ``undo(fileID:line:)`` takes back and
/// ``redo(fileID:line:)`` makes again.
///
/// ```swift
/// let history = UndoHistory()
/// history.track(items, actionName: "Edit")
/// history.transaction("Rename") {
///   items.cell(for: 1)?.value.text = "groceries"
/// }
/// history.undoActionName.value   // "Rename"
/// history.undo()                 // the old text is back
/// history.redo()                 // "groceries" again
/// ```
///
/// ## Ordinary changes
///
/// The history is an ordinary observer: it records the change sets a
/// tracked ``ObservableArray`` publishes and the old and new values of a
/// tracked ``Observable``. Undo applies the inverse through the same
/// public mutations (`replace`, `insert`, `remove`, `move`, `replaceAll`,
/// setting `value`), so element cells, aggregates, list views, Observation
/// trackers and stores see normal changes, and a store saves them. The
/// history's own changes are not recorded. A step holds only the elements
/// its changes touched, never a copy of an array.
///
/// ## Steps
///
/// - Every recorded change is a step of its own, named by the action name
///   given to `track(_:actionName:fileID:line:)`, except that:
/// - **typing merges**: a change that only updates the same element as the
///   step before it (or sets the same cell), within ``mergeWindow`` of the
///   step's last change, joins that step. ``stopMerging()``, an undo, a
///   redo and a transaction end a step early. Changes of *different*
///   elements are separate steps.
/// - ``transaction(_:_:)`` makes everything inside it one step, under its
///   name; nested transactions join the outermost.
/// - ``withoutRecording(_:)`` makes changes that are never undone; such a
///   change ends the step that the next change of the same object would
///   merge into.
/// - A change an observer makes while a recorded change is delivered (a
///   reaction) joins that change's step; reactions to an undo or redo are
///   not recorded, since the step holds them already.
/// - A new recorded step clears the redo steps.
/// - At most ``limit`` steps are kept; the oldest goes first.
///   ``removeAllSteps()`` forgets them all.
///
/// ## Conflicts
///
/// Steps are applied by element id: elements leave by id, come back at
/// their old index (or the end, if the array is shorter now) and take back
/// their old values. A change made without recording that touches other
/// elements does not stop an undo. A step recorded from a reload holds what
/// the reload changed, by id (removed, inserted and changed elements, and
/// the order of the others), so it restores nothing it did not change; an
/// element it only reordered may be gone. But if a change made the step
/// impossible — an element the step would re-insert is present, or one it
/// would remove, move or restore is gone — ``undo(fileID:line:)`` checks the whole step
/// first and changes nothing: it reports the conflict to ``Diagnostics``,
/// returns `false`, drops that step (it can never apply), and clears the
/// redo steps; older steps stay and the next undo tries them. A conflict
/// on redo drops every redo step.
///
/// ## Re-entrancy
///
/// Call `undo()`, `redo()`, ``transaction(_:_:)`` and
/// ``withoutRecording(_:)`` from user actions, not from an observer of a
/// tracked array while it delivers a change: a change made there reaches
/// the history only after the current one, outside the call. Undo and redo
/// refuse (and report) when a tracked array is delivering a change, or
/// inside a transaction.
///
/// An observer of ``canUndo``, ``canRedo`` or the action names may undo or
/// redo: the cells end with the newest state.
///
/// The history holds what it tracks weakly: a tracked object that goes away
/// is no longer followed, and the steps that only changed released objects
/// are dropped then, so ``canUndo`` and ``canRedo`` tell the truth.
@MainActor
public final class UndoHistory {
  /// Whether ``undo(fileID:line:)`` has a step to take back.
  public let canUndo = Derived(false)

  /// Whether ``redo(fileID:line:)`` has a step to make again.
  public let canRedo = Derived(false)

  /// The name of the step that ``undo(fileID:line:)`` takes back, for
  /// "Undo Rename"; `nil` when there is none, or it has no name.
  public let undoActionName = Derived<String?>(nil)

  /// The name of the step that ``redo(fileID:line:)`` makes again, for
  /// "Redo Rename"; `nil` when there is none, or it has no name.
  public let redoActionName = Derived<String?>(nil)

  /// The most undo steps kept, 100 by default.
  ///
  /// When a new step would exceed it, the oldest goes; `0` keeps none.
  /// Lowering it drops the oldest steps at once.
  public var limit: Int {
    didSet {
      precondition(limit >= 0, "UndoHistory: the limit must not be negative, not \(limit)")
      trim()
      refresh()
    }
  }

  /// How long after a step's last change a change of the same element or
  /// cell still joins it.
  public let mergeWindow: Duration

  /// How many steps ``undo(fileID:line:)`` can take back.
  public var undoCount: Int { undoSteps.count }

  /// How many steps ``redo(fileID:line:)`` can make again.
  public var redoCount: Int { redoSteps.count }

  // The state skips Swift's run-time exclusivity checks, which cost about a
  // tenth of a recorded toggle: it is touched only on the main actor, and
  // no access to it spans a call out of the history.

  @exclusivity(unchecked)
  var undoSteps: [_UndoStep] = []
  @exclusivity(unchecked)
  var redoSteps: [_UndoStep] = []
  /// The step a transaction is filling.
  @exclusivity(unchecked)
  var openStep: _UndoStep?
  var transactionDepth = 0
  @usableFromInline
  @exclusivity(unchecked)
  var notRecordingDepth = 0
  /// Set while the history applies a step, so that its own changes are not
  /// recorded.
  @usableFromInline
  @exclusivity(unchecked)
  var isApplying = false
  /// Whether the top step may take the next change of the same element or
  /// cell.
  @exclusivity(unchecked)
  var isMerging = false
  /// What ``canUndo``, ``canRedo``, ``undoActionName`` and
  /// ``redoActionName`` hold, to update them only when they change.
  @exclusivity(unchecked)
  var published = (canUndo: false, canRedo: false, undo: String?.none, redo: String?.none)
  /// Bumped by every ``refresh()`` that publishes: an observer of one of the
  /// cells may undo or redo, which publishes newer state while an older
  /// refresh is halfway through its cells.
  @exclusivity(unchecked)
  var refreshes = 0
  /// The time since the history was made, on its clock.
  let now: @MainActor () -> Duration
  @usableFromInline
  var _subscriptions: [Subscription] = []
  /// The tracked objects, to follow each once and to see whether one is
  /// delivering a change.
  @exclusivity(unchecked)
  var tracked: [_TrackedObject] = []

  /// Creates an empty history.
  ///
  /// ```swift
  /// let clock = ManualClock()                 // in POMVVMTesting
  /// let history = UndoHistory(clock: clock)
  /// cell.value = "a"
  /// await clock.advance(by: .seconds(2))      // past the merge window
  /// cell.value = "ab"                         // a step of its own
  /// ```
  ///
  /// - Parameters:
  ///   - limit: The most steps kept; 100 by default.
  ///   - mergeWindow: How long after a change of an element or cell the next
  ///     change of it still joins the same step; one second by default.
  ///   - clock: The clock the merge window is measured on; by default, a
  ///     `ContinuousClock`. Tests pass a `ManualClock` they move by hand.
  public init(
    limit: Int = 100, mergeWindow: Duration = .seconds(1),
    clock: some Clock<Duration> = ContinuousClock()
  ) {
    precondition(limit >= 0, "UndoHistory: the limit must not be negative, not \(limit)")
    self.limit = limit
    self.mergeWindow = mergeWindow
    self.now = Self.elapsed(on: clock)
  }

  /// Creates an empty history whose merge window is measured by `elapsed`,
  /// the time since the history was made.
  init(limit: Int, mergeWindow: Duration, elapsed: @escaping @MainActor () -> Duration) {
    precondition(limit >= 0, "UndoHistory: the limit must not be negative, not \(limit)")
    self.limit = limit
    self.mergeWindow = mergeWindow
    self.now = elapsed
  }

  /// The time since now on `clock`, read on every recorded change: for the
  /// default clock, a closure that calls it directly rather than through
  /// the generic clock's witnesses.
  private static func elapsed(on clock: some Clock<Duration>) -> @MainActor () -> Duration {
    if clock is ContinuousClock {
      let start = ContinuousClock.now
      return { start.duration(to: .now) }
    }
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  // MARK: - Undo and redo

  /// Takes back the newest step, through the tracked objects' ordinary
  /// mutations.
  ///
  /// The whole step is checked before anything changes: on a conflict (see
  /// <doc:UndoAndRedo>) nothing changes, the conflict is reported to
  /// ``Diagnostics``, the step is dropped and the redo steps are cleared.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file, for a report; by default, the caller's.
  ///   - line: The caller's line, for a report; by default, the caller's.
  /// - Returns: `true` if a step was taken back; `false` if there was none,
  ///   or it conflicted, or the history is busy.
  /// - Complexity: O(the elements the step touched), besides the mutations'
  ///   own cost; O(*n*) for a step made of a change that touched several
  ///   elements of an array of *n*.
  @discardableResult
  public func undo(fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
    guard isIdle(for: "undo", fileID: fileID, line: line) else { return false }
    dropReleasedSteps(from: &undoSteps)
    guard let step = undoSteps.popLast() else {
      refresh()
      return false
    }
    isMerging = false
    if let conflict = step.conflict(.undo) {
      redoSteps.removeAll()
      refresh()
      Diagnostics.report(
        "undo refused: \(conflict); \(Self.describe(step)) was dropped from the history and "
          + "nothing changed", fileID: fileID, line: line)
      return false
    }
    applying { step.apply(.undo) }
    redoSteps.append(step)
    refresh()
    return true
  }

  /// Makes the step that was taken back last again.
  ///
  /// Like ``undo(fileID:line:)``, it checks the whole step first; on a
  /// conflict nothing changes, it is reported, and every redo step is
  /// dropped.
  ///
  /// - Parameters:
  ///   - fileID: The caller's file, for a report; by default, the caller's.
  ///   - line: The caller's line, for a report; by default, the caller's.
  /// - Returns: `true` if a step was made again; `false` if there was none,
  ///   or it conflicted, or the history is busy.
  /// - Complexity: Like ``undo(fileID:line:)``.
  @discardableResult
  public func redo(fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
    guard isIdle(for: "redo", fileID: fileID, line: line) else { return false }
    dropReleasedSteps(from: &redoSteps)
    guard let step = redoSteps.popLast() else {
      refresh()
      return false
    }
    isMerging = false
    if let conflict = step.conflict(.redo) {
      redoSteps.removeAll()
      refresh()
      Diagnostics.report(
        "redo refused: \(conflict); the redo steps were dropped and nothing changed",
        fileID: fileID, line: line)
      return false
    }
    applying { step.apply(.redo) }
    undoSteps.append(step)
    trim()
    refresh()
    return true
  }

  // MARK: - Shaping steps

  /// Makes every change inside `body` one step, named `name`.
  ///
  /// A transaction inside another joins the outermost, under the
  /// outermost's name. A transaction that changes nothing adds no step, and
  /// one that changes something clears the redo steps. A transaction is a
  /// step of its own: it never merges with the step before or after it.
  ///
  /// If `body` throws, the changes it made so far stay made and are recorded
  /// as one step, which one undo takes back; the error is rethrown.
  ///
  /// ```swift
  /// history.transaction("Clear Done") {
  ///   items.batch { $0.removeAll(where: \.done) }
  ///   doneCount.value = 0
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - name: The step's name, for "Undo Clear Done".
  ///   - body: The changes.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  @discardableResult
  public func transaction<Result, Failure: Error>(
    _ name: String, _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    if transactionDepth == 0 {
      openStep = _UndoStep(name: name, lastChange: now())
      isMerging = false
    }
    transactionDepth += 1
    defer {
      transactionDepth -= 1
      if transactionDepth == 0 { closeTransaction() }
    }
    return try body()
  }

  /// Runs `body` with nothing recorded: for changes that must never be
  /// undone, such as loading from disk or a server's update.
  ///
  /// The history goes on following the tracked cells' values, so a later
  /// recorded change of a cell undoes to the value `body` left.
  ///
  /// - Parameter body: The changes.
  /// - Returns: What `body` returns.
  /// - Throws: What `body` throws.
  @discardableResult
  public func withoutRecording<Result, Failure: Error>(
    _ body: () throws(Failure) -> Result
  ) throws(Failure) -> Result {
    notRecordingDepth += 1
    defer { notRecordingDepth -= 1 }
    return try body()
  }

  /// Forgets every undo and redo step, as when a document is closed or
  /// replaced.
  ///
  /// The tracked objects stay tracked: their next change is a new step. In
  /// a transaction, the changes made so far in it are forgotten too.
  public func removeAllSteps() {
    undoSteps.removeAll()
    redoSteps.removeAll()
    if let openStep { self.openStep = _UndoStep(name: openStep.name, lastChange: now()) }
    isMerging = false
    refresh()
  }

  /// Ends the current step: the next change starts a new one, even if it
  /// changes the same element or cell within the merge window.
  ///
  /// Call it where a user would expect a pause in typing to end a step: on
  /// leaving a text field, say.
  public func stopMerging() {
    isMerging = false
  }

  // MARK: - Recording

  /// Whether a change reaching the history now is recorded.
  @inlinable
  var _isRecording: Bool { notRecordingDepth == 0 && !isApplying }

  /// Records a change: into the open transaction, into the top step if it
  /// merges, or as a new step.
  ///
  /// - Parameters:
  ///   - object: The identity of the tracked object that changed.
  ///   - delivery: The number of the object's delivery under way, which the
  ///     change is part of.
  ///   - makeRecord: Makes the change's record.
  ///   - merge: Folds the change into a record of the same element or cell,
  ///     if it can; whether it did.
  ///   - reuse: Makes a record of the same object, which is going, the
  ///     change's record, if it can; whether it did.
  ///   - isMergeable: Whether a step made of this change may take later ones.
  ///   - actionName: The name of a new step outside a transaction.
  @usableFromInline
  func _record(
    of object: ObjectIdentifier, delivery: UInt64?, _ makeRecord: () -> any _UndoRecord,
    merge: (any _UndoRecord) -> Bool, reuse: (any _UndoRecord) -> Bool, isMergeable: Bool,
    actionName: String?
  ) {
    if let openStep {
      if let last = openStep.last, merge(last) { return }
      openStep.append(makeRecord())
      return
    }
    let current = _DeliveryKey(object: object, number: delivery)
    if let top = undoSteps.last, top.isReacting({ isUnderWay($0, current) }) {
      // A reaction: an observer's change made while a change of the top
      // step is still being delivered belongs to that step.
      if let last = top.last, last.object.map(ObjectIdentifier.init) == object, merge(last) {
        return
      }
      top.append(makeRecord())
      top.noteDeliveries(current, others: deliveries(besides: current.object))
      isMerging = false
      return
    }
    let time = now()
    if isMerging, let top = undoSteps.last, time - top.lastChange <= mergeWindow,
      let last = top.last, merge(last)
    {
      top.lastChange = time
      return
    }
    isMerging = isMergeable
    // At the limit, the oldest step goes as this one comes: when it is one
    // record of the same object, it becomes the new step, which saves
    // freeing two objects and making them again.
    if limit > 0, undoSteps.count == limit, redoSteps.isEmpty,
      isKnownUniquelyReferenced(&undoSteps[0]), undoSteps[0].reuse(named: actionName, reuse)
    {
      let step = undoSteps.removeFirst()
      step.lastChange = time
      step.setDeliveries(current, others: deliveries(besides: current.object))
      undoSteps.append(step)
      refresh()
      return
    }
    let step = _UndoStep(name: actionName, record: makeRecord(), lastChange: time)
    step.setDeliveries(current, others: deliveries(besides: current.object))
    push(step)
  }

  /// Notes a change that is not recorded: it ends the step that the next
  /// change of the same object would merge into, so that an undo of that
  /// step never takes back the unrecorded change too.
  @usableFromInline
  func _skip(_ object: AnyObject) {
    if isMerging, let last = undoSteps.last?.last, last.object === object {
      isMerging = false
    }
  }

  private func closeTransaction() {
    guard let step = openStep else { return }
    openStep = nil
    isMerging = false
    guard !step.isEmpty else { return }
    push(step)
  }

  private func push(_ step: _UndoStep) {
    undoSteps.append(step)
    if !redoSteps.isEmpty { redoSteps.removeAll() }
    trim()
    refresh()
  }

  private func applying(_ body: () -> Void) {
    isApplying = true
    defer { isApplying = false }
    body()
  }

  private func trim() {
    if undoSteps.count > limit {
      undoSteps.removeFirst(undoSteps.count - limit)
    }
  }

  private func dropReleasedSteps(from steps: inout [_UndoStep]) {
    while let step = steps.last, !step.isAlive {
      steps.removeLast()
    }
  }

  /// Brings the observable state up to date with the steps.
  ///
  /// An observer of one of the cells may undo or redo (or change a tracked
  /// object) while they are updated: the nested refresh publishes every
  /// cell with the newer state, and this one stops there, so that it never
  /// writes an older value over a newer one.
  func refresh() {
    let now = (
      canUndo: !undoSteps.isEmpty, canRedo: !redoSteps.isEmpty, undo: undoSteps.last?.name,
      redo: redoSteps.last?.name
    )
    guard now != published else { return }
    published = now
    refreshes &+= 1
    let refresh = refreshes
    canUndo.update(now.canUndo)
    guard refresh == refreshes else { return }
    canRedo.update(now.canRedo)
    guard refresh == refreshes else { return }
    undoActionName.update(now.undo)
    guard refresh == refreshes else { return }
    redoActionName.update(now.redo)
  }

  /// Whether the delivery `key` is still under way, `current` being the
  /// delivery of the change recorded now.
  func isUnderWay(_ key: _DeliveryKey, _ current: _DeliveryKey) -> Bool {
    guard let number = key.number else { return false }
    if key.object == current.object { return current.number == number }
    guard let index = tracked.firstIndex(where: { $0.id == key.object }),
      tracked[index].isAlive()
    else { return false }
    return tracked[index].delivery() == number
  }

  /// The tracked objects other than `id` that are delivering now, with
  /// their delivery numbers.
  func deliveries(besides id: ObjectIdentifier) -> [_DeliveryKey] {
    // One tracked object, the common case: it is the one that changed.
    guard tracked.count > 1 else { return [] }
    var keys: [_DeliveryKey] = []
    for index in tracked.indices where tracked[index].id != id {
      if let number = tracked[index].delivery() {
        keys.append(_DeliveryKey(object: tracked[index].id, number: number))
      }
    }
    return keys
  }

  /// Drops the steps whose objects have all been released.
  ///
  /// So ``canUndo`` and ``canRedo`` tell the truth: a step that can never
  /// apply is not a step to undo. Called when a tracked object goes.
  func _trackedObjectWasReleased() {
    let counts = (undoSteps.count, redoSteps.count)
    undoSteps.removeAll { !$0.isAlive }
    redoSteps.removeAll { !$0.isAlive }
    guard counts != (undoSteps.count, redoSteps.count) else { return }
    refresh()
  }

  private func isIdle(for action: String, fileID: StaticString, line: UInt) -> Bool {
    if transactionDepth > 0 {
      Diagnostics.report(
        "\(action) refused: a transaction is open; nothing changed", fileID: fileID, line: line)
      return false
    }
    if tracked.contains(where: { $0.isArray && $0.delivery() != nil }) {
      Diagnostics.report(
        "\(action) refused: a tracked array is delivering a change; nothing changed",
        fileID: fileID, line: line)
      return false
    }
    return true
  }

  private static func describe(_ step: _UndoStep) -> String {
    step.name.map { "the step \"\($0)\"" } ?? "the step"
  }
}

/// A tracked object, not kept alive.
@MainActor
struct _TrackedObject {
  /// The object's identity, while it lives.
  let id: ObjectIdentifier
  /// Whether the object still lives: a weak reference's test for a cell, the
  /// array's own flag for an array (see ``ObservableArray/_life``).
  let isAlive: @MainActor () -> Bool
  /// Whether the object is an array (undo refuses while one delivers).
  let isArray: Bool
  /// The number of the object's delivery under way — the change being
  /// delivered, and the changes made while it is — or `nil`.
  let delivery: @MainActor () -> UInt64?
}

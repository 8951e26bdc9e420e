/// Records every change of a view model's state, and fails a test on any
/// change it did not expect: exhaustive testing, as TCA's `TestStore` does
/// it for reducers.
///
/// The recorder finds every cell, derived cell, aggregate, array, event
/// stream and query reachable from the root, the way `BindingGraph` does —
/// at any depth, through view models, collections, optionals, enum payloads
/// and the values of cells — names each by its property path (`detail.on`,
/// `rows[2].text`, `destination.value.detail.title`, `openSwitchCount`) and
/// observes it. Each ``perform(_:expecting:fileID:filePath:line:column:)-52utz``
/// runs an action, then compares what changed during it with what the
/// expectations say:
///
/// ```swift
/// let recorder = StateRecorder(of: screen)
/// recorder.perform {
///   screen.rows[1].toggleSwitch()
/// } expecting: {
///   $0.changed(\.rows[1].on, to: true)
///   $0.changed(\.detail.on, to: true)
///   $0.changed(\.master.openSwitchCount, to: 1)
///   $0.changed(\.master.items) { $0.changeSet.updates.count == 1 }
/// }
/// ```
///
/// Every problem of a step is listed in one failure, at the line of
/// `perform`: each change nobody expected (with its old and new value, as a
/// diff), each expected change that did not happen or happened with another
/// value, each event nobody expected.
///
/// ## Nothing slips by
///
/// The recorder keeps recording between steps. A change made after a step's
/// action returned — by an effect that finishes late — is held for the next
/// step, marked as late, or reported by ``finish(fileID:filePath:line:column:)``,
/// which ends the recording. A recorder released while it holds changes no
/// step or `finish()` reported fails the test at the line that made it,
/// listing them: like Turbine's "unconsumed events", a change the test never
/// looked at is a failure, not a pass. So await an async action inside
/// `perform`, assert what it changes there, and call `finish()` at the end
/// of a test whose effects may still run.
///
/// ## State that comes and goes
///
/// After each action the recorder searches the root again. State that the
/// action created — a pushed screen, a presented sheet, a new row's view
/// model — is reported as *added*, whole, with the value it has at the end
/// of the step (the changes it went through during the step are part of
/// that value), and the step must expect it with
/// ``StateExpectations/added(_:where:)-(KeyPath<Root,Model>,_)`` or
/// ``StateExpectations/added(_:like:)-(KeyPath<Root,Model>,_)``; it is
/// followed from then on. An event that new state sends in the step that
/// made it reachable (a presented form that submits at once) is recorded,
/// and expected with `sent` like any other; one sent before anything made
/// it reachable (in its initializer) is not. State that the action made unreachable — a
/// dismissed sheet, a deleted row — is no longer followed; a change it made
/// before it left is still reported, under the path it had, and a step can
/// expect it by that path (`$0.changed(\.sheet?.title, to: "Saved")`), also
/// through the kit's computed navigation (`\.sheet.destination?.title`,
/// `\.path[1]?.detail?.title`, `\.path[id: id]?.detail?.title`).
///
/// ## Nothing is skipped silently
///
/// What the recorder cannot look into — a closure, an actor, an object that
/// is not a view model — it lists once, by path, as a note
/// (not recorded: `cache` (a closure)). Exclude a path on purpose with
/// `ignoring:` (``init(of:ignoring:fileID:filePath:line:column:)``).
///
/// ## Exhaustivity
///
/// By default every change must be expected. For integration tests, where a
/// step moves many cells the test is not about, set ``exhaustivity`` to
/// ``Exhaustivity/off``: only the cells, arrays and streams that the
/// expectations name are checked (their expected changes must come, in
/// order, among what they did). ``Exhaustivity/off(showSkippedChanges:)``
/// lists the changes it skipped without failing the test.
///
/// Everything happens on the main actor, so changes made off it (by a task
/// that has not hopped back yet) are not seen until they land there.
@MainActor
public final class StateRecorder<Root> {
  /// How much of a step the expectations must account for.
  public enum Exhaustivity: Equatable, Sendable {
    /// Every change, every event: one not expected fails the step.
    case on
    /// Only what the expectations name; with `showSkippedChanges`, the
    /// changes skipped are listed, as a known issue under Swift Testing and
    /// printed under XCTest, without failing.
    case off(showSkippedChanges: Bool)

    /// Only what the expectations name; skipped changes are not listed.
    public static var off: Self { .off(showSkippedChanges: false) }
  }

  /// The view model (or screen, or feature) whose state is recorded.
  public let root: Root

  /// How much of a step the expectations must account for; ``Exhaustivity/on``
  /// by default.
  public var exhaustivity: Exhaustivity = .on {
    didSet { unreported.isReported = exhaustivity == .on }
  }

  private var states: [ObjectIdentifier: RecordedState] = [:]
  private var pending: [RecordedChange] = []
  /// The view models (and views, and kit containers) found below the root,
  /// to tell new ones from those there before.
  private var holders: [ObjectIdentifier: WeakReference] = [:]
  /// The state that appeared and no step has reported yet.
  private var added: [AddedState] = []
  /// The paths state had before it left, during the current step: a key
  /// path that ends in `nil` after the action finds its last changes there.
  private var removedPaths: [String: ObjectIdentifier] = [:]
  /// The names of the state that left during the current step.
  private var removedNames: [ObjectIdentifier: String] = [:]
  /// The cells, arrays and streams that appeared during the current step
  /// (or since the previous one), alone or inside a new view model.
  private var appearedStates = Set<ObjectIdentifier>()
  /// The cells, arrays and streams followed as soon as a change made them
  /// reachable, before the search that ends the step (or begins the next)
  /// reports them as added: so that an event a new screen sends in the
  /// same step is recorded.
  private var earlyStates = Set<ObjectIdentifier>()
  /// Whether a search for new state runs (a change it causes starts none).
  private var isSearchingEarly = false
  /// The paths the test excludes on purpose.
  private let ignored: [IgnoredPath]
  /// The blind spots already reported, each once.
  private var reportedBlindSpots = Set<String>()
  /// Every blind spot reported, as listed: not recorded: `cache` (a closure).
  private(set) var notRecorded: [String] = []
  /// How many of `notRecorded` were reported.
  private var reportedBlindSpotLines = 0
  private var isInStep = false
  /// Reads of unoverridden dependencies during the running step.
  private var dependencyUses: UnimplementedDependencyUses.Log?
  /// How many steps began.
  private var steps = 0
  private var isFinished = false
  private nonisolated let location: CallerLocation
  /// The pending changes, as a released recorder reports them.
  private nonisolated let unreported = UnreportedChanges()
  /// What the last step skipped because exhaustivity is off, as listed.
  private(set) var skippedInLastStep: [String] = []

  /// Starts recording every cell, array, stream and query reachable from
  /// `root`.
  ///
  /// Make it after setting up, right before the first step: a change made
  /// between here and the first step is a change that step must expect.
  ///
  /// What the recorder cannot look into — a closure, an actor, an object
  /// that is not a view model — it lists once, by path, as a note at this
  /// line (not recorded: `cache` (a closure)), and again at the step
  /// where new such paths appear.
  ///
  /// - Parameters:
  ///   - root: The view model, or a value that holds the view models of a
  ///     screen; everything reachable from it is searched, as `BindingGraph`
  ///     searches it.
  ///   - ignoring: Paths the test excludes on purpose, with everything
  ///     below them: `"cache"`, `"detail.form"`, `"rows[*].onTap"` (`[*]`
  ///     stands for any index). Their changes are not recorded and they are
  ///     not listed as blind spots.
  ///   - fileID: Where an unfinished recorder is reported; the caller's file.
  ///   - filePath: Where an unfinished recorder is reported; the caller's file.
  ///   - line: Where an unfinished recorder is reported; the caller's line.
  ///   - column: Where an unfinished recorder is reported; the caller's column.
  public convenience init(
    of root: Root,
    ignoring: [String] = [],
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      of: root, ignoring: ignoring,
      at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Starts recording; an unfinished recorder is reported at `location`.
  init(of root: Root, ignoring: [String] = [], at location: CallerLocation) {
    self.root = root
    self.location = location
    self.ignored = ignoring.map(IgnoredPath.init)
    discover(addingState: nil)
    reportBlindSpots(at: location)
  }

  // Not isolated: an isolated deinit may run later, as a job of its own,
  // outside the test, where a failure is lost. This one runs where the last
  // reference goes, inside the test, and reads only `unreported`.
  deinit {
    let lines = unreported.lines
    guard !lines.isEmpty else { return }
    let count = lines.count
    recordFailure(
      "StateRecorder released with \(count) unreported change\(count == 1 ? "" : "s"); "
        + "assert them in a step, or call finish():\n" + lines.joined(separator: "\n"),
      at: location)
  }

  /// The property paths of the state recorded now, sorted.
  public var recordedPaths: [String] {
    states.values.map(\.path).sorted()
  }

  /// Runs `action`, then checks what changed against `expectations`.
  ///
  /// Every problem is listed in one failure at the caller's line. Changes
  /// held from before the step (late ones) count as the step's own, and are
  /// marked as late in a failure.
  ///
  /// - Parameters:
  ///   - action: What the user or the test does: a tap, an edit, a call.
  ///   - expectations: Fills in what the step is expected to change; nothing
  ///     by default.
  ///   - fileID: Where failures are reported; the caller's file.
  ///   - filePath: Where failures are reported; the caller's file.
  ///   - line: Where failures are reported; the caller's line.
  ///   - column: Where failures are reported; the caller's column.
  /// - Throws: What `action` throws, after the changes are checked.
  public func perform<Failure: Error>(
    _ action: () throws(Failure) -> Void,
    expecting expectations: (inout StateExpectations<Root>) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) throws(Failure) {
    try perform(
      action, expecting: expectations,
      at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs a step, reporting its failures at `location`.
  func perform<Failure: Error>(
    _ action: () throws(Failure) -> Void,
    expecting expectations: (inout StateExpectations<Root>) -> Void, at location: CallerLocation
  ) throws(Failure) {
    guard beginStep(at: location) else { return }
    do {
      try action()
    } catch {
      endStep(expectations, at: location)
      throw error
    }
    endStep(expectations, at: location)
  }

  /// Runs `action` and waits for it, then checks what changed against
  /// `expectations`.
  ///
  /// Await inside `action` whatever the step starts — a load, an effect —
  /// so that its changes are part of the step; what ends later is held
  /// for the next step or ``finish(fileID:filePath:line:column:)``.
  ///
  /// - Parameters:
  ///   - action: What the user or the test does, and what it waits for.
  ///   - expectations: Fills in what the step is expected to change; nothing
  ///     by default.
  ///   - fileID: Where failures are reported; the caller's file.
  ///   - filePath: Where failures are reported; the caller's file.
  ///   - line: Where failures are reported; the caller's line.
  ///   - column: Where failures are reported; the caller's column.
  /// - Throws: What `action` throws, after the changes are checked.
  public func perform<Failure: Error>(
    _ action: () async throws(Failure) -> Void,
    expecting expectations: (inout StateExpectations<Root>) -> Void = { _ in },
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async throws(Failure) {
    try await perform(
      action, expecting: expectations,
      at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Runs an asynchronous step, reporting its failures at `location`.
  func perform<Failure: Error>(
    _ action: () async throws(Failure) -> Void,
    expecting expectations: (inout StateExpectations<Root>) -> Void, at location: CallerLocation
  ) async throws(Failure) {
    guard beginStep(at: location) else { return }
    do {
      try await action()
    } catch {
      endStep(expectations, at: location)
      throw error
    }
    endStep(expectations, at: location)
  }

  /// Ends the recording: the changes made since the last step (by effects
  /// that finished late) are failures, unless ``exhaustivity`` is off.
  ///
  /// Work still pending fails too, whatever the exhaustivity: operations of
  /// an `Effects` stored in the root that have not returned, its timers
  /// included (`1 effect still running: "sort" (started at
  /// TodosViewModel.swift:48)`; one that was cancelled but has not returned
  /// yet, and may still write, is marked `cancelled, not returned`), requests
  /// of a `Load` (`1 load request still running: load "movie" request
  /// (started at MovieViewModel.swift:30)`), effects of a `StateMachine`'s
  /// feedbacks (`1 state machine feedback still running: feedback for "3"
  /// (declared at MoviesViewModel.swift:20)`), and time operators (`debounced(for:clock:)`
  /// and the like) reachable from the root's state that still wait on their
  /// clock (`1 time operator still waiting on a clock: debounced 300ms
  /// "results" (made at SearchViewModel.swift:12)`). Advance the test's
  /// ``ManualClock`` far enough, or await the effects, before `finish()`. The
  /// operations are cancelled after they are reported.
  ///
  /// An operation that the last step cancelled has usually not returned
  /// yet when this runs, and so fails here; in an `async` test, call
  /// ``finish(timeout:fileID:filePath:line:column:)`` instead, which waits
  /// for it first.
  ///
  /// Call it at the end of a test whose effects may outlive its last step.
  /// After it, the recorder observes nothing and ``perform(_:expecting:fileID:filePath:line:column:)-52utz``
  /// reports a misuse.
  ///
  /// - Parameters:
  ///   - fileID: Where failures are reported; the caller's file.
  ///   - filePath: Where failures are reported; the caller's file.
  ///   - line: Where failures are reported; the caller's line.
  ///   - column: Where failures are reported; the caller's column.
  public func finish(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    finish(at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Waits for the operations that were cancelled to return, for at most
  /// `timeout`, then ends the recording as
  /// ``finish(fileID:filePath:line:column:)`` does.
  ///
  /// A cancelled operation of an `Effects`, a replaced request of a
  /// `Load` or a feedback of a `StateMachine` that left its state still
  /// runs until it next checks its cancellation: one that the last step
  /// cancelled has usually not returned when the step ends, though it is
  /// about to. As TCA's `await store.finish()` waits for effects, this
  /// waits until each of them has returned (letting the main actor and the
  /// global executor run), or `timeout` passes; what has not returned by
  /// then fails, marked `cancelled, not returned`. Work that was not
  /// cancelled (an effect asleep on a ``ManualClock``) is not waited for: it
  /// fails at once, as in the synchronous `finish()`.
  ///
  /// ```swift
  /// await recorder.perform { screen.close() }   // cancels the "tick" timer
  /// await recorder.finish(timeout: .seconds(1))
  /// ```
  ///
  /// - Parameters:
  ///   - timeout: The longest to wait for the cancelled operations.
  ///   - fileID: Where failures are reported; the caller's file.
  ///   - filePath: Where failures are reported; the caller's file.
  ///   - line: Where failures are reported; the caller's line.
  ///   - column: Where failures are reported; the caller's column.
  public func finish(
    timeout: Duration,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await finish(
      timeout: timeout,
      at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Waits up to `timeout` for the cancelled operations, then ends the
  /// recording, reporting at `location`.
  func finish(timeout: Duration, at location: CallerLocation) async {
    guard !isFinished else { return }
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: max(.zero, timeout))
    while Self.hasCancelledWork(in: root), clock.now < deadline {
      await Task.yield()
      await Self.yieldOffMainActor()
    }
    finish(at: location)
  }

  /// Whether work that was cancelled in `root` has not returned yet.
  private static func hasCancelledWork(in root: Root) -> Bool {
    let work = BindingGraph._pendingWork(in: [root])
    return (work.effects + work.loads + work.feedbacks).contains {
      $0.contains(", cancelled, not returned")
    }
  }

  /// Hops to the global executor, yields there, and comes back.
  nonisolated private static func yieldOffMainActor() async {
    await Task.yield()
  }

  /// Ends the recording, reporting late changes at `location`.
  func finish(at location: CallerLocation) {
    guard !isFinished else { return }
    discover(addingState: .afterTheStep)
    reportBlindSpots(at: location)
    isFinished = true
    for state in states.values {
      state.subscription?.cancel()
    }
    let late = pending
    let lateAdded = added
    pending.removeAll()
    added.removeAll()
    unreported.clear()
    reportPendingWork(at: location)
    guard !late.isEmpty || !lateAdded.isEmpty else { return }
    let lines = late.map { unexpected($0) } + lateAdded.map { unexpected($0) }
    let count = lines.count
    let what = "\(count) change\(count == 1 ? "" : "s") after the last step"
    switch exhaustivity {
    case .on:
      recordFailure(
        "StateRecorder.finish() found \(what) that no step reported:\n"
          + lines.joined(separator: "\n"), at: location)
    case .off(let showSkippedChanges):
      if showSkippedChanges {
        recordNote(
          "StateRecorder.finish() skipped \(what) (exhaustivity is off):\n"
            + lines.joined(separator: "\n"), at: location)
      }
    }
  }

  /// Fails for each kind of work still pending in the root — operations of
  /// its `Effects`, requests of its loads and feedbacks of its state
  /// machines that have not returned, time operators still waiting on their
  /// clock — naming them, then cancels the operations, requests and
  /// feedbacks.
  private func reportPendingWork(at location: CallerLocation) {
    let work = BindingGraph._pendingWork(in: [root])
    if !work.effects.isEmpty {
      let count = work.effects.count
      recordFailure(
        "\(count) effect\(count == 1 ? "" : "s") still running: "
          + work.effects.joined(separator: ", "), at: location)
    }
    if !work.loads.isEmpty {
      let count = work.loads.count
      recordFailure(
        "\(count) load request\(count == 1 ? "" : "s") still running: "
          + work.loads.joined(separator: ", "), at: location)
    }
    if !work.feedbacks.isEmpty {
      let count = work.feedbacks.count
      recordFailure(
        "\(count) state machine feedback\(count == 1 ? "" : "s") still running: "
          + work.feedbacks.joined(separator: ", "), at: location)
    }
    if !work.operators.isEmpty {
      let count = work.operators.count
      recordFailure(
        "\(count) time operator\(count == 1 ? "" : "s") still waiting on a clock: "
          + work.operators.joined(separator: ", "), at: location)
    }
    work.cancelAll()
  }

  // MARK: - Recording

  /// When state found by a search appeared.
  private enum Appearance {
    /// During the step whose action just returned.
    case duringTheStep
    /// Between steps: after the previous step's action returned.
    case afterTheStep
  }

  /// Follows the state reachable from the root now: new cells from now on,
  /// unreachable ones no longer.
  ///
  /// Unless this is the first search (`appearance` is `nil`), what is new
  /// is held as added state: each new view model whole (with the new cells
  /// below it), and each new cell that no new view model holds on its own.
  /// What left keeps its last path in `removedPaths`.
  private func discover(addingState appearance: Appearance?) {
    let ignored = ignored
    let search = BindingGraph._stateSearch(
      in: [root],
      ignoring: ignored.isEmpty ? nil : { path in ignored.contains { $0.matches(path) } })
    var newHolders: [(object: AnyObject, path: String)] = []
    var reachableHolders: [ObjectIdentifier: WeakReference] = [:]
    for (object, path) in search.holders {
      let identity = ObjectIdentifier(object)
      if let known = holders[identity], known.object === object {
        reachableHolders[identity] = known
      } else {
        reachableHolders[identity] = WeakReference(object)
        newHolders.append((object, path))
      }
    }
    holders = reachableHolders
    var newStates: [_FoundState] = []
    var reachable = Set<ObjectIdentifier>()
    for piece in search.states {
      reachable.insert(piece.identity)
      // The same state, unless what was found there before was released
      // and a new object took its address.
      if let state = states[piece.identity], state.object != nil {
        state.path = piece.path
        // Followed since a change made it reachable: new all the same.
        if earlyStates.remove(piece.identity) != nil, appearance != nil {
          newStates.append(piece)
          appearedStates.insert(piece.identity)
        }
        continue
      }
      // New, or a new object at the address of one that was released.
      states[piece.identity]?.subscription?.cancel()
      states[piece.identity] = RecordedState(
        piece, record: { [weak self] in self?.record($0, $1) })
      if states[piece.identity] != nil {
        newStates.append(piece)
        if appearance != nil { appearedStates.insert(piece.identity) }
      }
    }
    for (identity, state) in states where !reachable.contains(identity) {
      earlyStates.remove(identity)
      state.subscription?.cancel()
      states[identity] = nil
      removedPaths[state.path] = identity
      removedNames[identity] = state.name + " (removed in this step)"
    }
    for (path, what) in search.blindSpots where !reportedBlindSpots.contains(path) {
      reportedBlindSpots.insert(path)
      notRecorded.append("not recorded: `\(path)` (\(what))")
    }
    guard let appearance else { return }
    // A new view model inside another new one is part of the outer one's
    // value, as its new cells are.
    let units = newHolders.filter { holder in
      !newHolders.contains { isPath(holder.path, below: $0.path) }
    }
    var appeared = units.map { AddedState(object: $0.object, path: $0.path) }
    for piece in newStates where !units.contains(where: { isPath(piece.path, below: $0.path) }) {
      appeared.append(AddedState(object: piece.object, path: piece.path, identity: piece.identity))
    }
    for index in appeared.indices {
      appeared[index].isLate = appearance == .afterTheStep
      appeared[index].isBeforeFirstStep = steps == 0
      if appeared[index].isLate { unreported.append(unexpected(appeared[index])) }
    }
    added += appeared
  }

  /// Lists, as one note at `location`, the blind spots not listed yet.
  private func reportBlindSpots(at location: CallerLocation) {
    let fresh = notRecorded[reportedBlindSpotLines...]
    reportedBlindSpotLines = notRecorded.count
    guard !fresh.isEmpty else { return }
    let count = fresh.count
    recordNote(
      "StateRecorder cannot see \(count) path\(count == 1 ? "" : "s") of \(Root.self); "
        + "a change there is not recorded (pass a path in `ignoring:` to exclude it on "
        + "purpose):\n" + fresh.joined(separator: "\n"), at: location)
  }

  /// Follows, at once, the state a change made reachable (a pushed
  /// screen's cells and streams), if the new value holds an object.
  ///
  /// The search that ends the step would find it too, but an event the
  /// new state sends before then would be lost: a stream has no value to
  /// read later.
  private func followNewState(after value: Any) {
    guard !isFinished, !isSearchingEarly, Self.holdsObject(value) else { return }
    isSearchingEarly = true
    defer { isSearchingEarly = false }
    let ignored = ignored
    let search = BindingGraph._stateSearch(
      in: [root],
      ignoring: ignored.isEmpty ? nil : { path in ignored.contains { $0.matches(path) } })
    for piece in search.states where states[piece.identity]?.object == nil {
      states[piece.identity]?.subscription?.cancel()
      states[piece.identity] = RecordedState(
        piece, record: { [weak self] in self?.record($0, $1) })
      if states[piece.identity] != nil { earlyStates.insert(piece.identity) }
    }
  }

  /// Whether `value` holds an object anywhere.
  ///
  /// Such a value may bring new state with it. The walk stops at the first
  /// object.
  private static func holdsObject(_ value: Any) -> Bool {
    var work: [Any] = [(value as? any _RecordedArrayChange)?._newElements ?? value]
    while let next = work.popLast() {
      if type(of: next) is AnyClass { return true }
      if isPlainData(type(of: next)) || next is String || next is Substring { continue }
      let mirror = Mirror(reflecting: next)
      guard mirror.displayStyle != nil else { continue }
      for child in mirror.children { work.append(child.value) }
    }
    return false
  }

  /// Whether a type holds plain data only: no references.
  private static func isPlainData(_ type: Any.Type) -> Bool {
    func isPOD<T>(_: T.Type) -> Bool { _isPOD(T.self) }
    return isPOD(type)
  }

  private func record(_ identity: ObjectIdentifier, _ value: Any) {
    guard let state = states[identity] else { return }
    if state.kind != .events {
      followNewState(after: value)
      // State that appeared since the last search: its value at the end of
      // the step is what is reported, not the changes that led there.
      if earlyStates.contains(identity) {
        state.current =
          state.kind == .array ? (value as? any _RecordedArrayChange)?._newElements ?? value : value
        return
      }
    }
    let kind: RecordedChange.Kind
    switch state.kind {
    case .cell:
      kind = .value(old: state.current ?? value, new: value)
      state.current = value
    case .array:
      let new = (value as? any _RecordedArrayChange)?._newElements ?? value
      kind = .array(old: state.current ?? new, new: new, change: value)
      state.current = new
    case .events:
      kind = .event(payload: value)
    }
    let change = RecordedChange(
      identity: identity, path: state.name, kind: kind, isLate: !isInStep,
      isBeforeFirstStep: steps == 0)
    pending.append(change)
    unreported.append(unexpected(change))
  }

  private func beginStep(at location: CallerLocation) -> Bool {
    guard !isFinished, !isInStep else {
      recordFailure(
        "StateRecorder.perform cannot run: "
          + (isFinished ? "the recorder was finished" : "another step is running"),
        at: location)
      return false
    }
    removedPaths.removeAll()
    removedNames.removeAll()
    appearedStates.removeAll()
    discover(addingState: .afterTheStep)
    reportBlindSpots(at: location)
    isInStep = true
    steps += 1
    dependencyUses = UnimplementedDependencyUses.beginCollecting()
    return true
  }

  private func endStep(
    _ fill: (inout StateExpectations<Root>) -> Void, at location: CallerLocation
  ) {
    isInStep = false
    discover(addingState: .duringTheStep)
    reportBlindSpots(at: location)
    var expectations = StateExpectations<Root>()
    fill(&expectations)
    let changes = pending
    let appeared = added
    pending.removeAll()
    added.removeAll()
    unreported.clear()
    let (found, skipped) = compare(changes, appeared, expectations.items)
    var problems = found
    if let uses = dependencyUses.take() {
      problems += UnimplementedDependencyUses.endCollecting(uses)
    }
    removedPaths.removeAll()
    removedNames.removeAll()
    appearedStates.removeAll()
    skippedInLastStep = skipped
    if !problems.isEmpty {
      let count = problems.count
      recordFailure(
        "StateRecorder found \(count) problem\(count == 1 ? "" : "s") in this step:\n"
          + problems.joined(separator: "\n"), at: location)
    }
    if case .off(showSkippedChanges: true) = exhaustivity, !skipped.isEmpty {
      let count = skipped.count
      recordNote(
        "StateRecorder skipped \(count) change\(count == 1 ? "" : "s") in this step "
          + "(exhaustivity is off):\n" + skipped.joined(separator: "\n"), at: location)
    }
  }

  // MARK: - Comparing

  /// The problems of a step, and the changes skipped because exhaustivity
  /// is off, each as the lines a failure shows.
  private func compare(
    _ changes: [RecordedChange], _ appeared: [AddedState],
    _ expectations: [StateExpectations<Root>.Item]
  ) -> (problems: [String], skipped: [String]) {
    var order: [ObjectIdentifier] = []
    var changesOf: [ObjectIdentifier: [RecordedChange]] = [:]
    for change in changes {
      if changesOf[change.identity] == nil { order.append(change.identity) }
      changesOf[change.identity, default: []].append(change)
    }
    var expectedOf: [ObjectIdentifier: [StateExpectations<Root>.Item]] = [:]
    var problems: [String] = []
    var addedItems: [StateExpectations<Root>.Item] = []
    for item in expectations {
      if item.kind == .added {
        addedItems.append(item)
        continue
      }
      let object = item.object(root)
      let identity: ObjectIdentifier
      if let object, let found = BindingGraph._stateIdentity(of: object),
        states[found] != nil || changesOf[found] != nil
      {
        // The state now at the path did not change, but the state that
        // had the path until this step removed it did: a subscript read
        // after the action (`\.rows[0].on`) names the row that took the
        // removed one's place.
        if changesOf[found] == nil, let path = states[found]?.path,
          let removed = removedPaths[path], changesOf[removed] != nil
        {
          identity = removed
        } else if changesOf[found] == nil, appearedStates.contains(found) {
          problems.append(
            "Expected a change of \(name(of: item)), which appeared in this step: its value "
              + "is part of the new state, which a step expects with `added`")
          continue
        } else {
          identity = found
        }
      } else if object == nil, let removed = removedState(matching: item, changesOf) {
        // State this step removed: its last changes were recorded under
        // the path it had.
        switch removed {
        case .found(let removed):
          identity = removed
        case .ambiguous(let paths):
          problems.append(
            "Expected a change of \(name(of: item)), which is nil after the action; it names "
              + "more than one piece of state this step removed, each of which changed as "
              + "expected (\(paths.joined(separator: ", "))): expect each by a key path that "
              + "tells them apart")
          continue
        }
      } else if object == nil {
        problems.append(
          "Expected a change of \(name(of: item)), which is nil after the action "
            + "(an optional on its path is nil, and no state left that path in this step)")
        continue
      } else {
        problems.append(
          "Expected a change of \(name(of: item)), which is not state the recorder follows "
            + "(it is not stored in \(Root.self)'s properties)")
        continue
      }
      if changesOf[identity] == nil, expectedOf[identity] == nil { order.append(identity) }
      expectedOf[identity, default: []].append(item)
    }
    var skipped: [String] = []
    let isExhaustive = exhaustivity == .on
    let (addedProblems, addedSkipped) = compare(appeared, addedItems)
    problems += addedProblems
    skipped += addedSkipped
    for identity in order {
      let seen = changesOf[identity] ?? []
      let name = states[identity]?.name ?? removedNames[identity] ?? seen.first?.path ?? "?"
      guard let expected = expectedOf[identity] else {
        if isExhaustive {
          problems += seen.map { unexpected($0) }
        } else {
          skipped += seen.map { unexpected($0) }
        }
        continue
      }
      if isExhaustive {
        for index in 0..<max(seen.count, expected.count) {
          if index < seen.count, index < expected.count {
            if !expected[index].matches(seen[index].kind) {
              problems.append(wrong(expected[index], seen[index], name: name))
            }
          } else if index < expected.count {
            problems.append(missing(expected[index], name: name, seen: seen.count))
          } else {
            problems.append(unexpected(seen[index]))
          }
        }
      } else {
        var next = 0
        for item in expected {
          if let found = seen[next...].firstIndex(where: { item.matches($0.kind) }) {
            skipped += seen[next..<found].map { unexpected($0) }
            next = found + 1
          } else if let last = seen.last, next < seen.count {
            problems.append(wrong(item, last, name: name))
          } else {
            problems.append(missing(item, name: name, seen: seen.count))
          }
        }
        skipped += seen[min(next, seen.count)...].map { unexpected($0) }
      }
    }
    return (problems, skipped)
  }

  /// The problems with the state that appeared in a step, and what was
  /// skipped because exhaustivity is off.
  private func compare(
    _ appeared: [AddedState], _ expectations: [StateExpectations<Root>.Item]
  ) -> (problems: [String], skipped: [String]) {
    var problems: [String] = []
    var skipped: [String] = []
    var expectedOf: [ObjectIdentifier: [StateExpectations<Root>.Item]] = [:]
    for item in expectations {
      guard let object = item.object(root) else {
        problems.append(
          "Expected new state at \(name(of: item)), which is nil after the action "
            + "(an optional on its path is nil)")
        continue
      }
      let identity = BindingGraph._stateIdentity(of: object) ?? ObjectIdentifier(object)
      guard appeared.contains(where: { $0.identity == identity }) else {
        problems.append(
          "Expected new state at \(name(of: item)), which did not appear in this step on its own "
            + "(it was there before, or it came inside a view model that appeared with it: "
            + "expect that one)")
        continue
      }
      expectedOf[identity, default: []].append(item)
    }
    for unit in appeared {
      guard let items = expectedOf[unit.identity] else {
        if exhaustivity == .on {
          problems.append(unexpected(unit))
        } else {
          skipped.append(unexpected(unit))
        }
        continue
      }
      let lines = stateLines(of: unit)
      for item in items {
        if let expected = item.expected {
          let expectedLines =
            (expected as AnyObject?).map { stateLines(of: $0, below: unit.path) } ?? []
          if expectedLines != lines {
            problems.append(
              "Wrong new state at \(unit.name) (- expected, + actual):\n"
                + indented(lineDiff(expectedLines, lines)))
          }
        }
        if let accepts = item.accepts, !accepts(unit.object) {
          problems.append(
            "The new state at \(unit.name) does not satisfy the expectation; it is:\n"
              + indented(lines.map { "  " + $0 }.joined(separator: "\n")))
        }
      }
    }
    return (problems, skipped)
  }

  /// The whole value of new state, without what the test ignores.
  private func stateLines(of unit: AddedState) -> [String] {
    stateLines(of: unit.object, below: unit.path)
  }

  /// The whole value of `object`, as if it were at `path`, without what
  /// the test ignores.
  private func stateLines(of object: AnyObject, below path: String) -> [String] {
    let ignored = ignored
    guard !ignored.isEmpty else { return POMVVMTesting.stateLines(of: object) }
    return POMVVMTesting.stateLines(of: object) { relative in
      let absolute = relative.hasPrefix("[") ? path + relative : "\(path).\(relative)"
      return ignored.contains { $0.matches(absolute) }
    }
  }

  /// `expected` and `actual` as `-` and `+` lines, by path: what differs,
  /// with the number of lines that do not.
  private func lineDiff(_ expected: [String], _ actual: [String]) -> String {
    let removed = expected.filter { !actual.contains($0) }
    let inserted = actual.filter { !expected.contains($0) }
    var lines = removed.map { "- " + $0 } + inserted.map { "+ " + $0 }
    // Pair each path's expected line with its actual one.
    func path(_ line: String) -> Substring { line.dropFirst(2).prefix { $0 != ":" } }
    lines = lines.enumerated().sorted { left, right in
      (path(left.element), left.offset) < (path(right.element), right.offset)
    }.map(\.element)
    let unchanged = actual.count - inserted.count
    if unchanged > 0 { lines.append("  … (\(unchanged) unchanged)") }
    return lines.joined(separator: "\n")
  }

  /// What a key path that ends in `nil` after the action names among the
  /// state this step removed.
  private enum RemovedMatch {
    case found(ObjectIdentifier)
    /// More than one removed piece matches and changed as expected.
    case ambiguous([String])
  }

  /// The state this step removed that `item`'s key path named before the
  /// action, found by the path it had; `nil` when none matches.
  ///
  /// A key path keeps the names of stored properties but not those of
  /// computed ones, nor subscripts' arguments (`\Host.sheet.destination?.title`
  /// prints as `sheet.<computed … (Optional<Form>)>?.title`). Each computed
  /// step stands for one step of the recorder's path — a presentation's
  /// `destination`, a stack's `[1]`, a cell's `value`, an enum's case — so
  /// the pattern `sheet.*.title` finds `sheet.destination.title`. When it
  /// finds several (two screens popped, `path.*.title`), the one whose
  /// changes the expectation accepts is taken; if several are, the match is
  /// ambiguous.
  private func removedState(
    matching item: StateExpectations<Root>.Item,
    _ changesOf: [ObjectIdentifier: [RecordedChange]]
  ) -> RemovedMatch? {
    guard !removedPaths.isEmpty, let pattern = keyPathPattern(of: item.keyPath) else {
      return nil
    }
    let candidates = removedPaths.filter { path, _ in
      let tokens = IgnoredPath.tokens(of: path)
      return tokens.count == pattern.count
        && zip(pattern, tokens).allSatisfy { step, token in step == nil || step == token }
    }.sorted { $0.key < $1.key }
    guard let first = candidates.first else { return nil }
    guard candidates.count > 1 else { return .found(first.value) }
    let accepting = candidates.filter { _, identity in
      changesOf[identity]?.contains { item.matches($0.kind) } ?? false
    }
    if accepting.count == 1 { return .found(accepting[0].value) }
    if accepting.count > 1 { return .ambiguous(accepting.map(\.key)) }
    let changed = candidates.filter { changesOf[$0.value] != nil }
    return .found((changed.first ?? first).value)
  }

  /// The steps of a key path from the root, as the recorder names them:
  /// a stored property by its name, a computed property or a subscript as
  /// `nil` (any one step); `nil` when the key path does not start at
  /// `Root` as printed.
  ///
  /// `\Host.path.<computed 0x… (Optional<Screen>)>?.detail` gives `path`,
  /// `nil`, `detail`.
  private func keyPathPattern(of keyPath: AnyKeyPath) -> [Substring?]? {
    let written = "\(keyPath)"
    let prefixes = [
      "\\\(Root.self).", "\\\(_typeName(Root.self, qualified: false)).",
      "\\\(_typeName(Root.self, qualified: true)).",
    ]
    guard let prefix = prefixes.first(where: { written.hasPrefix($0) }) else { return nil }
    let body = written.dropFirst(prefix.count)
    var steps: [Substring?] = []
    var index = body.startIndex
    while index < body.endIndex {
      if body[index...].hasPrefix("<computed") {
        // Up to the `>` that closes it: the type inside has brackets too.
        var depth = 0
        while index < body.endIndex {
          if body[index] == "<" { depth += 1 }
          if body[index] == ">" {
            depth -= 1
            if depth == 0 { break }
          }
          index = body.index(after: index)
        }
        guard index < body.endIndex else { return nil }
        index = body.index(after: index)
        steps.append(nil)
      } else {
        let start = index
        while index < body.endIndex, !".?!".contains(body[index]) {
          index = body.index(after: index)
        }
        guard start < index else { return nil }
        steps.append(body[start..<index])
      }
      while index < body.endIndex, "?!".contains(body[index]) { index = body.index(after: index) }
      guard index < body.endIndex else { break }
      guard body[index] == "." else { return nil }
      index = body.index(after: index)
    }
    return steps
  }

  /// An expectation's key path as written, or, for a computed property
  /// (whose name key paths do not keep), the type it leads to.
  private func name(of item: StateExpectations<Root>.Item) -> String {
    var written = "\(item.keyPath)"
    // An optional chain prints with the wrap that ends it: `detail?.on?`.
    if written.hasSuffix("?"), written.dropLast().contains("?.") { written.removeLast() }
    guard written.contains("<computed") else { return written }
    guard let object = item.object(root) else { return "a computed property of \(Root.self)" }
    return "a computed \(type(of: object)) of \(Root.self)"
  }

  /// A change nobody expected, with its old and new value.
  private func unexpected(_ change: RecordedChange) -> String {
    let name = states[change.identity]?.name ?? change.path
    let late =
      !change.isLate
      ? ""
      : change.isBeforeFirstStep
        ? " (made before the first step)" : " (made after the previous step ended)"
    switch change.kind {
    case .value(let old, let new), .array(let old, let new, _):
      let lines =
        ValueDiff.diff(old, new) ?? "  \(ValueDiff.render(new)) (set again to an equal value)"
      return "Unexpected change of \(name)\(late):\n" + indented(lines)
    case .event(let payload):
      return "Unexpected event sent by \(name)\(late): \(ValueDiff.render(payload))"
    }
  }

  /// New state nobody expected, with its whole value.
  private func unexpected(_ unit: AddedState) -> String {
    let late =
      !unit.isLate
      ? ""
      : unit.isBeforeFirstStep
        ? " (appeared before the first step)" : " (appeared after the previous step ended)"
    return "Unexpected new state at \(unit.name)\(late):\n"
      + indented(stateLines(of: unit).map { "  " + $0 }.joined(separator: "\n"))
  }

  /// An expected change that came with another value.
  private func wrong(
    _ item: StateExpectations<Root>.Item, _ change: RecordedChange, name: String
  ) -> String {
    let seen: Any
    switch change.kind {
    case .value(_, let new), .array(_, let new, _): seen = new
    case .event(let payload): seen = payload
    }
    let what = item.kind == .event ? "event sent by" : "change of"
    guard let expected = item.expected else {
      return "The \(what) \(name) does not satisfy the expectation; it was:\n"
        + indented("  " + ValueDiff.render(seen))
    }
    let lines =
      ValueDiff.diff(expected, seen)
      ?? "  \(ValueDiff.render(seen)) (of another type than expected)"
    return "Wrong \(what) \(name) (- expected, + actual):\n" + indented(lines)
  }

  /// An expected change that did not happen.
  private func missing(_ item: StateExpectations<Root>.Item, name: String, seen: Int) -> String {
    let expected = item.expected.map { ValueDiff.render($0) } ?? "a value the predicate accepts"
    let noun = item.kind == .event ? "event from" : "change of"
    let verb = item.kind == .event ? "sent" : "changed"
    let count = seen == 0 ? "" : " (it \(verb) only \(seen) time\(seen == 1 ? "" : "s"))"
    return "Missing \(noun) \(name): expected \(expected)\(count)"
  }

  private func indented(_ lines: String) -> String {
    lines.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
      .joined(separator: "\n")
  }
}

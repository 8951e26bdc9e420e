/// Records every change of a view model's state, and fails a test on any
/// change it did not expect: exhaustive testing, as TCA's `TestStore` does
/// it for reducers.
///
/// The recorder finds every cell, derived cell, aggregate, array and event
/// stream stored in the root, the way `BindingGraph` does, names each by
/// its property path (`detail.on`, `rows[2].text`, `openSwitchCount`) and
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
/// ## Cells that come and go
///
/// After each action the recorder looks for state again. Cells that the
/// action created — the cells of a new row — are followed from then on; their
/// creation is not a change: the array's change that inserted the row is.
/// Cells that the action made unreachable — the cells of a deleted row — are
/// no longer followed; a change they made before they left is still
/// reported, under the path they had.
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
  private var isInStep = false
  /// How many steps began.
  private var steps = 0
  private var isFinished = false
  private nonisolated let location: CallerLocation
  /// The pending changes, as a released recorder reports them.
  private nonisolated let unreported = UnreportedChanges()
  /// What the last step skipped because exhaustivity is off, as listed.
  private(set) var skippedInLastStep: [String] = []

  /// Starts recording every cell, array and stream stored in `root`.
  ///
  /// Make it after setting up, right before the first step: a change made
  /// between here and the first step is a change that step must expect.
  ///
  /// - Parameters:
  ///   - root: The view model, or a value that holds the view models of a
  ///     screen; its stored properties are searched as `BindingGraph` searches
  ///     them.
  ///   - fileID: Where an unfinished recorder is reported; the caller's file.
  ///   - filePath: Where an unfinished recorder is reported; the caller's file.
  ///   - line: Where an unfinished recorder is reported; the caller's line.
  ///   - column: Where an unfinished recorder is reported; the caller's column.
  public convenience init(
    of root: Root,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      of: root,
      at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Starts recording; an unfinished recorder is reported at `location`.
  init(of root: Root, at location: CallerLocation) {
    self.root = root
    self.location = location
    discover()
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

  /// Ends the recording, reporting late changes at `location`.
  func finish(at location: CallerLocation) {
    guard !isFinished else { return }
    isFinished = true
    for state in states.values {
      state.subscription?.cancel()
    }
    let late = pending
    pending.removeAll()
    unreported.clear()
    reportPendingWork(at: location)
    guard !late.isEmpty else { return }
    let lines = late.map { unexpected($0) }
    let count = late.count
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

  /// Follows the state stored in the root now: new cells from now on,
  /// unreachable ones no longer.
  private func discover() {
    let found = BindingGraph._stateObjects(in: [root])
    var reachable = Set<ObjectIdentifier>()
    for piece in found {
      reachable.insert(piece.identity)
      if let state = states[piece.identity] {
        state.path = piece.path
      } else if let state = RecordedState(
        piece, record: { [weak self] in self?.record($0, $1) })
      {
        states[piece.identity] = state
      }
    }
    for (identity, state) in states where !reachable.contains(identity) {
      state.subscription?.cancel()
      states[identity] = nil
    }
  }

  private func record(_ identity: ObjectIdentifier, _ value: Any) {
    guard let state = states[identity] else { return }
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
    discover()
    isInStep = true
    steps += 1
    return true
  }

  private func endStep(
    _ fill: (inout StateExpectations<Root>) -> Void, at location: CallerLocation
  ) {
    isInStep = false
    discover()
    var expectations = StateExpectations<Root>()
    fill(&expectations)
    let changes = pending
    pending.removeAll()
    unreported.clear()
    let (problems, skipped) = compare(changes, expectations.items)
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
    _ changes: [RecordedChange], _ expectations: [StateExpectations<Root>.Item]
  ) -> (problems: [String], skipped: [String]) {
    var order: [ObjectIdentifier] = []
    var changesOf: [ObjectIdentifier: [RecordedChange]] = [:]
    for change in changes {
      if changesOf[change.identity] == nil { order.append(change.identity) }
      changesOf[change.identity, default: []].append(change)
    }
    var expectedOf: [ObjectIdentifier: [StateExpectations<Root>.Item]] = [:]
    var problems: [String] = []
    for item in expectations {
      guard let object = item.object(root) else {
        problems.append(
          "Expected a change of \(name(of: item)), which is nil after the action "
            + "(an optional on its path is nil)")
        continue
      }
      guard let identity = BindingGraph._stateIdentity(of: object),
        states[identity] != nil || changesOf[identity] != nil
      else {
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
    for identity in order {
      let seen = changesOf[identity] ?? []
      let name = states[identity]?.name ?? seen.first?.path ?? "?"
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

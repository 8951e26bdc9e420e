/// The asynchronous work of a view model, by id: start it, cancel it, wait
/// for it, and count it.
///
/// A view model keeps one `Effects` and runs its requests and timers through
/// it, as a TCA reducer returns `.run` effects with cancel ids:
///
/// ```swift
/// @MainActor final class SearchViewModel: ViewModel {
///   let query = Observable("")
///   let results = Observable<[Movie]>([])
///   let effects = Effects()
///
///   func search() {
///     effects.run(id: "search", cancelInFlight: true) { [weak self] in
///       let found = try await catalog.search(self?.query.value ?? "")
///       try Task.checkCancellation()   // a newer query cancelled this one
///       self?.results.value = found
///     }
///   }
/// }
/// ```
///
/// ## Semantics
///
/// - An operation runs on the main actor, like the view model that owns it,
///   and awaits its services off the main actor as it needs. It runs in a
///   `Task` (never a detached one), so it inherits the caller's task-local
///   values and priority: dependencies injected through task locals reach
///   it, and under Swift Testing an issue it records belongs to the test
///   that started it.
/// - Cancelling an operation cancels its task. **A cancelled operation's
///   late result is dropped by the operation itself**: a cancellation-aware
///   call (a clock's `sleep`, `URLSession`) throws `CancellationError`, and
///   after a call that is not, `try Task.checkCancellation()` (or a test of
///   `Task.isCancelled`) before writing state ends it. This is what TCA
///   does for a cancelled effect's `send`: nothing it does after the
///   cancellation lands. The kit refuses such an operation's writes to its
///   cells, arrays, loads, stacks and presentations too.
/// - An operation that cancels *itself* (``cancel(id:)`` of its own id,
///   ``cancelAll()``) finishes the synchronous work it is doing: its writes
///   are taken until it next suspends, so a debounce that cancels itself and
///   starts its search, or a timer's last tick that cancels the timer and
///   pops its screen, does what it says.
/// - A `CancellationError` thrown by an operation ends it quietly; any other
///   error is sent to ``Diagnostics``, naming where the operation was
///   started.
/// - When the `Effects` is released (with its view model), every operation
///   still running is cancelled. An operation that captures its view model
///   strongly keeps it alive until it returns: capture `[weak self]`.
/// - When the view model's screen leaves a ``StackPath`` or a
///   ``Presentation``, every operation is cancelled too, even if something
///   still holds the view model (SwiftUI, through the pop animation).
///
/// POMVVMTesting's `StateRecorder` finds an `Effects` stored in the view
/// model it records, and its `finish()` fails, naming each operation (its
/// id and where it was started), if operations are still running.
@MainActor
public final class Effects {
  private struct Operation {
    let id: AnyHashable
    let task: Task<Void, Never>
    let fileID: StaticString
    let line: UInt
  }

  /// The operations running and not cancelled, by start order.
  private var running: [UInt64: Operation] = [:]
  /// Cancelled operations that have not returned yet.
  private var ending: [UInt64: Operation] = [:]
  private var nextToken: UInt64 = 0
  private let count: Derived<Int>
  /// The dependencies in effect where the runner was made, which its
  /// operations see, under those in effect where each is started.
  let _madeWithDependencies = DependencyValues.current

  /// Creates a runner with nothing in flight.
  ///
  /// - Parameters:
  ///   - fileID: Where the runner is made, for ``BindingGraph`` (its
  ///     ``inFlight`` cell); by default, the caller's file.
  ///   - line: Where the runner is made; by default, the caller's line.
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    count = Derived(
      node: _DerivedNode(0, sources: [], fileID: fileID, line: line, compute: nil))
  }

  isolated deinit {
    for operation in running.values { operation.task.cancel() }
    for operation in ending.values { operation.task.cancel() }
  }

  /// How many operations are running (started, not cancelled, not returned),
  /// as a cell that views observe: a spinner while it is above 0.
  public var inFlight: Derived<Int> { count }

  /// Starts an operation under `id`.
  ///
  /// - Parameters:
  ///   - id: What the operation is, for ``cancel(id:)`` and for reports: a
  ///     string, an enum case.
  ///   - cancelInFlight: Whether to cancel the operations already running
  ///     under `id` first, as a search does with the previous query's
  ///     request.
  ///   - fileID: Where the operation is started, for reports; by default,
  ///     the caller's file.
  ///   - line: Where the operation is started; by default, the caller's
  ///     line.
  ///   - operation: The work, on the main actor; it is cancelled by
  ///     ``cancel(id:)``, ``cancelAll()``, a later `run` with
  ///     `cancelInFlight`, or the release of this object.
  public func run(
    id: some Hashable & Sendable, cancelInFlight: Bool = false,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ operation: @escaping @MainActor () async throws -> Void
  ) {
    if cancelInFlight { cancel(id: id) }
    nextToken += 1
    let token = nextToken
    let origin = "effect \(Self.quoted(id)) (started at \(_fileName(fileID)):\(line))"
    // Counted among the kit's tasks, so that a test clock's advance waits
    // for it to finish or sleep.
    let entry = _KitTask.begin(origin)
    let task = _madeWithDependencies.whileCurrent {
      Task { [weak self] in
        await entry.run {
          do {
            try await _WaitOrigin.$current.withValue(origin) { try await operation() }
          } catch {
            if !(error is CancellationError) && !Task.isCancelled {
              Diagnostics.report(
                "Effect \(Self.quoted(id)) failed: \(error)", fileID: fileID, line: line)
            }
          }
          self?.ended(token)
        }
      }
    }
    running[token] = Operation(id: AnyHashable(id), task: task, fileID: fileID, line: line)
    count.update(running.count)
  }

  /// Cancels every operation running under `id`.
  ///
  /// - Parameter id: The id the operations were started with.
  public func cancel(id: some Hashable & Sendable) {
    let key = AnyHashable(id)
    let cancelled = running.filter { $0.value.id == key }
    guard !cancelled.isEmpty else { return }
    for (token, operation) in cancelled {
      running[token] = nil
      ending[token] = operation
      operation.task.cancel()
    }
    count.update(running.count)
  }

  /// Cancels every operation running.
  public func cancelAll() {
    guard !running.isEmpty else { return }
    for (token, operation) in running {
      ending[token] = operation
      operation.task.cancel()
    }
    running.removeAll()
    count.update(0)
  }

  /// Starts a repeating timer under `id`: `tick` runs every `interval`,
  /// until the timer is cancelled like any operation.
  ///
  /// ```swift
  /// effects.timer(id: "elapsed", every: .seconds(1), clock: clock) { [weak self] in
  ///   self?.secondsElapsed.value += 1
  /// }
  /// ```
  ///
  /// The first tick comes one `interval` after the start, and the ticks
  /// keep to that schedule: a tick that takes longer than the interval
  /// delays the next, which then follows at once, without drifting. A tick
  /// runs on the main actor and may await; the next sleep starts when it
  /// returns. A timer started under an `id` that already runs replaces it
  /// (as `cancelInFlight` does). A tick that throws ends the timer (a
  /// `CancellationError` quietly, any other error through ``Diagnostics``).
  /// A timer cancelled at any point — while it sleeps, or after its sleep
  /// ended but before it is back on the main actor — ticks no more.
  ///
  /// An interval that is not positive is refused through ``Diagnostics``
  /// (the timer does not start); one longer than about 31 years is
  /// shortened to that, with a report.
  ///
  /// - Parameters:
  ///   - id: What the timer is, for ``cancel(id:)`` and for reports.
  ///   - interval: The time between two ticks.
  ///   - clock: The clock to wait on; a test passes a manual clock.
  ///   - fileID: Where the timer is started, for reports; by default, the
  ///     caller's file.
  ///   - line: Where the timer is started; by default, the caller's line.
  ///   - tick: The work of each tick, on the main actor.
  public func timer(
    id: some Hashable & Sendable, every interval: Duration,
    clock: some Clock<Duration> = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line,
    _ tick: @escaping @MainActor () async throws -> Void
  ) {
    guard interval > .zero else {
      Diagnostics.report(
        "timer \(Self.quoted(id)) not started: its interval (\(interval)) is not positive",
        fileID: fileID, line: line)
      return
    }
    let interval = _clampedWait(
      interval, of: "timer \(Self.quoted(id))", fileID: fileID, line: line)
    run(id: id, cancelInFlight: true, fileID: fileID, line: line) {
      var deadline = clock.now.advanced(by: interval)
      while true {
        try await _kitSleep(on: clock, until: deadline)
        // Cancelled after the sleep ended, before this is back on the main
        // actor: no tick.
        try Task.checkCancellation()
        try await tick()
        deadline = deadline.advanced(by: interval)
      }
    }
  }

  /// Waits until every operation has returned, cancelled ones included, and
  /// those they started meanwhile.
  ///
  /// An operation that sleeps on a test's manual clock returns only once the
  /// clock is advanced past its deadline: advance first, then wait.
  public func waitUntilIdle() async {
    while let task = running.min(by: { $0.key < $1.key })?.value.task ?? ending.first?.value.task {
      await task.value
    }
  }

  /// Whether `id` names an operation running now.
  ///
  /// - Parameter id: The id the operation was started with.
  /// - Returns: Whether one is running (and not cancelled) under `id`.
  public func isRunning(id: some Hashable & Sendable) -> Bool {
    let key = AnyHashable(id)
    return running.values.contains { $0.id == key }
  }

  /// The operations that have not returned, in start order, each as a
  /// failure names it: `"sort" (started at TodosViewModel.swift:48)`, and
  /// `"sort" (started at TodosViewModel.swift:48, cancelled, not returned)`
  /// for one that was cancelled but still runs (and may still write).
  ///
  /// Not API: POMVVMTesting's `StateRecorder.finish()` reports them.
  package var _runningDescriptions: [String] {
    let all = running.map { ($0.key, $0.value, false) } + ending.map { ($0.key, $0.value, true) }
    return all.sorted { $0.0 < $1.0 }.map { _, operation, cancelled in
      "\(Self.quoted(operation.id.base)) (started at \(_fileName(operation.fileID)):"
        + "\(operation.line)\(cancelled ? ", cancelled, not returned" : ""))"
    }
  }

  private func ended(_ token: UInt64) {
    ending[token] = nil
    if running.removeValue(forKey: token) != nil {
      count.update(running.count)
    }
  }

  /// `id` between quotes, with a quote or a backslash inside escaped and
  /// control characters made visible: `"say \"hi\""`.
  static func quoted(_ id: Any) -> String {
    var escaped = ""
    for character in String(describing: id) {
      if character == "\"" || character == "\\" { escaped.append("\\") }
      escaped.append(character)
    }
    return "\"\(_visibleControls(escaped))\""
  }
}

import Synchronization

/// One task the kit started (an effect, a load's request, a feedback, a
/// timer), as the registry of the kit's tasks follows it.
///
/// Not API. The task carries its entry in ``current`` (a task local, so
/// child tasks carry it too). A test clock marks the entry asleep while the
/// task sleeps on it, and the kit marks it finished when its body returns.
/// `ManualClock.advance` waits until every entry of its scope is finished or
/// asleep: it counts the kit's tasks instead of yielding a fixed number of
/// times.
package final class _KitTask: Sendable {
  /// The task this one belongs to, if the kit started it.
  @TaskLocal package static var current: _KitTask?

  struct State {
    /// How many sleeps on a clock are in progress (child tasks share the
    /// entry, so there may be more than one).
    var sleeping = 0
    var finished = false
    /// Cancelled before it finished (counted in `_cancelledKitTasksRunning`).
    var cancelled = false
    /// Cancelled by itself, and still in the synchronous work it was doing
    /// then: its writes are taken until it next suspends
    /// (CancelledWrites.swift).
    var cancelledItself = false
    /// A write of the cancelled task was refused and reported.
    var refusedWrite = false
  }

  /// What the task is, as a failure names it: `effect "sort" (started at
  /// TodosViewModel.swift:48)`.
  package let description: String
  /// The scope it was started in: the test that started it, when
  /// POMVVMTesting says which test runs.
  let scope: _KitScope?
  let state = _Locked(State())
  /// Runs the task's code that is not isolated to an actor, its child
  /// tasks' included, counting their jobs; only while POMVVMTesting counts
  /// the kit's tasks (KitTaskExecutor.swift).
  private let executor: _KitTaskExecutor?

  private init(description: String, scope: _KitScope?, countsJobs: Bool) {
    self.description = description
    self.scope = scope
    executor = countsJobs ? _KitTaskExecutor() : nil
  }

  /// Registers a task that is about to start, in the current scope.
  ///
  /// Call it before the `Task` is made, run the task's body inside
  /// ``run(_:)``, so that the entry is finished when the body returns.
  package static func begin(_ description: String) -> _KitTask {
    let (scope, countsJobs) = _KitTasks.currentScopeAndCounting()
    let task = _KitTask(description: description, scope: scope, countsJobs: countsJobs)
    _KitTasks.add(task)
    return task
  }

  /// Runs `body` as this task's body: the entry is its ``current`` while it
  /// runs, and finished when it returns.
  package func run<T>(
    isolation: isolated (any Actor)? = #isolation, _ body: () async -> T
  ) async -> T {
    // Cancelled while it runs: its writes to cells and arrays are refused
    // from then on (CancelledWrites.swift).
    let result = await withTaskCancellationHandler {
      await Self.$current.withValue(self) {
        // Child tasks inherit the preference: their jobs are counted too.
        await withTaskExecutorPreference(executor, isolation: isolation) { await body() }
      }
    } onCancel: {
      self.cancelledWhileRunning()
    }
    finish()
    return result
  }

  /// Marks the task finished (it is no longer followed).
  package func finish() {
    let (first, wasCancelled) = state.withLock { state -> (Bool, Bool) in
      guard !state.finished else { return (false, false) }
      state.finished = true
      return (true, state.cancelled)
    }
    if wasCancelled { _cancelledKitTasksRunning.subtract(1, ordering: .relaxed) }
    if first { _KitTasks.remove(self) }
  }

  /// Whether the task is finished, or asleep on a clock with none of its
  /// jobs (its child tasks' included) queued or running off the actors.
  var isSettled: Bool {
    let (finished, sleeping) = state.withLock { ($0.finished, $0.sleeping > 0) }
    return finished || (sleeping && (executor?.jobsInFlight ?? 0) == 0)
  }

  /// The task started to sleep on a clock.
  package func sleeps() {
    state.withLock { $0.sleeping += 1 }
    _KitTasks.progressed()
  }

  /// The task's sleep ended: it is runnable again.
  ///
  /// A clock calls it before it resumes the sleeper, so that no moment
  /// passes where the task is runnable but counted asleep.
  package func wakes() {
    state.withLock { $0.sleeping = max(0, $0.sleeping - 1) }
    _KitTasks.progressed()
  }
}

/// The registry of the tasks the kit started and that have not finished.
///
/// Not API; read by POMVVMTesting's `ManualClock`.
package enum _KitTasks {
  private struct State {
    var tasks: [ObjectIdentifier: _KitTask] = [:]
    /// Moves on every start, end, sleep and wake-up: waiting code sees
    /// whether anything happened since it last looked.
    var progress: UInt64 = 0
    var scope: (@Sendable () -> (any Hashable & Sendable)?)?
  }

  private static let state = _Locked(State())

  /// Says which scope (which test) the current task runs in; POMVVMTesting
  /// installs one that names the running Swift Testing test.
  package static func setScopeProvider(
    _ provider: @escaping @Sendable () -> (any Hashable & Sendable)?
  ) {
    state.withLock { $0.scope = provider }
  }

  /// The scope of the current task, if a provider is installed and names one.
  package static func currentScope() -> _KitScope? {
    currentScopeAndCounting().scope
  }

  /// The scope of the current task, and whether a provider is installed:
  /// whether POMVVMTesting counts the jobs of the kit's tasks.
  static func currentScopeAndCounting() -> (scope: _KitScope?, countsJobs: Bool) {
    let provider = state.withLock { $0.scope }
    return (provider?().map { _KitScope(base: AnyHashable($0)) }, provider != nil)
  }

  static func add(_ task: _KitTask) {
    state.withLock {
      $0.tasks[ObjectIdentifier(task)] = task
      $0.progress &+= 1
    }
  }

  static func remove(_ task: _KitTask) {
    state.withLock {
      $0.tasks[ObjectIdentifier(task)] = nil
      $0.progress &+= 1
    }
  }

  static func progressed() {
    state.withLock { $0.progress &+= 1 }
  }

  /// A counter that moves whenever a task of the kit starts, ends, sleeps
  /// or wakes.
  package static var progress: UInt64 { state.withLock { $0.progress } }

  /// The tasks of `scope` that are neither finished nor asleep on a clock:
  /// they are running, or ready to run, or waiting on something else.
  package static func unsettled(in scope: _KitScope?) -> [_KitTask] {
    let tasks = state.withLock { state in state.tasks.values.filter { $0.scope == scope } }
    return tasks.filter { !$0.isSettled }
  }
}

/// The scope of a kit task: the test that started it.
///
/// Not API. Made only from `Sendable` values, so the erased value is one.
package struct _KitScope: Hashable, @unchecked Sendable {
  let base: AnyHashable
}

/// A clock that tells the kit's task registry itself when a task sleeps on
/// it and when it wakes (POMVVMTesting's `ManualClock`); the kit's own
/// sleeps mark the task asleep around a sleep on any other clock.
///
/// Not API.
package protocol _SleepReportingClock {}

/// Sleeps until `deadline` on `clock`, counting the current kit task asleep
/// meanwhile (unless the clock counts it itself).
func _kitSleep<C: Clock>(on clock: C, until deadline: C.Instant) async throws {
  guard !(clock is any _SleepReportingClock), let task = _KitTask.current else {
    try await clock.sleep(until: deadline, tolerance: nil)
    return
  }
  task.sleeps()
  defer { task.wakes() }
  try await clock.sleep(until: deadline, tolerance: nil)
}

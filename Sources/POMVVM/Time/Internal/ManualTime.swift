import Synchronization

/// Time that moves only on demand: the engine of POMVVMTesting's
/// `ManualClock` and of the demo's virtual clock in script mode.
///
/// Not API. Instants are offsets from the start. Sleepers wait on
/// continuations; `wake(until:limit:)` resumes them one at a time, in
/// deadline order (ties in the order they started to sleep), settling the
/// main actor after each, so that what a wake-up does is done before the
/// next sleeper wakes.
package final class _ManualTime: Sendable {
  /// A task waiting, as a clock lists it.
  package struct Sleeper: Sendable, Hashable {
    /// When it wakes, as an offset from the start.
    package var deadline: Duration
    /// What it belongs to, from `_WaitOrigin`, when the kit started it.
    package var owner: String?
  }

  private struct Waiting {
    let token: UInt64
    let deadline: Duration
    let owner: String?
    /// The kit's task that sleeps, counted asleep while it waits here.
    let task: _KitTask?
    let continuation: CheckedContinuation<Void, any Error>

    func wakesBefore(_ other: Waiting) -> Bool {
      deadline != other.deadline ? deadline < other.deadline : token < other.token
    }
  }

  private struct State {
    var now = Duration.zero
    var nextToken: UInt64 = 0
    var waiting: [Waiting] = []
  }

  /// What an advance did: how many sleepers it woke, and the kit's tasks it
  /// stopped waiting for, by name.
  package struct Advance: Sendable {
    /// How many sleepers woke.
    package var woken = 0
    /// The tasks that made no progress for ``patience`` and were not waited
    /// for, each once, sorted.
    package var givenUp: [String] = []
  }

  private let state = _Locked(State())
  private let settleRounds: Int
  private let patience: Duration

  /// Creates time at zero with nobody sleeping.
  ///
  /// - Parameters:
  ///   - settleRounds: How many rounds of yields settle ready work.
  ///   - patience: How long settling waits for the kit's tasks while none
  ///     of them makes progress, before it stops waiting for those that do
  ///     not settle.
  package init(settleRounds: Int = 20, patience: Duration = _ManualTime.defaultPatience) {
    self.settleRounds = max(1, settleRounds)
    self.patience = max(.zero, patience)
  }

  /// The current offset from the start.
  package var now: Duration { state.withLock { $0.now } }

  /// The tasks sleeping, in the order they will wake.
  package var sleepers: [Sleeper] {
    state.withLock { state in
      state.waiting.sorted { $0.wakesBefore($1) }.map {
        Sleeper(deadline: $0.deadline, owner: $0.owner)
      }
    }
  }

  /// How many tasks sleep.
  package var sleeperCount: Int { state.withLock { $0.waiting.count } }

  /// The earliest deadline of a sleeper, if one sleeps.
  package var nextDeadline: Duration? {
    state.withLock { state in state.waiting.min { $0.wakesBefore($1) }?.deadline }
  }

  /// Suspends until time reaches `deadline`; returns at once if it has.
  ///
  /// - Throws: `CancellationError` as soon as the task is cancelled.
  package func sleep(until deadline: Duration) async throws {
    try Task.checkCancellation()
    let owner = _WaitOrigin.current
    let kitTask = _KitTask.current
    let token = state.withLock { state -> UInt64? in
      guard deadline > state.now else { return nil }
      state.nextToken += 1
      return state.nextToken
    }
    guard let token else { return }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // Under the lock, so that the cancellation handler either finds the
        // sleeper or runs after this saw the task cancelled.
        let cancelled = state.withLock { state -> Bool in
          if Task.isCancelled { return true }
          state.waiting.append(
            Waiting(
              token: token, deadline: deadline, owner: owner, task: kitTask,
              continuation: continuation))
          kitTask?.sleeps()
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let removed = state.withLock { state -> Waiting? in
        guard let index = state.waiting.firstIndex(where: { $0.token == token }) else {
          return nil
        }
        return state.waiting.remove(at: index)
      }
      removed?.task?.wakes()
      removed?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Settles, then wakes the sleepers due by `deadline` one at a time,
  /// settling after each, and moves time to `deadline` (never back).
  ///
  /// - Parameters:
  ///   - deadline: The offset to move to.
  ///   - limit: The most sleepers to wake.
  ///   - fileID: Where the advance was asked for, for a report of a task
  ///     that does not settle.
  ///   - line: Where the advance was asked for.
  /// - Returns: How many woke, and the tasks it stopped waiting for.
  @MainActor
  @discardableResult
  package func wake(
    until deadline: Duration, limit: Int = .max,
    fileID: StaticString = #fileID, line: UInt = #line
  ) async -> Advance {
    var settling = _Settling(scope: _KitTasks.currentScope(), fileID: fileID, line: line)
    await settle(&settling)
    var woken = 0
    while woken < limit {
      let next = state.withLock { state -> Waiting? in
        guard
          let index = state.waiting.indices.min(by: {
            state.waiting[$0].wakesBefore(state.waiting[$1])
          }),
          state.waiting[index].deadline <= deadline
        else { return nil }
        let next = state.waiting.remove(at: index)
        if next.deadline > state.now { state.now = next.deadline }
        return next
      }
      guard let next else { break }
      woken += 1
      // Runnable from now on: counted before it resumes, so that settling
      // waits for what the wake-up does.
      next.task?.wakes()
      next.continuation.resume()
      await settle(&settling)
    }
    if woken < limit {
      state.withLock { state in
        if deadline > state.now { state.now = deadline }
      }
    }
    await settle(&settling)
    return Advance(woken: woken, givenUp: settling.givenUpNames)
  }

  /// Lets ready work run until it blocks: every task the kit started in the
  /// current scope (the running test) finishes or sleeps on a clock, and
  /// the main actor's queue, and tasks on the global executor that hop back
  /// to it, get at least the clock's rounds of yields.
  ///
  /// - Returns: The tasks it stopped waiting for, by name.
  @MainActor
  @discardableResult
  package func settle(fileID: StaticString = #fileID, line: UInt = #line) async -> [String] {
    var settling = _Settling(scope: _KitTasks.currentScope(), fileID: fileID, line: line)
    await settle(&settling)
    return settling.givenUpNames
  }

  /// How long settling waits while none of the kit's tasks starts, ends,
  /// sleeps, wakes or runs a job, before it stops waiting for the tasks
  /// that do not settle and reports them: five seconds.
  ///
  /// Time, not a count of rounds: rounds of yields are fast on a busy
  /// machine, where a task that is only slow (a tick doing a millisecond of
  /// work off the main actor) must not be given up on.
  package static let defaultPatience = Duration.seconds(5)

  /// The fewest rounds with no progress before settling gives up, however
  /// long they took.
  static let fewestIdleRounds = 100

  @MainActor
  private func settle(_ settling: inout _Settling) async {
    let clock = ContinuousClock()
    var rounds = 0
    // Rounds since anything moved, while nothing was unsettled.
    var quietRounds = 0
    var progress = _KitTasks.progress
    var lastProgress = clock.now
    // Rounds since anything moved, while something was unsettled.
    var idleRounds = 0
    while true {
      let unsettled = _KitTasks.unsettled(in: settling.scope).filter {
        !settling.givenUp.contains(ObjectIdentifier($0))
      }
      let now = _KitTasks.progress
      let moved = now != progress
      if moved {
        progress = now
        lastProgress = clock.now
      }
      if unsettled.isEmpty {
        // Settled once a whole round passed with nothing moving: what a
        // task queued on the main actor as it settled (a parent resumed
        // by its last running child) has run by then.
        quietRounds = moved ? 0 : quietRounds + 1
        if rounds >= settleRounds, quietRounds >= 1 { return }
      } else {
        quietRounds = 0
        idleRounds = moved ? 0 : idleRounds + 1
        // Elapsed time decides; the rounds only make sure that this loop
        // itself ran meanwhile: a test whose main actor another test held
        // for seconds has not watched its tasks for that long.
        if clock.now - lastProgress >= patience, idleRounds >= Self.fewestIdleRounds {
          settling.giveUp(on: unsettled, after: patience)
          lastProgress = clock.now
          idleRounds = 0
          continue
        }
      }
      rounds += 1
      await Task.yield()
      await Self.yieldOffMainActor()
    }
  }

  /// Hops to the global executor, yields there, and comes back.
  nonisolated private static func yieldOffMainActor() async {
    await Task.yield()
  }
}

/// One advance's settling: which tasks it waits for, and which it gave up
/// on.
@MainActor
private struct _Settling {
  let scope: _KitScope?
  let fileID: StaticString
  let line: UInt
  var givenUp: Set<ObjectIdentifier> = []
  /// The tasks given up on, by name, in the order given up.
  var givenUpNames: [String] = []

  init(scope: _KitScope?, fileID: StaticString, line: UInt) {
    self.scope = scope
    self.fileID = fileID
    self.line = line
  }

  /// Stops waiting for `tasks` in this advance, and says so once.
  mutating func giveUp(on tasks: [_KitTask], after patience: Duration) {
    for task in tasks { givenUp.insert(ObjectIdentifier(task)) }
    let names = tasks.map(\.description).sorted()
    givenUpNames += names
    let count = names.count
    Diagnostics.report(
      "advancing the clock did not wait for \(count) task\(count == 1 ? "" : "s") of the kit "
        + "that neither finished nor slept on a clock after \(_shortDuration(patience)) with no "
        + "progress: \(names.joined(separator: ", ")). A task that awaits something else (a "
        + "continuation, a stream the test feeds later, a real clock) is not waited for; "
        + "inject the clock being advanced",
      fileID: fileID, line: line)
  }
}

import POMVVM
import Testing

/// A clock whose time moves only when a test says so: inject it where the
/// app passes `ContinuousClock()`, then `await clock.advance(by:)`.
///
/// ```swift
/// let clock = ManualClock()
/// let query = Observable("")
/// let settled = query.debounced(for: .milliseconds(300), clock: clock)
/// query.value = "dune"
/// await clock.advance(by: .milliseconds(299))   // settled.value == ""
/// await clock.advance(by: .milliseconds(1))     // settled.value == "dune"
/// ```
///
/// ## Semantics
///
/// - ``now`` starts at zero and moves only in ``advance(by:fileID:filePath:line:column:)``,
///   ``advance(to:fileID:filePath:line:column:)`` and ``run(maxWakeUps:fileID:filePath:line:column:)``: no
///   sleeper ever wakes without one.
/// - A sleep until ``now`` or earlier returns at once; a later one waits.
/// - `advance` first lets the work that is ready run until it blocks (the
///   main actor's queue and tasks hopping back to it), so that a sleep that
///   the step just before started is counted. Then it wakes each sleeper
///   whose deadline is reached, in deadline order (ties in the order they
///   started to sleep), moving ``now`` to its deadline and letting the main
///   actor run what the wake-up does before the next. So a sleeper that a
///   wake-up schedules inside the advanced span wakes too. When it returns,
///   ``now`` is the target and the state is settled (see below).
/// - A sleeper whose task is cancelled throws `CancellationError` at once
///   and leaves the clock: it never wakes later.
///
/// ## What "settled" means
///
/// The kit counts the tasks it starts: the operations of `Effects` (its
/// timers included), the requests of a `Load`, the feedbacks of a
/// `StateMachine`, and the timers of the time operators. An advance returns
/// only when each of them, among those started in the same test, has
/// finished or sleeps on a clock, however busy the machine is; it does not
/// guess with a fixed number of yields. "The same test" is the Swift
/// Testing test that runs the advance (tests run in parallel, and one
/// test's advance never waits for another's tasks); outside Swift Testing
/// (XCTest, a preview), every task the kit started outside a Swift Testing
/// test counts. A task that a clock or another operation of the kit's made
/// before this clock existed is not counted: make the clock first.
///
/// A child task of one of the kit's tasks (a task group's child, an
/// `async let`) counts with it: a timeout race whose timer child sleeps on
/// the clock while the other child still works off the main actor is not
/// settled until that work is done.
///
/// A task that awaits something other than a clock — a continuation, a
/// stream the test feeds after the advance, a `ContinuousClock` — does not
/// settle by itself, and the advance would wait forever. So the advance
/// waits for as long as the kit's tasks make progress, and stops waiting
/// for the tasks that made none for the clock's `patience` (five seconds by
/// default: elapsed time, so a task that is only slow on a loaded machine
/// is waited for), naming them in a test failure at the line of the
/// advance (and through `Diagnostics`): advance *after* feeding what they
/// wait for. Work that the kit did not start (a `Task` of the test's own)
/// gets ``init(settleRounds:patience:)`` rounds of yields, like
/// swift-clocks' `megaYield`.
public final class ManualClock: Clock, Sendable, _SleepReportingClock {
  /// An instant of a manual clock: the time since it started.
  public struct Instant: InstantProtocol, Sendable, CustomStringConvertible {
    /// The time since the clock started.
    public var offset: Duration

    /// Creates the instant `offset` after the clock's start.
    ///
    /// - Parameter offset: The time since the clock started.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: How far to move; negative moves back.
    /// - Returns: The moved instant.
    public func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    ///
    /// - Parameter other: The later (or earlier) instant.
    /// - Returns: The duration, negative if `other` is earlier.
    public func duration(to other: Self) -> Duration {
      other.offset - offset
    }

    /// Whether `lhs` comes before `rhs`.
    ///
    /// - Parameters:
    ///   - lhs: An instant.
    ///   - rhs: Another instant.
    /// - Returns: Whether `lhs` is earlier.
    public static func < (lhs: Self, rhs: Self) -> Bool {
      lhs.offset < rhs.offset
    }

    /// The offset, as `1.3 seconds`.
    public var description: String { "\(offset)" }
  }

  /// A task waiting on the clock, as ``sleepers`` lists it.
  public struct Sleeper: Sendable, Hashable, CustomStringConvertible {
    /// When it wakes.
    public var deadline: Instant
    /// What it belongs to, when the kit started it: `debounced 300ms (made
    /// at SearchViewModel.swift:12)`, `effect "sort" (started at
    /// TodosViewModel.swift:48)`; `nil` for a task of the app's own.
    public var owner: String?

    /// The sleeper as a failure lists it: `effect "sort" (started at
    /// TodosViewModel.swift:48) until 1.0 seconds`.
    public var description: String {
      "\(owner ?? "a task") until \(deadline)"
    }
  }

  private let time: _ManualTime
  private let patience: Duration

  /// Creates a clock at instant zero with nobody sleeping.
  ///
  /// - Parameters:
  ///   - settleRounds: How many rounds of yields (to the main actor and to
  ///     the global executor) an advance makes to let ready work run until
  ///     it blocks; raise it for work that hops between many actors.
  ///   - patience: How long an advance waits while none of the kit's tasks
  ///     starts, ends, sleeps, wakes or runs, before it fails the test,
  ///     naming the tasks that do not settle, and stops waiting for them;
  ///     five seconds by default.
  public init(settleRounds: Int = 20, patience: Duration = .seconds(5)) {
    _installTestScope()
    time = _ManualTime(settleRounds: settleRounds, patience: patience)
    self.patience = patience
  }

  /// The current instant; it moves only when the clock is advanced.
  public var now: Instant { Instant(offset: time.now) }

  /// The smallest step of the clock: any duration is exact.
  public var minimumResolution: Duration { .zero }

  /// The tasks sleeping now, in the order they will wake.
  public var sleepers: [Sleeper] {
    time.sleepers.map { Sleeper(deadline: Instant(offset: $0.deadline), owner: $0.owner) }
  }

  /// How many tasks sleep now.
  public var sleeperCount: Int { time.sleeperCount }

  /// Suspends until the clock is advanced to `deadline`; returns at once if
  /// it is not later than ``now``.
  ///
  /// - Parameters:
  ///   - deadline: When to wake.
  ///   - tolerance: Ignored: a manual clock wakes exactly.
  /// - Throws: `CancellationError` as soon as the task is cancelled, before
  ///   or during the sleep.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await time.sleep(until: deadline.offset)
  }

  /// Moves time forward by `duration`, waking every sleeper whose deadline
  /// is reached, in deadline order; returns with the state settled: every
  /// task the kit started in this test has finished or sleeps on a clock.
  ///
  /// A task of the kit that makes no progress for the clock's `patience`
  /// fails the test, by name, and is no longer waited for.
  ///
  /// - Parameters:
  ///   - duration: How far to move; not negative.
  ///   - fileID: Where a task that does not settle is reported; the
  ///     caller's file.
  ///   - filePath: Where a task that does not settle is reported; the
  ///     caller's file.
  ///   - line: Where a task that does not settle is reported; the caller's
  ///     line.
  ///   - column: Where a task that does not settle is reported; the
  ///     caller's column.
  @MainActor
  public func advance(
    by duration: Duration = .zero, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) async {
    await advance(
      to: now.advanced(by: duration), fileID: fileID, filePath: filePath, line: line,
      column: column)
  }

  /// Moves time forward to `deadline`, waking every sleeper whose deadline
  /// is reached, in deadline order; returns with the state settled: every
  /// task the kit started in this test has finished or sleeps on a clock.
  ///
  /// An instant earlier than ``now`` only settles ready work. A task of the
  /// kit that makes no progress for the clock's `patience` fails the test,
  /// by name, and is no longer waited for.
  ///
  /// - Parameters:
  ///   - deadline: The instant to move to.
  ///   - fileID: Where a task that does not settle is reported; the
  ///     caller's file.
  ///   - filePath: Where a task that does not settle is reported; the
  ///     caller's file.
  ///   - line: Where a task that does not settle is reported; the caller's
  ///     line.
  ///   - column: Where a task that does not settle is reported; the
  ///     caller's column.
  @MainActor
  public func advance(
    to deadline: Instant, fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    let advance = await time.wake(until: deadline.offset, fileID: fileID, line: line)
    reportGivenUp(
      advance.givenUp,
      at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Advances until nobody sleeps, waking sleepers in deadline order,
  /// including those that wake-ups schedule.
  ///
  /// A program that always schedules another sleep would never end: past
  /// `maxWakeUps` wake-ups, `run` records a test failure listing who still
  /// sleeps, and returns.
  ///
  /// - Parameters:
  ///   - maxWakeUps: The most wake-ups before `run` gives up.
  ///   - fileID: Where a failure is reported; the caller's file.
  ///   - filePath: Where a failure is reported; the caller's file.
  ///   - line: Where a failure is reported; the caller's line.
  ///   - column: Where a failure is reported; the caller's column.
  @MainActor
  public func run(
    maxWakeUps: Int = 10_000,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) async {
    let location = CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    reportGivenUp(await time.settle(fileID: fileID, line: line), at: location)
    var wakeUps = 0
    while let next = time.nextDeadline {
      guard wakeUps < maxWakeUps else {
        let still = sleepers.map { "  \($0)" }.joined(separator: "\n")
        recordFailure(
          "ManualClock.run() stopped after \(maxWakeUps) wake-ups, at \(now): sleepers keep "
            + "scheduling sleepers. Still sleeping:\n" + still,
          at: location)
        return
      }
      let advance = await time.wake(
        until: next, limit: maxWakeUps - wakeUps, fileID: fileID, line: line)
      wakeUps += advance.woken
      reportGivenUp(advance.givenUp, at: location)
    }
  }

  /// Fails the test for the kit's tasks an advance stopped waiting for.
  private func reportGivenUp(_ names: [String], at location: CallerLocation) {
    guard !names.isEmpty else { return }
    let count = names.count
    recordFailure(
      "ManualClock did not wait for \(count) task\(count == 1 ? "" : "s") of the kit that "
        + "neither finished nor slept on a clock, and made no progress for \(_shortDuration(patience)): "
        + names.joined(separator: ", ") + ". A task that awaits something else (a "
        + "continuation, a stream the test feeds later, a real clock) settles only once it "
        + "is fed: feed it before the advance, or inject the clock being advanced",
      at: location)
  }
}

/// Tells the kit which Swift Testing test runs, so that an advance waits
/// only for the tasks its own test started.
func _installTestScope() {
  _ = _testScopeInstalled
}

private let _testScopeInstalled: Void = _KitTasks.setScopeProvider {
  Test.current?.id
}

import POMVVM

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
/// - ``now`` starts at zero and moves only in ``advance(by:)``,
///   ``advance(to:)`` and ``run(maxWakeUps:fileID:filePath:line:column:)``: no
///   sleeper ever wakes without one.
/// - A sleep until ``now`` or earlier returns at once; a later one waits.
/// - `advance` first lets the work that is ready run until it blocks (the
///   main actor's queue and tasks hopping back to it), so that a sleep that
///   the step just before started is counted. Then it wakes each sleeper
///   whose deadline is reached, in deadline order (ties in the order they
///   started to sleep), moving ``now`` to its deadline and letting the main
///   actor run what the wake-up does before the next. So a sleeper that a
///   wake-up schedules inside the advanced span wakes too. When it returns,
///   ``now`` is the target and the state is settled.
/// - A sleeper whose task is cancelled throws `CancellationError` at once
///   and leaves the clock: it never wakes later.
///
/// Settling is a bounded series of yields to the main actor and to the
/// global executor, like swift-clocks' `megaYield`: work that waits on
/// something outside the process (a real socket) is not waited for.
public final class ManualClock: Clock, Sendable {
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

  /// Creates a clock at instant zero with nobody sleeping.
  ///
  /// - Parameter settleRounds: How many rounds of yields (to the main actor
  ///   and to the global executor) an advance makes to let ready work run
  ///   until it blocks; raise it for work that hops between many actors.
  public init(settleRounds: Int = 20) {
    time = _ManualTime(settleRounds: settleRounds)
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
  /// is reached, in deadline order; returns with the state settled.
  ///
  /// - Parameter duration: How far to move; not negative.
  @MainActor
  public func advance(by duration: Duration = .zero) async {
    await advance(to: now.advanced(by: duration))
  }

  /// Moves time forward to `deadline`, waking every sleeper whose deadline
  /// is reached, in deadline order; returns with the state settled.
  ///
  /// An instant earlier than ``now`` only settles ready work.
  ///
  /// - Parameter deadline: The instant to move to.
  @MainActor
  public func advance(to deadline: Instant) async {
    await time.wake(until: deadline.offset)
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
    await time.settle()
    var wakeUps = 0
    while let next = time.nextDeadline {
      guard wakeUps < maxWakeUps else {
        let still = sleepers.map { "  \($0)" }.joined(separator: "\n")
        recordFailure(
          "ManualClock.run() stopped after \(maxWakeUps) wake-ups, at \(now): sleepers keep "
            + "scheduling sleepers. Still sleeping:\n" + still,
          at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
        return
      }
      wakeUps += await time.wake(until: next, limit: maxWakeUps - wakeUps)
    }
  }
}

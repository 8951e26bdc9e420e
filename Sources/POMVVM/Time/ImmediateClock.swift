import Synchronization

/// A clock whose sleeps return at once: for previews and tests that do not
/// care about time, where a debounce or a retry delay would only slow them
/// down.
///
/// ```swift
/// let model = SearchViewModel(clock: ImmediateClock())
/// model.query.value = "dune"   // the debounce fires without waiting
/// ```
///
/// A sleep moves ``now`` to its deadline (never back) and returns after a
/// yield, so that a loop of sleeps does not starve the executor; a cancelled
/// task's sleep throws `CancellationError`. It is in POMVVM rather than
/// POMVVMTesting so that an app's previews can use it.
///
/// ## What it does not promise: order between tasks
///
/// Every sleep returns after one yield, whatever its deadline. So the sleeps
/// of *one* task happen in order, but two tasks that sleep concurrently — a
/// timer that ticks every second and an effect that waits five seconds —
/// go on in whatever order the executor runs them, not in deadline order:
/// the effect may finish before the timer's second tick, or after its
/// tenth, and the order may change from run to run on a loaded machine.
/// ``now`` is the latest deadline any task slept until, so one task may
/// see it past a deadline that another still waits on.
///
/// A test whose result depends on the order of concurrent work, or that
/// checks *when* things happen, uses POMVVMTesting's `ManualClock`: its
/// `advance(by:)` and `run()` wake sleepers in deadline order (ties in the
/// order they started to sleep) and let each wake-up's work settle before
/// the next, on every run.
public final class ImmediateClock: Clock, Sendable {
  /// An instant of an immediate clock: the time its sleeps have skipped.
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

  private let current = _Locked(Duration.zero)

  /// Creates a clock at instant zero.
  public init() {}

  /// The current instant: the latest deadline slept until.
  public var now: Instant { Instant(offset: current.withLock { $0 }) }

  /// The smallest step of the clock: any duration is exact.
  public var minimumResolution: Duration { .zero }

  /// Returns at once, with ``now`` moved to `deadline` if it is later.
  ///
  /// - Parameters:
  ///   - deadline: The instant the sleep was for.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` if the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    current.withLock { now in now = max(now, deadline.offset) }
    await Task.yield()
    try Task.checkCancellation()
  }
}

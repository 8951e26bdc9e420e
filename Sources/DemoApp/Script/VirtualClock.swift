import POMVVM

/// The clock of script mode: time moves only when a script says `wait`, so
/// a script prints the same output on every run.
///
/// The kit's `ManualClock` lives in POMVVMTesting, which links the test
/// frameworks (it records failures through Swift Testing or XCTest); the
/// demo is an app and does not ship them. So this clock is the demo's own,
/// a thin face over the same engine as `ManualClock` (`_ManualTime` in
/// POMVVM, package-internal): sleepers wake in deadline order, and the
/// main actor settles after each wake-up.
public final class VirtualClock: Clock, Sendable {
  /// An instant of the script's time: the time since the script started.
  public struct Instant: InstantProtocol, Sendable {
    /// The time since the script started.
    public var offset: Duration

    /// Creates the instant `offset` after the start.
    ///
    /// - Parameter offset: The time since the script started.
    public init(offset: Duration = .zero) {
      self.offset = offset
    }

    /// The instant `duration` later.
    ///
    /// - Parameter duration: How far to move.
    /// - Returns: The moved instant.
    public func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }

    /// The time from this instant to `other`.
    ///
    /// - Parameter other: The other instant.
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
  }

  private let time = _ManualTime()

  /// Creates a clock at the start of the script.
  public init() {}

  /// The script's current time.
  public var now: Instant { Instant(offset: time.now) }

  /// Any duration is exact.
  public var minimumResolution: Duration { .zero }

  /// How many tasks wait on the clock.
  public var sleeperCount: Int { time.sleeperCount }

  /// Suspends until a `wait` reaches `deadline`.
  ///
  /// - Parameters:
  ///   - deadline: When to wake.
  ///   - tolerance: Ignored.
  /// - Throws: `CancellationError` as soon as the task is cancelled.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try await time.sleep(until: deadline.offset)
  }

  /// Moves the script's time forward, waking what is due in deadline order;
  /// returns with the main actor settled.
  ///
  /// - Parameter duration: How far to move.
  @MainActor
  public func advance(by duration: Duration) async {
    await time.wake(until: time.now + duration)
  }

  /// Parses a script's duration: a number and a unit, `300ms`, `1s`,
  /// `1.5s`; at most an hour.
  ///
  /// - Parameter text: The duration as written.
  /// - Returns: The duration, or `nil` if `text` is not one.
  public static func duration(from text: String) -> Duration? {
    let units: [(suffix: String, scale: Int64)] = [("ms", 1), ("s", 1_000)]
    guard let unit = units.first(where: { text.hasSuffix($0.suffix) }) else { return nil }
    let number = text.dropLast(unit.suffix.count)
    let parts = number.split(separator: ".", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.count <= 7 }),
      parts.allSatisfy({ $0.allSatisfy { ("0"..."9").contains($0) } }),
      let whole = Int64(parts[0])
    else { return nil }
    var milliseconds = whole * unit.scale
    if parts.count == 2 {
      // A fraction finer than a millisecond is refused, not rounded.
      let fraction = parts[1]
      let digits = Int64(unit.scale == 1 ? 0 : 3)
      guard fraction.count <= digits, let value = Int64(fraction) else { return nil }
      var scale: Int64 = 1
      for _ in 0..<(digits - Int64(fraction.count)) { scale *= 10 }
      milliseconds += value * scale
    }
    guard milliseconds <= 3_600_000 else { return nil }
    return .milliseconds(milliseconds)
  }
}

extension DependencyValues {
  /// The clock that everything waiting waits on: `ContinuousClock()` in the
  /// app; in a test, set a manual clock.
  ///
  /// ```swift
  /// @Dependency(\.clock) var clock
  /// let settled = query.debounced(for: .milliseconds(300), clock: clock)
  /// ```
  ///
  /// Its test value, which a test gets (after a failure) when it did not
  /// set one, is `ContinuousClock()` too: real time, so nothing spins.
  public var clock: any Clock<Duration> {
    get { self[ClockKey.self] }
    set { self[ClockKey.self] = newValue }
  }
}

/// The key of ``DependencyValues/clock``.
private enum ClockKey: DependencyKey, _NamedDependencyKey {
  static var liveValue: any Clock<Duration> { ContinuousClock() }
  static var testValue: any Clock<Duration> { ContinuousClock() }
  static var name: String { "clock" }
}

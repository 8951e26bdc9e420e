extension UndoHistory {
  /// Creates an empty history whose merge window is measured on the times
  /// `now` returns.
  ///
  /// Kept for code written against 0.1: use
  /// ``init(limit:mergeWindow:clock:)``, which takes any `Clock<Duration>`
  /// (`ContinuousClock()` by default, a `ManualClock` in tests). This
  /// initializer will be removed in the release after the next one.
  ///
  /// - Parameters:
  ///   - limit: The most steps kept; 100 by default.
  ///   - mergeWindow: How long after a change of an element or cell the next
  ///     change of it still joins the same step; one second by default.
  ///   - now: The time, for the merge window; read once now and on every
  ///     recorded change, on the main actor.
  @available(
    *, deprecated, renamed: "init(limit:mergeWindow:clock:)",
    message: "pass a Clock<Duration>: ContinuousClock() by default, a ManualClock in tests"
  )
  public convenience init(
    limit: Int = 100, mergeWindow: Duration = .seconds(1),
    now: @escaping @MainActor () -> ContinuousClock.Instant
  ) {
    let start = now()
    self.init(limit: limit, mergeWindow: mergeWindow, elapsed: { start.duration(to: now()) })
  }
}

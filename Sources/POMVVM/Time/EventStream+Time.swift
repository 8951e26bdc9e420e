extension EventStream {
  /// A stream that sends this stream's last event once no other has come for
  /// `duration`.
  ///
  /// One task sleeps until the deadline, which each event moves. The stream
  /// keeps this one alive, and so does each observation of it, as an
  /// observation keeps a derived cell alive: `taps.debounced(…).observe { … }`
  /// fires while its subscription is kept. Releasing the stream and its
  /// subscriptions cancels its task. It appears in
  /// ``BindingGraph`` as an event stream labelled `debounced 300ms`,
  /// derived from this one.
  ///
  /// - Parameters:
  ///   - duration: How long no event must come.
  ///   - clock: The clock to wait on; a test passes a manual clock.
  ///   - fileID: Where the stream is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the stream is made; by default, the caller's line.
  /// - Returns: The debounced stream.
  public func debounced(
    for duration: Duration, clock: some Clock<Duration> = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> EventStream<Payload> {
    _timed(.debounce, duration, clock, fileID, line)
  }

  /// A stream that sends at most one of this stream's events per
  /// `duration`.
  ///
  /// An event when no window is open is sent at once and opens a window of
  /// `duration`. Events during the window are held: when it closes, the last
  /// one (`latest: true`) or the first one (`latest: false`) is sent and
  /// opens the next window; a window with no event closes quietly.
  ///
  /// - Parameters:
  ///   - duration: The shortest time between two events sent.
  ///   - clock: The clock to wait on; a test passes a manual clock.
  ///   - latest: Whether a window ends with the last event it held (`true`)
  ///     or the first (`false`).
  ///   - fileID: Where the stream is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the stream is made; by default, the caller's line.
  /// - Returns: The throttled stream.
  public func throttled(
    for duration: Duration, clock: some Clock<Duration> = ContinuousClock(), latest: Bool = true,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> EventStream<Payload> {
    _timed(.throttle(latest: latest), duration, clock, fileID, line)
  }

  /// A stream that sends each of this stream's events `duration` after it
  /// was sent, in order.
  ///
  /// - Parameters:
  ///   - duration: The delay.
  ///   - clock: The clock to wait on; a test passes a manual clock.
  ///   - fileID: Where the stream is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the stream is made; by default, the caller's line.
  /// - Returns: The delayed stream.
  public func delayed(
    by duration: Duration, clock: some Clock<Duration> = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> EventStream<Payload> {
    _timed(.delay, duration, clock, fileID, line)
  }

  private func _timed<C: Clock<Duration>>(
    _ rule: _TimeRule, _ duration: Duration, _ clock: C,
    _ fileID: StaticString, _ line: UInt
  ) -> EventStream<Payload> {
    let output = EventStream<Payload>(fileID: fileID, line: line)
    // `taps.debounced(…).observe { … }` keeps only the subscription: as for
    // a derived cell, the subscription keeps the stream alive.
    output._livesWhileObserved = true
    let operation = _TimeOperator<C, Payload>(
      rule, duration: duration, clock: clock, list: output, fileID: fileID, line: line)
    // The output owns the operator (through its subscription to this
    // stream), which owns this closure.
    operation.emit = { [unowned output] payload in output.send(payload) }
    _Labels.set(operation._operatorName, of: output)
    // The output owns the observation (and through it the operator and this
    // stream): it ends, and the timer with it, when the output is released.
    let subscription = observe { [self] payload in
      if operation.receive(payload) {
        withExtendedLifetime(self) { operation.emit(payload) }
      }
    }
    subscription._setRole(_ObserverRole(.derivation, target: output, fileID: fileID, line: line))
    _Fallbacks.add(subscription, to: output)
    return output
  }
}

extension EventStream {
  /// Sends the events that this time operator holds back now, and stops
  /// waiting: a debounce's last event, a throttle's held event (its window
  /// closes), a delay's queued events in order.
  ///
  /// On a stream that is not made by `debounced`, `throttled` or `delayed`,
  /// it does nothing and says so through ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - fileID: Where a misuse is reported; the caller's file.
  ///   - line: Where a misuse is reported; the caller's line.
  public func flush(fileID: StaticString = #fileID, line: UInt = #line) {
    _TimeOperators.apply(true, to: self, kind: "stream", fileID: fileID, line: line)
  }

  /// Drops the events that this time operator holds back, and stops
  /// waiting.
  ///
  /// On a stream that is not made by `debounced`, `throttled` or `delayed`,
  /// it does nothing and says so through ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - fileID: Where a misuse is reported; the caller's file.
  ///   - line: Where a misuse is reported; the caller's line.
  public func cancel(fileID: StaticString = #fileID, line: UInt = #line) {
    _TimeOperators.apply(false, to: self, kind: "stream", fileID: fileID, line: line)
  }
}

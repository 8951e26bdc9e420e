extension ObservableCell where Value: Sendable {
  /// The cell's values as an async sequence: the current value first, then
  /// every change.
  ///
  /// The sequence buffers only the newest value, so a slow consumer skips
  /// intermediate values but always gets the latest one. It finishes when the
  /// cell is deallocated; cancelling the consuming task ends the observation.
  ///
  /// ```swift
  /// for await count in counter.values {
  ///   print(count)
  /// }
  /// ```
  public var values: AsyncStream<Value> {
    AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
      let finisher = _OnRelease { continuation.finish() }
      let subscription = observe { value in
        extendLifetime(finisher)
        continuation.yield(value)
      }
      continuation.onTermination = { _ in
        Task { @MainActor in subscription.cancel() }
      }
    }
  }
}

extension EventStream where Payload: Sendable {
  /// The stream's events as an async sequence, from now on.
  ///
  /// Events are buffered without limit, so none is lost. The sequence
  /// finishes when the stream is deallocated; cancelling the consuming task
  /// ends the observation.
  public var values: AsyncStream<Payload> {
    AsyncStream(bufferingPolicy: .unbounded) { continuation in
      let finisher = _OnRelease { continuation.finish() }
      let subscription = observe { payload in
        extendLifetime(finisher)
        continuation.yield(payload)
      }
      continuation.onTermination = { _ in
        Task { @MainActor in subscription.cancel() }
      }
    }
  }
}

/// Runs an action when released: captured by a handler, it tells when the
/// handler is dropped (its cell went away).
final class _OnRelease: Sendable {
  private let action: @Sendable () -> Void

  init(_ action: @escaping @Sendable () -> Void) {
    self.action = action
  }

  deinit {
    action()
  }
}

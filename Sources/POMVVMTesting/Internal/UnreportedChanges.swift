import POMVVM

/// The changes a ``StateRecorder`` holds that no step reported yet, as its
/// failure lists them, kept where its nonisolated `deinit` can read them.
final class UnreportedChanges: Sendable {
  private struct State {
    var lines: [String] = []
    var isReported = true
  }

  private let state = _Locked(State())

  /// The lines to report on release: none when exhaustivity is off.
  var lines: [String] {
    state.withLock { $0.isReported ? $0.lines : [] }
  }

  /// Whether a released recorder reports them (exhaustivity is on).
  var isReported: Bool {
    get { state.withLock { $0.isReported } }
    set { state.withLock { $0.isReported = newValue } }
  }

  func append(_ line: String) {
    state.withLock { $0.lines.append(line) }
  }

  func clear() {
    state.withLock { $0.lines.removeAll() }
  }
}

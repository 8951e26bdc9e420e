/// A one-shot gate for effects under test.
///
/// `wait()` suspends until `open()`, or until the waiting task is cancelled:
/// no sleeps, no timeouts.
final class Latch: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  /// Suspends until the latch opens; returns `false` if the task was
  /// cancelled first.
  func wait() async -> Bool {
    for await _ in stream {
      return true
    }
    return !Task.isCancelled
  }

  func open() {
    continuation.finish()
  }
}

/// A log that effects running off the main actor append to.
actor EffectLog {
  private(set) var entries: [String] = []
  private var watchers: [(String, CheckedContinuation<Void, Never>)] = []

  func append(_ entry: String) {
    entries.append(entry)
    for (index, watcher) in watchers.enumerated().reversed() where watcher.0 == entry {
      watchers.remove(at: index)
      watcher.1.resume()
    }
  }

  /// Suspends until `entry` has been appended.
  func waitFor(_ entry: String) async {
    if entries.contains(entry) { return }
    await withCheckedContinuation { watchers.append((entry, $0)) }
  }
}

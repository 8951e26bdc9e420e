/// A one-shot gate: `wait()` suspends until `open()`, or until the waiting
/// task is cancelled.
final class Latch: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  /// Returns `true` once opened, `false` if the task was cancelled first.
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

/// A log written from effects off the main actor.
actor Log {
  private(set) var entries: [String] = []
  private var watchers: [(String, CheckedContinuation<Void, Never>)] = []

  func append(_ entry: String) {
    entries.append(entry)
    for (index, watcher) in watchers.enumerated().reversed() where watcher.0 == entry {
      watchers.remove(at: index)
      watcher.1.resume()
    }
  }

  func waitFor(_ entry: String) async {
    if entries.contains(entry) { return }
    await withCheckedContinuation { watchers.append((entry, $0)) }
  }
}

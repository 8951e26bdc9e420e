/// A one-shot gate for code under test.
///
/// `wait()` suspends until `open()`, or until the waiting task is cancelled:
/// no sleeps, no timeouts.
public final class Latch: Sendable {
  private let stream: AsyncStream<Void>
  private let continuation: AsyncStream<Void>.Continuation

  /// Creates a closed latch.
  public init() {
    (stream, continuation) = AsyncStream.makeStream()
  }

  /// Suspends until the latch opens; returns `false` if the task was
  /// cancelled first.
  public func wait() async -> Bool {
    for await _ in stream {
      return true
    }
    return !Task.isCancelled
  }

  /// Opens the latch: every waiter, present and future, goes on.
  public func open() {
    continuation.finish()
  }
}

/// A log that code running off the main actor appends to, and that tests
/// wait on.
public actor EffectLog {
  /// Everything appended, in order.
  public private(set) var entries: [String] = []
  private var watchers: [(String, CheckedContinuation<Void, Never>)] = []

  /// Creates an empty log.
  public init() {}

  /// Appends an entry and wakes whoever waits for it.
  public func append(_ entry: String) {
    entries.append(entry)
    for (index, watcher) in watchers.enumerated().reversed() where watcher.0 == entry {
      watchers.remove(at: index)
      watcher.1.resume()
    }
  }

  /// Suspends until `entry` has been appended.
  public func waitFor(_ entry: String) async {
    if entries.contains(entry) { return }
    await withCheckedContinuation { watchers.append((entry, $0)) }
  }
}

/// A dependency injected through a task-local value, as apps inject
/// services: tests check that the kit's tasks see it.
public enum TaskLocalService {
  /// The service's name in the current task; `"live"` unless a test sets it.
  @TaskLocal public static var name = "live"
}

import Dispatch

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What one write of a store's file came to: the last change it holds, and
/// its error, if it failed.
struct _SaveOutcome: Sendable {
  /// The number of the last change the write held; 0 before any write.
  var generation: Int
  var error: StoreError?
  /// The number of the write among the writer's writes: a database store
  /// writes a failed burst again, and the later write's outcome is the
  /// newer one.
  var attempt = 0

  /// Whether this outcome is newer than `other`.
  func isNewer(than other: _SaveOutcome) -> Bool {
    (generation, attempt) > (other.generation, other.attempt)
  }
}

/// The newest save outcome that has not reached the main actor yet, and
/// the tasks that wait for one.
///
/// Outcomes of background saves go to the main actor in a task. A main
/// actor that does not suspend for a long time (a script of a million
/// commands, read from a pipe) runs none of those tasks meanwhile; with one
/// task per outcome they queued up without bound. The mailbox keeps only
/// the newest outcome — an older one would not be published anyway — and a
/// task is scheduled only when the mailbox was empty, so at most one waits.
///
/// A task in ``Store/waitUntilSaved()`` waits here too: an outcome put in
/// the mailbox resumes it directly, on the main actor, and it takes the
/// outcome itself (no task is scheduled then), so that waiting for a save
/// depends on nothing but the save thread and the main actor, and the
/// outcome's report goes to the waiting task's `Diagnostics` capture.
final class _OutcomeMailbox: Sendable {
  private struct State {
    var newest: _SaveOutcome?
    var tasks = 0
    var waiters: [CheckedContinuation<Void, Never>] = []
  }

  private let state = _Locked(State())

  /// Keeps an outcome, unless a newer one is waiting, and resumes the
  /// waiting tasks, which take it.
  ///
  /// - Returns: Whether the caller schedules the task that takes the
  ///   outcome: the mailbox was empty, and no task waited.
  func put(_ outcome: _SaveOutcome) -> Bool {
    let (schedules, waiters) = state.withLock { state in
      let wasEmpty = state.newest == nil
      if state.newest.map(outcome.isNewer(than:)) ?? true {
        state.newest = outcome
      }
      let waiters = state.waiters
      state.waiters = []
      let schedules = wasEmpty && waiters.isEmpty
      if schedules {
        state.tasks += 1
      }
      return (schedules, waiters)
    }
    for waiter in waiters {
      waiter.resume()
    }
    return schedules
  }

  /// Takes the waiting outcome, if any, and empties the mailbox.
  func take() -> _SaveOutcome? {
    state.withLock { state in
      defer { state.newest = nil }
      return state.newest
    }
  }

  /// Returns when an outcome is in the mailbox, when ``wakeWaiters()`` is
  /// called, or at once if an outcome is there already.
  func waitForOutcome(isolation: isolated (any Actor)? = #isolation) async {
    await withCheckedContinuation(isolation: isolation) { continuation in
      let isWaiting = state.withLock { state in
        guard state.newest == nil else { return false }
        state.waiters.append(continuation)
        return true
      }
      if !isWaiting {
        continuation.resume()
      }
    }
  }

  /// Resumes every waiting task: an outcome was published without the
  /// mailbox, or a waiting task was cancelled.
  func wakeWaiters() {
    let waiters = state.withLock { state in
      defer { state.waiters = [] }
      return state.waiters
    }
    for waiter in waiters {
      waiter.resume()
    }
  }

  /// How many tasks ``put(_:)`` asked for; for tests.
  var taskCount: Int { state.withLock { $0.tasks } }
}

/// What a ``Store`` needs of its writer, whatever its element type.
protocol _StoreSaving: AnyObject, Sendable {
  /// Writes the changes not written yet, and waits until they are on disk.
  func flush() -> _SaveOutcome
  /// Flushes, then releases the file's lock; the writer takes no more
  /// changes.
  func close()
  /// How many times the file was written (or a write was attempted).
  var writeCount: Int { get }
}

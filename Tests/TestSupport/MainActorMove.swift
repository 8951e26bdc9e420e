import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Moves the main actor to another thread on purpose, for tests of code
/// that must not take the thread's identity for the main actor's.
///
/// On Linux, once the main thread is parked in `dispatch_main()` (as an
/// `async` main or top-level `await` does), main-queue jobs run on
/// whichever thread of the pool drains the main queue, so the main actor
/// does not keep one thread.
public enum MainActorMove {
  /// Suspends the caller, a main-actor task running on `thread`, and
  /// resumes it while `thread` is kept busy, so that another thread drains
  /// the main queue.
  ///
  /// A thread of the pool that goes idle is the first one given new work.
  /// So blocks are started on serial queues one after another, each kept
  /// waiting, until one runs on `thread` (idle once the caller suspended
  /// and the main queue went idle) or 16 were tried; that block resumes
  /// the caller, and every block is let go once the caller runs again.
  ///
  /// The main actor moves only if the main queue goes idle when the caller
  /// suspends: while other work keeps it busy, the thread that drains it
  /// keeps the main actor. A process of its own, with nothing else on the
  /// main actor, sees a move nearly every time.
  @MainActor
  public static func resumeOnAnotherThread(than thread: pthread_t) async {
    let hold = DispatchSemaphore(value: 0)
    let parked = DispatchGroup()
    // The block that resumes the caller is the last one started: it tells
    // how many there are.
    let count = await withCheckedContinuation { (resume: CheckedContinuation<Int, Never>) in
      park(until: thread, attempt: 0, hold: hold, parked: parked) { resume.resume(returning: $0) }
    }
    for _ in 0..<count { hold.signal() }
    parked.wait()
  }

  /// Starts a block that waits on `hold`; the one that runs on `thread`,
  /// or the 16th, calls `resume` first with the number of blocks started.
  private static func park(
    until thread: pthread_t, attempt: Int, hold: DispatchSemaphore, parked: DispatchGroup,
    resume: @escaping @Sendable (Int) -> Void
  ) {
    parked.enter()
    DispatchQueue(label: "park \(attempt)").async {
      if pthread_equal(pthread_self(), thread) != 0 || attempt == 15 {
        resume(attempt + 1)
      } else {
        park(until: thread, attempt: attempt + 1, hold: hold, parked: parked, resume: resume)
      }
      hold.wait()
      parked.leave()
    }
  }
}

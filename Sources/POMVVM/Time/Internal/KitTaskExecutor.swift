import Dispatch
import Synchronization

/// Runs the code of one kit task that is not isolated to an actor, and the
/// code of the child tasks it makes (a task group's, an `async let`'s),
/// counting the jobs that are queued or running.
///
/// Not API. A child task carries its parent's ``_KitTask/current`` entry,
/// but nothing tells the kit that it exists: a timeout race whose sleeping
/// child marks the entry asleep while the other child still works, or an
/// `async let` that works while its parent sleeps, would look settled. A
/// task executor preference is inherited by child tasks, so every job of
/// the task's tree that runs off the actors comes through here, and the
/// entry counts as settled only while none is queued or running.
///
/// Only installed while POMVVMTesting counts the kit's tasks (a
/// `ManualClock` exists in the process); an app's tasks run on the global
/// executor as they always do.
final class _KitTaskExecutor: TaskExecutor, Sendable {
  private let inFlight = Atomic<Int>(0)

  /// How many jobs are queued or running.
  var jobsInFlight: Int { inFlight.load(ordering: .acquiring) }

  func enqueue(_ job: consuming ExecutorJob) {
    let job = UnownedJob(job)
    // Counted before it is queued: between the enqueue and the run, the
    // task is runnable, not settled.
    inFlight.add(1, ordering: .acquiringAndReleasing)
    _KitTasks.progressed()
    let executor = asUnownedTaskExecutor()
    DispatchQueue.global().async {
      job.runSynchronously(on: executor)
      self.inFlight.subtract(1, ordering: .acquiringAndReleasing)
      _KitTasks.progressed()
    }
  }
}

import Synchronization

// Cancellation means nothing more happens (issue 35, item 6).
//
// The kit cannot stop the code of an operation it started (an `Effects`
// operation, a `Load` request, a `StateMachine` feedback), but it refuses
// what that code does to the kit once the operation's task is cancelled: a
// write to a stored cell or to an `ObservableArray` made from such a task
// changes nothing and is reported once, as TCA drops a cancelled effect's
// `send`. Only the kit's own tasks are concerned (those that carry a
// `_KitTask.current` entry and whose entry was itself cancelled); a write
// from any other task, cancelled or not, goes through as before.
//
// The check costs one relaxed load of a counter on every write: the counter
// says how many of the kit's tasks are cancelled but have not returned. It
// is zero almost always; only then is the task local read.

/// How many of the kit's tasks are cancelled and still run.
///
/// Not API. Moved by `_KitTask` (its cancellation handler adds one, its
/// finish takes it back), read by every write to a cell or an array.
@usableFromInline
let _cancelledKitTasksRunning = Atomic<Int>(0)

/// Whether a write to a cell or an array must be refused because it comes
/// from a cancelled task of the kit; such a write changes nothing.
///
/// Not API. Call it first in a write entry point and return at once (with
/// `false` where the API answers whether it took the write) if it says so.
///
/// - Parameter target: The cell or array written, named in the report.
/// - Returns: `true` if the current task is a cancelled task of the kit
///   (the first refusal of each task is reported to ``Diagnostics``).
@inlinable
@inline(__always)
@MainActor
func _refusesCancelledWrite(to target: AnyObject) -> Bool {
  if _cancelledKitTasksRunning.load(ordering: .relaxed) == 0 { return false }
  return _refusesCancelledWriteSlowly(to: target)
}

/// The part of `_refusesCancelledWrite(to:)` that runs while some task of
/// the kit is cancelled but still runs.
@usableFromInline
@MainActor
@inline(never)
func _refusesCancelledWriteSlowly(to target: AnyObject) -> Bool {
  guard let entry = _KitTask.current, entry.isCancelled, Task.isCancelled else { return false }
  if entry.firstRefusedWrite() {
    Diagnostics.report(
      "write refused: \(entry.description) was cancelled, and a cancelled operation "
        + "changes nothing more (this and every later write of it is dropped)",
      fileID: _Culprit.throughValue, line: _Culprit.line(of: target))
  }
  return true
}

extension _KitTask {
  /// The task was cancelled: counted among the cancelled tasks that still
  /// run, once, unless it has finished.
  func cancelledWhileRunning() {
    let counted = state.withLock { state -> Bool in
      guard !state.finished, !state.cancelled else { return false }
      state.cancelled = true
      return true
    }
    if counted { _cancelledKitTasksRunning.add(1, ordering: .relaxed) }
  }

  /// Whether the task was cancelled while it ran.
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Whether this is the first write of the task refused (the one to
  /// report).
  func firstRefusedWrite() -> Bool {
    state.withLock { state in
      defer { state.refusedWrite = true }
      return !state.refusedWrite
    }
  }
}

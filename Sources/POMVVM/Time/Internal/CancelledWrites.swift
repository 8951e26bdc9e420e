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
// Cancellation is about the future, not the present (issue 49, item 1). An
// operation that cancels *itself* (a debounce that cancels its own id and
// starts its search; a timer's last tick that cancels the timer and pops
// its screen) finishes the synchronous work it is doing: its writes are
// taken until it next suspends. The cancellation handler runs in the
// canceller's task, so it knows whether the task cancelled itself (the
// canceller's `_KitTask.current` is the entry); if so, it marks the entry
// `cancelledItself` and queues a job on the main actor that clears the
// mark. The operation runs on the main actor while it writes, so that job
// runs once it suspends, before it resumes: every write after its next
// `await` is refused as any cancelled operation's.
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

/// Whether some task of the kit is cancelled and still runs: only then may
/// a write be refused.
///
/// Not API. One relaxed load, for inlinable entry points that look further
/// only when it is `true`.
@inlinable
@inline(__always)
var _someCancelledKitTaskRuns: Bool {
  _cancelledKitTasksRunning.load(ordering: .relaxed) != 0
}

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
  guard let entry = _KitTask.current, entry.refusesWrites, Task.isCancelled else { return false }
  if entry.firstRefusedWrite() {
    Diagnostics.report(
      "write refused: \(_refusal(of: entry))",
      fileID: _Culprit.throughValue, line: _Culprit.line(of: target))
  }
  return true
}

/// Whether a change of a navigation container must be refused because it
/// comes from a cancelled task of the kit.
///
/// A change of a ``StackPath`` or a ``Presentation`` is refused whole,
/// before anything changes: the container stays exactly as it was, and its
/// observers are told nothing.
///
/// Not API.
///
/// - Parameters:
///   - container: The container's name: `StackPath<Screen>`.
///   - state: The cell its observers follow, which says where it was made.
///   - change: The change refused: `a push`, `a dismissal`.
/// - Returns: `true` if the current task is a cancelled task of the kit
///   (the first refusal of each task is reported to ``Diagnostics``).
@MainActor
func _refusesCancelledChange(
  of container: @autoclosure () -> String, following state: _ObserverListBase,
  _ change: @autoclosure () -> String
) -> Bool {
  if _cancelledKitTasksRunning.load(ordering: .relaxed) == 0 { return false }
  guard let entry = _KitTask.current, entry.refusesWrites, Task.isCancelled else { return false }
  if entry.firstRefusedWrite() {
    var name = container()
    var fileID = ""
    var line: UInt = 0
    if state._line != 0, let origin = state._fileID {
      fileID = String(cString: origin)
      line = UInt(state._line)
      name += " (made at \(fileID):\(line))"
    }
    Diagnostics.report(
      Diagnostics.Report(
        "\(name) refused \(change()): \(_refusal(of: entry)); it is unchanged",
        fileID: fileID, line: line, culprit: .cell))
  }
  return true
}

/// Whether the current task's writes are refused now: it is a task of the
/// kit that was cancelled (and is not finishing the synchronous work it
/// was doing when it cancelled itself).
///
/// Not API. For a caller that must not report a refusal as something else.
@MainActor
var _writesAreRefused: Bool {
  if _cancelledKitTasksRunning.load(ordering: .relaxed) == 0 { return false }
  guard let entry = _KitTask.current else { return false }
  return entry.refusesWrites && Task.isCancelled
}

/// Why a cancelled operation's write is refused.
private func _refusal(of entry: _KitTask) -> String {
  "\(entry.description) was cancelled, and a cancelled operation changes nothing more "
    + "(this and every later write of it is dropped)"
}

extension _KitTask {
  /// The task was cancelled: counted among the cancelled tasks that still
  /// run, once, unless it has finished.
  ///
  /// Called by the cancellation handler, in the task that cancels. A task
  /// that cancels itself (its entry is the canceller's current one) keeps
  /// writing until it next suspends: a job queued now on the main actor,
  /// where it runs, ends that once it suspends.
  func cancelledWhileRunning() {
    let byItself = _KitTask.current === self
    let counted = state.withLock { state -> Bool in
      guard !state.finished, !state.cancelled else { return false }
      state.cancelled = true
      state.cancelledItself = byItself
      return true
    }
    guard counted else { return }
    _cancelledKitTasksRunning.add(1, ordering: .relaxed)
    if byItself {
      // Ahead of any job of the same or lower priority that the task's
      // next resumption queues, which can only come after this.
      Task(priority: .high) { @MainActor in self.suspendedSinceItCancelledItself() }
    }
  }

  /// The task that cancelled itself has suspended since: its writes are
  /// refused from now on.
  func suspendedSinceItCancelledItself() {
    state.withLock { $0.cancelledItself = false }
  }

  /// Whether the task was cancelled while it ran.
  var isCancelled: Bool { state.withLock { $0.cancelled } }

  /// Whether the task's writes are refused: it was cancelled, and not by
  /// itself in the synchronous work it is still doing.
  var refusesWrites: Bool { state.withLock { $0.cancelled && !$0.cancelledItself } }

  /// Whether this is the first write of the task refused (the one to
  /// report).
  func firstRefusedWrite() -> Bool {
    state.withLock { state in
      defer { state.refusedWrite = true }
      return !state.refusedWrite
    }
  }
}

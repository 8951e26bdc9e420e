/// One sleeping task whose deadline can move: the timer behind the time
/// operators (`debounced`, `throttled`, `delayed`).
///
/// Not API. Re-arming only moves the deadline; the task that already sleeps
/// wakes at the old deadline, sees that it moved, and sleeps again until the
/// new one (the idea of swift-async-algorithms' `DebounceStateMachine`). So a
/// burst of keystrokes costs one store each, not a task each. The task holds
/// the timer weakly: releasing the timer (with the cell or stream that owns
/// it) cancels the task, which leaves the clock at once.
@MainActor
final class _RearmedTimer<C: Clock<Duration>> {
  private let clock: C
  /// What the timer belongs to, as a manual clock lists its sleepers.
  private let origin: String
  /// When to fire; `nil` while the timer is not armed.
  private var deadline: C.Instant?
  /// The sleeping task, while the timer is armed.
  private var task: Task<Void, Never>?
  /// Called on the main actor when the deadline is reached; it may re-arm.
  var fire: @MainActor () -> Void = {}

  init(clock: C, origin: String) {
    self.clock = clock
    self.origin = origin
  }

  isolated deinit {
    task?.cancel()
  }

  /// Whether the timer waits for a deadline.
  var isArmed: Bool { deadline != nil }

  /// The clock's current instant.
  var now: C.Instant { clock.now }

  /// Fires `duration` from now, instead of at the deadline set before.
  func arm(after duration: Duration) {
    arm(at: clock.now.advanced(by: duration))
  }

  /// Fires at `instant`, instead of at the deadline set before.
  func arm(at instant: C.Instant) {
    deadline = instant
    if task == nil { start() }
  }

  /// Stops waiting: the sleeping task is cancelled.
  func disarm() {
    deadline = nil
    task?.cancel()
    task = nil
  }

  private func start() {
    let clock = clock
    let origin = origin
    task = Task { [weak self] in
      await _WaitOrigin.$current.withValue(origin) {
        while let target = self?.deadline {
          do {
            try await clock.sleep(until: target, tolerance: nil)
          } catch {
            return
          }
          self?.reached(target)
        }
        self?.task = nil
      }
    }
  }

  /// The task woke at `target`: fire, unless the deadline moved later
  /// meanwhile (then the loop sleeps again).
  private func reached(_ target: C.Instant) {
    guard let deadline, deadline <= target else { return }
    self.deadline = nil
    fire()
  }
}

/// What a sleeping task belongs to, for a test clock's list of sleepers.
///
/// Not API: the kit's time operators and ``Effects`` set it around their
/// tasks; POMVVMTesting's `ManualClock` reads it when a task starts to sleep.
package enum _WaitOrigin {
  /// The description of the current task's owner, if the kit started it.
  @TaskLocal package static var current: String?
}

/// The time operators alive now, found through their cell or stream, so
/// that a test can ask which still wait on a clock.
///
/// Not API. Entries hold the operator weakly, and its list weakly too: an
/// entry whose list died, or whose slot a new list took, is ignored.
@MainActor
enum _TimeOperators {
  private final class Entry {
    weak var list: _ObserverListBase?
    weak var waiting: (any _TimeWaiting)?

    init(list: _ObserverListBase, waiting: any _TimeWaiting) {
      self.list = list
      self.waiting = waiting
    }
  }

  private static var entries: [ObjectIdentifier: Entry] = [:]

  static func register(_ waiting: any _TimeWaiting, for list: _ObserverListBase) {
    entries[ObjectIdentifier(list)] = Entry(list: list, waiting: waiting)
  }

  static func remove(_ list: ObjectIdentifier) {
    entries[list] = nil
  }

  /// The operator behind `list`, if it is one.
  static func waiting(of list: _ObserverListBase) -> (any _TimeWaiting)? {
    guard let entry = entries[ObjectIdentifier(list)], entry.list === list else { return nil }
    return entry.waiting
  }
}

/// A time operator, as a test asks whether it still waits.
@MainActor
protocol _TimeWaiting: AnyObject {
  /// Whether the operator waits for its clock.
  var _isWaiting: Bool { get }
  /// What the operator is: `debounced 300ms`.
  var _operatorName: String { get }
}

/// `duration` as the time operators and scripts write it: `300ms`, `1s`,
/// `1.5s`, `250us`.
package func _shortDuration(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
  if microseconds % 1_000_000 == 0 { return "\(microseconds / 1_000_000)s" }
  if microseconds % 1_000 == 0 {
    let milliseconds = microseconds / 1_000
    if milliseconds > 1_000, milliseconds % 100 == 0 {
      return "\(milliseconds / 1_000).\(milliseconds % 1_000 / 100)s"
    }
    return "\(milliseconds)ms"
  }
  return "\(microseconds)us"
}

/// The file name of a `#fileID`: `TodosViewModel.swift` for
/// `ToDo/TodosViewModel.swift`, as reports of pending work name it.
func _fileName(_ fileID: StaticString) -> String {
  let text = "\(fileID)"
  return text.split(separator: "/").last.map(String.init) ?? text
}

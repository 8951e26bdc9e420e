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
  // Plain stored fields, no optionals of generic types, and no run-time
  // exclusivity checks: arming runs on every keystroke, in code that is not
  // specialized for the clock, where each `C.Instant?` would cost a
  // metadata lookup. All access is on the main actor, and none stays open
  // across a call out (`fire` is called after the fields are updated).
  private let clock: C
  /// What the timer belongs to, as a manual clock lists its sleepers.
  private let origin: String
  /// When to fire, while ``isArmed``.
  @exclusivity(unchecked)
  private var deadline: C.Instant
  /// Whether the timer waits for ``deadline``.
  @exclusivity(unchecked)
  private(set) var isArmed = false
  /// The sleeping task, while the timer is armed.
  @exclusivity(unchecked)
  private var task: Task<Void, Never>?
  /// What the task reaches the timer through.
  ///
  /// A `weak` reference would give the timer a side table, and every retain
  /// of it on the keystroke path would take the slow path.
  private let link = _TimerLink()
  /// Called on the main actor when the deadline is reached; it may re-arm.
  var fire: @MainActor () -> Void = {}

  init(clock: C, origin: String) {
    self.clock = clock
    self.origin = origin
    deadline = clock.now
    link.timer = Unmanaged.passUnretained(self)
  }

  isolated deinit {
    link.timer = nil
    task?.cancel()
  }

  /// The clock's current instant.
  var now: C.Instant { clock.now }

  /// Fires `duration` from now, instead of at the deadline set before.
  func arm(after duration: Duration) {
    arm(at: clock.now.advanced(by: duration))
  }

  /// Fires at `instant`, instead of at the deadline set before.
  func arm(at instant: C.Instant) {
    deadline = instant
    isArmed = true
    if task == nil { start() }
  }

  /// Stops waiting: the sleeping task is cancelled.
  func disarm() {
    isArmed = false
    task?.cancel()
    task = nil
  }

  /// The deadline, while armed: what the sleeping task waits for.
  private var armedDeadline: C.Instant? { isArmed ? deadline : nil }

  private func start() {
    let clock = clock
    let origin = origin
    let link = link
    // Counted among the kit's tasks, so that a test clock's advance waits
    // for what a wake-up does.
    let entry = _KitTask.begin(origin)
    task = Task {
      await entry.run {
        await _WaitOrigin.$current.withValue(origin) {
          while let target = Self.timer(of: link)?.armedDeadline {
            do {
              try await _kitSleep(on: clock, until: target)
            } catch {
              return
            }
            // Cancelled after the sleep ended but before the task was back
            // on the main actor: the sleep did not throw, and a re-armed
            // timer may already have a new task. This one does nothing more.
            guard !Task.isCancelled else { return }
            Self.timer(of: link)?.reached(target)
          }
          Self.timer(of: link)?.task = nil
        }
      }
    }
  }

  /// The timer, if it is still alive.
  private static func timer(of link: _TimerLink) -> _RearmedTimer? {
    link.timer.map { unsafeDowncast($0.takeUnretainedValue(), to: _RearmedTimer.self) }
  }

  /// The task woke at `target`: fire, unless the deadline moved later
  /// meanwhile (then the loop sleeps again).
  private func reached(_ target: C.Instant) {
    guard isArmed, deadline <= target else { return }
    isArmed = false
    fire()
  }
}

/// How a timer's task reaches the timer.
///
/// The timer clears it in its `deinit`, so the task never touches a freed
/// timer. All on the main actor.
@MainActor
final class _TimerLink {
  var timer: Unmanaged<AnyObject>?
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
/// Not API. An operator registers when it is made and removes its entry in
/// its `deinit`, so every entry names a live operator. Entries hold neither
/// side weakly: a `weak` reference would give the cell and the operator
/// side tables, and every retain of them the slow path.
@MainActor
enum _TimeOperators {
  private static var entries: [ObjectIdentifier: Unmanaged<AnyObject>] = [:]

  static func register(_ waiting: any _TimeWaiting, for list: _ObserverListBase) {
    entries[ObjectIdentifier(list)] = Unmanaged.passUnretained(waiting as AnyObject)
  }

  static func remove(_ list: ObjectIdentifier) {
    entries[list] = nil
  }

  /// The operator behind `list`, if it is one.
  static func waiting(of list: _ObserverListBase) -> (any _TimeWaiting)? {
    entries[ObjectIdentifier(list)]?.takeUnretainedValue() as? any _TimeWaiting
  }
}

/// A time operator, as a test asks whether it still waits.
@MainActor
protocol _TimeWaiting: AnyObject {
  /// Whether the operator waits for its clock.
  var _isWaiting: Bool { get }
  /// What the operator is: `debounced 300ms`.
  var _operatorName: String { get }
  /// Lets what it holds back through now.
  func _flush()
  /// Drops what it holds back.
  func _cancel()
}

extension _TimeOperators {
  /// Flushes or cancels the operator behind `list`, or reports that `list`
  /// is not one.
  static func apply(
    _ flush: Bool, to list: _ObserverListBase, kind: String, fileID: StaticString, line: UInt
  ) {
    guard let waiting = waiting(of: list) else {
      Diagnostics.report(
        "\(flush ? "flush()" : "cancel()") does nothing: this \(kind) is not a time operator "
          + "(debounced, throttled or delayed)", fileID: fileID, line: line)
      return
    }
    if flush { waiting._flush() } else { waiting._cancel() }
  }
}

/// The longest wait of a time operator or a timer, about 31 years.
///
/// Longer durations overflow the nanoseconds that clocks sleep in.
let _longestWait = Duration.seconds(1_000_000_000)

/// `duration`, clamped to a wait that clocks can sleep: a negative one is
/// zero and one longer than ``_longestWait`` is that, each reported through
/// ``Diagnostics`` naming `what` and the line that asked for it.
@MainActor
func _clampedWait(
  _ duration: Duration, of what: String, fileID: StaticString, line: UInt
) -> Duration {
  if duration < .zero {
    Diagnostics.report(
      "\(what): a negative duration (\(duration)) waits no time", fileID: fileID, line: line)
    return .zero
  }
  if duration > _longestWait {
    Diagnostics.report(
      "\(what): \(duration) is longer than the longest wait, \(_longestWait) (about 31 "
        + "years); it waits that long", fileID: fileID, line: line)
    return _longestWait
  }
  return duration
}

/// `duration` as the time operators and scripts write it: `300ms`, `1s`,
/// `1.5s`, `250us`.
package func _shortDuration(_ duration: Duration) -> String {
  let (seconds, attoseconds) = duration.components
  // Beyond this, microseconds overflow; whole seconds are precise enough.
  guard abs(seconds) < 1_000_000_000_000 else { return "\(seconds)s" }
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

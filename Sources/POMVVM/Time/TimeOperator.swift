/// The state of one time operator on a cell or a stream: its timer and what
/// it holds back.
///
/// Not API. A cell operator is a ``Derived`` cell whose node reads the
/// source as a derived cell does (so it is an edge of the graph, and a
/// change marks it like any dependent), but whose recomputation only
/// records the change and re-arms the timer; the value it lets through is
/// stored through the node's set, which publishes it and drains the graph
/// like any other set. A stream operator is an ``EventStream`` that the
/// source's observer feeds.
///
/// The fields that every change touches are plain (no optional of a generic
/// type) and unchecked for exclusivity, as in the core: this code is not
/// specialized for the value or the clock, and a `Value?` would cost a
/// metadata lookup per keystroke. All access is on the main actor; `emit`
/// is called after the fields are updated.
@MainActor
final class _TimeOperator<C: Clock<Duration>, Value>: _TimeWaiting {
  let rule: _TimeRule
  let duration: Duration
  let timer: _RearmedTimer<C>
  /// Lets a value through: a set of the operator's cell, a send of its
  /// stream.
  var emit: @MainActor (Value) -> Void = { _ in }
  /// The value a debounce or a throttle holds back.
  ///
  /// Initialized while ``isHolding``: a slot rather than a `Value?`, whose
  /// metadata the unspecialized code would look up on every change.
  private let slot = UnsafeMutablePointer<Value>.allocate(capacity: 1)
  @exclusivity(unchecked)
  private var isHolding = false
  /// Whether a throttle's window is open.
  @exclusivity(unchecked)
  private var isWindowOpen = false
  /// The values a delay holds back, with when each is due, in order.
  private var queue: [(due: C.Instant, value: Value)] = []
  private var queueStart = 0
  private let listID: ObjectIdentifier

  init(
    _ rule: _TimeRule, duration: Duration, clock: C, list: _ObserverListBase,
    fileID: StaticString, line: UInt
  ) {
    self.rule = rule
    let duration = _clampedWait(
      duration, of: Self.name(of: rule, duration), fileID: fileID, line: line)
    self.duration = duration
    let name = Self.name(of: rule, duration)
    timer = _RearmedTimer(
      clock: clock,
      origin: "\(name)" + (line == 0 ? "" : " (made at \(_fileName(fileID)):\(line))"))
    listID = ObjectIdentifier(list)
    timer.fire = { [unowned self] in self.fired() }
    _TimeOperators.register(self, for: list)
  }

  isolated deinit {
    _TimeOperators.remove(listID)
    if isHolding { slot.deinitialize(count: 1) }
    slot.deallocate()
  }

  /// Holds `value` back, replacing the value held.
  private func hold(_ value: Value) {
    if isHolding {
      slot.pointee = value
    } else {
      slot.initialize(to: value)
      isHolding = true
    }
  }

  /// The value held, which is no longer held.
  private func takeHeld() -> Value {
    isHolding = false
    return slot.move()
  }

  static func name(of rule: _TimeRule, _ duration: Duration) -> String {
    switch rule {
    case .debounce: "debounced \(_shortDuration(duration))"
    case .throttle(let latest): "throttled\(latest ? " latest" : "") \(_shortDuration(duration))"
    case .delay: "delayed \(_shortDuration(duration))"
    }
  }

  var _operatorName: String { Self.name(of: rule, duration) }

  /// Whether the operator holds something back: an open throttle window
  /// that holds no change has nothing left to deliver.
  var _isWaiting: Bool {
    if case .throttle = rule { return isHolding }
    return timer.isArmed
  }

  /// Lets what the operator holds back through now, in order, and stops
  /// waiting.
  ///
  /// A debounce's or a throttle's held value, a delay's queue. A throttle's
  /// window closes, so the next change goes through at once.
  func _flush() {
    timer.disarm()
    switch rule {
    case .debounce:
      guard isHolding else { return }
      emit(takeHeld())
    case .throttle:
      isWindowOpen = false
      guard isHolding else { return }
      emit(takeHeld())
    case .delay:
      let values = queue[queueStart...].map(\.value)
      queue.removeAll(keepingCapacity: true)
      queueStart = 0
      for value in values { emit(value) }
    }
  }

  /// Drops what the operator holds back, and stops waiting.
  func _cancel() {
    timer.disarm()
    if isHolding { _ = takeHeld() }
    isWindowOpen = false
    queue.removeAll(keepingCapacity: true)
    queueStart = 0
  }

  /// Takes a new value of the source; whether to let it through at once
  /// (only a throttle's first value in a window).
  func receive(_ value: Value) -> Bool {
    switch rule {
    case .debounce:
      hold(value)
      timer.arm(after: duration)
      return false
    case .throttle(let latest):
      guard isWindowOpen else {
        isWindowOpen = true
        timer.arm(after: duration)
        return true
      }
      if latest || !isHolding { hold(value) }
      return false
    case .delay:
      delay(value)
      return false
    }
  }

  private func fired() {
    switch rule {
    case .debounce:
      guard isHolding else { return }
      emit(takeHeld())
    case .throttle:
      guard isHolding else {
        isWindowOpen = false
        return
      }
      let value = takeHeld()
      timer.arm(after: duration)
      emit(value)
    case .delay:
      releaseDue()
    }
  }

  // A delay's queue is a tuple of generic types, whose metadata the
  // unspecialized code looks up where it is used: only in these two.

  /// Queues a value, due `duration` from now.
  private func delay(_ value: Value) {
    let due = timer.now.advanced(by: duration)
    queue.append((due, value))
    if !timer.isArmed { timer.arm(at: due) }
  }

  /// Lets the queued values that are due through, in order, and re-arms
  /// for the next.
  private func releaseDue() {
    let now = timer.now
    while queueStart < queue.count, queue[queueStart].due <= now {
      let value = queue[queueStart].value
      queueStart += 1
      if queueStart == queue.count {
        queue.removeAll(keepingCapacity: true)
        queueStart = 0
      }
      emit(value)
    }
    if queueStart < queue.count { timer.arm(at: queue[queueStart].due) }
  }
}

/// What a time operator does with the changes it receives.
enum _TimeRule {
  /// The last change, once none has come for the duration.
  case debounce
  /// At most one change per duration: the first at once, then the last
  /// (`latest`) or the first held in each window.
  case throttle(latest: Bool)
  /// Every change, the duration later.
  case delay
}

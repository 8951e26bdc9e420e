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
@MainActor
final class _TimeOperator<C: Clock<Duration>, Value>: _TimeWaiting {
  enum Rule {
    case debounce
    case throttle(latest: Bool)
    case delay
  }

  let rule: Rule
  let duration: Duration
  let timer: _RearmedTimer<C>
  /// Lets a value through: a set of the operator's cell, a send of its
  /// stream.
  var emit: @MainActor (Value) -> Void = { _ in }
  /// The value a debounce or a throttle holds back.
  private var held: Value?
  /// Whether a throttle's window is open.
  private var isWindowOpen = false
  /// The values a delay holds back, with when each is due, in order.
  private var queue: [(due: C.Instant, value: Value)] = []
  private var queueStart = 0
  private let listID: ObjectIdentifier

  init(
    _ rule: Rule, duration: Duration, clock: C, list: _ObserverListBase, fileID: StaticString,
    line: UInt
  ) {
    self.rule = rule
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
  }

  static func name(of rule: Rule, _ duration: Duration) -> String {
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
    if case .throttle = rule { return held != nil }
    return timer.isArmed
  }

  /// Takes a new value of the source; whether to let it through at once
  /// (only a throttle's first value in a window).
  func receive(_ value: Value) -> Bool {
    switch rule {
    case .debounce:
      held = value
      timer.arm(after: duration)
      return false
    case .throttle(let latest):
      guard isWindowOpen else {
        isWindowOpen = true
        timer.arm(after: duration)
        return true
      }
      if latest || held == nil { held = value }
      return false
    case .delay:
      let due = timer.now.advanced(by: duration)
      queue.append((due, value))
      if !timer.isArmed { timer.arm(at: due) }
      return false
    }
  }

  private func fired() {
    switch rule {
    case .debounce:
      guard let value = held else { return }
      held = nil
      emit(value)
    case .throttle:
      guard let value = held else {
        isWindowOpen = false
        return
      }
      held = nil
      timer.arm(after: duration)
      emit(value)
    case .delay:
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
}

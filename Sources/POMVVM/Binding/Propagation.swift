/// The state that keeps one binding from looping, for any `Value`.
///
/// While the binding writes a value into one cell, the binding is *busy*.
/// A change that reaches the binding while it is busy is either the echo of
/// its own write, or a genuine new change made by some other observer in
/// reaction to the write (a cell that clamps its value, say):
///
/// - For `Equatable` values the two are told apart by comparing with the value
///   in flight: an echo is ignored, a new change is propagated once the
///   current write has finished.
/// - Other values cannot be compared, so every change that arrives while the
///   binding is busy is treated as an echo and ignored.
///
/// Because a busy binding never re-enters itself, a ring of bindings (a ↔ b,
/// b ↔ c, c ↔ a) stops after one lap even when values cannot be compared.
///
/// When a cell refuses a write (an element cell whose element was removed),
/// a two-way binding writes the refusing cell's value back to the other
/// side, so both show what is actually stored.
@MainActor
final class _Propagation<Value> {
  enum Direction {
    case forward
    case backward

    var opposite: Direction { self == .forward ? .backward : .forward }
  }

  /// How many follow-up writes a single change may cause before the binding
  /// gives up and reports that it does not settle.
  static var roundLimit: Int { 64 }

  private let isDuplicate: ((Value, Value) -> Bool)?
  private var isBusy = false
  private var inFlight: Value?
  private var pending: Direction?

  init() {
    isDuplicate = _duplicateCheck(for: Value.self)
  }

  /// Handles a change that one side of the binding observed.
  ///
  /// - Parameters:
  ///   - value: The new value of the side the change came from.
  ///   - direction: Which way the value should flow.
  ///   - write: Writes a value in a direction's target and tells whether
  ///     the target took it.
  ///   - read: Reads the current value of a direction's source, or `nil` if
  ///     it is gone or the binding does not go that way.
  func receive(
    _ value: Value, _ direction: Direction,
    write: (Direction, Value) -> Bool, read: (Direction) -> Value?
  ) {
    if isBusy {
      if let isDuplicate, let inFlight, !isDuplicate(value, inFlight) {
        pending = direction
      }
      return
    }
    isBusy = true
    defer {
      isBusy = false
      inFlight = nil
      pending = nil
    }
    var next: (Direction, Value)? = (direction, value)
    var rounds = 0
    while let (direction, value) = next {
      rounds += 1
      guard rounds <= Self.roundLimit else {
        Diagnostics.report(
          "a binding of \(Value.self) did not settle after \(Self.roundLimit) rounds: observers "
            + "keep changing the bound cells in reaction to each other; the binding stopped "
            + "propagating this change")
        return
      }
      inFlight = value
      let accepted = write(direction, value)
      next = nil
      if !accepted {
        // Show the refusing side's value on the side the change came from.
        next = read(direction.opposite).map { (direction.opposite, $0) }
      } else if let follow = pending {
        pending = nil
        next = read(follow).map { (follow, $0) }
      }
    }
  }
}

/// Builds a one-way binding from any observable source into a cell.
///
/// - Parameters:
///   - subscribe: Subscribes to the source; the handler captures what keeps
///     the binding alive.
///   - read: Reads the source's current value, if it has one.
///   - target: The cell that receives the values.
/// - Returns: The binding's token.
@MainActor
func _bindOneWay<Target: MutableObservableCell>(
  subscribe: (@escaping @MainActor (Target.Value) -> Void) -> Subscription,
  read: @escaping () -> Target.Value?,
  into target: Target
) -> BindingToken {
  let token = BindingToken()
  let propagation = _Propagation<Target.Value>()
  let sourceEnd = _BindingEndpoint(token)
  let targetEnd = _BindingEndpoint(token)
  let forward = subscribe { [weak target] value in
    withExtendedLifetime(sourceEnd) {}
    propagation.receive(
      value, .forward, write: { target?.set($1) ?? false },
      read: { $0 == .forward ? read() : nil })
  }
  // Observing the target only so that its deallocation ends the binding.
  let watch = target.observeChanges { _ in withExtendedLifetime(targetEnd) {} }
  token.adopt([forward, watch])
  return token
}

// MARK: - Binding cells

extension ObservableCell {
  /// Binds this cell to `target`: the target takes this cell's value now and
  /// on every change.
  ///
  /// The binding lives as long as both cells and ends by itself when either
  /// is deallocated; discarding the token does not end it. Cancel the token
  /// to end it early. A derived source (``Derived``, ``ProjectedCell``) is
  /// kept alive by the binding.
  ///
  /// ```swift
  /// let name = Observable("Ada")
  /// let label = Observable("")
  /// name.bind(to: label)      // label.value == "Ada"
  /// name.value = "Grace"      // label.value == "Grace"
  /// ```
  ///
  /// - Parameter target: The cell that receives the values.
  /// - Returns: The binding's token.
  @discardableResult
  public func bind<Target: MutableObservableCell>(to target: Target) -> BindingToken
  where Target.Value == Value {
    _bindOneWay(subscribe: observe, read: { [weak self] in self?.value }, into: target)
  }
}

extension MutableObservableCell {
  /// Binds this cell and `other` both ways: at bind time `other` takes this
  /// cell's value (the receiver wins); from then on a change to either is
  /// written to the other.
  ///
  /// The binding never loops, whether or not `Value` is `Equatable`, and
  /// rings of bindings (a ↔ b ↔ c ↔ a) stop after one lap. It lives as long
  /// as both cells; discarding the token does not end it.
  ///
  /// - Parameter other: The cell to keep in step with this one.
  /// - Returns: The binding's token.
  @discardableResult
  public func bidirectionalBind<Other: MutableObservableCell>(to other: Other) -> BindingToken
  where Other.Value == Value {
    let token = BindingToken()
    let propagation = _Propagation<Value>()
    let selfEnd = _BindingEndpoint(token)
    let otherEnd = _BindingEndpoint(token)
    let write: (_Propagation<Value>.Direction, Value) -> Bool = { [weak self, weak other] in
      switch $0 {
      case .forward: other?.set($1) ?? false
      case .backward: self?.set($1) ?? false
      }
    }
    let read: (_Propagation<Value>.Direction) -> Value? = { [weak self, weak other] in
      switch $0 {
      case .forward: self?.value
      case .backward: other?.value
      }
    }
    let forward = observe { value in
      withExtendedLifetime(selfEnd) {}
      propagation.receive(value, .forward, write: write, read: read)
    }
    let backward = other.observeChanges { value in
      withExtendedLifetime(otherEnd) {}
      propagation.receive(value, .backward, write: write, read: read)
    }
    token.adopt([forward, backward])
    return token
  }
}

extension EventStream {
  /// Binds this stream to `target`: every event is written to the target.
  ///
  /// This is the reverse data flow of a form: a text field's edits, sent as
  /// events, land in the view model's cell. The binding lives as long as
  /// both objects; discarding the token does not end it.
  ///
  /// - Parameter target: The cell that receives each event's payload.
  /// - Returns: The binding's token.
  @discardableResult
  public func bind<Target: MutableObservableCell>(to target: Target) -> BindingToken
  where Target.Value == Payload {
    _bindOneWay(subscribe: observe, read: { nil }, into: target)
  }
}

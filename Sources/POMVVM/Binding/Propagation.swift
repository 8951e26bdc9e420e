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
/// - Other values cannot be compared. For the kit's own cells the binding
///   counts the target's changes instead: a write causes one, so a second
///   one during the write is a new change, propagated once the write has
///   finished. For other cells every change that arrives while the binding
///   is busy is treated as an echo and ignored.
///
/// Because a busy binding never re-enters itself, a ring of bindings (a ↔ b,
/// b ↔ c, c ↔ a) stops after one lap even when values cannot be compared.
///
/// When a cell refuses a write (an element cell whose element was removed),
/// a two-way binding writes the refusing cell's value back to the other
/// side, so both show what is actually stored.
@MainActor
@usableFromInline
final class _Propagation<Value> {
  @usableFromInline
  enum Direction {
    case forward
    case backward

    @inlinable
    var opposite: Direction { self == .forward ? .backward : .forward }
  }

  /// How many follow-up writes a single change may cause before the binding
  /// gives up and reports that it does not settle.
  @inlinable
  static var roundLimit: Int { 64 }

  @usableFromInline
  let isDuplicate: ((Value, Value) -> Bool)?
  /// Where the binding was made: the culprit of its reports.
  @usableFromInline
  let fileID: StaticString
  @usableFromInline
  let line: UInt
  @usableFromInline
  @exclusivity(unchecked)
  var isBusy = false
  @usableFromInline
  @exclusivity(unchecked)
  var inFlight: Value?
  @usableFromInline
  @exclusivity(unchecked)
  var pending: Direction?

  @inlinable
  init(fileID: StaticString, line: UInt) {
    isDuplicate = _duplicateCheck(for: Value.self)
    self.fileID = fileID
    self.line = line
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
  ///   - generation: The change count of a direction's target, if it is one
  ///     of the kit's cells.
  @inlinable
  func receive(
    _ value: Value, _ direction: Direction,
    write: @MainActor (Direction, Value) -> Bool, read: @MainActor (Direction) -> Value?,
    generation: @MainActor (Direction) -> UInt32? = { _ in nil }
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
            + "propagating this change", fileID: fileID, line: line)
        return
      }
      inFlight = value
      let before = isDuplicate == nil ? generation(direction) : nil
      let accepted = write(direction, value)
      if let before, let after = generation(direction), after &- before > 1 {
        // The target changed again after this write: an observer set it.
        pending = direction.opposite
      }
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
///   - fileID: Where the binding was made, for its reports.
///   - line: Where the binding was made, for its reports.
/// - Returns: The binding's token.
@MainActor
@inlinable
func _bindOneWay<Target: MutableObservableCell>(
  subscribe: (@escaping @MainActor (Target.Value) -> Void) -> Subscription,
  read: @escaping @MainActor () -> Target.Value?,
  into target: Target, fileID: StaticString, line: UInt
) -> BindingToken {
  let token = BindingToken()
  let propagation = _Propagation<Target.Value>(fileID: fileID, line: line)
  let sourceEnd = _BindingEndpoint(token)
  let targetEnd = _BindingEndpoint(token)
  // The target's report of a refused write names the binding.
  let bindingLine = line | _Culprit.bindingFlag
  let forward = subscribe { [weak target] value in
    extendLifetime(sourceEnd)
    propagation.receive(
      value, .forward, write: { target?.set($1, fileID: fileID, line: bindingLine) ?? false },
      read: { $0 == .forward ? read() : nil })
  }
  // Observing the target only so that its deallocation ends the binding.
  let watch = target.observeChanges { _ in extendLifetime(targetEnd) }
  _setBindingRoles(forward: forward, watch: watch, target: target, fileID: fileID, line: line)
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
  /// A write the binding makes that the target refuses, and a change that
  /// does not settle, are reported to ``Diagnostics`` naming the line that
  /// made the binding.
  ///
  /// - Parameters:
  ///   - target: The cell that receives the values.
  ///   - fileID: The culprit's file in the binding's reports; by default,
  ///     the caller's.
  ///   - line: The culprit's line in the binding's reports; by default, the
  ///     caller's.
  /// - Returns: The binding's token.
  @inlinable
  @discardableResult
  public func bind<Target: MutableObservableCell>(
    to target: Target, fileID: StaticString = #fileID, line: UInt = #line
  ) -> BindingToken
  where Target.Value == Value {
    _bindOneWay(
      subscribe: observe, read: { [weak self] in self?.value }, into: target, fileID: fileID,
      line: line)
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
  /// A write the binding makes that a cell refuses, and a change that does
  /// not settle, are reported to ``Diagnostics`` naming the line that made
  /// the binding.
  ///
  /// - Parameters:
  ///   - other: The cell to keep in step with this one.
  ///   - fileID: The culprit's file in the binding's reports; by default,
  ///     the caller's.
  ///   - line: The culprit's line in the binding's reports; by default, the
  ///     caller's.
  /// - Returns: The binding's token.
  @inlinable
  @discardableResult
  public func bidirectionalBind<Other: MutableObservableCell>(
    to other: Other, fileID: StaticString = #fileID, line: UInt = #line
  ) -> BindingToken
  where Other.Value == Value {
    let token = BindingToken()
    let propagation = _Propagation<Value>(fileID: fileID, line: line)
    let selfEnd = _BindingEndpoint(token)
    let otherEnd = _BindingEndpoint(token)
    // A cell's report of a refused write names the binding.
    let bindingLine = line | _Culprit.bindingFlag
    let write: @MainActor (_Propagation<Value>.Direction, Value) -> Bool = {
      [weak self, weak other] in
      switch $0 {
      case .forward: other?.set($1, fileID: fileID, line: bindingLine) ?? false
      case .backward: self?.set($1, fileID: fileID, line: bindingLine) ?? false
      }
    }
    let read: @MainActor (_Propagation<Value>.Direction) -> Value? = {
      [weak self, weak other] in
      switch $0 {
      case .forward: self?.value
      case .backward: other?.value
      }
    }
    let generation: @MainActor (_Propagation<Value>.Direction) -> UInt32? = {
      [weak self, weak other] in
      switch $0 {
      case .forward: other?._changeCount
      case .backward: self?._changeCount
      }
    }
    let forward = observe { value in
      extendLifetime(selfEnd)
      propagation.receive(value, .forward, write: write, read: read, generation: generation)
    }
    let backward = other.observeChanges { value in
      extendLifetime(otherEnd)
      propagation.receive(value, .backward, write: write, read: read, generation: generation)
    }
    _setBindingRoles(
      forward: forward, backward: backward, between: self, and: other, fileID: fileID, line: line)
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
  /// A write the binding makes that the target refuses is reported to
  /// ``Diagnostics`` naming the line that made the binding.
  ///
  /// - Parameters:
  ///   - target: The cell that receives each event's payload.
  ///   - fileID: The culprit's file in the binding's reports; by default,
  ///     the caller's.
  ///   - line: The culprit's line in the binding's reports; by default, the
  ///     caller's.
  /// - Returns: The binding's token.
  @discardableResult
  public func bind<Target: MutableObservableCell>(
    to target: Target, fileID: StaticString = #fileID, line: UInt = #line
  ) -> BindingToken
  where Target.Value == Payload {
    _bindOneWay(
      subscribe: { observe(fileID: fileID, line: line, $0) }, read: { nil }, into: target,
      fileID: fileID, line: line)
  }
}

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
/// - Other values cannot be compared. Between the kit's cells, every change
///   carries an origin (`_ChangeOrigins`): a binding does not write a change
///   into a cell that already holds it, and a change that reaches it while it
///   is busy is new only if its origin differs from the one in flight. A
///   cell that clamps the value it was given makes a new change, which flows
///   back once the current write has finished. For other cells every change
///   that arrives while the binding is busy is treated as an echo and
///   ignored.
///
/// Because a busy binding never re-enters itself, and a change is written
/// into each cell at most once, a ring of bindings (a ↔ b, b ↔ c, c ↔ a)
/// stops after one lap, and one set of any binding graph, however dense,
/// notifies each cell once per change, even when values cannot be compared.
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
  /// The origin of the change in flight, for values that cannot be
  /// compared; 0 when none is known.
  @usableFromInline
  @exclusivity(unchecked)
  var inFlightOrigin: UInt64 = 0

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
  ///   - list: The kit list of the cell a direction writes to (so the
  ///     opposite direction's source), or `nil` if it is not one of the
  ///     kit's cells or the values can be compared.
  @inlinable
  func receive(
    _ value: Value, _ direction: Direction,
    write: @MainActor (Direction, Value) -> Bool, read: @MainActor (Direction) -> Value?,
    list: @MainActor (Direction) -> _ObserverListBase? = { _ in nil }
  ) {
    if isBusy {
      if let isDuplicate {
        if let inFlight, !isDuplicate(value, inFlight) { pending = direction }
      } else if let source = list(direction.opposite),
        _ChangeOrigins.origin(of: source) != inFlightOrigin
      {
        pending = direction
      }
      return
    }
    isBusy = true
    defer {
      isBusy = false
      inFlight = nil
      pending = nil
      inFlightOrigin = 0
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
      let accepted: Bool
      if isDuplicate == nil, let target = list(direction) {
        accepted = writeOnce(value, direction, into: target, write: write, list: list)
      } else {
        accepted = write(direction, value)
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

  /// Writes a change of values that cannot be compared into one of the
  /// kit's cells, unless the cell already holds that change.
  ///
  /// - Returns: Whether the target took the value (or already held it).
  @usableFromInline
  func writeOnce(
    _ value: Value, _ direction: Direction, into target: _ObserverListBase,
    write: @MainActor (Direction, Value) -> Bool,
    list: @MainActor (Direction) -> _ObserverListBase?
  ) -> Bool {
    let origin = list(direction.opposite).map(_ChangeOrigins.origin(of:)) ?? _ChangeOrigins.fresh()
    inFlightOrigin = origin
    if _ChangeOrigins.holds(target, origin) { return true }
    let expected = _ChangeOrigins.expect(target, origin)
    let accepted = write(direction, value)
    _ChangeOrigins.settle(target, expected: expected)
    return accepted
  }
}

/// The list that stores a cell's value, when a binding of values that
/// cannot be compared tracks its changes' origins; `nil` for values that can
/// be compared and for cells that are not the kit's.
@MainActor
@usableFromInline
func _originList(of cell: AnyObject?, comparable: Bool) -> _ObserverListBase? {
  guard !comparable, let cell else { return nil }
  return _graphCell(of: cell)?._graphList
}

/// Builds a one-way binding from any observable source into a cell.
///
/// - Parameters:
///   - subscribe: Subscribes to the source; the handler captures what keeps
///     the binding alive.
///   - read: Reads the source's current value, if it has one.
///   - source: The source, if it is a cell (to track the origins of
///     changes of values that cannot be compared).
///   - target: The cell that receives the values.
///   - fileID: Where the binding was made, for its reports.
///   - line: Where the binding was made, for its reports.
/// - Returns: The binding's token.
@MainActor
@inlinable
func _bindOneWay<Target: MutableObservableCell>(
  subscribe: (@escaping @MainActor (Target.Value) -> Void) -> Subscription,
  read: @escaping @MainActor () -> Target.Value?, source: AnyObject?,
  into target: Target, fileID: StaticString, line: UInt
) -> BindingToken {
  let token = BindingToken()
  let propagation = _Propagation<Target.Value>(fileID: fileID, line: line)
  let sourceEnd = _BindingEndpoint(token)
  let targetEnd = _BindingEndpoint(token)
  let comparable = propagation.isDuplicate != nil
  weak let sourceList = _originList(of: source, comparable: comparable)
  weak let targetList = _originList(of: target, comparable: comparable)
  // The target's report of a refused write names the binding.
  let bindingLine = line | _Culprit.bindingFlag
  let forward = subscribe { [weak target] value in
    extendLifetime(sourceEnd)
    propagation.receive(
      value, .forward, write: { target?.set($1, fileID: fileID, line: bindingLine) ?? false },
      read: { $0 == .forward ? read() : nil },
      list: { $0 == .forward ? targetList : sourceList })
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
      subscribe: observe, read: { [weak self] in self?.value }, source: self, into: target,
      fileID: fileID, line: line)
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
    let comparable = propagation.isDuplicate != nil
    weak let selfList = _originList(of: self, comparable: comparable)
    weak let otherList = _originList(of: other, comparable: comparable)
    let list: @MainActor (_Propagation<Value>.Direction) -> _ObserverListBase? = {
      $0 == .forward ? otherList : selfList
    }
    let forward = observe { value in
      extendLifetime(selfEnd)
      propagation.receive(value, .forward, write: write, read: read, list: list)
    }
    let backward = other.observeChanges { value in
      extendLifetime(otherEnd)
      propagation.receive(value, .backward, write: write, read: read, list: list)
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
      subscribe: { observe(fileID: fileID, line: line, $0) }, read: { nil }, source: nil,
      into: target, fileID: fileID, line: line)
  }
}

extension ObservableCell {
  /// A read-only cell that takes this cell's value once it has stayed
  /// unchanged for `duration`: a search field's query, asked of the server
  /// only when the user stops typing.
  ///
  /// ```swift
  /// let query = Observable("")
  /// let settled = query.debounced(for: .milliseconds(300))
  /// query.value = "d"; query.value = "du"; query.value = "dune"
  /// // 300 ms after the last keystroke: settled.value == "dune", one change
  /// ```
  ///
  /// The cell starts with this cell's current value. Each change of this
  /// cell moves the deadline; one task sleeps until it (it is re-armed, not
  /// replaced, on each change). When it fires, the value is stored as any
  /// derived cell's is: derived cells that read it recompute once, glitch-free.
  /// The cell appears in ``BindingGraph`` as a derived cell labelled
  /// `debounced 300ms`; releasing it cancels its task, and so does a pop or
  /// a dismissal of the screen whose view model stores it (which drops the
  /// value it holds back).
  ///
  /// - Parameters:
  ///   - duration: How long the value must stay unchanged.
  ///   - clock: The clock to wait on; a test passes a manual clock.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  /// - Returns: The debounced cell.
  public func debounced(
    for duration: Duration, clock: some Clock<Duration> = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Derived<Value> {
    _timed(.debounce, duration, clock, fileID, line)
  }

  /// A read-only cell that takes this cell's values at most once per
  /// `duration`: a "saved" mark that does not flicker.
  ///
  /// A change when no window is open is taken at once and opens a window of
  /// `duration`. Changes during the window are held: when it closes, the
  /// last one (`latest: true`) or the first one (`latest: false`) is taken
  /// and opens the next window; a window with no change closes quietly.
  /// Like RxSwift's and Combine's `throttle`.
  ///
  /// - Parameters:
  ///   - duration: The shortest time between two values taken.
  ///   - clock: The clock to wait on; a test passes a manual clock.
  ///   - latest: Whether a window ends with the last change it held (`true`)
  ///     or the first (`false`).
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  /// - Returns: The throttled cell, starting with this cell's current value.
  public func throttled(
    for duration: Duration, clock: some Clock<Duration> = ContinuousClock(), latest: Bool = true,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Derived<Value> {
    _timed(.throttle(latest: latest), duration, clock, fileID, line)
  }

  /// A read-only cell that takes each of this cell's values `duration` after
  /// it was set: a banner that follows its message a moment later.
  ///
  /// Every change is taken, in order, each after the same delay.
  ///
  /// - Parameters:
  ///   - duration: The delay.
  ///   - clock: The clock to wait on; a test passes a manual clock.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  /// - Returns: The delayed cell, starting with this cell's current value.
  public func delayed(
    by duration: Duration, clock: some Clock<Duration> = ContinuousClock(),
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Derived<Value> {
    _timed(.delay, duration, clock, fileID, line)
  }

  /// A derived cell whose node reads this cell and lets its changes through
  /// the operator's timer.
  private func _timed<C: Clock<Duration>>(
    _ rule: _TimeRule, _ duration: Duration, _ clock: C,
    _ fileID: StaticString, _ line: UInt
  ) -> Derived<Value> {
    let box = _OperatorBox<C, Value>()
    let node = _DerivedNode<Value>(
      _withoutTracking { value }, isDuplicate: _duplicateCheck(for: Value.self), height: nil,
      sources: [self], gate: nil, kind: .derived, fileID: fileID, line: line,
      update: { [self] node in
        // A change of the source: only the operator decides whether it
        // goes through now (a throttle's first change) or later.
        guard let operation = box.operation, operation.receive(self.value) else { return false }
        return node._setQuietly(self.value)
      },
      publish: { $0._publish($0._value, supersedable: true) })
    let operation = _TimeOperator<C, Value>(
      rule, duration: duration, clock: clock, list: node, fileID: fileID, line: line)
    // The node owns the operator (through its update closure), which owns
    // this closure: `unowned` needs no side table, which `weak` would add.
    operation.emit = { [unowned node] value in node._set(value) }
    box.operation = operation
    _Labels.set(operation._operatorName, of: node)
    return Derived(node: node)
  }
}

/// Holds a cell operator for the node's update closure, which is made
/// before the operator (the operator needs the node).
@MainActor
final class _OperatorBox<C: Clock<Duration>, Value> {
  var operation: _TimeOperator<C, Value>?
}

extension Derived {
  /// Lets the value that this time operator holds back through now, and
  /// stops waiting: a search field's "Search" key, which should not wait
  /// for the debounce.
  ///
  /// ```swift
  /// let settled = query.debounced(for: .milliseconds(300), clock: clock)
  /// query.value = "dune"
  /// settled.flush()   // settled.value == "dune" now, and nothing waits
  /// ```
  ///
  /// A debounce takes its pending value; a throttle takes the value its
  /// window holds and closes the window (the next change goes through at
  /// once); a delay takes every value it queued, in order. With nothing
  /// pending it only stops waiting. On a cell that is not made by
  /// `debounced`, `throttled` or `delayed`, it does nothing and says so
  /// through ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - fileID: Where a misuse is reported; the caller's file.
  ///   - line: Where a misuse is reported; the caller's line.
  public func flush(fileID: StaticString = #fileID, line: UInt = #line) {
    _TimeOperators.apply(true, to: _graphList, kind: "cell", fileID: fileID, line: line)
  }

  /// Drops the value that this time operator holds back, and stops
  /// waiting: a search field cleared before its debounce fired.
  ///
  /// The cell keeps its value; a later change of the source is handled as
  /// the first. On a cell that is not made by `debounced`, `throttled` or
  /// `delayed`, it does nothing and says so through ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - fileID: Where a misuse is reported; the caller's file.
  ///   - line: Where a misuse is reported; the caller's line.
  public func cancel(fileID: StaticString = #fileID, line: UInt = #line) {
    _TimeOperators.apply(false, to: _graphList, kind: "cell", fileID: fileID, line: line)
  }
}

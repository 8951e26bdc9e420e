/// Lends a value held in storage to code that takes it as an argument,
/// without copying it: no retain and no release of what it holds.
///
/// A call that takes a value read from an array's buffer (a sort order
/// given a row, the array's delivery given a queued change) gets a copy:
/// the compiler cannot prove that the call leaves the buffer alone, so it
/// retains every reference the value holds (a `String`'s storage, a
/// class instance, an array's buffer) and releases them after. A lend
/// loads the value's bits as a value of its own, which carries those
/// references without retaining them, and ends it in a scratch slot that
/// is never deinitialized, so they are not released either.
///
/// A lend is sound while the storage keeps those references for as long
/// as the lent value is used: the value there must not be destroyed or
/// changed until `withLent(_:_:)` returns. Moving it bitwise (an array
/// growing) is fine: the references stay alive wherever the value is.
/// Nothing is written to the storage: a value whose move is not a load of
/// its bits (one that holds a weak reference, which a move may register
/// at its new place) cannot be lent (`canLend(_:)`); copy it instead.
@usableFromInline
enum _Lending {
  /// Whether a value of `Value` can be lent: its move is a load of its bits.
  @inline(__always)
  @inlinable
  static func canLend<Value>(_: Value.Type) -> Bool {
    _isBitwiseTakable(Value.self)
  }

  /// Calls `body` with the value that `load` returns, which must be
  /// ``bits(at:)`` of a value held in storage that stays whole until this
  /// returns (see ``_Lending``), then lets it go without releasing what it
  /// holds.
  @inline(__always)
  @inlinable
  static func withLent<Value, Result>(
    _ load: () -> Value, _ body: (Value) -> Result
  ) -> Result {
    withUnsafeTemporaryAllocation(of: Value.self, capacity: 1) { sink in
      let lent = load()
      let result = body(lent)
      sink.baseAddress.unsafelyUnwrapped.initialize(to: consume lent)
      return result
    }
  }

  /// The bits of the value at `pointer`, as a value that carries its
  /// references without retaining them: only for the `load` of
  /// ``withLent(_:_:)``, and only if ``canLend(_:)``.
  @inline(__always)
  @inlinable
  static func bits<Value>(at pointer: UnsafePointer<Value>) -> Value {
    UnsafeMutablePointer(mutating: pointer).move()
  }

  /// The bits of `values[index]`, as ``bits(at:)`` gives them.
  ///
  /// Nonisolated, so that the closure it passes to the standard library
  /// carries no executor check when the array is a main-actor object's.
  @inline(__always)
  @inlinable
  static func bits<Value>(of values: [Value], at index: Int) -> Value {
    values.withUnsafeBufferPointer { bits(at: $0.baseAddress.unsafelyUnwrapped + index) }
  }
}

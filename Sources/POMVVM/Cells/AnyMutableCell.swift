/// A two-way cell of any kind, with its type erased: "a cell of `Bool` I can
/// write", whatever cell is behind it.
///
/// App code holds one where the concrete type would be long or would vary —
/// `ProjectedCell<ElementCell<Item>, Bool>` for a row, an `Observable<Bool>`
/// in a preview — and it satisfies protocols whose cell is an associated
/// type, such as ``Switchable``'s `on`, which `any MutableObservableCell<Bool>`
/// cannot:
///
/// ```swift
/// final class RowViewModel: ViewModel, Switchable {
///   let on: AnyMutableCell<Bool>
///   init(on: some MutableObservableCell<Bool>) { self.on = AnyMutableCell(on) }
/// }
/// ```
///
/// Reads, writes, refusals and observations go to the wrapped cell, and cells
/// derived from an erased cell are derived from the wrapped one (they stay
/// glitch-free). The erasure costs one indirect call per access; code that
/// keeps the concrete type pays nothing.
@MainActor
public final class AnyMutableCell<Value>: MutableObservableCell {
  /// The wrapped cell.
  public var base: any MutableObservableCell<Value> { _base.unsafelyUnwrapped }

  /// The wrapped cell; `nil` only once the deinit has handed it over.
  ///
  /// The deinit hands it to `_DeferredReleases`, so that a chain of erased
  /// projections of any depth is released with constant stack.
  @exclusivity(unchecked)
  private var _base: (any MutableObservableCell<Value>)?

  /// Wraps a cell.
  ///
  /// - Parameter base: The cell to read, write and observe through this one;
  ///   it is kept alive by this one. Wrapping an erased cell wraps what it
  ///   wraps.
  public init(_ base: some MutableObservableCell<Value>) {
    if let erased = base as? AnyMutableCell<Value> {
      _base = erased.base
    } else {
      _base = base
    }
  }

  isolated deinit {
    var held: Any = _base as Any
    _base = nil
    _DeferredReleases.release(&held)
  }

  /// The wrapped cell's value; setting it writes through the wrapped cell.
  ///
  /// A refused write's report names the wrapped cell and where it was made
  /// (a setter cannot take its caller's location): write `cell.set(newValue)`
  /// (``set(_:fileID:line:)``) to have it name your line.
  public var value: Value {
    get { base.value }
    set { base.value = newValue }
  }

  /// Writes through the wrapped cell.
  ///
  /// `erased.set(newValue)` calls ``set(_:fileID:line:)``, which names the
  /// caller's line in a refusal's report; this one is what generic code
  /// calls through ``MutableObservableCell``, and its reports name the
  /// wrapped cell.
  ///
  /// - Parameter newValue: The value to write.
  /// - Returns: Whether the wrapped cell took the write.
  @_disfavoredOverload
  @discardableResult
  public func set(_ newValue: Value) -> Bool {
    base.set(newValue)
  }

  /// Writes through the wrapped cell; a refusal's report names the caller's
  /// line.
  ///
  /// - Parameters:
  ///   - newValue: The value to write.
  ///   - fileID: The culprit's file in a report; by default, the caller's.
  ///   - line: The culprit's line in a report; by default, the caller's.
  /// - Returns: Whether the wrapped cell took the write.
  @discardableResult
  public func set(_ newValue: Value, fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
    base.set(newValue, fileID: fileID, line: line)
  }

  /// Observes the wrapped cell: calls `handler` with its current value now,
  /// then with every change.
  ///
  /// - Parameter handler: Called on the main actor with each value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    base.observe(handler)
  }

  /// Observes the wrapped cell's changes from now on.
  ///
  /// - Parameter handler: Called on the main actor with each new value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observeChanges(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
    base.observeChanges(handler)
  }
}

extension AnyMutableCell: _CellWrapper {
  var _wrappedCell: AnyObject { base }
}

extension MutableObservableCell {
  /// This cell with its type erased.
  ///
  /// - Returns: A cell that reads, writes and observes through this one.
  public func erasedToAnyMutableCell() -> AnyMutableCell<Value> {
    AnyMutableCell(self)
  }
}

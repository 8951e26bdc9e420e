/// What one step of a ``StateRecorder`` is expected to change: each cell's
/// new values, each array's changes and each stream's events, in order.
///
/// A ``StateRecorder/perform(_:expecting:fileID:filePath:line:column:)-52utz``
/// hands you one to fill in:
///
/// ```swift
/// recorder.perform {
///   screen.rows[1].toggleSwitch()
/// } expecting: {
///   $0.changed(\.rows[1].on, to: true)
///   $0.changed(\.detail.on, to: true)
///   $0.changed(\.master.openSwitchCount, to: 1)
///   $0.changed(\.master.items) { $0.changeSet.updates.map(\.newIndex) == [1] }
/// }
/// ```
///
/// Key paths go from the recorder's root to a cell, an array or a stream;
/// they are read after the action ran, so `\.rows[0]` is the row at index 0
/// once the step is over. Each expectation stands for one change: a cell
/// that changes twice in a step (`loading`, then `loaded`) is expected with
/// two calls, in the order the values came. The order of changes of
/// *different* cells is not compared.
@MainActor
public struct StateExpectations<Root> {
  var items: [Item] = []

  init() {}

  /// One expected change.
  struct Item {
    enum Kind {
      case value
      case array
      case event
    }

    var keyPath: AnyKeyPath
    var object: (Root) -> AnyObject
    var kind: Kind
    /// The expected value, payload or contents, for a diff with what was
    /// seen; `nil` for a predicate.
    var expected: Any?
    var matches: (RecordedChange.Kind) -> Bool
  }

  /// Expects the cell at `keyPath` to change to `value`.
  ///
  /// Call it once per change: a cell set twice in the step is expected
  /// twice, in order.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to a cell (an `Observable`, a `Derived`,
  ///     a projection, an element cell, an aggregate, a `Load`).
  ///   - value: The value it changes to.
  public mutating func changed<Cell: ObservableCell>(
    _ keyPath: KeyPath<Root, Cell>, to value: Cell.Value
  ) where Cell.Value: Equatable {
    items.append(
      Item(keyPath: keyPath, object: { $0[keyPath: keyPath] }, kind: .value, expected: value) {
        guard case .value(_, let new) = $0, let new = new as? Cell.Value else { return false }
        return new == value
      })
  }

  /// Expects the cell at `keyPath` to change to a value that satisfies
  /// `predicate`; for values that are not `Equatable`, or that a test
  /// checks only in part.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to a cell.
  ///   - predicate: Whether the new value is the expected one.
  public mutating func changed<Cell: ObservableCell>(
    _ keyPath: KeyPath<Root, Cell>, where predicate: @escaping (Cell.Value) -> Bool
  ) {
    items.append(
      Item(keyPath: keyPath, object: { $0[keyPath: keyPath] }, kind: .value, expected: nil) {
        guard case .value(_, let new) = $0, let new = new as? Cell.Value else { return false }
        return predicate(new)
      })
  }

  /// Expects the array at `keyPath` to change once, and to hold `elements`
  /// after that change.
  ///
  /// A row that the change inserts is part of this change: the cells a new
  /// row brings are not changes of their own.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to an `ObservableArray`.
  ///   - elements: The array's contents right after the change.
  public mutating func changed<Element: Identifiable & Equatable>(
    _ keyPath: KeyPath<Root, ObservableArray<Element>>, to elements: [Element]
  ) {
    items.append(
      Item(keyPath: keyPath, object: { $0[keyPath: keyPath] }, kind: .array, expected: elements) {
        guard case .array(_, let new, _) = $0, let new = new as? [Element] else { return false }
        return new == elements
      })
  }

  /// Expects the array at `keyPath` to change once, by a change that
  /// satisfies `predicate`.
  ///
  /// ```swift
  /// $0.changed(\.items) { $0.changeSet.insertions.map(\.index) == [0] }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: From the root to an `ObservableArray`.
  ///   - predicate: Whether the change (its change set and its new
  ///     contents) is the expected one.
  public mutating func changed<Element: Identifiable>(
    _ keyPath: KeyPath<Root, ObservableArray<Element>>,
    where predicate: @escaping (ArrayChange<Element>) -> Bool
  ) {
    items.append(
      Item(keyPath: keyPath, object: { $0[keyPath: keyPath] }, kind: .array, expected: nil) {
        guard case .array(_, _, let change) = $0, let change = change as? ArrayChange<Element>
        else { return false }
        return predicate(change)
      })
  }

  /// Expects the stream at `keyPath` to send `payloads`, in order.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to an `EventStream`.
  ///   - payloads: The events' payloads, one per event.
  public mutating func sent<Payload: Equatable>(
    _ keyPath: KeyPath<Root, EventStream<Payload>>, _ payloads: [Payload]
  ) {
    for payload in payloads {
      items.append(
        Item(keyPath: keyPath, object: { $0[keyPath: keyPath] }, kind: .event, expected: payload) {
          guard case .event(let sent) = $0, let sent = sent as? Payload else { return false }
          return sent == payload
        })
    }
  }

  /// Expects the stream at `keyPath`, whose events carry nothing (taps), to
  /// send `count` events.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to an `EventStream<Void>`.
  ///   - count: How many events it sends.
  public mutating func sent(_ keyPath: KeyPath<Root, EventStream<Void>>, times count: Int = 1) {
    for _ in 0..<max(0, count) {
      items.append(
        Item(keyPath: keyPath, object: { $0[keyPath: keyPath] }, kind: .event, expected: ()) {
          guard case .event = $0 else { return false }
          return true
        })
    }
  }
}

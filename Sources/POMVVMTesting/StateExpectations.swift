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
/// once the step is over. A key path may chain through optionals
/// (`\.detail?.on`); one that ends in `nil` after the action fails the step. Each expectation stands for one change: a cell
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
      /// State that appeared during the step.
      case added
    }

    var keyPath: AnyKeyPath
    /// What the key path reaches after the action; `nil` where it chains
    /// through an optional that is `nil`.
    var object: (Root) -> AnyObject?
    var kind: Kind
    /// The expected value, payload or contents, for a diff with what was
    /// seen; `nil` for a predicate.
    var expected: Any?
    var matches: (RecordedChange.Kind) -> Bool
    /// For new state: whether the view model or cell, read after the
    /// step, is the expected one.
    var accepts: ((AnyObject) -> Bool)? = nil
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
    expectValue(keyPath, { $0[keyPath: keyPath] }, to: value)
  }

  /// Expects the cell at `keyPath`, which chains through optionals
  /// (`\.detail?.on`), to change to `value`.
  ///
  /// A key path that ends in `nil` after the action fails the step.
  ///
  /// - Parameters:
  ///   - keyPath: From the root, through optionals, to a cell.
  ///   - value: The value it changes to.
  public mutating func changed<Cell: ObservableCell>(
    _ keyPath: KeyPath<Root, Cell?>, to value: Cell.Value
  ) where Cell.Value: Equatable {
    expectValue(keyPath, { $0[keyPath: keyPath] }, to: value)
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
    expectValue(keyPath, { $0[keyPath: keyPath] }, where: predicate)
  }

  /// Expects the cell at `keyPath`, which chains through optionals, to
  /// change to a value that satisfies `predicate`.
  ///
  /// A key path that ends in `nil` after the action fails the step.
  ///
  /// - Parameters:
  ///   - keyPath: From the root, through optionals, to a cell.
  ///   - predicate: Whether the new value is the expected one.
  public mutating func changed<Cell: ObservableCell>(
    _ keyPath: KeyPath<Root, Cell?>, where predicate: @escaping (Cell.Value) -> Bool
  ) {
    expectValue(keyPath, { $0[keyPath: keyPath] }, where: predicate)
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
    expectArray(keyPath, { $0[keyPath: keyPath] }, to: elements)
  }

  /// Expects the array at `keyPath`, which chains through optionals, to
  /// change once, and to hold `elements` after that change.
  ///
  /// A key path that ends in `nil` after the action fails the step.
  ///
  /// - Parameters:
  ///   - keyPath: From the root, through optionals, to an `ObservableArray`.
  ///   - elements: The array's contents right after the change.
  public mutating func changed<Element: Identifiable & Equatable>(
    _ keyPath: KeyPath<Root, ObservableArray<Element>?>, to elements: [Element]
  ) {
    expectArray(keyPath, { $0[keyPath: keyPath] }, to: elements)
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
    expectArray(keyPath, { $0[keyPath: keyPath] }, where: predicate)
  }

  /// Expects the array at `keyPath`, which chains through optionals, to
  /// change once, by a change that satisfies `predicate`.
  ///
  /// A key path that ends in `nil` after the action fails the step.
  ///
  /// - Parameters:
  ///   - keyPath: From the root, through optionals, to an `ObservableArray`.
  ///   - predicate: Whether the change (its change set and its new
  ///     contents) is the expected one.
  public mutating func changed<Element: Identifiable>(
    _ keyPath: KeyPath<Root, ObservableArray<Element>?>,
    where predicate: @escaping (ArrayChange<Element>) -> Bool
  ) {
    expectArray(keyPath, { $0[keyPath: keyPath] }, where: predicate)
  }

  /// Expects the stream at `keyPath` to send `payloads`, in order.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to an `EventStream`.
  ///   - payloads: The events' payloads, one per event.
  public mutating func sent<Payload: Equatable>(
    _ keyPath: KeyPath<Root, EventStream<Payload>>, _ payloads: [Payload]
  ) {
    expectEvents(keyPath, { $0[keyPath: keyPath] }, payloads)
  }

  /// Expects the stream at `keyPath`, which chains through optionals, to
  /// send `payloads`, in order.
  ///
  /// A key path that ends in `nil` after the action fails the step.
  ///
  /// - Parameters:
  ///   - keyPath: From the root, through optionals, to an `EventStream`.
  ///   - payloads: The events' payloads, one per event.
  public mutating func sent<Payload: Equatable>(
    _ keyPath: KeyPath<Root, EventStream<Payload>?>, _ payloads: [Payload]
  ) {
    expectEvents(keyPath, { $0[keyPath: keyPath] }, payloads)
  }

  /// Expects the stream at `keyPath`, whose events carry nothing (taps), to
  /// send `count` events.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to an `EventStream<Void>`.
  ///   - count: How many events it sends.
  public mutating func sent(_ keyPath: KeyPath<Root, EventStream<Void>>, times count: Int = 1) {
    expectTaps(keyPath, { $0[keyPath: keyPath] }, count)
  }

  /// Expects the stream at `keyPath`, which chains through optionals and
  /// whose events carry nothing, to send `count` events.
  ///
  /// A key path that ends in `nil` after the action fails the step.
  ///
  /// - Parameters:
  ///   - keyPath: From the root, through optionals, to an `EventStream<Void>`.
  ///   - count: How many events it sends.
  public mutating func sent(_ keyPath: KeyPath<Root, EventStream<Void>?>, times count: Int = 1) {
    expectTaps(keyPath, { $0[keyPath: keyPath] }, count)
  }

  // MARK: - Queries

  /// Expects the query at `keyPath` to change once, and to show `rows`
  /// after that change.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to a `LiveQuery`.
  ///   - rows: The query's rows right after the change, in its order.
  public mutating func changed<Element: Identifiable & Equatable>(
    _ keyPath: KeyPath<Root, LiveQuery<Element>>, to rows: [Element]
  ) {
    expectContents(keyPath, { $0[keyPath: keyPath] }, to: rows)
  }

  /// Expects the query at `keyPath` to change once, by a change (in the
  /// query's own indices) that satisfies `predicate`.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to a `LiveQuery`.
  ///   - predicate: Whether the change is the expected one.
  public mutating func changed<Element: Identifiable>(
    _ keyPath: KeyPath<Root, LiveQuery<Element>>,
    where predicate: @escaping (ArrayChange<Element>) -> Bool
  ) {
    expectChange(keyPath, { $0[keyPath: keyPath] }, where: predicate)
  }

  /// Expects the sectioned query at `keyPath` to change once, and to show
  /// `sections` after that change.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to a `SectionedQuery`.
  ///   - sections: The query's sections right after the change.
  public mutating func changed<Key: Hashable & Comparable, Element: Identifiable & Equatable>(
    _ keyPath: KeyPath<Root, SectionedQuery<Key, Element>>,
    to sections: [QuerySection<Key, Element>]
  ) {
    expectContents(keyPath, { $0[keyPath: keyPath] }, to: sections)
  }

  /// Expects the sectioned query at `keyPath` to change once, by a change
  /// that satisfies `predicate`.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to a `SectionedQuery`.
  ///   - predicate: Whether the change (its batch update and its new
  ///     sections) is the expected one.
  public mutating func changed<Key: Hashable & Comparable, Element: Identifiable>(
    _ keyPath: KeyPath<Root, SectionedQuery<Key, Element>>,
    where predicate: @escaping (SectionedChange<Key, Element>) -> Bool
  ) {
    expectChange(keyPath, { $0[keyPath: keyPath] }, where: predicate)
  }

  // MARK: - New state

  /// Expects the view model (or cell) at `keyPath` to have appeared during
  /// the step — a pushed screen, a presented sheet, a new row's view
  /// model — and to satisfy `predicate` at the end of the step.
  ///
  /// The recorder reports every view model that appears, whole, and a
  /// step must expect each one: as TCA compares a pushed child's whole
  /// state, a detail that opens with an alert already showing fails.
  /// Changes the new view model went through during the step are part of
  /// the value `predicate` sees, not changes of their own.
  ///
  /// ```swift
  /// $0.added(\.path[1]?.detail) { detail in
  ///   detail.title.value == "Milk" && detail.alert.value == nil
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: From the root to the new view model or cell, read after
  ///     the step.
  ///   - predicate: Whether it is the expected one.
  public mutating func added<Model: AnyObject>(
    _ keyPath: KeyPath<Root, Model>, where predicate: @escaping (Model) -> Bool
  ) {
    expectAdded(keyPath, { $0[keyPath: keyPath] }, like: nil, where: predicate)
  }

  /// Expects the view model (or cell) at `keyPath`, which chains through
  /// optionals (`\.sheet`, `\.destination.value?.detail`), to have appeared
  /// during the step and to satisfy `predicate` at the end of the step.
  ///
  /// - Parameters:
  ///   - keyPath: From the root, through optionals, to the new view model
  ///     or cell.
  ///   - predicate: Whether it is the expected one.
  public mutating func added<Model: AnyObject>(
    _ keyPath: KeyPath<Root, Model?>, where predicate: @escaping (Model) -> Bool
  ) {
    expectAdded(keyPath, { $0[keyPath: keyPath] }, like: nil, where: predicate)
  }

  /// Expects the view model (or cell) at `keyPath` to have appeared during
  /// the step, holding the same state as `expected`: every cell, array and
  /// query found in both, by path, with equal values, and every other
  /// stored property of both and of the view models below them (a draft's
  /// id, a plain `var count`), compared whole, at any depth. (An object in
  /// such a property is compared by its type, and followed by its own path
  /// if it is a view model.)
  ///
  /// ```swift
  /// $0.added(\.sheet, like: FormViewModel(title: "New item"))
  /// ```
  ///
  /// A difference is shown by path, `-` for `expected`, `+` for what
  /// appeared.
  ///
  /// - Parameters:
  ///   - keyPath: From the root to the new view model or cell.
  ///   - expected: A view model (or cell) made in the test with the
  ///     expected state.
  public mutating func added<Model: AnyObject>(
    _ keyPath: KeyPath<Root, Model>, like expected: Model
  ) {
    expectAdded(keyPath, { $0[keyPath: keyPath] }, like: expected, where: nil)
  }

  /// Expects the view model (or cell) at `keyPath`, which chains through
  /// optionals, to have appeared during the step, holding the same state as
  /// `expected`.
  ///
  /// - Parameters:
  ///   - keyPath: From the root, through optionals, to the new view model
  ///     or cell.
  ///   - expected: A view model (or cell) made in the test with the
  ///     expected state.
  public mutating func added<Model: AnyObject>(
    _ keyPath: KeyPath<Root, Model?>, like expected: Model
  ) {
    expectAdded(keyPath, { $0[keyPath: keyPath] }, like: expected, where: nil)
  }

  // MARK: One body for each kind, whatever the key path's last type

  private mutating func expectAdded<Model: AnyObject>(
    _ keyPath: AnyKeyPath, _ object: @escaping (Root) -> Model?, like expected: Model?,
    where predicate: ((Model) -> Bool)?
  ) {
    items.append(
      Item(
        keyPath: keyPath, object: object, kind: .added, expected: expected, matches: { _ in false },
        accepts: predicate.map { predicate in
          { ($0 as? Model).map(predicate) ?? false }
        }))
  }

  private mutating func expectContents<Contents: Equatable>(
    _ keyPath: AnyKeyPath, _ object: @escaping (Root) -> AnyObject?, to contents: Contents
  ) {
    items.append(
      Item(keyPath: keyPath, object: object, kind: .array, expected: contents) {
        guard case .array(_, let new, _) = $0, let new = new as? Contents else { return false }
        return new == contents
      })
  }

  private mutating func expectChange<Change>(
    _ keyPath: AnyKeyPath, _ object: @escaping (Root) -> AnyObject?,
    where predicate: @escaping (Change) -> Bool
  ) {
    items.append(
      Item(keyPath: keyPath, object: object, kind: .array, expected: nil) {
        guard case .array(_, _, let change) = $0, let change = change as? Change else {
          return false
        }
        return predicate(change)
      })
  }

  private mutating func expectValue<Value: Equatable>(
    _ keyPath: AnyKeyPath, _ object: @escaping (Root) -> AnyObject?, to value: Value
  ) {
    items.append(
      Item(keyPath: keyPath, object: object, kind: .value, expected: value) {
        guard case .value(_, let new) = $0, let new = new as? Value else { return false }
        return new == value
      })
  }

  private mutating func expectValue<Value>(
    _ keyPath: AnyKeyPath, _ object: @escaping (Root) -> AnyObject?,
    where predicate: @escaping (Value) -> Bool
  ) {
    items.append(
      Item(keyPath: keyPath, object: object, kind: .value, expected: nil) {
        guard case .value(_, let new) = $0, let new = new as? Value else { return false }
        return predicate(new)
      })
  }

  private mutating func expectArray<Element: Identifiable & Equatable>(
    _ keyPath: AnyKeyPath, _ object: @escaping (Root) -> AnyObject?, to elements: [Element]
  ) {
    items.append(
      Item(keyPath: keyPath, object: object, kind: .array, expected: elements) {
        guard case .array(_, let new, _) = $0, let new = new as? [Element] else { return false }
        return new == elements
      })
  }

  private mutating func expectArray<Element: Identifiable>(
    _ keyPath: AnyKeyPath, _ object: @escaping (Root) -> AnyObject?,
    where predicate: @escaping (ArrayChange<Element>) -> Bool
  ) {
    items.append(
      Item(keyPath: keyPath, object: object, kind: .array, expected: nil) {
        guard case .array(_, _, let change) = $0, let change = change as? ArrayChange<Element>
        else { return false }
        return predicate(change)
      })
  }

  private mutating func expectEvents<Payload: Equatable>(
    _ keyPath: AnyKeyPath, _ object: @escaping (Root) -> AnyObject?, _ payloads: [Payload]
  ) {
    for payload in payloads {
      items.append(
        Item(keyPath: keyPath, object: object, kind: .event, expected: payload) {
          guard case .event(let sent) = $0, let sent = sent as? Payload else { return false }
          return sent == payload
        })
    }
  }

  private mutating func expectTaps(
    _ keyPath: AnyKeyPath, _ object: @escaping (Root) -> AnyObject?, _ count: Int
  ) {
    for _ in 0..<max(0, count) {
      items.append(
        Item(keyPath: keyPath, object: object, kind: .event, expected: ()) {
          guard case .event = $0 else { return false }
          return true
        })
    }
  }
}

/// One change a ``StateRecorder`` saw: a cell's new value, an array's
/// change, or an event.
struct RecordedChange {
  enum Kind {
    /// A cell went from `old` to `new`.
    case value(old: Any, new: Any)
    /// An array's contents went from `old` to `new` by `change`, an
    /// `ArrayChange`.
    case array(old: Any, new: Any, change: Any)
    /// A stream sent `payload`.
    case event(payload: Any)
  }

  /// Whose change it is.
  var identity: ObjectIdentifier
  /// Its property path when the change was made.
  var path: String
  var kind: Kind
  /// Whether it was made between steps, after the previous step's action
  /// had returned.
  var isLate: Bool
  /// Whether it was made before any step began.
  var isBeforeFirstStep: Bool
}

/// A piece of state a ``StateRecorder`` follows, with its subscription.
@MainActor
final class RecordedState {
  enum Kind {
    case cell
    case array
    case events
  }

  let identity: ObjectIdentifier
  let kind: Kind
  var path: String
  let label: String?
  /// The object found, to tell it from a new one that took its address
  /// after it was released.
  weak var object: AnyObject?
  /// The last value seen (the contents, for an array); nothing for a
  /// stream.
  var current: Any?
  var subscription: Subscription?

  /// Starts following `found`; `nil` if it is none of the kit's cells,
  /// arrays or streams.
  init?(_ found: _FoundState, record: @escaping @MainActor (ObjectIdentifier, Any) -> Void) {
    identity = found.identity
    path = found.path
    label = found.label
    object = found.object
    let identity = found.identity
    let handler: @MainActor (Any) -> Void = { record(identity, $0) }
    if let array = found.object as? any _RecordableArray {
      kind = .array
      current = array._recordedElements
      subscription = array._recordChanges(handler)
    } else if let stream = found.object as? any _RecordableEvents {
      kind = .events
      subscription = stream._recordEvents(handler)
    } else if let cell = found.object as? any ObservableCell {
      kind = .cell
      (current, subscription) = Self.follow(cell, handler)
    } else {
      return nil
    }
  }

  /// The path as failures name it: with the label, when it has one.
  var name: String {
    guard let label, label != path else { return path }
    return "\(path) (\"\(label)\")"
  }

  private static func follow<Cell: ObservableCell>(
    _ cell: Cell, _ handler: @escaping @MainActor (Any) -> Void
  ) -> (Any, Subscription) {
    (cell.value, cell.observeChanges { handler($0) })
  }
}

/// An `ObservableArray` as the recorder sees it, whatever its element.
@MainActor
protocol _RecordableArray: AnyObject {
  var _recordedElements: Any { get }
  /// Calls `handler` with each `ArrayChange`.
  func _recordChanges(_ handler: @escaping @MainActor (Any) -> Void) -> Subscription
}

extension ObservableArray: _RecordableArray {
  var _recordedElements: Any { elements }

  func _recordChanges(_ handler: @escaping @MainActor (Any) -> Void) -> Subscription {
    observeChanges { handler($0) }
  }
}

// A query is recorded as its rows: its `ArrayChange`s, in its own indices.
extension LiveQuery: _RecordableArray {
  var _recordedElements: Any { elements }

  func _recordChanges(_ handler: @escaping @MainActor (Any) -> Void) -> Subscription {
    observeChanges { handler($0) }
  }
}

// A sectioned query is recorded as its sections and their rows.
extension SectionedQuery: _RecordableArray {
  var _recordedElements: Any { sections }

  func _recordChanges(_ handler: @escaping @MainActor (Any) -> Void) -> Subscription {
    observeChanges { handler($0) }
  }
}

/// An `EventStream` as the recorder sees it, whatever its payload.
@MainActor
protocol _RecordableEvents: AnyObject {
  func _recordEvents(_ handler: @escaping @MainActor (Any) -> Void) -> Subscription
}

extension EventStream: _RecordableEvents {
  func _recordEvents(_ handler: @escaping @MainActor (Any) -> Void) -> Subscription {
    observe { handler($0) }
  }
}

/// The new contents an `ArrayChange` carries, whatever its element.
protocol _RecordedArrayChange {
  var _newElements: Any { get }
}

extension ArrayChange: _RecordedArrayChange {
  var _newElements: Any { newElements }
}

extension SectionedChange: _RecordedArrayChange {
  var _newElements: Any { newSections }
}

/// The current value of a piece of state the recorder finds: a cell's
/// value, an array's or a query's rows; `nil` for a stream, which has none.
@MainActor
func recordedValue(of object: AnyObject) -> Any? {
  if let array = object as? any _RecordableArray { return array._recordedElements }
  if object is any _RecordableEvents { return nil }
  if let cell = object as? any ObservableCell { return cellValue(cell) }
  return nil
}

@MainActor
private func cellValue<Cell: ObservableCell>(_ cell: Cell) -> Any { cell.value }

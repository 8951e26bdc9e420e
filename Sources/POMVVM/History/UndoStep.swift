/// Which way a step is applied: back to the state before it, or forward
/// again to the state after it.
@usableFromInline
enum _UndoDirection: Sendable {
  case undo
  case redo
}

/// One recorded change of one tracked object: an array's change set or a
/// cell's old and new value.
///
/// A record holds its object weakly: the history does not keep what it
/// tracks alive, and a record whose object is gone is skipped.
@MainActor
@usableFromInline
protocol _UndoRecord: AnyObject {
  /// Whether the tracked object still exists.
  var isAlive: Bool { get }

  /// The tracked object, while it exists: a record of an array is an
  /// `_ArrayEdit` of its element type, a record of a cell a `_CellEdit` of
  /// its value type.
  var object: AnyObject? { get }

  /// Whether applying the record in `direction` fits the current contents,
  /// with the ids that earlier records of the same step add or remove in
  /// `presence`; the conflict, if any. Changes nothing but `presence`.
  func conflict(_ direction: _UndoDirection, _ presence: inout _Presence) -> String?

  /// Applies the record through the object's public mutations; `conflict`
  /// has said it fits.
  func apply(_ direction: _UndoDirection)
}

/// Which element ids a step's records have added or removed so far while
/// it is checked, over the arrays' own contents.
@usableFromInline
struct _Presence {
  @usableFromInline
  struct Key: Hashable {
    @usableFromInline
    let array: ObjectIdentifier
    @usableFromInline
    let id: AnyHashable

    @inlinable
    init(array: ObjectIdentifier, id: AnyHashable) {
      self.array = array
      self.id = id
    }
  }

  @usableFromInline
  var overrides: [Key: Bool] = [:]

  @usableFromInline
  init() {}

  /// Whether the element with `id` is in `array` once the records checked
  /// so far are applied.
  @MainActor
  @inlinable
  func contains<Element>(_ id: Element.ID, in array: ObservableArray<Element>) -> Bool {
    if !overrides.isEmpty, let present = overrides[Key(array: ObjectIdentifier(array), id: id)] {
      return present
    }
    return array._index(of: id) != nil
  }

  /// Notes that the records checked so far add or remove the element.
  @MainActor
  @inlinable
  mutating func set<Element>(
    _ id: Element.ID, in array: ObservableArray<Element>, present: Bool
  ) {
    overrides[Key(array: ObjectIdentifier(array), id: id)] = present
  }
}

/// One step of the history: the records of the changes it undoes at once,
/// oldest first, and the name shown as "Undo <name>".
@MainActor
final class _UndoStep {
  private(set) var name: String?
  // Most steps hold one record: it is kept apart, so that such a step costs
  // one allocation less.
  @exclusivity(unchecked)
  private var first: (any _UndoRecord)?
  @exclusivity(unchecked)
  private var others: [any _UndoRecord] = []
  /// When the step last took a change, for the merge window: the time
  /// since the history was made, on its clock.
  @exclusivity(unchecked)
  var lastChange: Duration
  /// The deliveries under way when the step last took a change.
  ///
  /// While one of them still is, a change is a reaction and joins the step.
  /// Most steps see one, kept apart from the others to save an allocation.
  @exclusivity(unchecked)
  private var firstDelivery: _DeliveryKey?
  @exclusivity(unchecked)
  private var otherDeliveries: [_DeliveryKey] = []

  init(name: String?, record: (any _UndoRecord)? = nil, lastChange: Duration) {
    self.name = name
    first = record
    self.lastChange = lastChange
  }

  /// The records, oldest first.
  var records: [any _UndoRecord] {
    guard let first else { return [] }
    return [first] + others
  }

  /// The newest record.
  var last: (any _UndoRecord)? { others.last ?? first }

  /// Whether the step holds no record.
  var isEmpty: Bool { first == nil }

  /// Makes this step, which is going, a new one-record step named `name`,
  /// if it is one record that `reuse` can make the new change's record.
  ///
  /// - Returns: Whether it did.
  func reuse(named name: String?, _ reuse: (any _UndoRecord) -> Bool) -> Bool {
    guard others.isEmpty, let first, reuse(first) else { return false }
    self.name = name
    return true
  }

  /// Adds a record, the newest.
  func append(_ record: any _UndoRecord) {
    if first == nil {
      first = record
    } else {
      others.append(record)
    }
  }

  /// Whether a delivery that was under way when the step last took a
  /// change still is, `current` being the delivery of the change recorded
  /// now: that change then reacts to the step's.
  ///
  /// - Parameter isUnderWay: Whether a delivery is still under way.
  /// - Returns: Whether one of the step's deliveries is.
  func isReacting(_ isUnderWay: (_DeliveryKey) -> Bool) -> Bool {
    guard let firstDelivery else { return false }
    return isUnderWay(firstDelivery) || otherDeliveries.contains(where: isUnderWay)
  }

  /// Remembers the deliveries under way now, `current` first, instead of
  /// those the step saw before.
  func setDeliveries(_ current: _DeliveryKey, others: [_DeliveryKey]) {
    firstDelivery = nil
    if !otherDeliveries.isEmpty { otherDeliveries.removeAll() }
    noteDeliveries(current, others: others)
  }

  /// Adds the deliveries under way now, `current` first, to those the step
  /// saw.
  func noteDeliveries(_ current: _DeliveryKey, others: [_DeliveryKey]) {
    if current.number != nil { note(current) }
    for key in others {
      note(key)
    }
  }

  private func note(_ key: _DeliveryKey) {
    if firstDelivery == nil {
      firstDelivery = key
    } else {
      otherDeliveries.append(key)
    }
  }

  /// Whether any of the step's objects still exists.
  var isAlive: Bool { records.contains { $0.isAlive } }

  /// The first conflict of the step's records, checked in the order they
  /// would be applied, before anything is applied.
  func conflict(_ direction: _UndoDirection) -> String? {
    var presence = _Presence()
    for record in ordered(direction) where record.isAlive {
      if let conflict = record.conflict(direction, &presence) { return conflict }
    }
    return nil
  }

  /// Applies every record: newest first to undo, oldest first to redo.
  func apply(_ direction: _UndoDirection) {
    for record in ordered(direction) where record.isAlive {
      record.apply(direction)
    }
  }

  private func ordered(_ direction: _UndoDirection) -> [any _UndoRecord] {
    direction == .undo ? records.reversed() : records
  }
}

/// One delivery of a tracked object: the object and its delivery number
/// (`nil` for an object that is not delivering).
@MainActor
struct _DeliveryKey {
  let object: ObjectIdentifier
  let number: UInt64?
}

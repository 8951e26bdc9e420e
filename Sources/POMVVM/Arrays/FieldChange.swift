/// One element's change of one field, as
/// ``ArrayChange/changes(of:)`` finds it: which element, where it is now,
/// and the field's value before and after.
///
/// ```swift
/// let subscription = todos.observeChanges { change in
///   for flip in change.changes(of: \.isComplete) where flip.newValue {
///     timers.start(for: flip.id)
///   }
/// }
/// ```
public struct FieldChange<ID: Hashable, Value> {
  /// The id of the element whose field changed.
  public var id: ID
  /// The element's index right after the change (in the query's indices,
  /// for a query's change).
  public var index: Int
  /// The field's value before the change.
  public var oldValue: Value
  /// The field's value after the change.
  public var newValue: Value

  /// Creates a field change.
  ///
  /// - Parameters:
  ///   - id: The id of the element whose field changed.
  ///   - index: The element's index right after the change.
  ///   - oldValue: The field's value before the change.
  ///   - newValue: The field's value after the change.
  public init(id: ID, index: Int, oldValue: Value, newValue: Value) {
    self.id = id
    self.index = index
    self.oldValue = oldValue
    self.newValue = newValue
  }
}

extension FieldChange: Equatable where Value: Equatable {}
extension FieldChange: Hashable where Value: Hashable {}
extension FieldChange: Sendable where ID: Sendable, Value: Sendable {}

/// One change of an ``ObservableArray``, as its observers receive it: the
/// change set and the contents after it.
///
/// The contents before the change are rebuilt from the change set only when
/// you ask for them, so that observing stays O(1) per change.
public struct ArrayChange<Element> {
  /// What changed.
  public let changeSet: ChangeSet<Element>

  /// The contents right after this change.
  ///
  /// During a notification, use these rather than the array itself: when an
  /// observer mutates the array, the array is already ahead of the change
  /// being delivered.
  public let newElements: [Element]

  /// Creates a change.
  ///
  /// - Parameters:
  ///   - changeSet: What changed.
  ///   - newElements: The contents right after the change.
  @inlinable
  public init(changeSet: ChangeSet<Element>, newElements: [Element]) {
    self.changeSet = changeSet
    self.newElements = newElements
  }

  /// The contents right before this change.
  ///
  /// - Complexity: O(*n*): they are rebuilt by reverting the change set.
  public var oldElements: [Element] {
    if let reload = changeSet.reload { return reload.old }
    do {
      return try changeSet.inverted.applied(to: newElements)
    } catch {
      preconditionFailure("ArrayChange: the change set does not fit its contents: \(error)")
    }
  }
}

extension ArrayChange: Sendable where Element: Sendable {}
extension ArrayChange: Equatable where Element: Equatable {}

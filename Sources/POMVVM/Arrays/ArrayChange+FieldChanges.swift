extension ArrayChange where Element: Identifiable {
  /// The elements whose `field` this change changed, with its value before
  /// and after, in the order of the elements after the change.
  ///
  /// Only elements that were in the array before the change and are still
  /// there after it count: an insertion or a removal changes no field, so
  /// deleting a completed item, or "clear completed", reports nothing for
  /// `\.isComplete`. An element that moved and changed its field counts
  /// once; one whose other fields changed does not count.
  ///
  /// ```swift
  /// let subscription = todos.observeChanges { change in
  ///   for flip in change.changes(of: \.isComplete) where flip.newValue {
  ///     timers.start(for: flip.id)   // completed just now
  ///   }
  /// }
  /// ```
  ///
  /// A reload (``ChangeSet/reload``) carries no updates: its elements are
  /// matched by id between the old and new contents.
  ///
  /// - Parameter field: The field to compare, such as `\.isComplete`.
  /// - Returns: One ``FieldChange`` per element whose `field` differs
  ///   before and after the change.
  /// - Complexity: O(*k*) where *k* is the number of updates in the change
  ///   set (O(*k* log *k*) if they are out of order), independent of the
  ///   array's size; for a reload, O(*n*), where *n* is the number of
  ///   elements before and after.
  public func changes<Value: Equatable>(of field: KeyPath<Element, Value>)
    -> [FieldChange<Element.ID, Value>]
  {
    if let reload = changeSet.reload {
      return Self.fieldChanges(of: field, from: reload.old, to: reload.new)
    }
    var result: [FieldChange<Element.ID, Value>] = []
    var isOrdered = true
    for update in changeSet.updates {
      let oldValue = update.oldElement[keyPath: field]
      let newValue = update.newElement[keyPath: field]
      guard oldValue != newValue else { continue }
      if let last = result.last, last.index > update.newIndex {
        isOrdered = false
      }
      result.append(
        FieldChange(
          id: update.newElement.id, index: update.newIndex, oldValue: oldValue,
          newValue: newValue))
    }
    if !isOrdered {
      result.sort { $0.index < $1.index }
    }
    return result
  }

  /// The field changes of a reload: elements matched by id across the old
  /// and new contents.
  private static func fieldChanges<Value: Equatable>(
    of field: KeyPath<Element, Value>, from old: [Element], to new: [Element]
  ) -> [FieldChange<Element.ID, Value>] {
    var oldValues = [Element.ID: Value](minimumCapacity: old.count)
    for element in old where oldValues.index(forKey: element.id) == nil {
      oldValues[element.id] = element[keyPath: field]
    }
    var result: [FieldChange<Element.ID, Value>] = []
    for (index, element) in new.enumerated() {
      guard let oldValue = oldValues.removeValue(forKey: element.id) else { continue }
      let newValue = element[keyPath: field]
      if oldValue != newValue {
        result.append(
          FieldChange(id: element.id, index: index, oldValue: oldValue, newValue: newValue))
      }
    }
    return result
  }
}

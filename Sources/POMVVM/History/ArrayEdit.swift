/// The record of one change set an ``ObservableArray`` published.
///
/// It keeps the change set (which holds only the elements it touched) and
/// the ids of the elements it moved, and applies either direction by id.
/// A reload change set (a `replaceAll` or `batch` that rewrote much) is
/// recorded as what it changed, by id: the elements it removed, inserted
/// and changed, and the order of the others before and after, without the
/// stretches at both ends that kept their order. It applies like this:
/// elements leave by id, enter at their recorded index (or the end, if the
/// array is shorter now), moved elements go back to their recorded index,
/// and updated elements take their recorded value. So a change that the
/// history did not record, but that touches other elements, does not stop
/// an undo; one that makes an id appear or disappear under it does.
///
/// Recording is specialized in the caller (it runs on every change of a
/// tracked array), and so is applying: the record keeps the caller's
/// specializations of its checks and mutations, so that an undo does not
/// run the array's mutations unspecialized.
@MainActor
@usableFromInline
final class _ArrayEdit<Element: Identifiable>: _UndoRecord {
  // The fields are touched only on the main actor, by accesses that never
  // span a call out of the edit (`absorb(_:)` merges into the change set on
  // every tracked change): no run-time exclusivity checks.
  /// The array, read only while `_life` says it lives: not a weak
  /// reference, which would give the array a side table (see
  /// ``ObservableArray/_life``).
  @usableFromInline
  unowned(unsafe) let _array: ObservableArray<Element>
  @usableFromInline
  let _life: _AggregateLife
  /// The change, forward; its moves are by index, so `movedIDs` names them.
  @usableFromInline
  @exclusivity(unchecked)
  var changeSet: ChangeSet<Element>
  @usableFromInline
  @exclusivity(unchecked)
  var movedIDs: [Element.ID]
  /// For a reload: the order of the elements that stayed, before and after
  /// it, trimmed of the ends that kept their order; `nil` when the order
  /// did not change (or for any other change set).
  @usableFromInline
  @exclusivity(unchecked)
  var order: (old: [Element.ID], new: [Element.ID])? = nil
  /// `conflict(_:_:)` and `apply(_:)`, specialized where the record was
  /// made.
  @usableFromInline
  let specialized:
    (
      conflict: @MainActor (_ArrayEdit, _UndoDirection, inout _Presence) -> String?,
      apply: @MainActor (_ArrayEdit, _UndoDirection) -> Void
    )

  @inlinable
  init(array: ObservableArray<Element>, change: ArrayChange<Element>) {
    _array = array
    _life = array._life
    changeSet = change.changeSet
    if change.changeSet.reload != nil {
      (changeSet, order) = Self.byID(change.changeSet, isUnchanged: array._isUnchanged)
    }
    movedIDs = Self.movedIDs(of: change)
    specialized = (
      { edit, direction, presence in edit._conflict(direction, &presence) },
      { edit, direction in edit._apply(direction) }
    )
  }

  /// Makes this record, of the same array, the record of another change.
  @inlinable
  func reset(to change: ArrayChange<Element>) {
    if change.changeSet.reload == nil {
      changeSet = change.changeSet
      if order != nil { order = nil }
    } else {
      (changeSet, order) = Self.byID(change.changeSet, isUnchanged: array?._isUnchanged)
    }
    movedIDs = Self.movedIDs(of: change)
  }

  /// A reload change set as what it changed, by id.
  ///
  /// That is its removals, its insertions, its updates (elements whose
  /// value changed), and the order of the elements that stayed. Other change
  /// sets are kept as they are.
  ///
  /// - Complexity: O(*n*) for a reload; O(1) otherwise.
  @inlinable
  static func byID(
    _ changeSet: ChangeSet<Element>, isUnchanged: ((Element, Element) -> Bool)?
  ) -> (ChangeSet<Element>, (old: [Element.ID], new: [Element.ID])?) {
    guard let reload = changeSet.reload else { return (changeSet, nil) }
    var oldIndices: [Element.ID: Int] = [:]
    oldIndices.reserveCapacity(reload.old.count)
    for (index, element) in reload.old.enumerated() {
      oldIndices[element.id] = index
    }
    var stays = [Bool](repeating: false, count: reload.old.count)
    var insertions: [ChangeSet<Element>.Insertion] = []
    var updates: [ChangeSet<Element>.Update] = []
    var newOrder: [Element.ID] = []
    newOrder.reserveCapacity(reload.new.count)
    for (newIndex, element) in reload.new.enumerated() {
      guard let oldIndex = oldIndices[element.id] else {
        insertions.append(.init(index: newIndex, element: element))
        continue
      }
      stays[oldIndex] = true
      newOrder.append(element.id)
      let old = reload.old[oldIndex]
      if !(isUnchanged?(old, element) ?? false) {
        updates.append(
          .init(oldIndex: oldIndex, newIndex: newIndex, oldElement: old, newElement: element))
      }
    }
    var removals: [ChangeSet<Element>.Removal] = []
    var oldOrder: [Element.ID] = []
    oldOrder.reserveCapacity(newOrder.count)
    for (index, element) in reload.old.enumerated() {
      if stays[index] {
        oldOrder.append(element.id)
      } else {
        removals.append(.init(index: index, element: element))
      }
    }
    let byID = ChangeSet(removals: removals, insertions: insertions, updates: updates, moves: [])
    // Only the stretch between the ends that kept their order matters.
    var start = 0
    var end = oldOrder.count
    while start < end && oldOrder[start] == newOrder[start] { start += 1 }
    while end > start && oldOrder[end - 1] == newOrder[end - 1] { end -= 1 }
    guard start < end else { return (byID, nil) }
    return (byID, (Array(oldOrder[start..<end]), Array(newOrder[start..<end])))
  }

  @inlinable
  static func movedIDs(of change: ArrayChange<Element>) -> [Element.ID] {
    guard !change.changeSet.moves.isEmpty else { return [] }
    var movedIDs: [Element.ID] = []
    movedIDs.reserveCapacity(change.changeSet.moves.count)
    for move in change.changeSet.moves {
      movedIDs.append(change.newElements[move.to].id)
    }
    return movedIDs
  }

  /// The array, while it lives.
  @inlinable
  var array: ObservableArray<Element>? { _life.isAlive ? _array : nil }

  @usableFromInline
  var isAlive: Bool { _life.isAlive }

  @usableFromInline
  var object: AnyObject? { array }

  /// Folds a later change into this one, if both only update the same
  /// element: the record then goes from this change's old value to the
  /// later change's new value.
  ///
  /// - Returns: Whether the change was folded in.
  @inlinable
  func absorb(_ later: ChangeSet<Element>) -> Bool {
    guard Self.isSingleUpdate(later), Self.isSingleUpdate(changeSet),
      later.updates[0].newElement.id == changeSet.updates[0].newElement.id
    else { return false }
    changeSet.updates[0].newElement = later.updates[0].newElement
    changeSet.updates[0].newIndex = later.updates[0].newIndex
    return true
  }

  /// Whether a change only updates one element: the changes that merge.
  @inlinable
  static func isSingleUpdate(_ changeSet: ChangeSet<Element>) -> Bool {
    changeSet.updates.count == 1 && changeSet.removals.isEmpty && changeSet.insertions.isEmpty
      && changeSet.moves.isEmpty && changeSet.reload == nil
  }

  // MARK: - The change, by id, in either direction

  @usableFromInline
  struct Parts {
    @usableFromInline
    var leaving: [Element.ID] = []
    @usableFromInline
    var entering: [ChangeSet<Element>.Insertion] = []
    /// The moved elements, and the index each goes to.
    @usableFromInline
    var movedIDs: [Element.ID] = []
    @usableFromInline
    var moveDestinations: [Int] = []
    @usableFromInline
    var updates: [Element] = []
    /// The order the elements that stayed through a reload take, those
    /// still there.
    @usableFromInline
    var order: [Element.ID] = []

    @inlinable
    init() {}
  }

  @inlinable
  func parts(_ direction: _UndoDirection) -> Parts {
    var parts = Parts()
    let forward = direction == .redo
    if let order { parts.order = forward ? order.new : order.old }
    parts.movedIDs = movedIDs
    if forward {
      for removal in changeSet.removals { parts.leaving.append(removal.element.id) }
      parts.entering = changeSet.insertions
      for move in changeSet.moves { parts.moveDestinations.append(move.to) }
      for update in changeSet.updates { parts.updates.append(update.newElement) }
    } else {
      for insertion in changeSet.insertions { parts.leaving.append(insertion.element.id) }
      for removal in changeSet.removals {
        parts.entering.append(.init(index: removal.index, element: removal.element))
      }
      for move in changeSet.moves { parts.moveDestinations.append(move.from) }
      for update in changeSet.updates { parts.updates.append(update.oldElement) }
    }
    return parts
  }

  @usableFromInline
  func conflict(_ direction: _UndoDirection, _ presence: inout _Presence) -> String? {
    specialized.conflict(self, direction, &presence)
  }

  @usableFromInline
  func apply(_ direction: _UndoDirection) {
    specialized.apply(self, direction)
  }

  @inlinable
  func _conflict(_ direction: _UndoDirection, _ presence: inout _Presence) -> String? {
    guard let array else { return nil }
    let parts = parts(direction)
    var staying = parts.movedIDs
    for element in parts.updates { staying.append(element.id) }
    for id in staying + parts.leaving where !presence.contains(id, in: array) {
      return "the element with id \(id) is no longer in the array"
    }
    for id in parts.leaving {
      presence.set(id, in: array, present: false)
    }
    for insertion in parts.entering {
      let id = insertion.element.id
      if presence.contains(id, in: array) {
        return "an element with id \(id) is already in the array"
      }
      presence.set(id, in: array, present: true)
    }
    return nil
  }

  @inlinable
  func _apply(_ direction: _UndoDirection) {
    guard let array else { return }
    let parts = parts(direction)
    // One element: its own mutation, O(1) besides the shift, and the change
    // observers see is the exact inverse.
    if order == nil && changeSet.count == 1 {
      if let element = parts.updates.first, let index = array._index(of: element.id) {
        array.replace(at: index, with: element)
        return
      }
      if let id = parts.leaving.first, let index = array._index(of: id) {
        array.remove(at: index)
        return
      }
      if let insertion = parts.entering.first {
        array.insert(insertion.element, at: min(insertion.index, array._elements.count))
        return
      }
      if let id = parts.movedIDs.first, let source = array._index(of: id) {
        let destination = min(parts.moveDestinations[0], array._elements.count - 1)
        array.move(from: source, to: destination)
        return
      }
    }
    array.replaceAll(with: target(parts, from: array._elements))
  }

  /// The contents after applying `parts` to `current`.
  ///
  /// - Complexity: O(*n* + *k* log *k*).
  @inlinable
  func target(_ parts: Parts, from current: [Element]) -> [Element] {
    var leaving = Set(parts.leaving)
    leaving.formUnion(parts.movedIDs)
    var moved: [Element.ID: Element] = [:]
    var kept: [Element] = []
    kept.reserveCapacity(current.count)
    for element in current {
      if leaving.contains(element.id) {
        moved[element.id] = element
      } else {
        kept.append(element)
      }
    }
    if !parts.order.isEmpty {
      // The elements that stayed through a reload take their order again,
      // in the places they hold now: elements added since keep theirs.
      var rank: [Element.ID: Int] = [:]
      rank.reserveCapacity(parts.order.count)
      for (position, id) in parts.order.enumerated() { rank[id] = position }
      var places: [(place: Int, rank: Int)] = []
      for (place, element) in kept.enumerated() {
        if let position = rank[element.id] { places.append((place, position)) }
      }
      let ordered = places.sorted { $0.rank < $1.rank }.map { kept[$0.place] }
      for (slot, element) in zip(places, ordered) { kept[slot.place] = element }
    }
    var entering = parts.entering
    for (id, index) in zip(parts.movedIDs, parts.moveDestinations) {
      guard let element = moved[id] else { continue }
      entering.append(.init(index: index, element: element))
    }
    entering.sort { $0.index < $1.index }
    var result: [Element] = []
    result.reserveCapacity(kept.count + entering.count)
    var nextEntering = 0
    var nextKept = 0
    while nextEntering < entering.count || nextKept < kept.count {
      if nextEntering < entering.count
        && (entering[nextEntering].index <= result.count || nextKept == kept.count)
      {
        result.append(entering[nextEntering].element)
        nextEntering += 1
      } else {
        result.append(kept[nextKept])
        nextKept += 1
      }
    }
    if !parts.updates.isEmpty {
      var values: [Element.ID: Element] = [:]
      for element in parts.updates { values[element.id] = element }
      for index in result.indices {
        if let value = values[result[index].id] { result[index] = value }
      }
    }
    return result
  }
}

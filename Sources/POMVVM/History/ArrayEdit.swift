/// The record of one change set an ``ObservableArray`` published.
///
/// It keeps the change set (which holds only the elements it touched) and
/// the ids of the elements it moved, and applies either direction by id:
/// elements leave by id, enter at their recorded index (or the end, if the
/// array is shorter now), moved elements go back to their recorded index,
/// and updated elements take their recorded value. So a change that the
/// history did not record, but that touches other elements, does not stop
/// an undo; one that makes an id appear or disappear under it does.
@MainActor
final class _ArrayEdit<Element: Identifiable>: _UndoRecord {
  weak var array: ObservableArray<Element>?
  /// The change, forward; its moves are by index, so `movedIDs` names them.
  private(set) var changeSet: ChangeSet<Element>
  private let movedIDs: [Element.ID]

  init(array: ObservableArray<Element>, change: ArrayChange<Element>) {
    self.array = array
    changeSet = change.changeSet
    movedIDs = change.changeSet.moves.map { change.newElements[$0.to].id }
  }

  var isAlive: Bool { array != nil }

  /// The id of the one element this change updated, when that is all it did.
  var updatedID: Element.ID? {
    guard changeSet.count == 1, let update = changeSet.updates.first else { return nil }
    return update.newElement.id
  }

  /// Folds a later change into this one, if both only update the same
  /// element: the record then goes from this change's old value to the
  /// later change's new value.
  ///
  /// - Returns: Whether the change was folded in.
  func absorb(_ later: ChangeSet<Element>) -> Bool {
    guard let id = updatedID, later.count == 1, let update = later.updates.first,
      update.newElement.id == id
    else { return false }
    changeSet.updates[0].newElement = update.newElement
    changeSet.updates[0].newIndex = update.newIndex
    return true
  }

  // MARK: - The change, by id, in either direction

  private struct Parts {
    var leaving: [Element.ID] = []
    var entering: [(index: Int, element: Element)] = []
    var moves: [(id: Element.ID, index: Int)] = []
    var updates: [Element] = []
  }

  private func parts(_ direction: _UndoDirection) -> Parts {
    var parts = Parts()
    let forward = direction == .redo
    if let reload = changeSet.reload {
      let (old, new) = forward ? (reload.old, reload.new) : (reload.new, reload.old)
      parts.leaving = old.map(\.id)
      parts.entering = new.enumerated().map { ($0.offset, $0.element) }
      return parts
    }
    if forward {
      parts.leaving = changeSet.removals.map(\.element.id)
      parts.entering = changeSet.insertions.map { ($0.index, $0.element) }
      parts.moves = zip(movedIDs, changeSet.moves).map { ($0, $1.to) }
      parts.updates = changeSet.updates.map(\.newElement)
    } else {
      parts.leaving = changeSet.insertions.map(\.element.id)
      parts.entering = changeSet.removals.map { ($0.index, $0.element) }
      parts.moves = zip(movedIDs, changeSet.moves).map { ($0, $1.from) }
      parts.updates = changeSet.updates.map(\.oldElement)
    }
    return parts
  }

  func conflict(_ direction: _UndoDirection, _ presence: inout _Presence) -> String? {
    guard let array else { return nil }
    let parts = parts(direction)
    for id in parts.moves.map(\.id) + parts.updates.map(\.id) + parts.leaving
    where !presence.contains(id, in: array) {
      return "the element with id \(id) is no longer in the array"
    }
    for id in parts.leaving {
      presence.set(id, in: array, present: false)
    }
    for (_, element) in parts.entering {
      if presence.contains(element.id, in: array) {
        return "an element with id \(element.id) is already in the array"
      }
      presence.set(element.id, in: array, present: true)
    }
    return nil
  }

  func apply(_ direction: _UndoDirection) {
    guard let array else { return }
    let parts = parts(direction)
    // One element: its own mutation, O(1) besides the shift, and the change
    // observers see is the exact inverse.
    if changeSet.reload == nil && changeSet.count == 1 {
      if let element = parts.updates.first, let index = array._index(of: element.id) {
        array.replace(at: index, with: element)
        return
      }
      if let id = parts.leaving.first, let index = array._index(of: id) {
        array.remove(at: index)
        return
      }
      if let (index, element) = parts.entering.first {
        array.insert(element, at: min(index, array._elements.count))
        return
      }
      if let (id, destination) = parts.moves.first, let source = array._index(of: id) {
        array.move(from: source, to: min(destination, array._elements.count - 1))
        return
      }
    }
    array.replaceAll(with: target(parts, from: array._elements))
  }

  /// The contents after applying `parts` to `current`.
  ///
  /// - Complexity: O(*n* + *k* log *k*).
  private func target(_ parts: Parts, from current: [Element]) -> [Element] {
    var leaving = Set(parts.leaving)
    leaving.formUnion(parts.moves.map(\.id))
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
    var entering = parts.entering
    for (id, index) in parts.moves {
      guard let element = moved[id] else { continue }
      entering.append((index, element))
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
      let values = Dictionary(parts.updates.map { ($0.id, $0) }) { _, last in last }
      for index in result.indices {
        if let value = values[result[index].id] { result[index] = value }
      }
    }
    return result
  }
}

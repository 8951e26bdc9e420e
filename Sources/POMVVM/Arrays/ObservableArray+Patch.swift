extension ObservableArray {
  /// A run of elements that enter the array together, after the element at
  /// an old position that stays.
  struct _EnteringRun {
    /// The old position of the element the run follows: `-1` for the
    /// start, `nil` for the end.
    var after: Int?
    /// The elements, in order: each one is new, or one of the leaving
    /// elements, which moves.
    var elements: [Element]
  }

  /// Applies a change described by what it changes, as one change that
  /// holds only those elements: elements leave (removed, or moved when
  /// they enter again), runs of elements enter after elements that stay,
  /// and elements that stay take new values.
  ///
  /// It costs what the changed elements cost and the shift of the elements
  /// between the first and the last place it changes, as the array's own
  /// mutations do; no element outside them is compared, hashed or copied.
  /// A store takes in another process's commit with it.
  ///
  /// - Parameters:
  ///   - leaving: The old positions of the elements that leave their
  ///     place, ascending.
  ///   - entering: The runs that enter, by ascending `after` (`nil` last);
  ///     at most one run per position.
  ///   - updates: The old positions of elements that stay, and their new
  ///     values (same ids).
  /// - Returns: `false` if the description does not fit the array (a
  ///   position out of range or repeated, an entering id that is present
  ///   and does not leave, an entering id twice, an update of another id);
  ///   the array is then unchanged.
  func _patch(
    leaving: [Int], entering: [_EnteringRun], updates: [(position: Int, element: Element)]
  )
    -> Bool
  {
    if _refusesCancelledWrite(to: self) { return false }
    let count = _elements.count
    // Check the description, by position and id, before changing anything.
    var leavingIDs: [Element.ID: Int] = [:]
    var previous = -1
    for position in leaving {
      guard position > previous, position < count else { return false }
      leavingIDs[_elements[position].id] = position
      previous = position
    }
    var enteringIDs = Set<Element.ID>()
    var previousAfter = -2
    for (runIndex, run) in entering.enumerated() {
      if let after = run.after {
        guard after > previousAfter, after >= -1, after < count else { return false }
        guard after == -1 || leavingIDs[_elements[after].id] == nil else { return false }
        previousAfter = after
      } else {
        guard runIndex == entering.count - 1 else { return false }
      }
      for element in run.elements {
        guard enteringIDs.insert(element.id).inserted else { return false }
        if leavingIDs[element.id] == nil, _index(of: element.id) != nil { return false }
      }
    }
    var updated: [Int: Element] = [:]
    for (position, element) in updates {
      guard position >= 0, position < count, leavingIDs[_elements[position].id] == nil,
        _elements[position].id == element.id, updated.updateValue(element, forKey: position) == nil
      else { return false }
    }
    // The middle: from the first place that changes to the last.
    var low = count
    var high = 0
    if let first = leaving.first, let last = leaving.last {
      low = first
      high = last + 1
    }
    for run in entering {
      let place = run.after.map { $0 + 1 } ?? count
      low = Swift.min(low, place)
      high = Swift.max(high, place)
    }
    var changeSet = ChangeSet<Element>()
    var updateList: [ChangeSet<Element>.Update] = []
    func update(_ old: Element, _ new: Element, from: Int, to: Int) {
      if let isUnchanged = _isUnchanged, isUnchanged(old, new) { return }
      updateList.append(.init(oldIndex: from, newIndex: to, oldElement: old, newElement: new))
    }
    if low < high || !entering.isEmpty {
      var middle: [Element] = []
      middle.reserveCapacity(high - low - leaving.count + enteringIDs.count)
      var runs = entering.makeIterator()
      var run = runs.next()
      func enter(at place: Int) {
        while let current = run, (current.after.map { $0 + 1 } ?? count) == place {
          for element in current.elements {
            let index = low + middle.count
            if let from = leavingIDs[element.id] {
              changeSet.moves.append(.init(from: from, to: index))
              update(_elements[from], element, from: from, to: index)
            } else {
              changeSet.insertions.append(.init(index: index, element: element))
            }
            middle.append(element)
          }
          run = runs.next()
        }
      }
      for position in low..<high {
        enter(at: position)
        let element = _elements[position]
        if let from = leavingIDs[element.id] {
          if !enteringIDs.contains(element.id) {
            changeSet.removals.append(.init(index: from, element: element))
          }
          continue
        }
        let index = low + middle.count
        if let new = updated.removeValue(forKey: position) {
          update(element, new, from: position, to: index)
          middle.append(new)
        } else {
          middle.append(element)
        }
      }
      enter(at: high)
      // Every run entered (the checks above make sure of it); the array is
      // not changed yet.
      guard run == nil else { return false }
      let newEnd = low + middle.count
      let shift = newEnd - high
      // The id index: out with the middle's old entries (the array still
      // holds them), in with its new ones; or afresh when the middle is
      // most of the array, as a diff's reindexing does.
      let newCount = count + shift
      let rebuilds =
        (high - low) + (newEnd - low) > newCount / 2 || !_idIndex.canHold(newCount)
      if !rebuilds {
        for position in low..<high {
          _idIndex.remove(_elements[position].id, at: position, in: _elements)
        }
      }
      _elements.replaceSubrange(low..<high, with: middle)
      if rebuilds {
        _idIndex = _PositionIndex(_elements)
      } else {
        _idIndex.shiftSuffix(from: newEnd, by: shift, keeping: low, in: _elements)
        for position in low..<newEnd {
          _idIndex.insert(_elements[position].id, at: position, in: _elements)
        }
      }
      // Updates outside the middle: before it in place, after it shifted.
      for (position, new) in updated {
        let index = position < low ? position : position + shift
        update(_elements[index], new, from: position, to: index)
        _elements[index] = new
      }
    } else {
      for (position, new) in updated {
        update(_elements[position], new, from: position, to: position)
        _elements[position] = new
      }
    }
    updateList.sort { $0.newIndex < $1.newIndex }
    changeSet.updates = updateList
    changeSet.moves.sort { $0.to < $1.to }
    _publish(changeSet)
    return true
  }
}

extension _QueryEngine {
  // MARK: - Following one change

  /// One element that a change touched, as the query saw it before and sees
  /// it after.
  @usableFromInline
  struct Touched {
    @usableFromInline
    var id: Element.ID
    /// The value before the change, if the element was in the array.
    ///
    /// Recorded by a flat query only (``_QueryEngine/isFlat``): a
    /// ``LiveQuery``'s change set carries the old elements, a
    /// ``SectionedQuery``'s batch update does not, and a copy of an element
    /// retains each reference it holds.
    @usableFromInline
    var oldValue: Element?
    /// Whether the array reported a new value for it.
    @usableFromInline
    var changed = false
    @usableFromInline
    var isInArray = true
    @usableFromInline
    var oldKey: Key?
    @usableFromInline
    var oldSection = -1
    @usableFromInline
    var oldRow = -1
    @usableFromInline
    var newKey: Key?
    @usableFromInline
    var newSection = -1
    @usableFromInline
    var newRow = -1

    @inlinable
    init(id: Element.ID) {
      self.id = id
    }
  }

  /// What an incremental step did to the sections.
  @usableFromInline
  struct Step {
    @usableFromInline
    var touched: [Touched]
    /// Old indices of the sections that emptied, ascending.
    @usableFromInline
    var deletedSections: [Int]
    /// New indices of the sections that appeared, ascending.
    @usableFromInline
    var insertedSections: [Int]

    @inlinable
    init(touched: [Touched], deletedSections: [Int], insertedSections: [Int]) {
      self.touched = touched
      self.deletedSections = deletedSections
      self.insertedSections = insertedSections
    }
  }

  /// Follows one change of the array incrementally: the touched elements
  /// leave their trees and enter where they belong now.
  ///
  /// The array must be at the contents right after `change` (its id index
  /// describes them). Try ``followInPlace(_:)`` first: a lone update whose
  /// row stays is followed here by the general path, correctly but at more
  /// cost.
  ///
  /// - Complexity: O(*k* log *n*) for *k* touched elements, plus O(*s*) per
  ///   section that appears or empties.
  @inlinable
  func follow(_ change: ArrayChange<Element>) -> Step {
    caughtUp()
    let changeSet = change.changeSet
    var touched = spareTouched
    spareTouched = []
    if changeSet.count == 1, let update = changeSet.updates.first {
      // A lone update that `followLone(_:movingAcrossSections:)` did not
      // follow (its row moves in a flat query, or a section appears or
      // empties): no second look, and no table of slots.
      // Written in place: a copy of a row goes through its value witnesses.
      touched.append(Touched(id: update.newElement.id))
      if isFlat { touched[0].oldValue = update.oldElement }
      touched[0].changed = true
      return advance(&touched, tryingInPlace: false)
    }
    touched.reserveCapacity(changeSet.count)
    var slotOf: [Element.ID: Int] = [:]
    let single = changeSet.count == 1
    func slot(_ id: Element.ID) -> Int {
      if single {
        if touched.isEmpty { touched.append(Touched(id: id)) }
        return 0
      }
      if let existing = slotOf[id] { return existing }
      touched.append(Touched(id: id))
      slotOf[id] = touched.count - 1
      return touched.count - 1
    }
    for removal in changeSet.removals {
      let index = slot(removal.element.id)
      if isFlat { touched[index].oldValue = removal.element }
      touched[index].isInArray = false
      touched[index].changed = true
    }
    for update in changeSet.updates {
      let index = slot(update.newElement.id)
      if isFlat { touched[index].oldValue = update.oldElement }
      touched[index].changed = true
    }
    for insertion in changeSet.insertions {
      let index = slot(insertion.element.id)
      // An id removed and inserted again in one change: back in the array.
      touched[index].isInArray = true
    }
    if !changeSet.moves.isEmpty {
      let newElements = change._newElements
      for move in changeSet.moves {
        let index = slot(newElements[move.to].id)
        if isFlat && touched[index].oldValue == nil {
          touched[index].oldValue = newElements[move.to]
        }
      }
    }
    return advance(&touched)
  }

  /// Takes back the buffer of touched rows of a step the query is done
  /// with, for the next step.
  ///
  /// It takes the step itself: a step kept in a variable for this call
  /// would be copied (its three buffers retained and released) by each
  /// call that reads it before.
  @inlinable
  func recycle(_ step: consuming Step) {
    // Moved out, so that it stays unique.
    var touched = step.touched
    step.touched = []
    // One row, the common case: a pop costs less than `removeAll`.
    if touched.count == 1 {
      _ = touched.popLast()
    } else {
      touched.removeAll(keepingCapacity: true)
    }
    spareTouched = touched
  }

  /// Follows every change the rows do not reflect yet at once, from what
  /// they did to the elements: the touched elements leave their trees and
  /// enter where they belong now.
  ///
  /// - Complexity: O(*k* log *n*) for *k* touched elements, plus O(*s*) per
  ///   section that appears or empties.
  @usableFromInline
  func follow(_ behind: Behind) -> Step {
    caughtUp()
    var touched: [Touched] = []
    touched.reserveCapacity(behind.order.count)
    let isUnchanged = array._isUnchanged
    for id in behind.order {
      var row = Touched(id: id)
      row.oldValue = behind.old[id]
      row.changed = behind.changed.contains(id)
      // Changed and changed back: no update.
      if row.changed, let isUnchanged, let old = row.oldValue, let index = array._index(of: id),
        isUnchanged(old, array._elements[index])
      {
        row.changed = false
      }
      touched.append(row)
    }
    return advance(&touched)
  }

  /// Moves the touched elements from where the rows show them to where they
  /// belong in the array as it is now.
  ///
  /// - Parameters:
  ///   - touched: The touched elements; each gets its old and new place.
  ///   - tryingInPlace: Whether to look first whether one touched row
  ///     stays where it is (``stepInPlace(_:)``).
  /// - Returns: The step.
  @inlinable
  func advance(_ touched: inout [Touched], tryingInPlace: Bool = true) -> Step {
    // The rows are read and written through a buffer: a read of a field
    // through the array's subscript copies the whole row, through its
    // value witnesses.
    // Where each touched row was, before any leaves.
    Self.withRows(&touched) { rows in
      for index in rows.indices {
        guard let node = tree.node(of: rows[index].id) else { continue }
        let (number, row) = tree.locate(node)
        let key = _required(keyOfTree[number], "tree \(number) has no section")
        rows[index].oldKey = key
        rows[index].oldRow = row
        rows[index].oldSection = sectionIndex(ofTree: number)
      }
    }
    if tryingInPlace, touched.count == 1, let step = stepInPlace(&touched) { return step }
    var emptied: [Int] = []
    // Where each belongs now.
    var appeared: [Key] = []
    Self.withRows(&touched) { rows in
      // Out of their trees, keeping their nodes: a row that goes back in
      // one is not hashed out of the table and into it again.
      for index in rows.indices where rows[index].oldKey != nil {
        guard let node = tree.node(of: rows[index].id) else { continue }
        let (number, _) = tree.detach(node)
        if tree.count(of: number) == 0 { emptied.append(rows[index].oldSection) }
      }
      for index in rows.indices where rows[index].isInArray {
        let id = rows[index].id
        guard let position = array._index(of: id) else {
          rows[index].isInArray = false
          continue
        }
        let element = array._elements[position]
        if isFlat && rows[index].oldValue == nil { rows[index].oldValue = element }
        guard isIncluded(element) else { continue }
        let key = flatKey ?? sectionKey(element)
        let number: Int
        if let existing = tree(ofKey: key) {
          number = existing
        } else {
          number = freeTrees.popLast() ?? tree.addTree()
          if number == keyOfTree.count { keyOfTree.append(key) } else { keyOfTree[number] = key }
          treeOfKey[key] = number
          appeared.append(key)
        }
        let rank = insertionRank(of: element, at: position, in: number)
        // A row that was in a tree is in the table still: it goes back in
        // its own node.
        if rows[index].oldKey != nil, let node = tree.node(of: id) {
          tree.attach(node, at: rank, in: number, hint: position)
        } else {
          tree.attach(tree.newNode(id), at: rank, in: number, hint: position)
        }
        rows[index].newKey = key
        // Its row, as long as no other row enters after it.
        rows[index].newRow = rank
      }
      // Rows that were in a tree and left the array or the filter.
      for index in rows.indices where rows[index].oldKey != nil && rows[index].newKey == nil {
        if let node = tree.node(of: rows[index].id) { tree.discard(node) }
      }
    }
    // Sections: the emptied ones go, the new ones come, in section order.
    var deletedSections: [Int] = []
    if !isFlat {
      for oldIndex in emptied.isEmpty ? [] : Set(emptied).sorted(by: >) {
        let key = sections[oldIndex].key
        let number = sections[oldIndex].tree
        if tree.count(of: number) != 0 { continue }
        sections.remove(at: oldIndex)
        treeOfKey[key] = nil
        keyOfTree[number] = nil
        freeTrees.append(number)
        deletedSections.append(oldIndex)
      }
      if deletedSections.count > 1 { deletedSections.reverse() }
      // Old indices above are taken before any section is inserted.
      for key in appeared {
        let (index, _) = sectionIndex(of: key)
        sections.insert((key, _required(treeOfKey[key], "no tree for \(key)")), at: index)
      }
      if !deletedSections.isEmpty || !appeared.isEmpty { indexSections() }
    }
    var insertedSections: [Int] = []
    for key in appeared where !isFlat { insertedSections.append(sectionIndex(of: key).index) }
    if insertedSections.count > 1 { insertedSections.sort() }
    Self.withRows(&touched) { rows in
      for index in rows.indices {
        guard let key = rows[index].newKey else { continue }
        if rows.count > 1 {
          // Rows that entered after it may have moved it.
          rows[index].newRow = _required(tree.rank(of: rows[index].id), "row not inserted")
        }
        rows[index].newSection = isFlat ? 0 : sectionIndex(of: key).index
      }
    }
    return Step(
      touched: touched, deletedSections: deletedSections, insertedSections: insertedSections)
  }

  /// The tree of the section with key `key`, if there is one.
  ///
  /// With few sections, the trees' keys are compared in turn: a look-up in
  /// `treeOfKey` hashes the key, which costs more than several `==`.
  ///
  /// - Complexity: O(1).
  @inlinable
  func tree(ofKey key: Key) -> Int? {
    if keyOfTree.count <= 8 {
      for number in keyOfTree.indices where keyOfTree[number] == key { return number }
      return nil
    }
    return treeOfKey[key]
  }

  /// Calls `body` with the rows in a buffer.
  ///
  /// Nonisolated, so that the standard library calls a nonisolated
  /// closure: an isolated one passed to it is checked for its executor on
  /// every call.
  @inline(__always)
  @inlinable
  nonisolated static func withRows<Result>(
    _ rows: inout [Touched], _ body: (UnsafeMutableBufferPointer<Touched>) -> Result
  ) -> Result {
    rows.withUnsafeMutableBufferPointer { body($0) }
  }
}

import CPOMVVM

extension _QueryEngine {
  // MARK: - Where a row goes

  /// Where `element`, at `position` in the array, goes in tree `number`.
  ///
  /// With a sort order, one comparison per level finds the rows that sort
  /// before it, and one more, with the row after them, tells whether any
  /// sort as it does: only then is a second descent needed, which orders
  /// the ties by position with up to two comparisons per level. Each
  /// descent asks for the elements of each comparison's two possible
  /// successors while it runs (`lowerBound`'s `prefetch`).
  ///
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func insertionRank(of element: Element, at position: Int, in number: Int) -> Int {
    Self.insertionRank(
      of: element, at: position, in: number, of: tree, elements: array._elements,
      index: array._idIndex, by: areInIncreasingOrder)
  }

  /// ``insertionRank(of:at:in:)`` given the engine's state: nonisolated,
  /// so that the closures that read the elements in place carry no
  /// executor checks.
  @inlinable
  nonisolated static func insertionRank(
    of element: Element, at position: Int, in number: Int, of tree: _OrderTree<Element.ID>,
    elements: [Element], index: _PositionIndex<Element>,
    by order: ((Element, Element) -> Bool)?
  ) -> Int {
    elements.withUnsafeBufferPointer { elements in
      // Both descents read the element at each row's hint: each asks for
      // the next ones ahead. Only an address, never read here, so a stale
      // hint is harmless.
      func prefetch(_ hint: Int32) {
        _cpomvvm_prefetch(
          UnsafeRawPointer(elements.baseAddress.unsafelyUnwrapped)
            + Int(hint) &* MemoryLayout<Element>.stride)
      }
      if let order {
        let (rank, next) = tree.lowerBound(
          in: number,
          isBelowRow: { other, hint in
            let otherPosition = Self.position(of: other, hint: &hint, in: elements, index: index)
            return lend(otherPosition, of: elements) { order($0, element) }
          },
          prefetch: prefetch)
        if !next.exists {
          return rank
        }
        let isAfterNext = tree.withEntry(next) { other, hint in
          let nextPosition = Self.position(of: other, hint: &hint, in: elements, index: index)
          return lend(nextPosition, of: elements) { order(element, $0) }
        }
        if isAfterNext { return rank }
      }
      return tree.lowerBound(
        in: number,
        isBelowRow: { other, hint in
          !isBefore(
            element, at: position, other, hint: &hint, in: elements, index: index, by: order)
        },
        prefetch: prefetch
      ).rank
    }
  }

  /// The step of the one touched row, if it stays in its section between
  /// the same neighbours.
  ///
  /// Then the trees do not change, and its place costs two comparisons.
  /// The row (`touched[0]`) gets its new place only when the step is
  /// returned.
  ///
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func stepInPlace(_ touched: inout [Touched]) -> Step? {
    // The fields, not the row: a copy of a row goes through its value
    // witnesses.
    guard let oldKey = touched[0].oldKey, touched[0].isInArray else { return nil }
    let id = touched[0].id
    guard let position = array._index(of: id) else { return nil }
    let elements = array._elements
    let element = elements[position]
    guard isIncluded(element), flatKey != nil || sectionKey(element) == oldKey else { return nil }
    guard let node = tree.node(of: id),
      keepsNeighbours(node, element, at: position, in: elements)
    else { return nil }
    if isFlat && touched[0].oldValue == nil { touched[0].oldValue = element }
    touched[0].newKey = oldKey
    touched[0].newRow = touched[0].oldRow
    touched[0].newSection = touched[0].oldSection
    return Step(touched: touched, deletedSections: [], insertedSections: [])
  }

  /// Follows a change that is one update of one element, when the element
  /// stays where the rows show it (or stays out of them): then the trees
  /// do not change, and nothing is made on the heap.
  ///
  /// The array must be at the contents right after the change (the plan is
  /// ``Plan/follow``).
  ///
  /// - Returns: `nil` when the change is not such an update, without
  ///   changing anything (follow it with `follow(_:)`);
  ///   else the row of the element in its section, or `-1` when the query
  ///   does not show it before or after.
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func followInPlace(_ changeSet: ChangeSet<Element>) -> (section: Int, row: Int)? {
    guard case .stays(let section, let row)? = followLone(changeSet, movingAcrossSections: false)
    else { return nil }
    return (section, row)
  }

  /// What ``followLone(_:movingAcrossSections:)`` did.
  @usableFromInline
  enum LoneStep {
    /// The row stays where it is: its section and row, or `(-1, -1)` when
    /// the query shows it neither before nor after.
    case stays(section: Int, row: Int)
    /// The row moved from one section, which keeps other rows, to another
    /// that was there already.
    case moved(from: RowPath, to: RowPath)
  }

  /// Follows a change that is one update of one element, when the element
  /// stays where the rows show it (or stays out of them), or, if
  /// `movingAcrossSections`, when its row moves to another section and
  /// no section appears or empties: then no step is made, and nothing on
  /// the heap.
  ///
  /// A toggle of the field a sectioned query groups by is such a move: the
  /// row's node leaves its tree for the other section's, and the query
  /// publishes the move itself.
  ///
  /// The array must be at the contents right after the change (the plan is
  /// ``Plan/follow``).
  ///
  /// - Returns: `nil` when the change is not such an update, without
  ///   changing anything (follow it with `follow(_:)`); else what it did.
  /// - Complexity: O(log *n*) expected.
  @inlinable
  func followLone(_ changeSet: ChangeSet<Element>, movingAcrossSections: Bool) -> LoneStep? {
    guard changeSet.updates.count == 1, changeSet.removals.isEmpty,
      changeSet.insertions.isEmpty, changeSet.moves.isEmpty, changeSet.reload == nil
    else { return nil }
    // The array is as right after the change: the update's new index and
    // value are the element's position and value now. The value is read
    // from the change set, which the caller holds: no copy of the array's
    // buffer is held across the calls below.
    let position = changeSet.updates[0].newIndex
    let element = changeSet.updates[0].newElement
    let id = element.id
    guard let node = tree.node(of: id) else {
      // Not shown: it stays out if it still does not match.
      if isIncluded(element) { return nil }
      caughtUp()
      return .stays(section: -1, row: -1)
    }
    guard isIncluded(element) else { return nil }
    // The node's tree (its section) and its row, in one walk to the root.
    let (number, row) = tree.locate(node)
    guard let oldKey = keyOfTree[number] else { return nil }
    let key: Key
    if let flatKey {
      key = flatKey
    } else {
      key = sectionKey(element)
      guard key == oldKey else {
        guard movingAcrossSections, let newNumber = tree(ofKey: key), tree.count(of: number) > 1
        else { return nil }
        // Another section that is there, and this one keeps rows: no
        // section appears or empties, and the others keep their indices.
        caughtUp()
        tree.detach(node)
        let rank = insertionRank(of: element, at: position, in: newNumber)
        tree.attach(node, at: rank, in: newNumber, hint: position)
        return .moved(
          from: RowPath(section: sectionIndex(ofTree: number), row: row),
          to: RowPath(section: sectionIndex(ofTree: newNumber), row: rank))
      }
    }
    // The rows show the array right before the change: the old value is
    // where they placed the element.
    guard
      Self.sortsAsBefore(element, changeSet.updates[0].oldElement, by: areInIncreasingOrder)
        || keepsNeighbours(node, element, at: position, in: array._elements)
    else { return nil }
    caughtUp()
    return .stays(section: sectionIndex(ofTree: number), row: row)
  }

  /// Whether `element`, at `position` in `elements` (the array now), still
  /// goes after the row before `node` and before the row after it.
  ///
  /// - Complexity: O(log *n*) expected: two id lookups and up to four
  ///   comparisons, plus the walks to the neighbours.
  @inlinable
  func keepsNeighbours(
    _ node: Int32, _ element: Element, at position: Int, in elements: [Element]
  ) -> Bool {
    Self.keepsNeighbours(
      node, element, at: position, in: elements, of: tree, index: array._idIndex,
      by: areInIncreasingOrder)
  }

  /// ``keepsNeighbours(_:_:at:in:)`` given the engine's state:
  /// nonisolated, so that the closures that read the elements in place
  /// carry no executor checks.
  @inlinable
  nonisolated static func keepsNeighbours(
    _ node: Int32, _ element: Element, at position: Int, in elements: [Element],
    of tree: _OrderTree<Element.ID>, index: _PositionIndex<Element>,
    by order: ((Element, Element) -> Bool)?
  ) -> Bool {
    elements.withUnsafeBufferPointer { elements in
      tree.isInPlace(
        node,
        isBeforeRow: { other, hint in
          isBefore(element, at: position, other, hint: &hint, in: elements, index: index, by: order)
        })
    }
  }

  /// Whether an element's new value sorts exactly as its old one did.
  ///
  /// Neither goes before the other (or the order is the array's, which an
  /// update keeps). Then its row, which the old value placed between its
  /// neighbours, stays between them: in a strict weak ordering an
  /// equivalent value compares with every other as the old one did, and
  /// ties go by array position, which an update keeps. Two comparisons,
  /// where checking the neighbours looks up two ids.
  @inlinable
  nonisolated static func sortsAsBefore(
    _ new: Element, _ old: Element, by order: ((Element, Element) -> Bool)?
  ) -> Bool {
    guard let order else { return true }
    return !order(new, old) && !order(old, new)
  }

  /// Sorts ascending positions of `elements` by `order`, ties by position.
  ///
  /// The standard library's sort is stable, so ties keep the ascending
  /// positions' order with one call of `order` per comparison, given the
  /// two elements lent (``lend(_:of:_:)``). Nonisolated, so that the
  /// comparisons carry no executor checks.
  @inlinable
  nonisolated static func _sort(
    _ positions: inout [Int32], of elements: [Element], by order: (Element, Element) -> Bool
  ) {
    elements.withUnsafeBufferPointer { elements in
      positions.sort { a, b in
        lend(Int(a), of: elements) { a in lend(Int(b), of: elements) { b in order(a, b) } }
      }
    }
  }

  /// The ids at `positions` of `elements`.
  @inlinable
  nonisolated static func _ids(at positions: [Int32], in elements: [Element]) -> [Element.ID] {
    elements.withUnsafeBufferPointer { elements in
      positions.map { elements[Int($0)].id }
    }
  }

  /// Whether `element`, at `position` in `elements`, goes before the row
  /// with id `other`: by the sort order, then by the array's order.
  ///
  /// The row's position is read from its hint, checked
  /// (``position(of:hint:in:index:)``).
  ///
  /// Nonisolated and given the array's state, so that a descent's
  /// comparisons carry no executor checks and no retains of the array;
  /// the id probes read the elements in place, and the row compared is
  /// lent (``lend(_:of:_:)``): `elements` must be the buffer of an array
  /// the caller holds.
  @inlinable
  nonisolated static func isBefore(
    _ element: Element, at position: Int, _ other: Element.ID, hint: inout Int32,
    in elements: UnsafeBufferPointer<Element>,
    index: _PositionIndex<Element>, by order: ((Element, Element) -> Bool)?
  ) -> Bool {
    let otherPosition = Self.position(of: other, hint: &hint, in: elements, index: index)
    return isBefore(element, at: position, atPosition: otherPosition, in: elements, by: order)
  }

  /// Whether `element`, at `position` in `elements`, goes before the
  /// element at `otherPosition`: by the sort order, then by position.
  @inline(__always)
  @inlinable
  nonisolated static func isBefore(
    _ element: Element, at position: Int, atPosition otherPosition: Int,
    in elements: UnsafeBufferPointer<Element>, by order: ((Element, Element) -> Bool)?
  ) -> Bool {
    if let order {
      let sorted: Bool? = lend(otherPosition, of: elements) { other in
        if order(element, other) { return true }
        if order(other, element) { return false }
        return nil
      }
      if let sorted { return sorted }
    }
    return position < otherPosition
  }

  /// Calls `body` with the element at `position` of `elements`, lent
  /// (``_Lending``): no retain and no release of what it holds.
  ///
  /// A comparison through the stored sort order takes its arguments in
  /// memory, and the compiler would copy an element read from the buffer
  /// into that memory, retaining its references (a `String`'s storage, for
  /// one). `elements` must be the buffer of an array that the caller holds
  /// (a parameter or a local), so that a write to the `ObservableArray`,
  /// even one made by `body`, copies the storage first and leaves this one
  /// as it is. An element that cannot be lent is copied.
  @inline(__always)
  @inlinable
  nonisolated static func lend<Result>(
    _ position: Int, of elements: UnsafeBufferPointer<Element>, _ body: (Element) -> Result
  ) -> Result {
    guard _Lending.canLend(Element.self) else { return body(elements[position]) }
    return _Lending.withLent(
      { _Lending.bits(at: elements.baseAddress.unsafelyUnwrapped + position) }, body)
  }

  /// The position of the row of `id` in `elements`, the array now, which
  /// holds every row.
  @inline(__always)
  @inlinable
  nonisolated static func position(
    of id: Element.ID, in elements: UnsafeBufferPointer<Element>, index: _PositionIndex<Element>
  ) -> Int {
    guard let position = index.find(id, in: elements) else {
      preconditionFailure("LiveQuery: a row is not in the array")
    }
    return position
  }

  /// The position in `elements`, the array now, of the row with id `id`:
  /// `hint` if the element there has the id, else found through the
  /// array's id index and kept as the new hint.
  ///
  /// A comparison of a descent reads the id and the hint from the node it
  /// is at, and the element: no hash of the id and no probe of the index,
  /// each a cache line of its own in a long list.
  @inline(__always)
  @inlinable
  nonisolated static func position(
    of id: Element.ID, hint: inout Int32,
    in elements: UnsafeBufferPointer<Element>, index: _PositionIndex<Element>
  ) -> Int {
    let guess = Int(hint)
    if UInt(bitPattern: guess) < UInt(elements.count) && elements[guess].id == id { return guess }
    let position = Self.position(of: id, in: elements, index: index)
    hint = Int32(truncatingIfNeeded: position)
    return position
  }

  /// Marks, among rows that stayed in one section, those that keep their
  /// place relative to the untouched rows and to each other: the others are
  /// moves.
  ///
  /// - Parameters:
  ///   - kept: The indices in `touched` of rows in the same section before
  ///     and after.
  ///   - touched: Every touched row.
  /// - Returns: Whether each of `kept` stays.
  /// - Complexity: O(*k* log *k*).
  @inlinable
  static func staying(_ kept: [Int], in touched: [Touched]) -> [Bool] {
    if kept.isEmpty { return [] }
    if touched.count == 1 {
      return [touched[0].oldRow == touched[0].newRow]
    }
    // Touched rows per section, before and after, sorted, to count the
    // untouched rows before a kept one ("its gap").
    var oldRows: [Int: [Int]] = [:]
    var newRows: [Int: [Int]] = [:]
    for row in touched {
      if row.oldRow >= 0 { oldRows[row.oldSection, default: []].append(row.oldRow) }
      if row.newRow >= 0 { newRows[row.newSection, default: []].append(row.newRow) }
    }
    oldRows = oldRows.mapValues { $0.sorted() }
    newRows = newRows.mapValues { $0.sorted() }
    func below(_ sorted: [Int], _ value: Int) -> Int {
      var low = 0
      var high = sorted.count
      while low < high {
        let middle = (low + high) / 2
        if sorted[middle] < value { low = middle + 1 } else { high = middle }
      }
      return low
    }
    let byOld = kept.sorted { touched[$0].oldRow < touched[$1].oldRow }
    var candidates: [Int] = []
    for index in byOld {
      let row = touched[index]
      let oldGap = row.oldRow - below(oldRows[row.oldSection] ?? [], row.oldRow)
      let newGap = row.newRow - below(newRows[row.newSection] ?? [], row.newRow)
      if oldGap == newGap { candidates.append(index) }
    }
    let run = _IdentityDiff._longestIncreasingRun(candidates.map { touched[$0].newRow })
    var stays: Set<Int> = []
    for (position, index) in candidates.enumerated() where run[position] { stays.insert(index) }
    return kept.map { stays.contains($0) }
  }
}

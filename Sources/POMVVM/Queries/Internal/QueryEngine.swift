/// The state both kinds of query share: the rows they show, in sections,
/// kept up to date from their array's change sets in O(log *n*) per
/// changed element.
///
/// A flat ``LiveQuery`` is one section that never goes away. A section is a
/// tree of ``_OrderTree``; `sections` lists the present ones in section
/// order, so a row's path is a binary search and a rank away.
@MainActor
@usableFromInline
final class _QueryEngine<Element: Identifiable, Key: Hashable> {
  @usableFromInline
  let array: ObservableArray<Element>
  @usableFromInline
  @exclusivity(unchecked)
  var isIncluded: (Element) -> Bool
  @usableFromInline
  @exclusivity(unchecked)
  var areInIncreasingOrder: ((Element, Element) -> Bool)?
  @usableFromInline
  let sectionKey: (Element) -> Key
  @usableFromInline
  let sectionOrder: (Key, Key) -> Bool
  /// The key of the one section of a flat query, which is always
  /// present; `nil` for a sectioned query.
  @usableFromInline
  let flatKey: Key?
  @usableFromInline
  let isFlat: Bool

  @usableFromInline
  let tree = _OrderTree<Element.ID>()
  /// The present sections, in section order, with their trees.
  @usableFromInline
  @exclusivity(unchecked)
  var sections: [(key: Key, tree: Int)] = []
  /// The index in `sections` of each tree's section, by tree number, or
  /// -1 for a tree that has none: made again whenever `sections` changes
  /// (``indexSections()``), so that a row's section needs no search.
  @usableFromInline
  @exclusivity(unchecked)
  var sectionOfTree: [Int] = []
  @usableFromInline
  @exclusivity(unchecked)
  var treeOfKey: [Key: Int] = [:]
  @usableFromInline
  @exclusivity(unchecked)
  var keyOfTree: [Key?] = []
  @usableFromInline
  @exclusivity(unchecked)
  var freeTrees: [Int] = []
  /// The number of the array's last change the rows reflect.
  @usableFromInline
  @exclusivity(unchecked)
  var lastSequence: UInt64 = 0
  /// How many changes were handled by evaluating every element again.
  @usableFromInline
  @exclusivity(unchecked)
  var rebuilds = 0
  /// The array positions of a flat query's rows, in row order, as of
  /// ``flatPositionsSequence``: made by ``evaluateAll(recordingOld:)``, and
  /// still right while the array has not changed since, so that a new
  /// predicate finds the old rows without looking up their ids.
  @usableFromInline
  @exclusivity(unchecked)
  var flatPositions: [Int32] = []
  /// The array's change number when ``flatPositions`` were made.
  @usableFromInline
  @exclusivity(unchecked)
  var flatPositionsSequence: UInt64 = .max
  /// What the array did since the rows were made, as of two change
  /// numbers (the rows' and the array's), kept while several reads need it.
  @usableFromInline
  @exclusivity(unchecked)
  var behindCache: (last: UInt64, current: UInt64, behind: Behind)?
  /// The buffer of touched rows of the last step the query was done with,
  /// emptied, for the next step (``recycle(_:)``): a move allocates
  /// nothing for it.
  @usableFromInline
  @exclusivity(unchecked)
  var spareTouched: [Touched] = []

  @inlinable
  init(
    array: ObservableArray<Element>, isIncluded: @escaping (Element) -> Bool,
    areInIncreasingOrder: ((Element, Element) -> Bool)?, sectionKey: @escaping (Element) -> Key,
    sectionOrder: @escaping (Key, Key) -> Bool, flatKey: Key?
  ) {
    self.array = array
    self.isIncluded = isIncluded
    self.areInIncreasingOrder = areInIncreasingOrder
    self.sectionKey = sectionKey
    self.sectionOrder = sectionOrder
    self.flatKey = flatKey
    self.isFlat = flatKey != nil
    _ = evaluateAll()
    // The array keeps the change it delivers while a query follows it:
    // with the changes still queued, it tells what the array did since the
    // rows were made, for an observer that reads the query before the
    // query sees the change.
    array._queryCount += 1
  }

  isolated deinit {
    array._queryCount -= 1
  }

  /// Notes that the rows reflect the array as it is now.
  @inlinable
  func caughtUp() {
    lastSequence = array._changeSequence
    if behindCache != nil { behindCache = nil }
  }

  // MARK: - Reading

  @inlinable
  var count: Int { tree.count }

  /// The current value of an element of the array, by id.
  @inline(__always)
  @inlinable
  func value(of id: Element.ID) -> Element {
    array._elements[_required(array._index(of: id), "row \(id) is not in the array")]
  }

  /// The index in `sections` of a key, or where it would go.
  ///
  /// With few sections, their keys are compared with `==` first, as in
  /// ``tree(ofKey:)``: cheaper than calls of the section order.
  @inlinable
  func sectionIndex(of key: Key) -> (index: Int, found: Bool) {
    if sections.count <= 8 {
      for index in sections.indices where sections[index].key == key { return (index, true) }
    }
    var low = 0
    var high = sections.count
    while low < high {
      let middle = (low + high) / 2
      let other = sections[middle].key
      if other == key { return (middle, true) }
      if sectionOrder(other, key) { low = middle + 1 } else { high = middle }
    }
    return (low, false)
  }

  /// Makes ``sectionOfTree`` again, after `sections` changed.
  ///
  /// - Complexity: O(*s* + *t*) for *s* sections and *t* trees.
  @inlinable
  func indexSections() {
    sectionOfTree = [Int](repeating: -1, count: keyOfTree.count)
    for index in sections.indices { sectionOfTree[sections[index].tree] = index }
  }

  /// The index in `sections` of the section of tree `number`, which has
  /// one.
  ///
  /// - Complexity: O(1).
  @inline(__always)
  @inlinable
  func sectionIndex(ofTree number: Int) -> Int {
    isFlat ? 0 : sectionOfTree[number]
  }

  /// Where `id` is shown: its section's index and its row.
  @inlinable
  func path(of id: Element.ID) -> RowPath? {
    guard let node = tree.node(of: id) else { return nil }
    let (number, row) = tree.locate(node)
    guard keyOfTree[number] != nil else { return nil }
    return RowPath(section: sectionIndex(ofTree: number), row: row)
  }

  @inlinable
  func ids(inSection index: Int) -> [Element.ID] {
    tree.ids(of: sections[index].tree)
  }

  /// Every id, section after section.
  @inlinable
  func allIDs() -> [Element.ID] {
    if isFlat { return tree.ids(of: 0) }
    var result: [Element.ID] = []
    result.reserveCapacity(count)
    for section in sections { result += tree.ids(of: section.tree) }
    return result
  }

  /// The current values of `ids`: through the array's id index when the
  /// array has not changed since `sequence`, through a table of `contents`,
  /// the array's contents at `sequence`, otherwise.
  @inlinable
  func values(of ids: [Element.ID], contents: _ChangeContents<Element>, sequence: UInt64)
    -> [Element]
  {
    if array._changeSequence == sequence {
      // Loops rather than `map`: a main-actor closure passed to the
      // standard library pays an executor check per call.
      var values: [Element] = []
      values.reserveCapacity(ids.count)
      for id in ids { values.append(value(of: id)) }
      return values
    }
    let buffer = contents._elementsOnMainActor
    var table: [Element.ID: Element] = [:]
    table.reserveCapacity(buffer.count)
    for element in buffer { table[element.id] = element }
    var values: [Element] = []
    values.reserveCapacity(ids.count)
    for id in ids {
      if let value = table[id] { values.append(value) }
    }
    return values
  }

  // MARK: - Evaluating everything

  /// Evaluates every element afresh: filter, group, stable sort.
  ///
  /// - Returns: The sections before, as keys and ids.
  /// - Complexity: O(*n* log *n*).
  @inlinable
  func evaluateAll(recordingOld: Bool = true) -> [(key: Key, ids: [Element.ID])] {
    var old: [(key: Key, ids: [Element.ID])] = []
    if recordingOld {
      for section in sections { old.append((section.key, tree.ids(of: section.tree))) }
    }
    rebuilds += 1
    caughtUp()
    let elements = array._elements
    precondition(elements.count < Int(Int32.max), "LiveQuery: too many rows")
    tree.removeAll(trees: 0)
    sections.removeAll()
    treeOfKey.removeAll()
    keyOfTree.removeAll()
    freeTrees.removeAll()
    if let flatKey {
      // One section, always present: no grouping, one array of positions.
      flatPositions = []
      var positions: [Int32] = []
      elements.withUnsafeBufferPointer { elements in
        for position in elements.indices where Self.lend(position, of: elements, isIncluded) {
          positions.append(Int32(truncatingIfNeeded: position))
        }
      }
      if let order = areInIncreasingOrder {
        Self._sort(&positions, of: elements, by: order)
      }
      let number = tree.addTree()
      keyOfTree.append(flatKey)
      treeOfKey[flatKey] = number
      sections.append((flatKey, number))
      indexSections()
      tree.build(Self._ids(at: positions, in: elements), in: number)
      flatPositions = positions
      flatPositionsSequence = lastSequence
      return old
    }
    var groups: [Key: [Int32]] = [:]
    elements.withUnsafeBufferPointer { elements in
      for position in elements.indices {
        Self.lend(position, of: elements) { element in
          guard isIncluded(element) else { return }
          groups[sectionKey(element), default: []].append(Int32(truncatingIfNeeded: position))
        }
      }
    }
    // Room for every row at once: the trees are built one after another,
    // and appending each would grow the slots past what they hold.
    var total = 0
    for group in groups.values { total += group.count }
    tree.reserveCapacity(total)
    for (key, group) in groups.sorted(by: { sectionOrder($0.key, $1.key) }) {
      var positions = group
      if let order = areInIncreasingOrder {
        Self._sort(&positions, of: elements, by: order)
      }
      let number = tree.addTree()
      keyOfTree.append(key)
      treeOfKey[key] = number
      sections.append((key, number))
      tree.build(Self._ids(at: positions, in: elements), in: number)
    }
    indexSections()
    return old
  }

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
          tree.attach(node, at: rank, in: number)
        } else {
          tree.insert(id, at: rank, in: number)
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

  /// Where `element`, at `position` in the array, goes in tree `number`.
  ///
  /// With a sort order, one comparison per level finds the rows that sort
  /// before it, and one more, with the row after them, tells whether any
  /// sort as it does: only then is a second descent needed, which orders
  /// the ties by position with up to two comparisons per level.
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
      if let order {
        let (rank, next) = tree.lowerBound(in: number) { other in
          lend(Self.position(of: other, in: elements, index: index), of: elements) {
            order($0, element)
          }
        }
        if next < 0 {
          return rank
        }
        let nextPosition = Self.position(of: tree.ids[Int(next)], in: elements, index: index)
        if lend(nextPosition, of: elements, { order(element, $0) }) { return rank }
      }
      return tree.lowerBound(in: number) { other in
        !isBefore(element, at: position, other, in: elements, index: index, by: order)
      }.rank
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
        tree.attach(node, at: rank, in: newNumber)
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
      tree.isInPlace(node) { other in
        isBefore(element, at: position, other, in: elements, index: index, by: order)
      }
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

  /// Whether `element`, at `position` in `elements`, goes before the row of
  /// `other`: by the sort order, then by the array's order.
  ///
  /// Nonisolated and given the array's state, so that a descent's
  /// comparisons carry no executor checks and no retains of the array;
  /// the id probes read the elements in place, and the row compared is
  /// lent (``lend(_:of:_:)``): `elements` must be the buffer of an array
  /// the caller holds.
  @inlinable
  nonisolated static func isBefore(
    _ element: Element, at position: Int, _ other: Element.ID,
    in elements: UnsafeBufferPointer<Element>,
    index: _PositionIndex<Element>, by order: ((Element, Element) -> Bool)?
  ) -> Bool {
    let otherPosition = Self.position(of: other, in: elements, index: index)
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

extension _QueryEngine {
  /// Decides how to follow `change`, which the array is delivering.
  ///
  /// Inlined: the common case, the very next change and no reload, is
  /// answered with ``Plan/follow`` without a call, so that the caller's
  /// switch goes straight to it instead of taking apart a plan returned
  /// through memory (an enum with closure payloads).
  @inlinable
  @inline(__always)
  func plan(for change: ArrayChange<Element>) -> Plan {
    let current = array._changeSequence
    if lastSequence &+ 1 == current && array._deliveringSequence == current
      && change.changeSet.reload == nil
    {
      return .follow
    }
    return _plan(for: change)
  }

  /// ``plan(for:)`` for the other cases, out of line.
  @inlinable
  func _plan(for change: ArrayChange<Element>) -> Plan {
    let current = array._changeSequence
    if lastSequence >= current { return .ignore }
    if lastSequence &+ 1 == current && array._deliveringSequence == current {
      // The array is at the change: follow it, incrementally unless a reload.
      guard let reload = change.changeSet.reload else { return .follow }
      let isUnchanged = array._isUnchanged ?? { _, _ in false }
      var old: [Element.ID: Element] = [:]
      old.reserveCapacity(reload.old.count)
      for element in reload.old { old[element.id] = element }
      return .reevaluate(
        oldValue: { id in
          guard let value = old[id] else { preconditionFailure("LiveQuery: a row was not shown") }
          return value
        },
        changed: { id in
          guard let before = old[id], let index = self.array._index(of: id) else { return true }
          return !isUnchanged(before, self.array._elements[index])
        })
    }
    // The array is ahead: it changed again from inside a delivery. Follow
    // every change since the rows at once, from the changes themselves
    // (never from ones the rows already reflect).
    let behind = behindNow()
    if behind.hasReload {
      let (oldValue, changed) = resolvers(behind)
      return .reevaluate(oldValue: oldValue, changed: changed)
    }
    return .catchUp(behind)
  }

  /// Whether the rows reflect the array as it is now.
  @inlinable
  var isCurrent: Bool { lastSequence == array._changeSequence }

  /// The array's changes that the rows do not reflect yet, in order: the
  /// one it is delivering, if the query has yet to see it, and those that
  /// wait behind it.
  @usableFromInline
  func changesAhead() -> [ArrayChange<Element>] {
    var next = lastSequence &+ 1
    var changes: [ArrayChange<Element>] = []
    // The change being delivered, which the array keeps while it is
    // delivered (the query has yet to see it only then).
    if array._deliveringSequence == next, let delivering = array._deliveringChange {
      changes.append(delivering)
      next &+= 1
    }
    for queued in array._pending where queued.sequence >= next {
      guard queued.sequence == next else { break }
      changes.append(queued.change)
      next &+= 1
    }
    return changes
  }

  /// What the array did since the rows were made.
  @usableFromInline
  func behindNow() -> Behind {
    let current = array._changeSequence
    if let cache = behindCache, cache.last == lastSequence, cache.current == current {
      return cache.behind
    }
    let changes = changesAhead()
    var behind = Behind(changes)
    // A change that cannot be found (none should be missing) makes every
    // row suspect.
    behind.isComplete = lastSequence &+ UInt64(changes.count) == current
    behindCache = (lastSequence, current, behind)
    return behind
  }

  /// The value a row shows: the element's value as of the array's change
  /// that the rows reflect, even if the array changed or removed it since.
  ///
  /// - Complexity: O(1) on average, plus O(*c*) for the *c* elements the
  ///   array's newer changes touched, once per change.
  @inlinable
  func shownValue(of id: Element.ID) -> Element {
    if isCurrent { return value(of: id) }
    return behindNow().old[id] ?? value(of: id)
  }

  /// The value the row with `id` shows, if it is a row.
  @inlinable
  func shownValue(ifRow id: Element.ID) -> Element? {
    guard tree.contains(id) else { return nil }
    return shownValue(of: id)
  }

  /// The values the rows with `ids` show.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  func shownValues(of ids: [Element.ID]) -> [Element] {
    var values: [Element] = []
    values.reserveCapacity(ids.count)
    if isCurrent {
      for id in ids { values.append(value(of: id)) }
      return values
    }
    let old = behindNow().old
    for id in ids { values.append(old[id] ?? value(of: id)) }
    return values
  }

  /// The values the rows showed, and whether an element may have changed
  /// since, for a query that evaluates everything afresh while behind the
  /// array.
  @usableFromInline
  func resolvers(_ behind: Behind) -> (
    oldValue: (Element.ID) -> Element, changed: (Element.ID) -> Bool
  ) {
    let isUnchanged = array._isUnchanged
    return (
      { id in behind.old[id] ?? self.value(of: id) },
      { id in
        guard behind.isComplete else { return true }
        guard behind.changed.contains(id) else { return false }
        guard let isUnchanged, let before = behind.old[id], let index = self.array._index(of: id)
        else { return true }
        return !isUnchanged(before, self.array._elements[index])
      }
    )
  }
}

extension _QueryEngine {
  /// What a run of the array's changes did to its elements, as a query
  /// that has not followed them needs it.
  @usableFromInline
  struct Behind {
    /// The value before the run of every element it touched that was in
    /// the array then.
    @usableFromInline
    var old: [Element.ID: Element] = [:]
    /// The elements whose value the run may have changed.
    @usableFromInline
    var changed: Set<Element.ID> = []
    /// Every touched element, once, in the order the run first touched it.
    @usableFromInline
    var order: [Element.ID] = []
    /// Whether a change of the run is a reload.
    @usableFromInline
    var hasReload = false
    /// Whether the run is every change since the rows.
    @usableFromInline
    var isComplete = true

    /// Sums up `changes`, in order: an element's old value is the one
    /// before the first change that touched it.
    ///
    /// - Complexity: O(*c*) for the *c* elements the changes touch.
    @usableFromInline
    init(_ changes: [ArrayChange<Element>]) {
      var seen: Set<Element.ID> = []
      func first(_ id: Element.ID) -> Bool {
        guard seen.insert(id).inserted else { return false }
        order.append(id)
        return true
      }
      for change in changes {
        let changeSet = change.changeSet
        if let reload = changeSet.reload {
          hasReload = true
          for element in reload.old {
            if first(element.id) { old[element.id] = element }
            changed.insert(element.id)
          }
          for element in reload.new {
            _ = first(element.id)
            changed.insert(element.id)
          }
          continue
        }
        for removal in changeSet.removals {
          if first(removal.element.id) { old[removal.element.id] = removal.element }
          changed.insert(removal.element.id)
        }
        for update in changeSet.updates {
          if first(update.oldElement.id) { old[update.oldElement.id] = update.oldElement }
          changed.insert(update.oldElement.id)
        }
        if !changeSet.moves.isEmpty {
          // A move alone keeps the value: the one after the change.
          let newElements = change.newElements
          for move in changeSet.moves {
            let element = newElements[move.to]
            if first(element.id) { old[element.id] = element }
          }
        }
        for insertion in changeSet.insertions {
          // Not in the array before, unless a removal above said so.
          _ = first(insertion.element.id)
          changed.insert(insertion.element.id)
        }
      }
    }
  }

  /// How to follow a change of the array.
  @usableFromInline
  enum Plan {
    /// The rows already reflect it (the query was made after it, or
    /// followed it early).
    case ignore
    /// One incremental step.
    case follow
    /// One incremental step over every change since the rows: the array
    /// changed again from inside a delivery.
    case catchUp(Behind)
    /// Everything evaluated afresh, then diffed by identity: for a reload.
    /// `oldValue` gives what the query showed for an id; `changed` the ids
    /// whose value may differ from it.
    case reevaluate(oldValue: (Element.ID) -> Element, changed: (Element.ID) -> Bool)
  }
}

/// The value of an optional that the query's invariants say is there.
@MainActor
@inline(__always)
@usableFromInline
func _required<Value>(_ value: Value?, _ what: @autoclosure () -> String) -> Value {
  guard let value else { preconditionFailure("LiveQuery: \(what())") }
  return value
}

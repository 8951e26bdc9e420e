/// The state both kinds of query share: the rows they show, in sections,
/// kept up to date from their array's change sets in O(log *n*) per
/// changed element.
///
/// A flat ``LiveQuery`` is one section that never goes away. A section is a
/// tree of ``_OrderTree``; `sections` lists the present ones in section
/// order, so a row's path is a binary search and a rank away.
///
/// The engine's parts: this file (its state, reads and evaluating every
/// element), `QueryEngine+Following` (one change's touched rows out of
/// their trees and back in), `QueryEngine+Placing` (where a row goes: the
/// descents' comparisons, and the lone update followed without a step)
/// and `QueryEngine+Planning` (how to follow a change, and what the array
/// did since the rows).
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
      tree.build(Self._ids(at: positions, in: elements), hints: positions, in: number)
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
    tree.reserveCapacity(total, trees: groups.count)
    for (key, group) in groups.sorted(by: { sectionOrder($0.key, $1.key) }) {
      var positions = group
      if let order = areInIncreasingOrder {
        Self._sort(&positions, of: elements, by: order)
      }
      let number = tree.addTree()
      keyOfTree.append(key)
      treeOfKey[key] = number
      sections.append((key, number))
      tree.build(Self._ids(at: positions, in: elements), hints: positions, in: number)
    }
    indexSections()
    return old
  }
}

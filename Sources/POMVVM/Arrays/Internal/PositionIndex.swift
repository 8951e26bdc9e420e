/// The id index of an ``ObservableArray``: every element's exact position,
/// found by id, in 4 bytes a slot.
///
/// An open-addressing table with linear probing that stores positions only.
/// A slot's key is the id of the element at its position, read from the
/// elements themselves, so the table never holds a second copy of the ids:
/// at most three quarters full, it costs 5.3 to 8 bytes per element (a
/// `[ID: Int]` costs 21 to 43).
///
/// Positions are kept exact, relative to a base: a slot holds
/// `position + base`. A mutation that shifts elements renumbers the side
/// that is smaller — the elements that moved, or, when they run to the end,
/// the ones before them, after moving the base, which moves every position
/// at once. The renumbering goes one slot at a time, through the ids, when
/// few slots change, and in one pass over the slots otherwise. So inserts
/// and removals at either end cost O(1) here, and any shift at most what
/// the array's own shift costs.
@usableFromInline
struct _PositionIndex<Element: Identifiable> {
  /// Positions plus ``_base``, or ``_empty``.
  @usableFromInline
  var _slots: [UInt32]

  @usableFromInline
  var _count: Int

  /// What every slot adds to its position; kept within `0...2 * _middle`,
  /// so that a slot never reaches ``_empty``.
  @usableFromInline
  var _base: Int

  /// ``_intHashSeed``, read once: each read of the global goes through its
  /// lazy initializer's check.
  @usableFromInline
  let _seed: UInt64

  @usableFromInline
  static var _empty: UInt32 { .max }

  /// Where the base starts: as many inserts at the top as removals from it
  /// fit before the slots need a pass to bring the base back.
  @usableFromInline
  static var _middle: Int { 1 << 30 }

  /// An index of `elements`, stopping on a duplicate id.
  @inlinable
  init(_ elements: [Element]) {
    _slots = []
    _count = 0
    _base = Self._middle
    _seed = _intHashSeed
    let repeated = _rebuild(elements, capacity: elements.count + elements.count / 2)
    precondition(
      repeated.isEmpty, "ObservableArray: duplicate id \(elements[repeated.first ?? 0].id)")
  }

  /// An index of `elements`, or, if some ids repeat, the positions of the
  /// elements whose id an earlier element has (then the index is not
  /// usable).
  ///
  /// The repeats are found by the walk that places each id, at no extra
  /// cost.
  @inlinable
  static func indexing(_ elements: [Element]) -> (index: Self, repeated: [Int]) {
    var index = Self(slots: [], count: 0, base: _middle)
    let repeated = index._rebuild(elements, capacity: elements.count + elements.count / 2)
    return (index, repeated)
  }

  @inlinable
  init(slots: [UInt32], count: Int, base: Int) {
    _slots = slots
    _count = count
    _base = base
    _seed = _intHashSeed
  }

  /// The position of `id` in `elements`, which the index describes.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func find(_ id: Element.ID, in elements: [Element]) -> Int? {
    elements.withUnsafeBufferPointer { find(id, in: $0) }
  }

  /// The position of `id` in `elements`, which the index describes, read
  /// in place: the probes copy no element.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func find(_ id: Element.ID, in elements: UnsafeBufferPointer<Element>) -> Int? {
    let capacity = _slots.count
    guard _count != 0 else { return nil }
    var slot = _homeSlot(of: id, capacity, seed: _seed)
    while true {
      let stored = _slots[slot]
      if stored == Self._empty { return nil }
      let position = Int(stored) &- _base
      if elements[position].id == id { return position }
      slot &+= 1
      if slot == capacity { slot = 0 }
    }
  }

  /// Whether `count` elements fit without the table growing.
  @inlinable
  func canHold(_ count: Int) -> Bool {
    count * 4 <= _slots.count * 3
  }

  /// Records that `id` is at `position`; `elements` must already hold it
  /// there, and every other element the index holds at its recorded place.
  ///
  /// The id must not be present: check with ``find(_:in:)`` first.
  ///
  /// - Complexity: Amortized O(1).
  @inlinable
  mutating func insert(_ id: Element.ID, at position: Int, in elements: [Element]) {
    if !canHold(_count + 1) {
      _rebuild(elements, capacity: Swift.max(8, (_count + 1) * 2))
      return
    }
    _place(_stored(position), home: _homeSlot(of: id, _slots.count, seed: _seed))
    _count += 1
  }

  /// Forgets `id`, which is at `position`; `elements` must still hold every
  /// other element the index holds at its recorded place.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  mutating func remove(_ id: Element.ID, at position: Int, in elements: [Element]) {
    let capacity = _slots.count
    var hole = _slot(of: id, storing: _stored(position))
    // Backward-shift deletion: pull later entries of the run into the hole
    // when their home is not between the hole and them.
    var next = hole
    while true {
      next = next &+ 1 == capacity ? 0 : next &+ 1
      let moved = _slots[next]
      if moved == Self._empty { break }
      let home = _homeSlot(of: elements[Int(moved) &- _base].id, capacity, seed: _seed)
      let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if stays { continue }
      _slots[hole] = moved
      hole = next
    }
    _slots[hole] = Self._empty
    _count -= 1
  }

  /// Renumbers after the elements from `lower` to the end moved by `delta`,
  /// while those before `prefixEnd` stayed; the index holds no other.
  ///
  /// - Parameters:
  ///   - lower: Where the moved elements started.
  ///   - delta: How far they moved.
  ///   - prefixEnd: How many elements at the start stayed.
  ///   - elements: The elements, moved.
  /// - Complexity: O(min(*k*, *p*)) on average, for *k* moved elements and
  ///   *p* that stayed; at most one pass over the slots.
  @inlinable
  mutating func shiftSuffix(
    from lower: Int, by delta: Int, keeping prefixEnd: Int, in elements: [Element]
  ) {
    let moved = elements.count - (lower + delta)
    guard moved > 0, delta != 0 else { return }
    if moved <= prefixEnd {
      shift(lower..<(lower + moved), by: delta) { elements[$0 + delta].id }
      return
    }
    // Moving the base moves every position; then the prefix moves back.
    if _base - delta < 0 || _base - delta > 2 * Self._middle {
      _rebase()
    }
    _base -= delta
    shift(delta..<(prefixEnd + delta), by: -delta) { elements[$0 - delta].id }
  }

  /// Renumbers the elements that were at `oldPositions` by `delta`.
  ///
  /// - Parameters:
  ///   - oldPositions: Where the moved elements were; the index must not
  ///     hold any other element at a position this range moves them to.
  ///   - delta: How far they moved.
  ///   - idAt: The id of the element that was at an old position.
  /// - Complexity: O(*k*) on average for *k* moved elements, at most one
  ///   pass over the slots.
  @inlinable
  mutating func shift(_ oldPositions: Range<Int>, by delta: Int, idAt: (Int) -> Element.ID) {
    guard !oldPositions.isEmpty, delta != 0, _count != 0 else { return }
    if oldPositions.count * 8 < _slots.count {
      // Away from the way they move, so that a slot already renumbered
      // never carries a position still to be looked for.
      if delta > 0 {
        for position in oldPositions.reversed() { _renumber(position, idAt(position), delta) }
      } else {
        for position in oldPositions { _renumber(position, idAt(position), delta) }
      }
      return
    }
    // Branch-free, so that it vectorizes: an empty slot (`UInt32.max`) is
    // never in range, since stored positions stay below it.
    let lower = _stored(oldPositions.lowerBound)
    let width = UInt32(oldPositions.count)
    let step = UInt32(truncatingIfNeeded: delta)
    _slots.withUnsafeMutableBufferPointer { slots in
      for slot in slots.indices {
        let stored = slots[slot]
        slots[slot] = stored &+ (stored &- lower < width ? step : 0)
      }
    }
  }

  @inlinable
  mutating func _renumber(_ position: Int, _ id: Element.ID, _ delta: Int) {
    _slots[_slot(of: id, storing: _stored(position))] = _stored(position + delta)
  }

  /// The slot of `id`, found by what it stores.
  @inlinable
  func _slot(of id: Element.ID, storing stored: UInt32) -> Int {
    let capacity = _slots.count
    var slot = _homeSlot(of: id, capacity, seed: _seed)
    while _slots[slot] != stored {
      precondition(_slots[slot] != Self._empty, "ObservableArray: id index out of step")
      slot = slot &+ 1 == capacity ? 0 : slot &+ 1
    }
    return slot
  }

  /// What a slot stores for `position`.
  @inlinable
  func _stored(_ position: Int) -> UInt32 {
    UInt32(truncatingIfNeeded: position &+ _base)
  }

  /// Brings the base back to the middle, in one pass over the slots.
  @inlinable
  mutating func _rebase() {
    let step = UInt32(truncatingIfNeeded: Self._middle &- _base)
    _slots.withUnsafeMutableBufferPointer { slots in
      for slot in slots.indices where slots[slot] != Self._empty {
        slots[slot] &+= step
      }
    }
    _base = Self._middle
  }

  /// Indexes `elements` afresh in a table of `capacity` slots.
  ///
  /// - Returns: The positions of the elements whose id an earlier element
  ///   has, which are left out: empty, unless `elements` repeats an id.
  @inlinable
  @discardableResult
  mutating func _rebuild(_ elements: [Element], capacity: Int) -> [Int] {
    precondition(
      elements.count < Self._middle, "ObservableArray: more than \(Self._middle - 1) elements")
    _slots = [UInt32](repeating: Self._empty, count: Swift.max(8, capacity))
    _count = 0
    _base = Self._middle
    let slotCount = _slots.count
    var repeated: [Int] = []
    let base = _base
    let seed = _seed
    var count = 0
    // By index, through the buffers: `enumerated()` costs unspecialized
    // code (a store building its array, say) a tuple's metadata and an
    // iterator's witnesses per element. (Reading an element's `id` there
    // still copies the element.)
    elements.withUnsafeBufferPointer { elements in
      _slots.withUnsafeMutableBufferPointer { slots in
        placing: for position in elements.indices {
          let id = elements[position].id
          // One walk from the id's home both finds a free slot and meets
          // any element with the same id on the way.
          var slot = _homeSlot(of: id, slotCount, seed: seed)
          while slots[slot] != Self._empty {
            if elements[Int(slots[slot]) &- base].id == id {
              repeated.append(position)
              continue placing
            }
            slot = slot &+ 1 == slotCount ? 0 : slot &+ 1
          }
          slots[slot] = UInt32(truncatingIfNeeded: position &+ base)
          count += 1
        }
      }
    }
    _count = count
    return repeated
  }

  /// Stores a value in the first free slot from `home` on.
  @inlinable
  mutating func _place(_ stored: UInt32, home: Int) {
    let capacity = _slots.count
    var slot = home
    while _slots[slot] != Self._empty {
      slot = slot &+ 1 == capacity ? 0 : slot &+ 1
    }
    _slots[slot] = stored
  }
}

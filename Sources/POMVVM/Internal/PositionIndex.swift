/// The id index of an ``ObservableArray``: every element's exact position,
/// found by id, in 4 bytes a slot.
///
/// An open-addressing table with linear probing that stores positions only.
/// A slot's key is the id of the element at its position, read from the
/// elements themselves, so the table never holds a second copy of the ids:
/// at most three quarters full, it costs 5.3 to 8 bytes per element (a
/// `[ID: Int]` costs 21 to 43).
///
/// Positions are kept exact. A mutation that shifts elements renumbers
/// their slots: one by one, through their ids, when few moved; by one pass
/// over the slots otherwise. Either way the cost stays within that of the
/// array's own shift.
@usableFromInline
struct _PositionIndex<Element: Identifiable> {
  /// Positions, or ``_empty``.
  @usableFromInline
  var _slots: [UInt32]

  @usableFromInline
  var _count: Int

  @usableFromInline
  static var _empty: UInt32 { .max }

  /// An index of `elements`, stopping on a duplicate id.
  @inlinable
  init(_ elements: [Element]) {
    _slots = []
    _count = 0
    _rebuild(elements, capacity: elements.count + elements.count / 2)
  }

  /// The position of `id` in `elements`, which the index describes.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func find(_ id: Element.ID, in elements: [Element]) -> Int? {
    let capacity = _slots.count
    guard _count != 0 else { return nil }
    var slot = Self._home(of: id, capacity)
    while true {
      let position = _slots[slot]
      if position == Self._empty { return nil }
      if elements[Int(position)].id == id { return Int(position) }
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
    precondition(
      position < Int(Self._empty), "ObservableArray: more than \(Self._empty - 1) elements")
    if !canHold(_count + 1) {
      _rebuild(elements, capacity: Swift.max(8, (_count + 1) * 2))
      return
    }
    _place(UInt32(position), home: Self._home(of: id, _slots.count))
    _count += 1
  }

  /// Forgets `id`, which is at `position`; `elements` must still hold every
  /// other element the index holds at its recorded place.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  mutating func remove(_ id: Element.ID, at position: Int, in elements: [Element]) {
    let capacity = _slots.count
    var hole = Self._home(of: id, capacity)
    while _slots[hole] != UInt32(position) {
      precondition(_slots[hole] != Self._empty, "ObservableArray: id index out of step")
      hole = hole &+ 1 == capacity ? 0 : hole &+ 1
    }
    // Backward-shift deletion: pull later entries of the run into the hole
    // when their home is not between the hole and them.
    var next = hole
    while true {
      next = next &+ 1 == capacity ? 0 : next &+ 1
      let moved = _slots[next]
      if moved == Self._empty { break }
      let home = Self._home(of: elements[Int(moved)].id, capacity)
      let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if stays { continue }
      _slots[hole] = moved
      hole = next
    }
    _slots[hole] = Self._empty
    _count -= 1
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
    // never in range, since positions stay below it.
    let lower = UInt32(oldPositions.lowerBound)
    let width = UInt32(oldPositions.count)
    let step = UInt32(truncatingIfNeeded: delta)
    _slots.withUnsafeMutableBufferPointer { slots in
      for slot in slots.indices {
        let position = slots[slot]
        slots[slot] = position &+ (position &- lower < width ? step : 0)
      }
    }
  }

  @inlinable
  mutating func _renumber(_ position: Int, _ id: Element.ID, _ delta: Int) {
    let capacity = _slots.count
    var slot = Self._home(of: id, capacity)
    while _slots[slot] != UInt32(position) {
      precondition(_slots[slot] != Self._empty, "ObservableArray: id index out of step")
      slot = slot &+ 1 == capacity ? 0 : slot &+ 1
    }
    _slots[slot] = UInt32(position + delta)
  }

  /// Indexes `elements` afresh in a table of `capacity` slots.
  @inlinable
  mutating func _rebuild(_ elements: [Element], capacity: Int) {
    precondition(
      elements.count < Int(Self._empty), "ObservableArray: more than \(Self._empty - 1) elements")
    _slots = [UInt32](repeating: Self._empty, count: Swift.max(8, capacity))
    _count = 0
    for (position, element) in elements.enumerated() {
      precondition(
        find(element.id, in: elements) == nil, "ObservableArray: duplicate id \(element.id)")
      _place(UInt32(position), home: Self._home(of: element.id, _slots.count))
      _count += 1
    }
  }

  /// Stores a position in the first free slot from `home` on.
  @inlinable
  mutating func _place(_ position: UInt32, home: Int) {
    let capacity = _slots.count
    var slot = home
    while _slots[slot] != Self._empty {
      slot = slot &+ 1 == capacity ? 0 : slot &+ 1
    }
    _slots[slot] = position
  }

  @inlinable
  static func _home(of id: Element.ID, _ capacity: Int) -> Int {
    _homeSlot(of: id, capacity)
  }
}

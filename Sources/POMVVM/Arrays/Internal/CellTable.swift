/// The element cells of an ``ObservableArray``, by id, held weakly so that
/// a cell lives only as long as its users.
///
/// An open-addressing table of weak references, keyed through the cells'
/// own ids: 9 bytes a slot, where a `[ID: weak cell]` takes 16 and more for
/// a larger id. A cell that dies leaves its slot behind, dead: lookups pass
/// over it, an insertion takes it over, and the table drops the dead when
/// it grows. So a cell's release does not touch the array, which need not
/// be on hand when the last reference goes.
@MainActor
@usableFromInline
struct _CellTable<Element: Identifiable> {
  @usableFromInline
  struct _Slot {
    @usableFromInline
    weak var cell: ElementCell<Element>?

    @inlinable
    init() {}
  }

  @usableFromInline
  var _slots: [_Slot] = []
  /// Per slot: 0 never used, 1 used (its cell may have died since), 2
  /// removed.
  @usableFromInline
  var _states: [UInt8] = []
  /// Slots that are not free, which bounds the probe runs.
  @usableFromInline
  var _taken = 0

  @inlinable
  init() {}

  /// Whether the table never kept a cell: a quick exit for arrays whose
  /// elements nobody asked a cell for.
  @inlinable
  var isEmpty: Bool { _taken == 0 }

  /// The live cell for `id`.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func cell(for id: Element.ID) -> ElementCell<Element>? {
    guard _taken != 0 else { return nil }
    let capacity = _slots.count
    var slot = _homeSlot(of: id, capacity)
    while true {
      switch _states[slot] {
      case 0: return nil
      case 1: if let cell = _slots[slot].cell, cell.id == id { return cell }
      default: break
      }
      slot = slot &+ 1 == capacity ? 0 : slot &+ 1
    }
  }

  /// Keeps `cell`, whose id has no live cell in the table.
  ///
  /// - Complexity: Amortized O(1).
  mutating func insert(_ cell: ElementCell<Element>) {
    if (_taken + 1) * 4 > _slots.count * 3 {
      _grow(adding: cell)
      return
    }
    let capacity = _slots.count
    var slot = _homeSlot(of: cell.id, capacity)
    while _states[slot] == 1 && _slots[slot].cell != nil {
      slot = slot &+ 1 == capacity ? 0 : slot &+ 1
    }
    if _states[slot] != 1 { _taken += _states[slot] == 0 ? 1 : 0 }
    _states[slot] = 1
    _slots[slot].cell = cell
  }

  /// Takes the live cell for `id` out of the table.
  ///
  /// - Complexity: O(1) on average.
  mutating func remove(_ id: Element.ID) -> ElementCell<Element>? {
    guard _taken != 0 else { return nil }
    let capacity = _slots.count
    var slot = _homeSlot(of: id, capacity)
    while _states[slot] != 0 {
      if _states[slot] == 1, let cell = _slots[slot].cell, cell.id == id {
        _states[slot] = 2
        _slots[slot].cell = nil
        return cell
      }
      slot = slot &+ 1 == capacity ? 0 : slot &+ 1
    }
    return nil
  }

  /// The live cells, in no particular order.
  ///
  /// - Complexity: O(*n*) in the table's size.
  @usableFromInline
  var liveCells: [ElementCell<Element>] {
    var cells: [ElementCell<Element>] = []
    for slot in _slots.indices where _states[slot] == 1 {
      if let cell = _slots[slot].cell { cells.append(cell) }
    }
    return cells
  }

  /// Rebuilds the table with the live cells and `cell`, without the dead,
  /// half full: 12 to 18 bytes a cell.
  mutating func _grow(adding cell: ElementCell<Element>) {
    let cells = liveCells + [cell]
    let capacity = Swift.max(8, cells.count * 2)
    _slots = [_Slot](repeating: _Slot(), count: capacity)
    _states = [UInt8](repeating: 0, count: capacity)
    _taken = cells.count
    for cell in cells {
      var slot = _homeSlot(of: cell.id, capacity)
      while _states[slot] != 0 {
        slot = slot &+ 1 == capacity ? 0 : slot &+ 1
      }
      _states[slot] = 1
      _slots[slot].cell = cell
    }
  }
}

/// The slot where the search for `id` starts in a table of `capacity`
/// slots: the hash scaled to the capacity, which need not be a power of two.
///
/// An `Int` id, the common case, is mixed with ``_intHashSeed``, a random
/// number, by MurmurHash3's 64-bit finalizer (two multiplications, three
/// shifts): every bit of the id reaches the high bits that pick the slot,
/// so ids that differ only in a few bits (sequential ids, multiples of a
/// power of two) spread like random ones, where `hashValue` costs a
/// SipHash round of about 90 instructions. Other ids use `hashValue`.
@inlinable
@inline(__always)
package func _homeSlot<ID: Hashable>(of id: ID, _ capacity: Int) -> Int {
  _homeSlot(of: id, capacity, seed: _intHashSeed)
}

/// ``_homeSlot(of:_:)`` with ``_intHashSeed`` read by the caller: a table
/// that keeps a copy of it spares each look-up the global's lazy check.
@inlinable
@inline(__always)
package func _homeSlot<ID: Hashable>(of id: ID, _ capacity: Int, seed: UInt64) -> Int {
  let hash: UInt64
  if ID.self == Int.self {
    var x = UInt64(bitPattern: Int64(unsafeBitCast(id, to: Int.self))) ^ seed
    x = (x ^ (x >> 33)) &* 0xff51_afd7_ed55_8ccd
    x = (x ^ (x >> 33)) &* 0xc4ce_b9fe_1a85_ec53
    hash = (x ^ (x >> 33)) >> 32
  } else {
    hash = UInt64(UInt32(truncatingIfNeeded: id.hashValue))
  }
  return Int(truncatingIfNeeded: (hash &* UInt64(capacity)) >> 32)
}

/// The seed of ``_homeSlot(of:_:)`` for `Int` ids, drawn from the process's
/// hashing seed, so that it differs between runs like `hashValue` does
/// (and is fixed under `SWIFT_DETERMINISTIC_HASHING`).
@usableFromInline
let _intHashSeed: UInt64 = {
  var hasher = Hasher()
  hasher.combine(0x9E37_79B9_7F4A_7C15 as UInt64)
  return UInt64(truncatingIfNeeded: hasher.finalize())
}()

/// The ``ElementCell/detachment`` cells, made on first use and held weakly:
/// most element cells are never asked for one, so it has no field of its
/// own; and a cell asked for by a screen that has closed must not stay in
/// the graph for the element cell's whole life.
///
/// An entry whose node was released stays until the element cell asks
/// again (which replaces it) or dies (which removes it).
@MainActor
enum _Detachments {
  private struct Entry {
    weak var node: _DerivedNode<Bool>?
  }

  @exclusivity(unchecked)
  private static var states: [ObjectIdentifier: Entry] = [:]

  static func set(_ state: _DerivedNode<Bool>, of list: _ObserverListBase) {
    states[ObjectIdentifier(list)] = Entry(node: state)
    list._hasDetachment = true
  }

  /// The list's detachment node, if it has one that is still alive.
  static func state(of list: _ObserverListBase) -> _DerivedNode<Bool>? {
    list._hasDetachment ? states[ObjectIdentifier(list)]?.node : nil
  }

  static func remove(_ list: _ObserverListBase) {
    states[ObjectIdentifier(list)] = nil
  }
}

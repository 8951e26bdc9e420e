// The order tree's id-to-node table: see `OrderTree.swift`.
extension _OrderTree {
  /// The node of `id`, if a tree holds it.
  ///
  /// - Complexity: O(1) on average.
  @inlinable
  func node(of id: ID) -> Int32? {
    if let lastFound, lastFound.id == id { return lastFound.node }
    guard count != 0 else { return nil }
    let capacity = table.count
    var slot = _homeSlot(of: id, capacity, seed: seed)
    while true {
      let node = table[slot]
      if node < 0 { return nil }
      if ids[Int(node)] == id {
        lastFound = (id, node)
        return node
      }
      slot = slot &+ 1 == capacity ? 0 : slot &+ 1
    }
  }

  @inlinable
  func tableInsert(_ node: Int32) {
    if (count + 1) * 4 > table.count * 3 {
      // The new node is in `ids` already: the rebuild places it too.
      regrow(capacity: Swift.max(16, (count + 1) * 2))
      return
    }
    place(node)
    count += 1
  }

  @inlinable
  func place(_ node: Int32) {
    let capacity = table.count
    var slot = _homeSlot(of: ids[Int(node)], capacity, seed: seed)
    while table[slot] >= 0 { slot = slot &+ 1 == capacity ? 0 : slot &+ 1 }
    table[slot] = node
  }

  /// Places every node that is not free in a table of `capacity` slots.
  @inlinable
  func regrow(capacity: Int) {
    table = [Int32](repeating: Self.none, count: Swift.max(16, capacity))
    var isFree = [Bool](repeating: false, count: ids.count)
    for node in free { isFree[Int(node)] = true }
    count = 0
    for node in ids.indices where !isFree[node] {
      place(Int32(node))
      count += 1
    }
  }

  /// Takes `id` out of the table; returns its node.
  @inlinable
  func tableRemove(_ id: ID) -> Int32? {
    lastFound = nil
    guard count != 0 else { return nil }
    let capacity = table.count
    var hole = _homeSlot(of: id, capacity, seed: seed)
    while true {
      let node = table[hole]
      if node < 0 { return nil }
      if ids[Int(node)] == id { break }
      hole = hole &+ 1 == capacity ? 0 : hole &+ 1
    }
    let found = table[hole]
    // Backward-shift deletion: pull later entries of the run into the hole
    // when their home is not between the hole and them.
    var next = hole
    while true {
      next = next &+ 1 == capacity ? 0 : next &+ 1
      let moved = table[next]
      if moved < 0 { break }
      let home = _homeSlot(of: ids[Int(moved)], capacity, seed: seed)
      let stays = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
      if stays { continue }
      table[hole] = moved
      hole = next
    }
    table[hole] = Self.none
    count -= 1
    return found
  }
}

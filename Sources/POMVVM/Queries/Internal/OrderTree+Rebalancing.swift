// The order tree's nodes, their splits, merges and moves of rows between
// siblings: see `OrderTree.swift`. A node other than a root holds at least
// a quarter of its capacity, so the height stays O(log n).
extension _OrderTree {
  /// A new empty leaf in no tree; `filler` is written in its unused id
  /// places (an array holds no uninitialized ids).
  @inlinable
  func newLeaf(filler: ID) -> Int32 {
    let empty = _OrderLeaf(count: 0, parent: Self.none, previous: Self.none, next: Self.none)
    if let reused = freeLeaves.popLast() {
      leaves[Int(reused)] = empty
      return reused
    }
    precondition(leaves.count < Int(Int32.max) / Self.leafCapacity, "LiveQuery: too many rows")
    leaves.append(empty)
    leafIDs.append(contentsOf: repeatElement(filler, count: Self.leafCapacity))
    leafHints.append(contentsOf: repeatElement(Self.none, count: Self.leafCapacity))
    leafSlots.append(contentsOf: repeatElement(Self.none, count: Self.leafCapacity))
    return Int32(leaves.count - 1)
  }

  /// A new empty inner node of height `height` in no tree.
  @inlinable
  func newInner(height: Int32, filler: ID) -> Int32 {
    let empty = _OrderInner(count: 0, parent: Self.none, height: height)
    if let reused = freeInners.popLast() {
      inners[Int(reused)] = empty
      return reused
    }
    inners.append(empty)
    children.append(contentsOf: repeatElement(Self.none, count: Self.innerCapacity))
    counts.append(contentsOf: repeatElement(0, count: Self.innerCapacity))
    separatorIDs.append(contentsOf: repeatElement(filler, count: Self.innerCapacity))
    separatorHints.append(contentsOf: repeatElement(Self.none, count: Self.innerCapacity))
    return Int32(inners.count - 1)
  }

  @inline(__always)
  @inlinable
  func isFull(_ node: Int32, height: Int32) -> Bool {
    height == 0
      ? Int(leaves[Int(node)].count) == Self.leafCapacity
      : Int(inners[Int(node)].count) == Self.innerCapacity
  }

  /// The parent link of `node` (a leaf at height 0).
  @inline(__always)
  @inlinable
  func parent(of node: Int32, height: Int32) -> Int32 {
    height == 0 ? leaves[Int(node)].parent : inners[Int(node)].parent
  }

  @inline(__always)
  @inlinable
  func setParent(_ parent: Int32, of node: Int32, height: Int32) {
    if height == 0 {
      leaves[Int(node)].parent = parent
    } else {
      inners[Int(node)].parent = parent
    }
  }

  /// The id and position hint of the first row of `node`'s subtree.
  @inline(__always)
  @inlinable
  func first(of node: Int32, height: Int32) -> (id: ID, hint: Int32) {
    if height == 0 {
      let base = Self.leafBase(node)
      return (leafIDs[base], leafHints[base])
    }
    let base = Self.innerBase(node)
    return (separatorIDs[base], separatorHints[base])
  }

  /// The rows under inner node `inner`.
  @inlinable
  func total(ofInner inner: Int32) -> Int32 {
    let base = Self.innerBase(inner)
    var total: Int32 = 0
    for index in 0..<Int(inners[Int(inner)].count) { total += counts[base + index] }
    return total
  }

  /// Writes the first row of `node`'s subtree as its separator in the
  /// nodes above, up to the first of them that it is not the first child
  /// of.
  @inlinable
  func propagateFirst(of node: Int32, height: Int32) {
    let (id, hint) = first(of: node, height: height)
    var child = node
    var up = parent(of: node, height: height)
    while up >= 0 {
      let at = childIndex(of: child, in: up)
      separatorIDs[Self.innerBase(up) + at] = id
      separatorHints[Self.innerBase(up) + at] = hint
      if at != 0 { return }
      child = up
      up = inners[Int(up)].parent
    }
  }

  /// Puts `child` at `index` of inner node `inner`, which has room, with
  /// its row count and its first row as the separator.
  @inlinable
  func insertChild(_ child: Int32, rows: Int32, at index: Int, in inner: Int32) {
    let height = inners[Int(inner)].height - 1
    let (id, hint) = first(of: child, height: height)
    let base = Self.innerBase(inner)
    var at = base + Int(inners[Int(inner)].count)
    while at > base + index {
      copyChild(at - 1, to: at)
      at -= 1
    }
    children[at] = child
    counts[at] = rows
    separatorIDs[at] = id
    separatorHints[at] = hint
    inners[Int(inner)].count += 1
    setParent(inner, of: child, height: height)
  }

  /// Takes the child at `index` out of inner node `inner`.
  @inlinable
  func removeChild(at index: Int, of inner: Int32) {
    let base = Self.innerBase(inner)
    let end = base + Int(inners[Int(inner)].count) - 1
    var at = base + index
    while at < end {
      copyChild(at + 1, to: at)
      at += 1
    }
    inners[Int(inner)].count -= 1
  }

  /// Puts the root of tree `tree`, which is full, under a new root, and
  /// splits it there.
  @inlinable
  func splitRoot(of tree: Int) {
    let old = roots[tree].node
    let height = roots[tree].height
    let root = newInner(height: height + 1, filler: first(of: old, height: height).id)
    inners[Int(root)].parent = -Int32(tree) - 2
    insertChild(old, rows: Int32(roots[tree].count), at: 0, in: root)
    roots[tree].node = root
    roots[tree].height = height + 1
    split(child: 0, of: root)
  }

  /// Splits the child at `index` of inner node `inner`, which has room, in
  /// two halves: the second goes in a new node, after it.
  @inlinable
  func split(child index: Int, of inner: Int32) {
    let base = Self.innerBase(inner)
    let node = children[base + index]
    let height = inners[Int(inner)].height - 1
    let right: Int32
    var rows: Int32 = 0
    if height == 0 {
      let count = Int(leaves[Int(node)].count)
      let half = count / 2
      let from = Self.leafBase(node)
      right = newLeaf(filler: leafIDs[from + half])
      let to = Self.leafBase(right)
      for offset in 0..<(count - half) {
        leafOf[Int(copyRow(from + half + offset, to: to + offset))] = right
      }
      rows = Int32(count - half)
      leaves[Int(right)].count = rows
      leaves[Int(node)].count = Int32(half)
      let next = leaves[Int(node)].next
      leaves[Int(right)].previous = node
      leaves[Int(right)].next = next
      if next >= 0 { leaves[Int(next)].previous = right }
      leaves[Int(node)].next = right
    } else {
      let count = Int(inners[Int(node)].count)
      let half = count / 2
      let from = Self.innerBase(node)
      right = newInner(height: height, filler: separatorIDs[from + half])
      let to = Self.innerBase(right)
      for offset in 0..<(count - half) {
        setParent(right, of: copyChild(from + half + offset, to: to + offset), height: height - 1)
        rows += counts[to + offset]
      }
      inners[Int(right)].count = Int32(count - half)
      inners[Int(node)].count = Int32(half)
    }
    counts[base + index] -= rows
    insertChild(right, rows: rows, at: index + 1, in: inner)
  }

  /// Restores the least fill of `node` (a leaf at height 0), which fell
  /// below it: it takes rows (or children) from a sibling, or merges with
  /// it, which may leave the parent below its own; a root with one child
  /// gives way to it, and an empty root leaf leaves the tree empty.
  @inlinable
  func rebalance(_ node: Int32, height: Int32) {
    let up = parent(of: node, height: height)
    if up < 0 {
      let tree = Int(-up - 2)
      if height == 0 {
        if leaves[Int(node)].count == 0 {
          freeLeaves.append(node)
          roots[tree].node = Self.none
          roots[tree].height = 0
        }
      } else if inners[Int(node)].count == 1 {
        let child = children[Self.innerBase(node)]
        freeInners.append(node)
        setParent(up, of: child, height: height - 1)
        roots[tree].node = child
        roots[tree].height = height - 1
      }
      return
    }
    let index = childIndex(of: node, in: up)
    let leftIndex = index > 0 ? index - 1 : index
    let base = Self.innerBase(up)
    let left = children[base + leftIndex]
    let right = children[base + leftIndex + 1]
    let leftCount = Int(counts[base + leftIndex])
    let capacity = height == 0 ? Self.leafCapacity : Self.innerCapacity
    let sizes =
      height == 0
      ? (Int(leaves[Int(left)].count), Int(leaves[Int(right)].count))
      : (Int(inners[Int(left)].count), Int(inners[Int(right)].count))
    let sum = sizes.0 + sizes.1
    if sum <= capacity * 3 / 4 {
      move(sizes.1, from: right, to: left, height: height)
      counts[base + leftIndex] += counts[base + leftIndex + 1]
      removeChild(at: leftIndex + 1, of: up)
      if height == 0 {
        let next = leaves[Int(right)].next
        leaves[Int(left)].next = next
        if next >= 0 { leaves[Int(next)].previous = left }
        freeLeaves.append(right)
      } else {
        freeInners.append(right)
      }
      if sizes.0 == 0 { propagateFirst(of: left, height: height) }
      if Int(inners[Int(up)].count) < Self.innerMinimum { rebalance(up, height: height + 1) }
      return
    }
    let target = sum / 2
    if sizes.0 < target {
      move(target - sizes.0, from: right, to: left, height: height)
    } else {
      moveBack(sizes.0 - target, from: left, to: right, height: height)
    }
    let newLeft = height == 0 ? Int32(target) : total(ofInner: left)
    counts[base + leftIndex + 1] += Int32(leftCount) - newLeft
    counts[base + leftIndex] = newLeft
    let (id, hint) = first(of: right, height: height)
    separatorIDs[base + leftIndex + 1] = id
    separatorHints[base + leftIndex + 1] = hint
    if sizes.0 == 0 { propagateFirst(of: left, height: height) }
  }

  /// Moves the first `moved` rows (or children) of `right` to the end of
  /// `left`, its sibling before it.
  @inlinable
  func move(_ moved: Int, from right: Int32, to left: Int32, height: Int32) {
    guard moved > 0 else { return }
    if height == 0 {
      let from = Self.leafBase(right)
      let to = Self.leafBase(left) + Int(leaves[Int(left)].count)
      let rest = Int(leaves[Int(right)].count) - moved
      for offset in 0..<moved {
        leafOf[Int(copyRow(from + offset, to: to + offset))] = left
      }
      for offset in 0..<rest {
        copyRow(from + moved + offset, to: from + offset)
      }
      leaves[Int(left)].count += Int32(moved)
      leaves[Int(right)].count = Int32(rest)
    } else {
      let from = Self.innerBase(right)
      let to = Self.innerBase(left) + Int(inners[Int(left)].count)
      let rest = Int(inners[Int(right)].count) - moved
      for offset in 0..<moved {
        setParent(left, of: copyChild(from + offset, to: to + offset), height: height - 1)
      }
      for offset in 0..<rest {
        copyChild(from + moved + offset, to: from + offset)
      }
      inners[Int(left)].count += Int32(moved)
      inners[Int(right)].count = Int32(rest)
    }
  }

  /// Moves the last `moved` rows (or children) of `left` to the front of
  /// `right`, its sibling after it.
  @inlinable
  func moveBack(_ moved: Int, from left: Int32, to right: Int32, height: Int32) {
    guard moved > 0 else { return }
    if height == 0 {
      let to = Self.leafBase(right)
      let kept = Int(leaves[Int(left)].count) - moved
      let from = Self.leafBase(left) + kept
      var offset = Int(leaves[Int(right)].count)
      while offset > 0 {
        offset -= 1
        copyRow(to + offset, to: to + moved + offset)
      }
      for offset in 0..<moved {
        leafOf[Int(copyRow(from + offset, to: to + offset))] = right
      }
      leaves[Int(left)].count = Int32(kept)
      leaves[Int(right)].count += Int32(moved)
    } else {
      let to = Self.innerBase(right)
      let kept = Int(inners[Int(left)].count) - moved
      let from = Self.innerBase(left) + kept
      var offset = Int(inners[Int(right)].count)
      while offset > 0 {
        offset -= 1
        copyChild(to + offset, to: to + moved + offset)
      }
      for offset in 0..<moved {
        setParent(right, of: copyChild(from + offset, to: to + offset), height: height - 1)
      }
      inners[Int(left)].count = Int32(kept)
      inners[Int(right)].count += Int32(moved)
    }
  }

  /// Copies the row at `from` of the leaves' arrays to `to`.
  ///
  /// Its id, hint and slot; returns the slot, whose `leafOf` is the
  /// caller's to write.
  @inline(__always)
  @inlinable
  @discardableResult
  func copyRow(_ from: Int, to: Int) -> Int32 {
    leafIDs[to] = leafIDs[from]
    leafHints[to] = leafHints[from]
    let slot = leafSlots[from]
    leafSlots[to] = slot
    return slot
  }

  /// Copies the child at `from` of the inner nodes' arrays to `to`.
  ///
  /// The child, its row count and its separator; returns the child, whose
  /// parent is the caller's to write.
  @inline(__always)
  @inlinable
  @discardableResult
  func copyChild(_ from: Int, to: Int) -> Int32 {
    let child = children[from]
    children[to] = child
    counts[to] = counts[from]
    separatorIDs[to] = separatorIDs[from]
    separatorHints[to] = separatorHints[from]
    return child
  }
}

import TestSupport
import Testing

@testable import POMVVM

@Suite("Order tree")
struct OrderTreeTests {
  /// Random inserts at ranks, removals by id, moves (a row detached, new
  /// rows inserted while it is out, which may grow the table, then the row
  /// attached elsewhere or discarded) and bulk builds, in several trees that
  /// share the slots, compared with plain arrays after every step.
  @Test(arguments: 1...3)
  func ranksSelectsAndTreesMatchPlainArrays(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed))
    func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    let tree = _OrderTree<Int>()
    var model: [[Int]] = [[], [], []]
    for _ in model.indices { _ = tree.addTree() }
    var nextID = 0
    var failures: [String] = []
    for step in 0..<3_000 {
      let number = pick(3)
      switch pick(6) {
      case 0, 1, 2:
        let position = pick(model[number].count + 1)
        tree.insert(nextID, at: position, in: number)
        model[number].insert(nextID, at: position)
        nextID += 1
      case 3 where !model[number].isEmpty:
        let id = model[number][pick(model[number].count)]
        let removed = tree.remove(id)
        let position = model[number].firstIndex(of: id) ?? -1
        if removed?.tree != number || removed?.position != position {
          failures.append("step \(step): removing \(id) gave \(String(describing: removed))")
        }
        model[number].remove(at: position)
      case 4 where !model[number].isEmpty:
        let id = model[number][pick(model[number].count)]
        guard let node = tree.node(of: id) else {
          failures.append("step \(step): \(id) has no node")
          break
        }
        let detached = tree.detach(node)
        let position = model[number].firstIndex(of: id) ?? -1
        if detached.tree != number || detached.position != position {
          failures.append("step \(step): detaching \(id) gave \(detached)")
        }
        model[number].remove(at: position)
        for _ in 0..<pick(40) {
          let other = pick(3)
          let at = pick(model[other].count + 1)
          tree.insert(nextID, at: at, in: other)
          model[other].insert(nextID, at: at)
          nextID += 1
        }
        if pick(4) == 0 {
          tree.discard(node)
          if tree.node(of: id) != nil { failures.append("step \(step): \(id) is still found") }
        } else {
          let to = pick(3)
          let at = pick(model[to].count + 1)
          tree.attach(node, at: at, in: to)
          model[to].insert(id, at: at)
          if tree.node(of: id) != node {
            failures.append("step \(step): \(id) came back in another node")
          }
        }
      default:
        let ordered = (0..<pick(8)).map { _ in
          defer { nextID += 1 }
          return nextID
        }
        tree.build(ordered, in: number)
        model[number] = ordered
      }
      for (index, ids) in model.enumerated() where tree.ids(of: index) != ids {
        failures.append("step \(step): tree \(index) is \(tree.ids(of: index)), not \(ids)")
      }
      for (index, ids) in model.enumerated() {
        for (position, id) in ids.enumerated()
        where tree.rank(of: id) != position || tree.id(at: position, in: index) != id
          || tree.tree(of: id) != index
        {
          failures.append("step \(step): \(id) is not at \(position) of tree \(index)")
        }
      }
      if tree.count != model.map(\.count).reduce(0, +) {
        failures.append("step \(step): count \(tree.count)")
      }
      if !failures.isEmpty { break }
    }
    #expect(failures == [])
  }

  /// An id found once is not found after the trees are emptied, nor after
  /// it is removed, even though the tree remembers the last id it found.
  @Test
  func anEmptiedTreeFindsNoIDItFoundBefore() {
    let tree = _OrderTree<Int>()
    _ = tree.addTree()
    tree.build([10, 20, 30], in: 0)
    #expect(tree.node(of: 20) != nil)
    tree.removeAll(trees: 1)
    #expect(tree.node(of: 20) == nil)
    #expect(tree.rank(of: 20) == nil)
    tree.build([20, 40], in: 0)
    #expect(tree.rank(of: 40) == 1)
    #expect(tree.remove(40)?.position == 1)
    #expect(tree.node(of: 40) == nil)
    #expect(tree.ids(of: 0) == [20])
  }

  /// A tree built in bulk on fresh slots has every id in order, and a row
  /// is in place exactly when it goes after the row before it and before
  /// the row after it, which takes at most two comparisons.
  @Test
  func aBulkBuiltTreeKnowsWhetherARowIsStillBetweenItsNeighbours() {
    let tree = _OrderTree<Int>()
    _ = tree.addTree()
    let ids = Array(0..<500).map { $0 * 2 }
    tree.build(ids, in: 0)
    #expect(tree.ids(of: 0) == ids)
    #expect(ids.indices.allSatisfy { tree.rank(of: ids[$0]) == $0 })
    var wrong: [String] = []
    for id in ids {
      guard let node = tree.node(of: id) else {
        wrong.append("\(id) has no node")
        continue
      }
      // A new value `value` (in the ids' units) for the row of `id`.
      for (shift, expected) in [(0, true), (1, true), (-1, true), (3, false), (-3, false)] {
        let value = id + shift
        var calls = 0
        let inPlace = tree.isInPlace(node) { other in
          calls += 1
          return value < other
        }
        let stays =
          expected || (shift > 0 && id == ids.last) || (shift < 0 && id == ids.first)
        if inPlace != stays || calls > 2 {
          wrong.append("\(id) moved by \(shift): \(inPlace) after \(calls) calls")
        }
      }
    }
    #expect(wrong == [])
  }

  /// A built tree, on fresh slots or on slots freed by removals, has
  /// full leaves (at most one row fewer than each other), the least height
  /// for them, and every invariant of the B+-tree; insertions and removals
  /// that follow keep them.
  @Test(arguments: [1, 2, 3, 7, 31, 32, 33, 100, 1_000, 1_024, 1_025, 4_096, 10_000, 40_000])
  func aBuiltTreeHasFullLeavesAndTheLeastHeight(count: Int) {
    let tree = _OrderTree<Int>()
    _ = tree.addTree()
    _ = tree.addTree()
    // Fresh slots, then a rebuild on freed slots and a few fresh ones.
    tree.build(Array(0..<count), in: 0)
    var failures = tree.violations().map { "fresh: \($0)" }
    let fresh = tree.roots[0].height
    tree.build(Array((0..<(count + 5)).map { 1_000_000 - $0 }), in: 0)
    failures += tree.violations().map { "reused: \($0)" }
    // The second tree takes the slots left free by the first.
    tree.build(Array(0..<(count / 2)).map { -1 - $0 }, in: 0)
    tree.build(Array(0..<count).map { 2_000_000 + $0 }, in: 1)
    failures += tree.violations().map { "shared: \($0)" }
    #expect(tree.ids(of: 1) == (0..<count).map { 2_000_000 + $0 })
    #expect(tree.ids(of: 0) == (0..<(count / 2)).map { -1 - $0 })
    // The least height: each level holds as few nodes as full ones make.
    var nodes = (count + _OrderTree<Int>.leafCapacity - 1) / _OrderTree<Int>.leafCapacity
    var height: Int32 = 0
    while nodes > 1 {
      nodes = (nodes + _OrderTree<Int>.innerCapacity - 1) / _OrderTree<Int>.innerCapacity
      height += 1
    }
    #expect(fresh == height)
    #expect(tree.roots[1].height == height)
    // Full leaves: the tree's rows in as few leaves as hold them.
    var leafCount = 0
    var leaf = tree.firstLeaf(of: 1)
    while leaf >= 0 {
      leafCount += 1
      leaf = tree.leaves[Int(leaf)].next
    }
    #expect(leafCount == (count + 31) / 32)
    // A tree built full still takes insertions and removals.
    tree.insert(3_000_000, at: count / 2, in: 1)
    #expect(tree.remove(2_000_000 + count - 1)?.position == count)
    #expect(tree.rank(of: 3_000_000) == count / 2)
    failures += tree.violations().map { "edited: \($0)" }
    #expect(failures == [])
  }

  /// Many rows in several trees: random insertions (runs at one place,
  /// which split the same leaf again and again), removals (runs, which
  /// merge leaves and inner nodes and take rows from siblings, down to an
  /// empty tree), moves of a row between trees (detached, then attached)
  /// (some located first, as a query does) and rebuilds, compared with
  /// plain arrays and checked against every
  /// invariant of the B+-tree (counts, separators, fill, links, the
  /// leaf of each slot) after every step.
  @Test(arguments: 1...4)
  func aTreeOfManyRowsKeepsItsInvariantsAcrossSplitsAndMerges(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed))
    func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    let tree = _OrderTree<Int>()
    var model: [[Int]] = [[], [], []]
    for _ in model.indices { _ = tree.addTree() }
    var nextID = 0
    var failures: [String] = []
    var tallest: Int32 = 0
    // Rounds that grow the trees, then rounds that shrink them.
    for step in 0..<1_200 {
      let number = pick(3)
      let growing = (step / 150) % 2 == 0
      let kind = pick(10)
      let isEmpty = model[number].isEmpty
      switch kind {
      case 0..<4 where growing || isEmpty:
        // A run of insertions at one place.
        let position = pick(model[number].count + 1)
        for offset in 0..<(1 + pick(150)) {
          tree.insert(nextID, at: position + offset, in: number)
          model[number].insert(nextID, at: position + offset)
          nextID += 1
        }
      case 0..<6 where !isEmpty:
        // A run of removals from one place, or all over.
        let start = pick(model[number].count)
        for _ in 0..<(1 + pick(growing ? 20 : 80)) where !model[number].isEmpty {
          let index = pick(3) == 0 ? pick(model[number].count) : min(start, model[number].count - 1)
          let id = model[number].remove(at: index)
          let removed = tree.remove(id)
          if removed?.tree != number || removed?.position != index {
            failures.append("step \(step): removing \(id) gave \(String(describing: removed))")
          }
        }
      case 6..<8 where !isEmpty:
        // A row moves to a tree, keeping its slot.
        let index = pick(model[number].count)
        let id = model[number].remove(at: index)
        guard let node = tree.node(of: id) else {
          failures.append("step \(step): \(id) has no node")
          break
        }
        // Located first, as a query does (its walk is remembered), or not.
        if pick(2) == 0, tree.rank(of: id) != index {
          failures.append("step \(step): \(id) is not at \(index)")
        }
        let detached = tree.detach(node)
        if detached.tree != number || detached.position != index {
          failures.append("step \(step): detaching \(id) gave \(detached)")
        }
        let to = pick(3)
        let at = pick(model[to].count + 1)
        tree.attach(node, at: at, in: to, hint: at)
        model[to].insert(id, at: at)
        if tree.node(of: id) != node { failures.append("step \(step): \(id) changed slot") }
      case 8 where pick(8) == 0:
        let ordered = (0..<pick(300)).map { _ in
          defer { nextID += 1 }
          return nextID
        }
        tree.build(ordered, in: number)
        model[number] = ordered
      default:
        break
      }
      failures += tree.violations().map { "step \(step): \($0)" }
      tallest = max(tallest, tree.roots.map(\.height).max() ?? 0)
      for (index, ids) in model.enumerated() where tree.ids(of: index) != ids {
        failures.append("step \(step): tree \(index) holds other ids")
      }
      if step % 10 == 0 {
        for (index, ids) in model.enumerated() {
          for (position, id) in ids.enumerated()
          where tree.rank(of: id) != position || tree.id(at: position, in: index) != id {
            failures.append("step \(step): \(id) is not at \(position) of tree \(index)")
          }
        }
      }
      if !failures.isEmpty { break }
    }
    #expect(failures == [])
    // The trees grew past one level of inner nodes.
    #expect(tallest >= 2)
  }

  /// A descent finds where a row goes among rows whose separators sit in
  /// inner nodes: `lowerBound` agrees with a binary search of a sorted
  /// array, calls its predicate O(log n) times, and names the first row
  /// not below (the first of the next leaf at a leaf's end).
  @Test
  func aDescentFindsTheRankAndTheNextRow() {
    let tree = _OrderTree<Int>()
    _ = tree.addTree()
    let ids = Array(0..<5_000).map { $0 * 2 }
    tree.build(ids, in: 0)
    // Rows leave and come back, so that leaves are of all fills.
    for id in stride(from: 0, to: 10_000, by: 6) { tree.remove(id) }
    var model = ids.filter { $0 % 6 != 0 }
    for id in stride(from: 0, to: 10_000, by: 12) {
      let rank = tree.lowerBound(in: 0, isBelow: { $0 < id }).rank
      tree.insert(id, at: rank, in: 0)
      model.insert(id, at: rank)
    }
    #expect(model == model.sorted())
    #expect(tree.ids(of: 0) == model)
    var wrong: [String] = []
    for value in -1...10_001 {
      var calls = 0
      let (rank, next) = tree.lowerBound(
        in: 0,
        isBelow: {
          calls += 1
          return $0 < value
        })
      let expected = model.firstIndex { $0 >= value } ?? model.count
      let nextID = next.exists ? tree.withEntry(next) { id, _ in id } : nil
      if rank != expected || nextID != (expected < model.count ? model[expected] : nil)
        || calls > 20
      {
        wrong.append("\(value): \(rank), \(String(describing: nextID)), \(calls) calls")
      }
    }
    #expect(wrong == [])
    #expect(tree.violations() == [])
  }
}

extension _OrderTree where ID == Int {
  /// Every broken invariant of the trees, described: each node's count
  /// within its bounds, each inner node's counts the rows under its
  /// children and its separators their first rows, parent links, the
  /// leaves' links in order, each slot's leaf, and the table.
  func violations() -> [String] {
    var found: [String] = []
    var seen = 0
    for tree in roots.indices {
      let root = roots[tree]
      guard root.node >= 0 else {
        if root.count != 0 { found.append("empty tree \(tree) counts \(root.count)") }
        continue
      }
      var leavesInOrder: [Int32] = []
      // The rows under `node`, checked.
      func check(_ node: Int32, height: Int32, parent: Int32) -> Int {
        let isRoot = parent < 0
        if height == 0 {
          let leaf = leaves[Int(node)]
          if leaf.parent != parent { found.append("leaf \(node) has parent \(leaf.parent)") }
          if Int(leaf.count) > Self.leafCapacity
            || leaf.count < (isRoot ? 1 : Int32(Self.leafMinimum))
          {
            found.append("leaf \(node) holds \(leaf.count)")
          }
          let base = Self.leafBase(node)
          for index in 0..<Int(leaf.count) {
            let slot = leafSlots[base + index]
            if leafOf[Int(slot)] != node { found.append("slot \(slot) is not in leaf \(node)") }
            if ids[Int(slot)] != leafIDs[base + index] {
              found.append("slot \(slot) has another id")
            }
            if self.node(of: leafIDs[base + index]) != slot {
              found.append("the table does not find \(leafIDs[base + index])")
            }
          }
          leavesInOrder.append(node)
          return Int(leaf.count)
        }
        let inner = inners[Int(node)]
        if inner.parent != parent { found.append("inner \(node) has parent \(inner.parent)") }
        if inner.height != height { found.append("inner \(node) has height \(inner.height)") }
        if Int(inner.count) > Self.innerCapacity
          || inner.count < (isRoot ? 2 : Int32(Self.innerMinimum))
        {
          found.append("inner \(node) holds \(inner.count)")
        }
        let base = Self.innerBase(node)
        var rows = 0
        for index in 0..<Int(inner.count) {
          let child = children[base + index]
          let under = check(child, height: height - 1, parent: node)
          if Int(counts[base + index]) != under {
            found.append("inner \(node) counts \(counts[base + index]) for \(under) rows")
          }
          if separatorIDs[base + index] != first(of: child, height: height - 1).id {
            found.append("inner \(node)'s separator \(index) is not its child's first row")
          }
          rows += under
        }
        return rows
      }
      let rows = check(root.node, height: root.height, parent: -Int32(tree) - 2)
      if rows != root.count { found.append("tree \(tree) counts \(root.count) for \(rows) rows") }
      seen += rows
      for (index, leaf) in leavesInOrder.enumerated() {
        let previous = index > 0 ? leavesInOrder[index - 1] : -1
        let next = index + 1 < leavesInOrder.count ? leavesInOrder[index + 1] : -1
        if leaves[Int(leaf)].previous != previous || leaves[Int(leaf)].next != next {
          found.append("leaf \(leaf) is linked out of order")
        }
      }
    }
    let freed = Set(free)
    let detached = leafOf.indices.filter { leafOf[$0] < 0 && !freed.contains(Int32($0)) }.count
    if count != seen + detached {
      found.append("the table counts \(count) for \(seen + detached) ids")
    }
    return found
  }
}

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

  /// A built tree, on fresh slots or on slots freed by removals, is of the
  /// least height and still ordered by priority (each node above the nodes
  /// of lower priority): insertions and removals that follow keep the
  /// treap's expected costs.
  @Test(arguments: [1, 2, 3, 7, 100, 1_000, 4_095, 4_096, 10_000])
  func aBuiltTreeIsOfTheLeastHeightAndOrderedByPriority(count: Int) {
    let tree = _OrderTree<Int>()
    _ = tree.addTree()
    _ = tree.addTree()
    // Fresh slots, then a rebuild on freed slots and a few fresh ones.
    tree.build(Array(0..<count), in: 0)
    let fresh = shape(of: tree, 0)
    tree.build(Array((0..<(count + 5)).map { 1_000_000 - $0 }), in: 0)
    let reused = shape(of: tree, 0)
    // The second tree takes the slots left free by the first.
    tree.build(Array(0..<(count / 2)).map { -1 - $0 }, in: 0)
    tree.build(Array(0..<count).map { 2_000_000 + $0 }, in: 1)
    let shared = shape(of: tree, 1)
    func leastHeight(_ count: Int) -> Int { Int.bitWidth - count.leadingZeroBitCount }
    #expect(fresh == .init(height: leastHeight(count), isHeap: true, ids: Array(0..<count)))
    #expect(
      reused
        == .init(
          height: leastHeight(count + 5), isHeap: true,
          ids: (0..<(count + 5)).map { 1_000_000 - $0 }))
    #expect(
      shared
        == .init(
          height: leastHeight(count), isHeap: true, ids: (0..<count).map { 2_000_000 + $0 }))
    // A tree built balanced still takes insertions and removals.
    tree.insert(3_000_000, at: count / 2, in: 1)
    #expect(tree.remove(2_000_000 + count - 1)?.position == count)
    #expect(tree.rank(of: 3_000_000) == count / 2)
  }

  struct Shape: Equatable {
    var height: Int
    var isHeap: Bool
    var ids: [Int]
  }

  /// The height of tree `number`, whether each node's priority is above
  /// its children's, and its ids in order, by a walk of its links.
  func shape(of tree: _OrderTree<Int>, _ number: Int) -> Shape {
    var height = 0
    var isHeap = true
    var ids: [Int] = []
    func walk(_ node: Int32, depth: Int) {
      guard node >= 0 else { return }
      height = max(height, depth)
      for child in [tree.left[Int(node)], tree.right[Int(node)]] where child >= 0 {
        if _OrderTree<Int>.priority(child) > _OrderTree<Int>.priority(node)
          || tree.parent[Int(child)] != node
        {
          isHeap = false
        }
      }
      walk(tree.left[Int(node)], depth: depth + 1)
      ids.append(tree.ids[Int(node)])
      walk(tree.right[Int(node)], depth: depth + 1)
    }
    walk(tree.roots[number], depth: 1)
    return Shape(height: height, isHeap: isHeap, ids: ids)
  }
}

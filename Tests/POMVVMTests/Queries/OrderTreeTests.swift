import TestSupport
import Testing

@testable import POMVVM

@Suite("Order tree")
struct OrderTreeTests {
  /// Random inserts at ranks and removals by id, in several trees that
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
      switch pick(5) {
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
}

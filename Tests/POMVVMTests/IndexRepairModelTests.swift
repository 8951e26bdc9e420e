import TestSupport
import Testing

@testable import POMVVM

/// The id index stays exact through insertions and removals at both ends
/// and in the middle, moves, replacements and diffs, interleaved with writes
/// through element cells: seeded model tests against a plain array.
@MainActor
@Suite("Id index")
struct IndexRepairModelTests {
  @Test(arguments: [1 as UInt64, 2, 3])
  func agreesWithAPlainArrayOverManySteps(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var model = (0..<64).map { TestItem($0, "start") }
    let array = ObservableArray(model)
    let openCount = array.liveCount(where: \.on)
    var cells: [Int: ElementCell<TestItem>] = [:]
    var nextID = model.count
    func newItem(_ text: String) -> TestItem {
      defer { nextID += 1 }
      return TestItem(nextID, text)
    }
    func randomIndex(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    let steps = 35_000
    for step in 0..<steps {
      // Removals get the upper hand once the array is large, which keeps
      // it between a few dozen and about a thousand elements.
      let shrink = model.count > 1_000 && random.next() % 2 == 0
      switch shrink ? 5 + random.next() % 3 : random.next() % 16 {
      case 0...2:
        let item = newItem("front \(step)")
        array.insert(item, at: 0)
        model.insert(item, at: 0)
      case 3:
        let item = newItem("back \(step)")
        array.append(item)
        model.append(item)
      case 4:
        let item = newItem("middle \(step)")
        let index = randomIndex(model.count + 1)
        array.insert(item, at: index)
        model.insert(item, at: index)
      case 5 where model.count > 8:
        array.remove(at: 0)
        model.removeFirst()
      case 6 where model.count > 8:
        array.remove(at: model.count - 1)
        model.removeLast()
      case 7 where model.count > 8:
        let index = randomIndex(model.count)
        let removed = try #require(array.remove(id: model[index].id))
        #expect(removed == model.remove(at: index))
      case 8 where !model.isEmpty:
        let source = randomIndex(model.count)
        let destination = randomIndex(model.count)
        array.move(from: source, to: destination)
        model.insert(model.remove(at: source), at: destination)
      case 9 where !model.isEmpty:
        let index = randomIndex(model.count)
        let item = newItem("replaced \(step)")
        array.replace(at: index, with: item)
        model[index] = item
      case 10 where model.count > 8 && step % 4 == 0:
        // A diff: a few removals, insertions, moves and edits at once.
        var contents = model
        for _ in 0..<3 { contents.remove(at: randomIndex(contents.count)) }
        for _ in 0..<3 {
          contents.insert(newItem("diffed \(step)"), at: randomIndex(contents.count + 1))
        }
        contents.insert(
          contents.remove(at: randomIndex(contents.count)), at: randomIndex(contents.count))
        contents[randomIndex(contents.count)].text = "edited \(step)"
        array.replaceAll(with: contents)
        model = contents
      case 11...13 where !model.isEmpty:
        // A write through a cell kept from earlier, whose hint may be stale
        // (ids are never reused, so a kept cell of a present id is attached).
        let index = randomIndex(model.count)
        let id = model[index].id
        let cell = try #require(cells[id] ?? array.cell(for: id))
        cells[id] = cell
        #expect(cell.set(TestItem(id, "written \(step)", on: !model[index].on)))
        model[index] = TestItem(id, "written \(step)", on: !model[index].on)
      case 14:
        let items = (0..<3).map { _ in newItem("appended \(step)") }
        array.append(contentsOf: items)
        model += items
      default:
        if !model.isEmpty {
          let index = randomIndex(model.count)
          #expect(array.index(id: model[index].id) == index)
        }
        #expect(!array.contains(id: nextID))
      }
      if step % 500 == 0 || step == steps - 1 {
        try expectIndexed(array, model, step: step)
        #expect(openCount.value == model.count(where: \.on), "step \(step)")
        let byID = Dictionary(uniqueKeysWithValues: model.map { ($0.id, $0) })
        cells = cells.filter { !$0.value.isDetached }
        for (id, cell) in cells {
          #expect(cell.value == byID[id], "step \(step)")
        }
      }
    }
    #expect(array.elements == model)
  }

  /// Ids whose hashes fall on three values make long runs of occupied
  /// slots, which wrap around the table's end: removal from the middle of a
  /// run must pull the rest of it back, and renumbering must find each id.
  @Test func agreesWithAPlainArrayWhenEveryHashCollides() throws {
    var random = SplitMix64(seed: 7)
    var model = (0..<40).map { Colliding(id: $0) }
    let array = ObservableArray(model)
    var nextID = model.count
    for step in 0..<1_500 {
      let index = Int(random.next() % UInt64(model.count + 1))
      switch model.count > 200 ? 2 : random.next() % 4 {
      case 0, 1:
        array.insert(Colliding(id: nextID), at: index)
        model.insert(Colliding(id: nextID), at: index)
        nextID += 1
      case 2 where model.count > 4:
        let removed = array.remove(at: Swift.min(index, model.count - 1))
        #expect(removed == model.remove(at: Swift.min(index, model.count - 1)))
      default:
        let source = Int(random.next() % UInt64(model.count))
        let destination = Int(random.next() % UInt64(model.count))
        array.move(from: source, to: destination)
        model.insert(model.remove(at: source), at: destination)
      }
      if step % 100 == 0 {
        try expectIndexed(array, model, step: step)
      }
    }
    try expectIndexed(array, model, step: 1_500)
  }

  private func expectIndexed<Element: Identifiable & Equatable>(
    _ array: ObservableArray<Element>, _ model: [Element], step: Int
  ) throws {
    try #require(array.elements == model, "step \(step)")
    let misplaced = model.indices.filter { index in
      array.index(id: model[index].id) != index || array[id: model[index].id] != model[index]
    }
    #expect(misplaced.isEmpty, "step \(step): ids found at the wrong place")
  }
}

/// An element whose ids hash to one of three values.
private struct Colliding: Identifiable, Equatable {
  struct ID: Hashable {
    let value: Int
    static func == (lhs: ID, rhs: ID) -> Bool { lhs.value == rhs.value }
    func hash(into hasher: inout Hasher) { hasher.combine(value % 3) }
  }

  let id: ID

  init(id: Int) { self.id = ID(value: id) }
}

/// The base that keeps positions relative moves with every insert or removal
/// at the top; when it would leave its range, one pass brings it back.
@MainActor
@Suite("Id index base")
struct PositionIndexBaseTests {
  @Test(arguments: [1, -1])
  func theBaseComesBackToTheMiddleWhenItRunsOut(direction: Int) {
    var elements = (0..<50).map { TestItem($0) }
    var index = _PositionIndex(elements)
    // Put the base one step from the edge it moves toward, keeping every
    // slot's meaning.
    let target = direction > 0 ? 1 : 2 * _PositionIndex<TestItem>._middle - 1
    let step = UInt32(truncatingIfNeeded: target &- index._base)
    index._slots = index._slots.map { $0 == .max ? $0 : $0 &+ step }
    index._base = target
    #expect(elements.indices.allSatisfy { index.find(elements[$0].id, in: elements) == $0 })
    for id in 100..<104 {
      if direction > 0 {
        elements.insert(TestItem(id), at: 0)
        index.shiftSuffix(from: 0, by: 1, keeping: 0, in: elements)
        index.insert(TestItem.ID(id), at: 0, in: elements)
      } else {
        let removed = elements.remove(at: 0)
        index.remove(removed.id, at: 0, in: [removed] + elements)
        index.shiftSuffix(from: 1, by: -1, keeping: 0, in: elements)
      }
    }
    #expect(index._base > 1 && index._base < 2 * _PositionIndex<TestItem>._middle - 1)
    let misplaced = elements.indices.filter { index.find(elements[$0].id, in: elements) != $0 }
    #expect(misplaced.isEmpty)
    #expect(index.find(-1, in: elements) == nil)
  }
}

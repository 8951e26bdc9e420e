import POMVVM
import TestSupport
import Testing

/// The id index survives insertions and removals at both ends without a full
/// rebuild: a seeded model test against a plain array.
@MainActor
@Suite("Id index repair")
struct IndexRepairModelTests {
  @Test(arguments: [1 as UInt64, 2, 3])
  func agreesWithAPlainArrayOverManySteps(seed: UInt64) throws {
    var random = SplitMix64(seed: seed)
    var model = (0..<64).map { TestItem($0, "start") }
    let array = ObservableArray(model)
    let openCount = array.liveCount(where: \.on)
    var cells: [Int: ElementCell<TestItem>] = [:]
    var nextID = model.count
    let steps = 35_000
    for step in 0..<steps {
      switch random.next() % 10 {
      case 0...1:
        let item = TestItem(nextID, "front \(step)")
        nextID += 1
        array.insert(item, at: 0)
        model.insert(item, at: 0)
      case 2:
        let item = TestItem(nextID, "back \(step)")
        nextID += 1
        array.append(item)
        model.append(item)
      case 3 where model.count > 8:
        array.remove(at: 0)
        model.removeFirst()
      case 4 where model.count > 8:
        array.remove(at: model.count - 1)
        model.removeLast()
      case 5 where !model.isEmpty:
        let index = Int(random.next() % UInt64(model.count))
        let removed = try #require(array.remove(id: model[index].id))
        #expect(removed == model.remove(at: index))
      case 6...8 where !model.isEmpty:
        // A write through a cell kept from earlier, whose hint is stale.
        let index = Int(random.next() % UInt64(model.count))
        let id = model[index].id
        let cell = try #require(cells[id] ?? array.cell(for: id))
        cells[id] = cell
        #expect(cell.set(TestItem(id, "written \(step)", on: !model[index].on)))
        model[index] = TestItem(id, "written \(step)", on: !model[index].on)
      default:
        if !model.isEmpty {
          let index = Int(random.next() % UInt64(model.count))
          #expect(array.index(id: model[index].id) == index)
        }
      }
      cells = cells.filter { !$0.value.isDetached }
      if step % 500 == 0 || step == steps - 1 {
        #expect(array.elements == model, "step \(step)")
        #expect(openCount.value == model.count(where: \.on), "step \(step)")
        for (id, cell) in cells {
          #expect(cell.value == model.first { $0.id == id }, "step \(step)")
        }
      }
    }
    #expect(array.elements == model)
  }
}

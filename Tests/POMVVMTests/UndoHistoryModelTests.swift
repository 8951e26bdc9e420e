import POMVVMTesting
import TestSupport
import Testing

@testable import POMVVM

/// Random mutations of every kind, interleaved with random undo and redo,
/// against a model that keeps the array's state before every step: after
/// every operation the array equals the model's state at that point of its
/// history, and its element cells, aggregate and change sets agree.
@MainActor
@Suite("UndoHistory model")
struct UndoHistoryModelTests {
  @Test(arguments: [11 as UInt64, 12, 13, 14, 15])
  func agreesWithAModelOfItsStates(seed: UInt64) async throws {
    var random = SplitMix64(seed: seed)
    func below(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    let time = ManualClock()
    let limit = 40
    let array = ObservableArray((0..<12).map { TestItem($0, "start") })
    let open = array.liveCount(where: \.on)
    let history = UndoHistory(limit: limit, clock: time)
    history.track(array)
    // Every change set, replayed onto a copy, gives the array's contents.
    var replayed = array.elements
    var replayFailures = 0
    let subscription = array.observeChanges { change in
      do {
        replayed = try change.changeSet.applied(to: replayed)
      } catch {
        replayFailures += 1
      }
    }
    // The model: the state before each undo step (newest last), and the
    // state after each redo step (next first, last).
    var past: [[TestItem]] = []
    var future: [[TestItem]] = []
    var cells: [Int: ElementCell<TestItem>] = [:]
    var nextID = 100
    func newItem() -> TestItem {
      defer { nextID += 1 }
      return TestItem(nextID, "new \(nextID)")
    }
    func mutate() {
      let count = array.count
      switch below(11) {
      case 0:
        array.insert(newItem(), at: below(count + 1))
      case 1 where count > 0:
        array.remove(at: below(count))
      case 2 where count > 1:
        array.move(from: below(count), to: below(count))
      case 3 where count > 0:
        var item = array[below(count)]
        item.text = "updated \(random.next() % 100)"
        array.update(item)
      case 4:
        var contents = array.elements.shuffled(using: &random)
        if !contents.isEmpty && random.next() % 2 == 0 { contents.removeLast() }
        if random.next() % 2 == 0 { contents.insert(newItem(), at: below(contents.count + 1)) }
        if !contents.isEmpty { contents[below(contents.count)].on.toggle() }
        array.replaceAll(with: contents)
      case 5:
        array.batch { contents in
          if !contents.isEmpty { contents.remove(at: below(contents.count)) }
          contents.insert(newItem(), at: below(contents.count + 1))
          if !contents.isEmpty { contents[below(contents.count)].text = "batched" }
        }
      case 6...7 where count > 0:
        // Writes through element cells, kept across steps.
        let id = array[below(min(count, 4))].id
        let cell = cells[id].flatMap { $0.isDetached ? nil : $0 } ?? array.cell(for: id)
        cells[id] = cell
        cell?.value.text += "k"
      case 8 where count > 0:
        array.cell(for: array[below(count)].id, \.on)?.value.toggle()
      case 9:
        history.transaction("T") {
          for _ in 0..<(1 + below(3)) {
            let count = array.count
            if count > 0 && random.next() % 2 == 0 {
              array.remove(at: below(count))
            } else {
              array.insert(newItem(), at: below(count + 1))
            }
          }
        }
      default:
        array.append(newItem())
      }
    }
    var undone = 0
    for step in 0..<2_000 {
      switch below(10) {
      case 0...2:
        let current = array.elements
        let expected = past.last
        #expect(history.undo() == (expected != nil), "step \(step)")
        if let expected {
          #expect(array.elements == expected, "undo at step \(step)")
          undone += 1
          past.removeLast()
          future.append(current)
        }
      case 3...4:
        let current = array.elements
        let expected = future.last
        #expect(history.redo() == (expected != nil), "step \(step)")
        if let expected {
          #expect(array.elements == expected, "redo at step \(step)")
          future.removeLast()
          past.append(current)
          if past.count > limit { past.removeFirst() }
        }
      default:
        if random.next() % 4 == 0 { history.stopMerging() }
        await time.advance(by: random.next() % 3 == 0 ? .seconds(2) : .milliseconds(100))
        let before = array.elements
        let top = history.undoSteps.last
        mutate()
        if array.elements == before && history.undoSteps.last === top { break }
        if history.undoSteps.last !== top {
          past.append(before)
          if past.count > limit { past.removeFirst() }
        }
        future.removeAll()
        #expect(history.redoCount == 0)
      }
      #expect(history.undoCount == past.count, "step \(step)")
      #expect(history.redoCount == future.count, "step \(step)")
      #expect(replayed == array.elements, "step \(step)")
      #expect(open.value == array.filter(\.on).count, "step \(step)")
      for (id, cell) in cells {
        if cell.isDetached { continue }
        #expect(cell.value == array[id: id], "cell \(id) at step \(step)")
      }
    }
    #expect(replayFailures == 0)
    // The run is worth something only if it took many steps back.
    #expect(undone > 300)
    withExtendedLifetime(subscription) {}
  }

  /// A step keeps the change sets it recorded, which hold only the elements
  /// they touched: a toggle at 100,000 elements, or a merged burst of 1,000
  /// of them, keeps one update.
  @Test func aStepHoldsOnlyTheElementsItsChangesTouched() async throws {
    let time = ManualClock()
    let array = ObservableArray((0..<100_000).map { TestItem($0) })
    let history = UndoHistory(clock: time)
    history.track(array)
    let on = try #require(array.cell(for: 50_000, \.on))
    for _ in 0..<1_000 {
      on.value.toggle()
      await time.advance(by: .milliseconds(10))
    }
    let records = try #require(history.undoSteps.last).records
    #expect(records.count == 1)
    let edit = try #require(records.first as? _ArrayEdit<TestItem>)
    #expect(edit.changeSet.count == 1 && edit.changeSet.updates.count == 1)
    #expect(edit.changeSet.reload == nil && edit.movedIDs.isEmpty)
  }
}

import POMVVM
import Testing

@MainActor
@Suite("ChangeSet.batchUpdate and steps")
struct BatchUpdateTests {
  /// The change set of `replaceAll(with: new)` on `old`.
  private func changeSet(_ old: [TestItem], _ new: [TestItem]) -> ChangeSet<TestItem> {
    let items = ObservableArray(old)
    var published: [ChangeSet<TestItem>] = []
    let subscription = items.observeChanges { published.append($0.changeSet) }
    items.replaceAll(with: new)
    subscription.cancel()
    return published.first ?? ChangeSet()
  }

  @Test func aRowThatMovedAndChangedIsReconfiguredAtItsNewIndexNeverReloaded() {
    let old = [TestItem(1, "a"), TestItem(2, "b"), TestItem(3, "c")]
    let new = [TestItem(2, "b"), TestItem(3, "c!"), TestItem(1, "a!")]
    let batch = changeSet(old, new).batchUpdate
    #expect(
      batch
        == BatchUpdate(
          moves: [.init(from: 0, to: 2)], reloads: [2], reconfigurations: [2],
          changedRows: [1, 2]))
    #expect(batch.description == "move [0->2], reload [2], reconfigure [2]")
  }

  @Test func deletionsInsertionsAndReloadsKeepTheirIndices() {
    let old = [TestItem(1), TestItem(2), TestItem(3), TestItem(4)]
    let new = [TestItem(9), TestItem(2), TestItem(3, "edited"), TestItem(4)]
    let batch = changeSet(old, new).batchUpdate
    #expect(
      batch == BatchUpdate(deletions: [0], insertions: [0], reloads: [2], changedRows: [2]))
    #expect(changeSet(old, new).steps == [.delete(0), .insert(0), .reload(2)])
  }

  @Test func aReloadIsReloadData() {
    let reload = ChangeSet<TestItem>.reload(from: [TestItem(1)], to: [TestItem(2), TestItem(3)])
    #expect(reload.batchUpdate == .reloadData)
    #expect(reload.batchUpdate.description == "reloadData")
    #expect(reload.steps == [.delete(0), .insert(0), .insert(1)])
    #expect(ChangeSet<TestItem>().batchUpdate.isEmpty)
  }

  @Test func stepsPlaceARowAboveARowStillToMove() {
    // A B -> B X A: X is inserted while A still sits at the top, so its
    // step's index is 2, not its final 1; A then moves past it.
    let steps = ChangeSet(
      insertions: [.init(index: 1, element: TestItem(9))], moves: [.init(from: 0, to: 2)]
    ).steps
    #expect(steps == [.insert(2), .move(from: 0, to: 2)])
    var rows = [1, 2]
    for step in steps {
      switch step {
      case .insert(let index): rows.insert(9, at: index)
      case .move(let from, let to): rows.insert(rows.remove(at: from), at: to)
      default: Issue.record("unexpected step \(step)")
      }
    }
    #expect(rows == [2, 9, 1])
  }

  @Test func aMovedRowThatChangedIsMovedThenReloadedWhereItEnds() {
    let steps = changeSet(
      [TestItem(1), TestItem(2), TestItem(3)], [TestItem(3, "c!"), TestItem(1), TestItem(2)]
    ).steps
    #expect(steps == [.move(from: 2, to: 0), .reload(0)])
    #expect(ListStep.move(from: 2, to: 0).description == "move(2->0)")
  }
}

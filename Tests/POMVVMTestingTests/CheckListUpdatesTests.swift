import MasterDetail
import POMVVMTesting
import Testing

/// A store that wraps an array and publishes its changes with a flaw that a
/// list view would crash on.
@MainActor
private final class FlawedStore: ArrayLawSubject {
  enum Flaw {
    /// Reports the update of an element that moved at its old index: the
    /// move + reload of the same row that UIKit refuses.
    case updatesMovedRowsWhereTheyWere
    /// Forgets its removals: the counts no longer add up.
    case dropsRemovals
  }

  let items: ObservableArray<Item>
  private let flaw: Flaw

  init(_ items: [Item], flaw: Flaw) {
    self.items = ObservableArray(items)
    self.flaw = flaw
  }

  var elements: [Item] { items.elements }

  func observeChanges(_ handler: @escaping @MainActor (ArrayChange<Item>) -> Void) -> Subscription {
    let flaw = flaw
    return items.observeChanges { change in
      var changeSet = change.changeSet
      switch flaw {
      case .updatesMovedRowsWhereTheyWere:
        let destinations = Set(changeSet.moves.map(\.to))
        for index in changeSet.updates.indices
        where destinations.contains(changeSet.updates[index].newIndex) {
          changeSet.updates[index].newIndex = changeSet.updates[index].oldIndex
        }
      case .dropsRemovals:
        changeSet.removals = []
      }
      handler(ArrayChange(changeSet: changeSet, newElements: change.newElements))
    }
  }

  func cell(for id: Item.ID) -> ElementCell<Item>? { items.cell(for: id) }

  func liveCount(where predicate: @escaping (Item) -> Bool) -> ArrayCount<Item> {
    items.liveCount(where: predicate)
  }
}

@MainActor
@Suite("checkListUpdates")
struct CheckListUpdatesTests {
  private static func edited(_ element: Item, _ variant: Int) -> Item {
    var element = element
    element.text = "edit \(variant)"
    element.on = variant.isMultiple(of: 2)
    return element
  }

  @Test func everyKindOfMutationReachesTheListSafely() {
    checkListUpdates(
      ObservableArray((1...5).map { item($0, "\($0)") }),
      mutations: [
        .insert(item(6, "f"), at: 0),
        .move(from: 0, to: 3),
        .update(item(2, "b, edited")),
        // Moves and edits at once: 5 to the top, edited; 1 to the end.
        .replaceAll(with: [item(5, "e!"), item(2), item(3), item(6, "f"), item(4), item(1)]),
        .batch("remove 3 and put it back edited, insert, move") { items in
          let three = items.remove(at: 2)
          items.insert(item(three.id, "c again"), at: 0)
          items.append(item(7, "g"))
          items.swapAt(1, 4)
        },
        .replaceAll(with: [item(8), item(9)]),
        .removeAll(),
      ])
  }

  /// The property test of the issue: over 10,000 change sets of every
  /// shape, 0 broken rules (the check records any as a failure).
  @Test func tenThousandRandomChangeSetsBreakNoRule() {
    var changeSets = 0
    var movedAndChanged = 0
    var reloads = 0
    var mixed = 0
    for seed in 1...4 as ClosedRange<UInt64> {
      let items = ObservableArray((0..<12).map { item($0, "\($0)") })
      let subscription = items.observeChanges { change in
        let changeSet = change.changeSet
        changeSets += 1
        if changeSet.isReload { reloads += 1 }
        let destinations = Set(changeSet.moves.map(\.to))
        if changeSet.updates.contains(where: { destinations.contains($0.newIndex) }) {
          movedAndChanged += 1
        }
        if !changeSet.removals.isEmpty && !changeSet.insertions.isEmpty
          && !changeSet.moves.isEmpty && !changeSet.updates.isEmpty
        {
          mixed += 1
        }
      }
      checkListUpdates(
        items, randomMutations: 2_700, seed: seed, newElement: { item(100 + $0, "new") },
        edited: Self.edited)
      subscription.cancel()
    }
    #expect(changeSets >= 10_000)
    #expect(movedAndChanged > 500)
    #expect(reloads > 50)
    #expect(mixed > 50)
  }

  @Test func aStoreThatReloadsMovedRowsWhereTheyWereFails() {
    let line = #line + 2
    let failures = recordedFailures {
      checkListUpdates(
        FlawedStore((1...4).map { item($0) }, flaw: .updatesMovedRowsWhereTheyWere),
        mutations: [
          .init("move 1 to the end, edited") { store in
            store.items.replaceAll(with: [item(2), item(3), item(4), item(1, "edited")])
          }
        ])
    }
    #expect(
      failures.laws == [
        "the batch update keeps UIKit's rules", "the batch update keeps UIKit's rules",
        "the steps keep UIKit's rules",
      ])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.first?.message.contains(
        "attempt to move and reload the same index path (section 0, row 0)") == true)
  }

  @Test func aStoreThatDropsRemovalsFails() {
    let failures = recordedFailures {
      checkListUpdates(
        FlawedStore((1...3).map { item($0) }, flaw: .dropsRemovals),
        mutations: [.init("remove 2") { $0.items.remove(at: 1) }])
    }
    #expect(failures.laws.contains("the batch update keeps UIKit's rules"))
    #expect(failures.first?.message.contains("invalid number of rows in section 0") == true)
  }
}

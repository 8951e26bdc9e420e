import MasterDetail
import POMVVMTesting
import Testing

/// A store that wraps an array, as an app's store might, with optional
/// flaws that break the laws.
@MainActor
private final class ItemStore: ArrayLawSubject {
  struct Flaws: OptionSet {
    let rawValue: Int

    /// Publishes change sets without their updates.
    static let dropsUpdates = Flaws(rawValue: 1 << 0)
    /// Hands out cells onto a copy of the items made at creation: ghosts.
    static let ghostCells = Flaws(rawValue: 1 << 1)
    /// Counts a copy of the items made at creation.
    static let staleCounts = Flaws(rawValue: 1 << 2)
    /// Tells its observers of a reload for every change, which its counts
    /// never see.
    static let publishesReloads = Flaws(rawValue: 1 << 3)
  }

  let items: ObservableArray<Item>
  private let copy: ObservableArray<Item>
  private let flaws: Flaws

  init(_ items: [Item], flaws: Flaws = []) {
    self.items = ObservableArray(items)
    copy = ObservableArray(items)
    self.flaws = flaws
  }

  var elements: [Item] { items.elements }

  func observeChanges(_ handler: @escaping @MainActor (ArrayChange<Item>) -> Void) -> Subscription {
    let flaws = flaws
    return items.observeChanges { change in
      var changeSet = change.changeSet
      if flaws.contains(.dropsUpdates) {
        changeSet.updates = []
      }
      if flaws.contains(.publishesReloads) {
        changeSet = .reload(from: change.oldElements, to: change.newElements)
      }
      handler(ArrayChange(changeSet: changeSet, newElements: change.newElements))
    }
  }

  func cell(for id: Item.ID) -> ElementCell<Item>? {
    (flaws.contains(.ghostCells) ? copy : items).cell(for: id)
  }

  func liveCount(where predicate: @escaping (Item) -> Bool) -> ArrayCount<Item> {
    (flaws.contains(.staleCounts) ? copy : items).liveCount(where: predicate)
  }
}

@MainActor
@Suite("checkObservableArrayLaws")
struct CheckObservableArrayLawsTests {
  @Test func everyKindOfMutationKeepsTheLaws() {
    checkObservableArrayLaws(
      ObservableArray([item(1, "a"), item(2, "b", on: true), item(3, "c")]),
      mutations: [
        .insert(item(4, "d"), at: 0),
        .append(item(5, "e", on: true)),
        .remove(at: 1),
        .remove(id: 5),
        .move(from: 0, to: 2),
        .replace(at: 0, with: item(2, "b, edited", on: false)),
        .replace(at: 1, with: item(6, "f")),
        .update(item(4, "d", on: true)),
        .replaceAll(with: [item(4, "d", on: true), item(7, "g"), item(2, "b")]),
        .batch("drop the open ones, add two") { items in
          items.removeAll { $0.on }
          items += [item(8, "h", on: true), item(9, "i")]
        },
        .removeAll(),
        .append(item(1, "a, again")),
      ],
      counting: [\.on])
  }

  @Test(arguments: 1...4 as ClosedRange<UInt64>)
  func randomMutationsKeepTheLaws(seed: UInt64) {
    checkObservableArrayLaws(
      ObservableArray((0..<5).map { item($0, "\($0)", on: $0.isMultiple(of: 2)) }),
      randomMutations: 300, seed: seed,
      newElement: { item(100 + $0, "new \($0)") },
      edited: { element, variant in
        var element = element
        if variant.isMultiple(of: 2) {
          element.on.toggle()
        } else {
          element.text = ["a", "b", "c"][variant % 3]
        }
        return element
      },
      counting: [\.on])
  }

  /// The sample's items, changed the way its screens change them.
  @Test func theSampleItemsKeepTheLaws() {
    let master = makeMaster(["first", "second"])
    let detail = required(master.detailViewModel(for: master.items[1].id), "detail")
    checkObservableArrayLaws(
      master.items,
      mutations: [
        ArrayMutation("insertNowDate") { _ in master.insertNowDate(text: "third") },
        ArrayMutation("toggle row 0") { _ in master.cellViewModel(at: 0)?.toggleSwitch() },
        ArrayMutation("open the detail's switch") { _ in detail.openSwitch() },
        ArrayMutation("edit the detail's text") { _ in detail.text.value = "edited" },
        ArrayMutation("delete from the detail") { _ in detail.delete() },
        ArrayMutation("toggle the deleted detail") { _ in detail.toggleSwitch() },
        ArrayMutation("delete row 0") { _ in master.delete(at: 0) },
        .append(item(50, "appended", on: true)),
      ],
      counting: [\.on])
    #expect(master.openSwitchCount.value == master.items.count { $0.on })
  }

  @Test func theSampleItemsKeepTheLawsUnderRandomMutations() {
    let master = makeMaster(["first", "second", "third"])
    checkObservableArrayLaws(
      master.items, randomMutations: 300, seed: 7,
      newElement: { item(1_000 + $0, "new") },
      edited: { element, variant in
        var element = element
        element.on = variant.isMultiple(of: 2)
        element.text += "."
        return element
      },
      counting: [\.on])
    #expect(master.openSwitchCount.value == master.items.count { $0.on })
  }

  @Test func aStoreThatWrapsAnArrayKeepsTheLaws() {
    checkObservableArrayLaws(
      ItemStore([item(1), item(2)]),
      mutations: [
        ArrayMutation("toggle 1") { $0.items.update(item(1, on: true)) },
        ArrayMutation("remove 2") { $0.items.remove(id: 2) },
      ],
      counting: [\.on])
  }

  @Test func changeSetsWithoutTheirUpdatesFailTheReplayLaw() {
    let line = #line + 2
    let failures = recordedFailures {
      checkObservableArrayLaws(
        ItemStore([item(1), item(2)], flaws: .dropsUpdates),
        mutations: [
          ArrayMutation("toggle 1") { $0.items.update(item(1, on: true)) },
          ArrayMutation("remove 2") { $0.items.remove(id: 2) },
        ],
        counting: [\.on])
    }
    #expect(failures.laws == ["a change set replays to the new contents"])
    #expect(failures.locations == [here(line)])
    let before = [item(1), item(2)]
    let after = [item(1, on: true), item(2)]
    #expect(
      failures.first?.message == """
        ObservableArray law 'a change set replays to the new contents' failed for ItemStore: \
        applying `no change` to \(before) gives \(before), but the change publishes \(after)
        Trace:
          - checkObservableArrayLaws(ItemStore)
          - step 1: toggle 1
        """)
  }

  @Test func ghostCellsFailTheCellLaws() {
    let line = #line + 2
    let failures = recordedFailures {
      checkObservableArrayLaws(
        ItemStore([item(1), item(2)], flaws: .ghostCells),
        mutations: [
          ArrayMutation("toggle 1") { $0.items.update(item(1, on: true)) },
          ArrayMutation("remove 2") { $0.items.remove(id: 2) },
        ])
    }
    #expect(
      failures.laws == [
        "element cells follow their elements",  // step 1: the cell of 1 missed the toggle
        "element cells follow their elements",  // step 2: still
        "element cells detach on removal",  // step 2: the cell of 2 is a ghost
      ])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.last?.message.contains(
        "after its element left, the cell for id 2 is not detached, its detachment was told 0 "
          + "times, and it took a write, like a ghost copy") == true)
  }

  @Test func staleCountsFailTheRecountLaw() {
    let line = #line + 2
    let failures = recordedFailures {
      checkObservableArrayLaws(
        ItemStore([item(1), item(2)], flaws: .staleCounts),
        mutations: [
          ArrayMutation("toggle 1") { $0.items.update(item(1, on: true)) },
          ArrayMutation("append 3") { $0.items.append(item(3)) },
        ],
        counting: [\.on])
    }
    #expect(
      failures.laws == [
        "aggregates equal a recount",  // step 1: liveCount(where: \Item.on)
        "aggregates equal a recount",  // step 2: liveCount(where: { _ in true })
        "aggregates equal a recount",  // step 2: liveCount(where: \Item.on)
      ])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.first?.message.hasPrefix(
        "ObservableArray law 'aggregates equal a recount' failed for ItemStore: "
          + "liveCount(where: \\Item.on) is 0, a recount gives 1") == true)
  }

  @Test func reloadsTheCountsNeverSawFailTheRecountLaw() {
    let line = #line + 2
    let failures = recordedFailures {
      checkObservableArrayLaws(
        ItemStore([item(1), item(2)], flaws: .publishesReloads),
        mutations: [ArrayMutation("toggle 1") { $0.items.update(item(1, on: true)) }])
    }
    #expect(failures.laws == ["aggregates recount only on reloads"])
    #expect(failures.locations == [here(line)])
  }

  @Test func anEditThatChangesTheIdIsReported() {
    let line = #line + 2
    let failures = recordedFailures {
      checkObservableArrayLaws(
        ObservableArray([item(1), item(2)]), randomMutations: 50, seed: 1,
        newElement: { item(100 + $0) }, edited: { element, _ in item(element.id + 1) })
    }
    #expect(failures.laws == ["misuse"])
    #expect(failures.locations == [here(line)])
  }
}

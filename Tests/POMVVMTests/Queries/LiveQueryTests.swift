import POMVVM
import POMVVMTesting
import TestSupport
import Testing

@MainActor
@Suite("Live query")
struct LiveQueryTests {
  // MARK: - The law, under random mutations

  @Test(arguments: 1...5)
  func aQueryEqualsAFreshEvaluationAfterEveryRandomStep(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed))
    var nextID = 0
    var removed: [TestItem] = []
    let array = ObservableArray<TestItem>((0..<12).map { TestItem($0, ["a", "b", "c"][$0 % 3]) })
    nextID = 12
    var filter = QueryModel.filters[0]
    var order = QueryModel.orders[0]
    let query = array.query(where: filter.1, sortedBy: order.1)
    var contents = query.elements
    var list = HeadlessList(rows: contents.map(\.id))
    var failures: [String] = []
    var held: [ArrayChange<TestItem>] = []
    var step = 0
    let subscription = query.observeChanges { change in
      // Read some changes at once, keep the others to read after the step:
      // both must describe the contents right after the change.
      if step % 2 == 0 {
        held.append(change)
      } else {
        check(change)
      }
    }
    func check(_ change: ArrayChange<TestItem>) {
      let replayed = try? change.changeSet.applied(to: contents)
      if replayed != change.newElements {
        failures.append(
          "step \(step): \(change.changeSet) on \(contents) gives \(String(describing: replayed)), "
            + "not \(change.newElements)")
      }
      let violations = list.apply(
        change.changeSet.batchUpdate, newRows: change.newElements.map(\.id),
        changed: Set(change.changeSet.updates.map(\.newElement.id)))
      if !violations.isEmpty { failures.append("step \(step): \(violations)") }
      contents = change.newElements
    }
    for current in 1...2_000 {
      step = current
      switch random.next() % 20 {
      case 0:
        filter = QueryModel.filters[Int(random.next() % 4)]
        query.isIncluded = filter.1
      case 1:
        order = QueryModel.orders[Int(random.next() % 4)]
        query.areInIncreasingOrder = order.1
      default:
        QueryModel.mutate(array, &random, nextID: &nextID, removed: &removed)
      }
      for change in held { check(change) }
      held.removeAll()
      let expected = QueryModel.evaluate(array.elements, where: filter.1, sortedBy: order.1)
      if query.elements != expected {
        failures.append("step \(step) (\(filter.0), \(order.0)): \(query.elements) != \(expected)")
      }
      if contents != expected { failures.append("step \(step): published contents drifted") }
      if list.rows != expected.map(\.id) { failures.append("step \(step): the list drifted") }
      if !failures.isEmpty { break }
    }
    #expect(failures == [])
    _ = subscription
  }

  // MARK: - Single changes

  @Test
  func anEditThatKeepsTheRowInPlaceIsAnUpdate() {
    let array = ObservableArray((0..<5).map { TestItem($0, "\($0)") })
    let query = array.query(sortedBy: { $0.text < $1.text })
    var changes: [String] = []
    let subscription = query.observeChanges { changes.append("\($0.changeSet)") }
    array.cell(for: 2)!.value.on = true
    #expect(changes == ["update [2]"])
    _ = subscription
  }

  /// A new predicate right after another reuses the rows' array
  /// positions; after the array moved its elements, it must not.
  @Test
  func newPredicatesBeforeAndAfterTheArrayShiftsPublishReplayableChanges() {
    let array = ObservableArray((0..<8).map { TestItem($0, "\(7 - $0)", on: $0 % 2 == 0) })
    let query = array.query(where: \.on, sortedBy: { $0.text < $1.text })
    var contents = query.elements
    var failures: [String] = []
    let subscription = query.observeChanges { change in
      if (try? change.changeSet.applied(to: contents)) != change.newElements {
        failures.append("\(change.changeSet) on \(contents) is not \(change.newElements)")
      }
      contents = change.newElements
    }
    query.isIncluded = { $0.id % 3 == 0 }
    query.isIncluded = { $0.id < 5 }
    array.insert(TestItem(10, "9", on: true), at: 0)
    array.remove(at: 3)
    query.isIncluded = { $0.id % 2 == 0 }
    let expected = array.elements.filter { $0.id % 2 == 0 }.sorted { $0.text < $1.text }
    #expect(query.elements == expected)
    #expect(contents == expected)
    #expect(failures == [])
    _ = subscription
  }

  @Test
  func anEditOfTheSortKeyIsOneMove() {
    let array = ObservableArray((0..<5).map { TestItem($0, "\($0)") })
    let query = array.query(sortedBy: { $0.text < $1.text })
    var changes: [String] = []
    let subscription = query.observeChanges { changes.append("\($0.changeSet)") }
    array.cell(for: 0, \.text)!.set("9")
    #expect(changes == ["move [0->4], update [4]"])
    #expect(query.ids == [1, 2, 3, 4, 0])
    _ = subscription
  }

  @Test
  func anEditOfTheFilterResultIsAnInsertionOrARemoval() {
    let array = ObservableArray((0..<5).map { TestItem($0, on: $0 % 2 == 0) })
    let query = array.query(where: \.on)
    var changes: [String] = []
    let subscription = query.observeChanges { changes.append("\($0.changeSet)") }
    array.cell(for: 1, \.on)!.set(true)
    array.cell(for: 0, \.on)!.set(false)
    #expect(changes == ["insert [1]", "remove [0]"])
    #expect(query.ids == [1, 2, 4])
    _ = subscription
  }

  @Test
  func tiesKeepTheArraysOrderAndFollowItWhenItReorders() {
    let array = ObservableArray([
      TestItem(0, "b"), TestItem(1, "a"), TestItem(2, "b"), TestItem(3, "a"),
    ])
    let query = array.query(sortedBy: { $0.text < $1.text })
    #expect(query.ids == [1, 3, 0, 2])
    var changes: [String] = []
    let subscription = query.observeChanges { changes.append("\($0.changeSet)") }
    array.move(from: 3, to: 0)
    #expect(query.ids == [3, 1, 0, 2])
    array.move(from: 3, to: 1)
    #expect(query.ids == [3, 1, 2, 0])
    #expect(changes.count == 2)
    _ = subscription
  }

  @Test
  func aNewPredicateIsOneChangeAndNotAReload() {
    let array = ObservableArray((0..<100).map { TestItem($0, on: $0 != 50) })
    let query = array.query()
    var changes: [ChangeSet<TestItem>] = []
    let subscription = query.observeChanges { changes.append($0.changeSet) }
    query.isIncluded = \.on
    #expect(changes.map(\.description) == ["remove [50]"])
    query.areInIncreasingOrder = { $0.id > $1.id }
    #expect(changes.count == 2)
    #expect(query.ids == (0..<100).reversed().filter { $0 != 50 })
    _ = subscription
  }

  @Test
  func aPredicateReadingACellFiltersAgainWhenTheCellChanges() {
    let array = ObservableArray([TestItem(0, "kiwi"), TestItem(1, "pear"), TestItem(2, "plum")])
    let search = Observable("")
    let query = array.query(
      where: { search.value.isEmpty || $0.text.contains(search.value) }, reading: search)
    var changes: [String] = []
    let subscription = query.observeChanges { changes.append("\($0.changeSet)") }
    search.value = "p"
    search.value = "pl"
    #expect(query.ids == [2])
    #expect(changes == ["remove [0]", "remove [0]"])
    search.value = ""
    #expect(query.ids == [0, 1, 2])
    _ = subscription
  }

  @Test
  func theCellIsTheArraysOwnAndNilOutsideTheQuery() {
    let array = ObservableArray([TestItem(0, on: true), TestItem(1, on: false)])
    let query = array.query(where: \.on)
    #expect(query.cell(for: 0) === array.cell(for: 0))
    #expect(query.cell(for: 1) == nil)
  }

  @Test
  func aDetailWhoseElementLeavesTheQueryStaysAttachedAndTheRowComesBack() {
    let array = ObservableArray([TestItem(0, on: true), TestItem(1, on: true)])
    let query = array.query(where: \.on)
    let detail = query.cell(for: 0)!
    detail.value.on = false
    #expect(query.ids == [1])
    #expect(!detail.isDetached)
    detail.value.text = "edited"
    #expect(array[id: 0]?.text == "edited")
    detail.value.on = true
    #expect(query.ids == [0, 1])
    #expect(query.elements[0].text == "edited")
  }

  @Test
  func aReleasedQueryIsFreedAndLeavesNoObserver() {
    let array = ObservableArray([TestItem(0)])
    weak var released: LiveQuery<TestItem>?
    do {
      let query = array.query(where: \.on)
      let subscription = query.observeChanges { _ in }
      released = query
      array.append(TestItem(1, on: true))
      _ = subscription
    }
    #expect(released == nil)
    array.append(TestItem(2, on: true))
    #expect(array.count == 3)
  }

  @Test
  func aHeldChangeKeepsItsContentsWhileTheQueryMovesOn() {
    let array = ObservableArray((0..<4).map { TestItem($0) })
    let query = array.query(sortedBy: { $0.text < $1.text })
    var held: [ArrayChange<TestItem>] = []
    let subscription = query.observeChanges { held.append($0) }
    array.cell(for: 0, \.text)!.set("z")
    array.cell(for: 1, \.text)!.set("y")
    array.remove(id: 2)
    #expect(held.map { $0.newElements.map(\.id) } == [[1, 2, 3, 0], [2, 3, 1, 0], [3, 1, 0]])
    #expect(held[0].newElements.last?.text == "z")
    #expect(held[0].newElements.first?.text == "x")
    _ = subscription
  }

  @Test
  func anObserverThatMutatesDuringDeliveryGetsOrderedConsistentChanges() {
    let array = ObservableArray((0..<6).map { TestItem($0, on: $0 % 2 == 0) })
    let query = array.query(where: \.on, sortedBy: { $0.id > $1.id })
    var contents = query.elements
    var failures: [String] = []
    var first = true
    let reentrant = query.observeChanges { _ in
      guard first else { return }
      first = false
      array.append(TestItem(10, on: true))
      query.isIncluded = { _ in true }
      array.cell(for: 1, \.text)!.set("changed")
    }
    let checker = query.observeChanges { change in
      if (try? change.changeSet.applied(to: contents)) != change.newElements {
        failures.append("\(change.changeSet) does not replay onto \(contents)")
      }
      contents = change.newElements
    }
    array.cell(for: 0, \.on)!.set(false)
    #expect(failures == [])
    #expect(
      contents
        == QueryModel.evaluate(array.elements, where: { _ in true }, sortedBy: { $0.id > $1.id }))
    #expect(query.elements == contents)
    _ = (reentrant, checker)
  }

  @Test
  func undoThroughTheArrayMakesTheQueryFollow() {
    let array = ObservableArray((0..<4).map { TestItem($0, on: true) })
    let history = UndoHistory()
    history.track(array)
    let query = array.query(where: \.on)
    array.cell(for: 1, \.on)!.set(false)
    #expect(query.ids == [0, 2, 3])
    history.undo()
    #expect(query.ids == [0, 1, 2, 3])
    history.redo()
    #expect(query.ids == [0, 2, 3])
  }

  @Test
  func readingTheQueryIsTracked() {
    let array = ObservableArray((0..<4).map { TestItem($0, on: true) })
    let query = array.query(where: \.on)
    let tracker = track { _ = query.count }
    array.cell(for: 1, \.on)!.set(false)
    #expect(tracker.fired == 1)
  }

  // MARK: - Editing through the query

  @Test
  func removingAtOffsetsRemovesThoseElementsFromTheArray() {
    let array = ObservableArray((0..<6).map { TestItem($0, on: $0 % 2 == 0) })
    let query = array.query(where: \.on)
    query.remove(atOffsets: [0, 2])
    #expect(array.map(\.id) == [1, 2, 3, 5])
    query.remove(atOffsets: [0])
    #expect(array.map(\.id) == [1, 3, 5])
  }

  @Test
  func movingToTheEndPlacesTheRowsAfterTheLastVisibleElement() {
    let array = ObservableArray((0..<6).map { TestItem($0, on: $0 != 5) })
    let query = array.query(where: \.on)
    #expect(query.move(fromOffsets: [0], toOffset: query.count))
    #expect(array.map(\.id) == [1, 2, 3, 4, 0, 5])
    #expect(query.move(fromOffsets: [3, 4], toOffset: 1))
    #expect(array.map(\.id) == [1, 4, 0, 2, 3, 5])
    #expect(query.ids == [1, 4, 0, 2, 3])
  }

  @Test
  func removingAtOffsetsOutOfRangeIsRefusedVisiblyAndChangesNothing() {
    let array = ObservableArray((0..<4).map { TestItem($0, on: $0 != 3) })
    let query = array.query(where: \.on)
    var removed = true
    let reports = Diagnostics.capturing {
      removed = query.remove(atOffsets: [0, 3])
    }
    #expect(!removed)
    #expect(reports.count == 1)
    #expect(array.map(\.id) == [0, 1, 2, 3])
  }

  @Test
  func aSortedQueryRefusesAMoveVisibly() {
    let array = ObservableArray((0..<3).map { TestItem($0) })
    let query = array.query(sortedBy: { $0.id > $1.id })
    var moved = true
    let reports = Diagnostics.capturing {
      moved = query.move(fromOffsets: [0], toOffset: 2)
    }
    #expect(!moved)
    #expect(reports.count == 1)
    #expect(array.map(\.id) == [0, 1, 2])
  }
}

import POMVVM
import POMVVMTesting
import TestSupport
import Testing

@MainActor
@Suite("Sectioned query")
struct SectionedQueryTests {
  static func shape(_ sections: [QuerySection<String, TestItem>]) -> [(key: String, ids: [Int])] {
    sections.map { ($0.key, $0.ids) }
  }

  /// Sections by text alone (three), or by text and id (up to twelve: more
  /// than the eight whose keys the engine compares in turn, so that it
  /// searches them in order).
  @Test(arguments: 1...5, [false, true])
  func aSectionedQueryEqualsAFreshGroupingAfterEveryRandomStep(seed: Int, manySections: Bool) {
    var random = SplitMix64(seed: UInt64(seed))
    var nextID = 0
    var removed: [TestItem] = []
    let array = ObservableArray<TestItem>(
      (0..<12).map { TestItem($0, ["a", "b", "c"][$0 % 3], on: $0 % 2 == 0) })
    nextID = 12
    var filter = QueryModel.filters[0]
    var order = QueryModel.orders[0]
    // Sections by text, rows by the chosen order: an edit of the text is a
    // move across sections.
    let key: (TestItem) -> String = manySections ? { $0.text + String($0.id % 4) } : { $0.text }
    // Set before the query hears of the change: this observer comes first.
    var lastArrayChangeSize = Int.max
    var changedIDs: Set<Int> = []
    let sizes = array.observeChanges { change in
      lastArrayChangeSize = change.changeSet.count
      changedIDs = Set(change.changeSet.updates.map(\.newElement.id))
    }
    let query = array.query(where: filter.1, sortedBy: order.1, sectionedBy: key)
    var shown = Self.shape(query.sections)
    var headless = HeadlessSectionedList<String, Int>(
      sections: shown.map { .init(key: $0.key, ids: $0.ids) })
    var failures: [String] = []
    var step = 0
    var held: [SectionedChange<String, TestItem>] = []
    let subscription = query.observeChanges { change in
      if step % 2 == 0 { held.append(change) } else { check(change) }
    }
    func check(_ change: SectionedChange<String, TestItem>) {
      let new = Self.shape(change.newSections)
      let (replayed, broken) = replay(change.batchUpdate, on: shown, data: new)
      if !broken.isEmpty {
        failures.append("step \(step): \(change.batchUpdate) breaks \(broken)")
      } else if replayed != new.map(\.ids) {
        failures.append(
          "step \(step): \(change.batchUpdate) on \(shown) gives \(replayed), not \(new)")
      }
      let violations = headless.apply(
        change.batchUpdate, newSections: new.map { .init(key: $0.key, ids: $0.ids) },
        changed: changedIDs)
      if !violations.isEmpty { failures.append("step \(step): \(violations)") }
      if change.batchUpdate.isReloadData && lastArrayChangeSize <= 2 {
        failures.append("step \(step): reloadData for a change of one element")
      }
      shown = new
    }
    for current in 1...2_000 {
      step = current
      switch random.next() % 20 {
      case 0:
        filter = QueryModel.filters[Int(random.next() % 4)]
        lastArrayChangeSize = Int.max
        changedIDs = []
        query.isIncluded = filter.1
      case 1:
        order = QueryModel.orders[Int(random.next() % 4)]
        lastArrayChangeSize = Int.max
        changedIDs = []
        query.areInIncreasingOrder = order.1
      default:
        QueryModel.mutate(array, &random, nextID: &nextID, removed: &removed)
      }
      for change in held { check(change) }
      held.removeAll()
      let expected = QueryModel.sections(
        array.elements, where: filter.1, sortedBy: order.1, sectionedBy: key)
      let actual = Self.shape(query.sections)
      if actual.map(\.key) != expected.map(\.key) || actual.map(\.ids) != expected.map(\.ids) {
        failures.append("step \(step) (\(filter.0), \(order.0)): \(actual) != \(expected)")
      }
      if shown.map(\.key) != expected.map(\.key) || shown.map(\.ids) != expected.map(\.ids) {
        failures.append("step \(step): published sections drifted")
      }
      if !failures.isEmpty { break }
    }
    #expect(failures == [])
    _ = (subscription, sizes)
  }

  @Test
  func aToggleAcrossSectionsIsOneRowMove() {
    let array = ObservableArray((0..<6).map { TestItem($0, on: $0 < 3) })
    let query = array.query(sectionedBy: { $0.on ? "on" : "off" })
    var batches: [String] = []
    let subscription = query.observeChanges { batches.append("\($0.batchUpdate)") }
    array.cell(for: 4, \.on)!.set(true)
    #expect(batches == ["move [0.1->1.3], reconfigure [1.3]"])
    #expect(query.sections.map(\.ids) == [[3, 5], [0, 1, 2, 4]])
    _ = subscription
  }

  @Test
  func aSectionAppearsAndDisappearsWithItsRows() {
    let array = ObservableArray((0..<3).map { TestItem($0, "a") })
    let query = array.query(sectionedBy: \.text)
    var batches: [String] = []
    let subscription = query.observeChanges { batches.append("\($0.batchUpdate)") }
    array.cell(for: 1, \.text)!.set("b")
    #expect(query.keys == ["a", "b"])
    array.cell(for: 1, \.text)!.set("a")
    #expect(query.keys == ["a"])
    array.append(TestItem(7, "0"))
    #expect(query.keys == ["0", "a"])
    #expect(
      batches == [
        "insert sections [1], delete [0.1]",
        "delete sections [1], insert [0.1]",
        "insert sections [0]",
      ])
    _ = subscription
  }

  @Test
  func aRowThatStaysInItsSectionAndChangesIsReloaded() {
    let array = ObservableArray((0..<3).map { TestItem($0, "a") })
    let query = array.query(sectionedBy: \.text)
    var batches: [SectionedBatchUpdate] = []
    let subscription = query.observeChanges { batches.append($0.batchUpdate) }
    array.cell(for: 1, \.on)!.set(true)
    #expect(batches.map(\.description) == ["reload [0.1]"])
    #expect(batches.first?.changedRows == [RowPath(section: 0, row: 1)])
    _ = subscription
  }

  @Test
  func aCustomSectionOrderOrdersTheSections() {
    let array = ObservableArray((0..<4).map { TestItem($0, ["a", "b"][$0 % 2]) })
    let query = array.query(sectionedBy: \.text, sectionOrder: { $0 > $1 })
    #expect(query.keys == ["b", "a"])
    #expect(query.path(of: 2) == RowPath(section: 1, row: 1))
    #expect(query[RowPath(section: 0, row: 1)].id == 3)
  }

  @Test
  func aDetailMovesAcrossSectionsWhileItStaysEditable() {
    let array = ObservableArray((0..<4).map { TestItem($0, on: false) })
    let query = array.query(where: { $0.text != "hidden" }, sectionedBy: { $0.on ? 1 : 0 })
    let detail = query.cell(for: 2)!
    detail.value.on = true
    #expect(query.path(of: 2) == RowPath(section: 1, row: 0))
    detail.value.text = "hidden"
    #expect(query.path(of: 2) == nil)
    #expect(!detail.isDetached)
    detail.value.text = "back"
    #expect(query.path(of: 2) == RowPath(section: 1, row: 0))
    #expect(array[id: 2]?.text == "back")
  }

  @Test
  func aPredicateReadingACellFiltersAgainInOneChange() {
    let array = ObservableArray((0..<6).map { TestItem($0, ["a", "b"][$0 % 2], on: $0 < 3) })
    let onlyOn = Observable(false)
    let query = array.query(
      where: { !onlyOn.value || $0.on }, sectionedBy: \.text, reading: onlyOn)
    var batches: [String] = []
    let subscription = query.observeChanges { batches.append("\($0.batchUpdate)") }
    onlyOn.value = true
    #expect(batches.count == 1)
    #expect(query.sections.map(\.ids) == [[0, 2], [1]])
    _ = subscription
  }

  @Test
  func aReleasedSectionedQueryIsFreed() {
    let array = ObservableArray([TestItem(0)])
    weak var released: SectionedQuery<String, TestItem>?
    do {
      let query = array.query(sectionedBy: \.text)
      released = query
      array.append(TestItem(1, "y"))
    }
    #expect(released == nil)
  }

  @Test
  func removingAtOffsetsOfASectionRemovesThoseElements() {
    let array = ObservableArray((0..<6).map { TestItem($0, ["a", "b"][$0 % 2]) })
    let query = array.query(sectionedBy: \.text)
    query.remove(atOffsets: [0, 2], inSection: 1)
    #expect(array.map(\.id) == [0, 2, 3, 4])
  }

  /// Section "b" shows 1, 3, 5: moving its first row to its end puts
  /// element 1 after 5 in the array, past "a"'s elements in between.
  @Test
  func movingRowsOfASectionMovesThemInTheArrayAndKeepsTheirSection() {
    let array = ObservableArray((0..<6).map { TestItem($0, ["a", "b"][$0 % 2]) })
    let query = array.query(sectionedBy: \.text)
    #expect(query.move(fromOffsets: [0], toOffset: 3, inSection: 1))
    #expect(array.map(\.id) == [0, 2, 3, 4, 5, 1])
    #expect(Self.shape(query.sections).map(\.ids) == [[0, 2, 4], [3, 5, 1]])
    #expect(query.move(fromOffsets: [1, 2], toOffset: 0, inSection: 0))
    #expect(Self.shape(query.sections).map(\.ids) == [[2, 4, 0], [3, 5, 1]])
  }

  @Test
  func badSectionsAndOffsetsAndSortedMovesAreRefusedVisibly() {
    let array = ObservableArray((0..<6).map { TestItem($0, ["a", "b"][$0 % 2]) })
    let query = array.query(sectionedBy: \.text)
    let sorted = array.query(sortedBy: { $0.id > $1.id }, sectionedBy: \.text)
    var results: [Bool] = []
    let reports = Diagnostics.capturing {
      results = [
        query.remove(atOffsets: [0], inSection: 2),
        query.remove(atOffsets: [3], inSection: 0),
        query.move(fromOffsets: [0], toOffset: 4, inSection: 0),
        query.move(fromOffsets: [0], toOffset: 1, inSection: -1),
        sorted.move(fromOffsets: [0], toOffset: 2, inSection: 0),
      ]
    }
    #expect(results == [false, false, false, false, false])
    #expect(reports.count == 5)
    #expect(array.map(\.id) == [0, 1, 2, 3, 4, 5], "nothing changed")
  }
}

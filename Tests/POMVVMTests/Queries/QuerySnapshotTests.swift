import POMVVM
import TestSupport
import Testing

/// A query's change carries contents made on demand, in an object the query
/// reuses for its next change when nobody kept the last one: a held change
/// must keep its own contents, outlive its query, and never be reused.
@MainActor
@Suite("Query change contents")
struct QuerySnapshotTests {
  static func makeArray() -> ObservableArray<TestItem> {
    ObservableArray([TestItem(1, "c"), TestItem(2, "a"), TestItem(3, "b")])
  }

  static let byText: (TestItem, TestItem) -> Bool = { $0.text < $1.text }

  @Test func aHeldChangeIsNotReusedByTheToggleThatFollows() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: Self.byText)
    var first: ArrayChange<TestItem>?
    var deliveries = 0
    let keeper = query.observeChanges { change in
      deliveries += 1
      if first == nil { first = change }
    }
    // Toggles whose rows stay: the query's fastest path, one update each.
    for _ in 0..<3 { array.cell(for: 2)?.value.on.toggle() }
    array.cell(for: 3)?.value.on.toggle()
    keeper.cancel()
    #expect(deliveries == 4)
    #expect(first?.changeSet.updates.map(\.newElement.on) == [true])
    #expect(first?.changeSet.updates.map(\.newIndex) == [0])
    #expect(first?.newElements.map(\.on) == [true, false, false])
    #expect(query.elements.map(\.on) == [true, true, false])
  }

  /// The query publishes every toggle whose row stays in one reused
  /// change: each delivery must carry its own update alone, and contents
  /// read as of that toggle.
  @Test func eachToggleInPlaceCarriesOnlyItsOwnUpdateAndRows() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: Self.byText)
    var seen: [String] = []
    let observer = query.observeChanges { change in
      let updates = change.changeSet.updates.map { "\($0.newIndex):\($0.newElement.on)" }
      seen.append("\(change.changeSet.count) \(updates) \(change.newElements.map(\.on))")
    }
    array.cell(for: 2)?.value.on.toggle()
    array.cell(for: 3)?.value.on.toggle()
    array.cell(for: 2)?.value.on.toggle()
    observer.cancel()
    #expect(
      seen == [
        "1 [\"0:true\"] [true, false, false]",
        "1 [\"1:true\"] [true, true, false]",
        "1 [\"0:false\"] [false, true, false]",
      ])
  }

  @Test func aHeldChangeOutlivesItsQuery() {
    let array = Self.makeArray()
    var query: LiveQuery<TestItem>? = array.query(sortedBy: Self.byText)
    weak let released = query
    var held: ArrayChange<TestItem>?
    let keeper = query?.observeChanges { held = $0 }
    array.update(TestItem(1, "0"))
    keeper?.cancel()
    query = nil
    #expect(released == nil)
    array.update(TestItem(2, "z"))
    #expect(held?.newElements.map(\.id) == [1, 2, 3])
    #expect(held?.newElements.map(\.text) == ["0", "a", "b"])
  }

  @Test func aHeldSectionedChangeOutlivesItsQuery() {
    let array = Self.makeArray()
    var query: SectionedQuery<Int, TestItem>? = array.query(
      sortedBy: Self.byText, sectionedBy: { $0.on ? 1 : 0 })
    weak let released = query
    var held: SectionedChange<Int, TestItem>?
    let keeper = query?.observeChanges { held = $0 }
    array.update(TestItem(3, "b", on: true))
    keeper?.cancel()
    query = nil
    #expect(released == nil)
    array.update(TestItem(2, "z", on: true))
    #expect(held?.newSections.map(\.key) == [0, 1])
    #expect(held?.newSections.map { $0.elements.map(\.id) } == [[2, 1], [3]])
  }

  @Test func aChangeReadAfterANestedChangeShowsItsOwnRows() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: Self.byText)
    var seen: [[Int]] = []
    var nested = false
    let observer = query.observeChanges { change in
      guard !nested else { return }
      nested = true
      // A new predicate from inside the delivery publishes its own change
      // before this one's contents were read.
      query.isIncluded = { $0.id != 2 }
      seen.append(change.newElements.map(\.id))
    }
    array.update(TestItem(1, "0"))
    observer.cancel()
    #expect(seen == [[1, 2, 3]])
    #expect(query.elements.map(\.id) == [1, 3])
  }

  @Test func sectionedChangesHeldAcrossManyTogglesEachKeepTheirSections() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: Self.byText, sectionedBy: { $0.on ? 1 : 0 })
    var held: [SectionedChange<Int, TestItem>] = []
    let keeper = query.observeChanges { held.append($0) }
    array.cell(for: 1)?.value.on = true
    array.cell(for: 2)?.value.text = "d"
    array.cell(for: 1)?.value.on = false
    keeper.cancel()
    #expect(
      held.map { $0.newSections.map { $0.elements.map(\.id) } } == [
        [[2, 3], [1]], [[3, 2], [1]], [[3, 1, 2]],
      ])
  }

  /// A sectioned query sends each row redrawn in place in one change that
  /// it reuses, emptied, for the next: every held change must keep its own
  /// batch and the sections as of its own edit.
  @Test func sectionedChangesHeldAcrossEditsInPlaceEachKeepTheirBatchAndSections() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: Self.byText, sectionedBy: { $0.id == 1 ? 1 : 0 })
    var held: [SectionedChange<Int, TestItem>] = []
    let keeper = query.observeChanges { held.append($0) }
    // Rows that stay: [[2 "a", 3 "b"], [1 "c"]].
    array.cell(for: 3)?.value.on.toggle()
    array.cell(for: 1)?.value.text = "e"
    array.cell(for: 3)?.value.on.toggle()
    keeper.cancel()
    #expect(
      held.map(\.batchUpdate.reloads) == [
        [RowPath(section: 0, row: 1)], [RowPath(section: 1, row: 0)], [RowPath(section: 0, row: 1)],
      ])
    #expect(held.map(\.batchUpdate.changedRows) == held.map(\.batchUpdate.reloads))
    #expect(held.allSatisfy { $0.batchUpdate.moves.isEmpty && $0.batchUpdate.deletions.isEmpty })
    #expect(
      held.map { $0.newSections.map { $0.elements.map { "\($0.text)\($0.on ? "+" : "")" } } } == [
        [["a", "b+"], ["c"]], [["a", "b+"], ["e"]], [["a", "b"], ["e"]],
      ])
  }

  /// A row moved across sections goes out in the same reused change: every
  /// held batch keeps its own move, and its reconfiguration only if the
  /// row's value changed.
  @Test func heldBatchesOfRowsMovedAcrossSectionsEachKeepTheirOwnMove() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: Self.byText, sectionedBy: { $0.on ? 1 : 0 })
    var held: [SectionedBatchUpdate] = []
    let keeper = query.observeChanges { held.append($0.batchUpdate) }
    // [[2 "a", 3 "b", 1 "c"]]: 3 moves to a new section (not a lone move):
    // [[2, 1], [3]]; 1 joins it: [[2], [3, 1]]; 3 goes back: [[2, 3], [1]];
    // 1 is edited in place.
    array.cell(for: 3)?.value.on = true
    array.cell(for: 1)?.value.on = true
    array.cell(for: 3)?.value.on = false
    array.cell(for: 1)?.value.text = "d"
    keeper.cancel()
    let path = { (section: Int, row: Int) in RowPath(section: section, row: row) }
    #expect(held.count == 4)
    #expect(
      held.dropFirst().map(\.moves) == [
        [.init(from: path(0, 1), to: path(1, 1))],
        [.init(from: path(1, 0), to: path(0, 1))],
        [],
      ])
    #expect(held.dropFirst().map(\.reconfigurations) == [[path(1, 1)], [path(0, 1)], []])
    #expect(held.dropFirst().map(\.changedRows) == [[path(1, 1)], [path(0, 1)], [path(1, 0)]])
    #expect(held.last?.reloads == [path(1, 0)])
    #expect(query.sections.map { $0.elements.map(\.id) } == [[2, 3], [1]])
  }

  /// A sectioned query redraws a row in place in a batch whose buffer it
  /// reuses for the next one once nobody holds it: a held batch must keep
  /// its own row, and each delivery must carry its own row alone.
  @Test func aHeldSectionedBatchOfARowRedrawnInPlaceKeepsItsOwnRow() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: Self.byText, sectionedBy: { $0.id == 1 ? 1 : 0 })
    var held: SectionedBatchUpdate?
    var seen: [String] = []
    let observer = query.observeChanges { change in
      if held == nil { held = change.batchUpdate }
      seen.append("\(change.batchUpdate.reloads) \(change.batchUpdate.changedRows)")
    }
    // Edits whose rows stay: one row redrawn in place each.
    array.cell(for: 3)?.value.on.toggle()
    array.cell(for: 2)?.value.on.toggle()
    array.cell(for: 1)?.value.on.toggle()
    array.cell(for: 3)?.value.on.toggle()
    observer.cancel()
    #expect(seen == ["[0.1] [0.1]", "[0.0] [0.0]", "[1.0] [1.0]", "[0.1] [0.1]"])
    #expect(held?.reloads == [RowPath(section: 0, row: 1)])
    #expect(held?.changedRows == [RowPath(section: 0, row: 1)])
    #expect(held?.deletions.isEmpty == true && held?.insertions.isEmpty == true)
  }

  @Test(arguments: [false, true])
  func aQueryReleasedDuringTheArraysDeliveryStopsFollowingIt(sectioned: Bool) {
    let array = Self.makeArray()
    var query: AnyObject?
    // Made before the query, so it runs first and lets the query go before
    // the array reaches the query's own observer.
    var deliveries = 0
    let releaser = array.observeChanges { _ in
      deliveries += 1
      query = nil
    }
    query =
      sectioned
      ? array.query(sortedBy: Self.byText, sectionedBy: { $0.on ? 1 : 0 }) as AnyObject
      : array.query(sortedBy: Self.byText) as AnyObject
    weak let released = query
    array.update(TestItem(1, "0", on: true))
    array.update(TestItem(2, "z"))
    releaser.cancel()
    #expect(released == nil)
    #expect(deliveries == 2)
    #expect(array.elements.map(\.text) == ["0", "z", "b"])
  }
}

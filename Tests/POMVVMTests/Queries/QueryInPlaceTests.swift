import POMVVM
import TestSupport
import Testing

/// A sorted query follows an update whose new value sorts as its old one did
/// (neither goes before the other) without looking at the row's neighbours:
/// the row must stay exactly where a fresh evaluation puts it, among equal
/// keys too, and every other update must still be placed by its neighbours.
@MainActor
@Suite("Query rows that stay in place")
struct QueryInPlaceTests {
  /// Four items, two of them with the same text: ties go by array order.
  static func makeArray() -> ObservableArray<TestItem> {
    ObservableArray([TestItem(1, "b"), TestItem(2, "a"), TestItem(3, "b"), TestItem(4, "c")])
  }

  /// The query's ids as a fresh filter and stable sort of the array gives
  /// them.
  static func fresh(_ array: ObservableArray<TestItem>) -> [Int] {
    array.elements.enumerated().sorted {
      $0.element.text != $1.element.text
        ? $0.element.text < $1.element.text : $0.offset < $1.offset
    }.map(\.element.id)
  }

  @Test func aToggleOfATiedRowKeepsItsPlaceAmongItsEquals() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: { $0.text < $1.text })
    var changes: [String] = []
    let observer = query.observeChanges { changes.append("\($0.changeSet)") }
    array.cell(for: 3)?.value.on.toggle()
    array.cell(for: 1)?.value.on.toggle()
    observer.cancel()
    #expect(query.ids == [2, 1, 3, 4])
    #expect(query.ids == Self.fresh(array))
    #expect(query.elements.map(\.on) == [false, true, true, false])
    #expect(changes.count == 2)
    #expect(query.index(id: 3) == 2)
  }

  @Test func anEditOfTheSortKeyThatKeepsItsNeighboursIsAnUpdateInPlace() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: { $0.text < $1.text })
    var held: [ArrayChange<TestItem>] = []
    let observer = query.observeChanges { held.append($0) }
    // "c" becomes "d": a new key, still last.
    array.cell(for: 4)?.value.text = "d"
    observer.cancel()
    #expect(query.ids == [2, 1, 3, 4])
    #expect(held.count == 1)
    #expect(held.first?.changeSet.updates.map(\.newIndex) == [3])
    #expect(held.first?.changeSet.moves.isEmpty == true)
  }

  @Test func anEditThatChangesTheKeyMovesTheRow() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: { $0.text < $1.text })
    var held: [ArrayChange<TestItem>] = []
    let observer = query.observeChanges { held.append($0) }
    array.cell(for: 2)?.value.text = "z"
    observer.cancel()
    #expect(query.ids == [1, 3, 4, 2])
    #expect(query.ids == Self.fresh(array))
    #expect(held.first?.changeSet.moves.map { [$0.from, $0.to] } == [[0, 3]])
  }

  @Test func aToggleFromAReactionDuringADeliveryEndsWhereAFreshQueryDoes() {
    let array = Self.makeArray()
    // Made before the query: it reacts before the query sees the change.
    var reacted = false
    let reaction = array.observeChanges { change in
      guard !reacted, change.changeSet.updates.first?.newElement.id == 1 else { return }
      reacted = true
      array.cell(for: 3)?.value.on.toggle()
      array.cell(for: 4)?.value.text = "a"
    }
    let query = array.query(sortedBy: { $0.text < $1.text })
    var replayed = query.elements
    let replay = query.observeChanges { change in
      replayed = (try? change.changeSet.applied(to: replayed)) ?? []
    }
    array.cell(for: 1)?.value.on.toggle()
    reaction.cancel()
    replay.cancel()
    #expect(reacted)
    #expect(query.ids == Self.fresh(array))
    #expect(query.ids == [2, 4, 1, 3])
    #expect(replayed == query.elements)
  }

  @Test func aWriteToADetachedCellChangesNoRow() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: { $0.text < $1.text })
    guard let cell = array.cell(for: 3) else {
      Issue.record("no cell for 3")
      return
    }
    array.remove(id: 3)
    var deliveries = 0
    let observer = query.observeChanges { _ in deliveries += 1 }
    // Captured, so that the refusal's report reaches no other test's handler.
    let reports = Diagnostics.capturing { cell.value.on.toggle() }
    observer.cancel()
    #expect(cell.isDetached)
    #expect(reports.count == 1)
    #expect(deliveries == 0)
    #expect(query.ids == [2, 1, 4])
  }

  @Test func aSectionedQueryReloadsARowThatStaysAndMovesOneThatDoesNot() {
    let array = Self.makeArray()
    // Sections by id parity: [2 "a", 4 "c"] and [1 "b", 3 "b"].
    let query = array.query(sortedBy: { $0.text < $1.text }, sectionedBy: { $0.id % 2 })
    var batches: [SectionedBatchUpdate] = []
    let observer = query.observeChanges { batches.append($0.batchUpdate) }
    // A field neither the order nor the sections read: reloaded in place.
    array.cell(for: 3)?.value.on.toggle()
    // A new text that sorts after its neighbour: a move within the section.
    array.cell(for: 1)?.value.text = "d"
    observer.cancel()
    #expect(batches.count == 2)
    #expect(batches.first?.reloads == [RowPath(section: 1, row: 1)])
    #expect(batches.first?.moves.isEmpty == true)
    #expect(batches.last?.moves.map(\.from) == [RowPath(section: 1, row: 0)])
    #expect(batches.last?.moves.map(\.to) == [RowPath(section: 1, row: 1)])
    #expect(query.sections.map { $0.elements.map(\.id) } == [[2, 4], [3, 1]])
  }

  /// The query remembers the row it found last, for an element edited again
  /// and again: every insertion, removal or rebuild of rows before it must
  /// move the row its next edit reports.
  @Test func theRowOfAnElementEditedAgainFollowsInsertionsAndRemovalsBeforeIt() {
    let array = Self.makeArray()
    let query = array.query(sortedBy: { $0.text < $1.text })
    var rows: [Int] = []
    let observer = query.observeChanges { change in
      rows += change.changeSet.updates.map(\.newIndex)
    }
    func toggle4() -> Int? {
      array.cell(for: 4)?.value.on.toggle()
      return Self.fresh(array).firstIndex(of: 4)
    }
    var expected: [Int?] = []
    expected.append(toggle4())
    expected.append(toggle4())
    array.append(TestItem(5, "a"))
    expected.append(toggle4())
    array.remove(id: 2)
    array.remove(id: 5)
    expected.append(toggle4())
    array.replaceAll(with: [TestItem(6, "a"), TestItem(4, "c"), TestItem(7, "b"), TestItem(8, "a")])
    expected.append(toggle4())
    observer.cancel()
    #expect(expected == [3, 3, 4, 2, 3])
    #expect(rows == expected.compactMap { $0 })
    #expect(query.ids == Self.fresh(array))
  }

  /// The query remembers the rows of the last two elements it found, for
  /// two edited in turn (an edit and its reaction): a change of the rows
  /// between their edits must move the rows both report, in their own
  /// sections.
  @Test func theRowsOfTwoElementsEditedInTurnFollowTheRowsBetweenTheirEdits() {
    // No ties: a prime added to a text keeps it between its neighbours.
    let array = ObservableArray([
      TestItem(1, "b"), TestItem(2, "a"), TestItem(3, "d"), TestItem(4, "f"),
    ])
    // Sections by `on`: every element starts off, in one section.
    let query = array.query(sortedBy: { $0.text < $1.text }, sectionedBy: { $0.on ? 0 : 1 })
    var reloads: [RowPath] = []
    let observer = query.observeChanges { reloads += $0.batchUpdate.reloads }
    var expected: [RowPath] = []
    func edit(_ id: Int) {
      array.cell(for: id)?.value.text += "'"
      for (section, ids) in query.sections.map({ $0.elements.map(\.id) }).enumerated() {
        if let row = ids.firstIndex(of: id) { expected.append(RowPath(section: section, row: row)) }
      }
    }
    // [2, 1, 3, 4]: 1 and 4 in turn, twice.
    edit(1)
    edit(4)
    edit(1)
    edit(4)
    // 2 goes first, to a section of its own: both rows move up, and 4's
    // is the one found last.
    array.cell(for: 2)?.value.on = true
    edit(4)
    edit(1)
    // A new row before both, in their section.
    array.insert(TestItem(5, "a"), at: 0)
    edit(1)
    edit(4)
    observer.cancel()
    #expect(
      expected == [
        RowPath(section: 0, row: 1), RowPath(section: 0, row: 3), RowPath(section: 0, row: 1),
        RowPath(section: 0, row: 3), RowPath(section: 1, row: 2), RowPath(section: 1, row: 0),
        RowPath(section: 1, row: 1), RowPath(section: 1, row: 3),
      ])
    #expect(reloads == expected)
  }

  @Test func theRowOfAnElementEditedAgainInASectionFollowsRowsThatMoveAcrossSections() {
    let array = Self.makeArray()
    // Sections by `on`: every element starts off, in one section.
    let query = array.query(sortedBy: { $0.text < $1.text }, sectionedBy: { $0.on ? 0 : 1 })
    var reloads: [RowPath] = []
    let observer = query.observeChanges { reloads += $0.batchUpdate.reloads }
    // Its text, not the key: the row stays. 4 "c" is last of [2, 1, 3, 4].
    array.cell(for: 4)?.value.text = "cc"
    // 2 "a" leaves for the section of those on, which comes first: 4 moves
    // up, in what is now the second section.
    array.cell(for: 2)?.value.on = true
    array.cell(for: 4)?.value.text = "ccc"
    // And comes back first: 4 moves down again.
    array.cell(for: 2)?.value.on = false
    array.cell(for: 4)?.value.text = "cccc"
    observer.cancel()
    #expect(
      reloads == [
        RowPath(section: 0, row: 3), RowPath(section: 1, row: 2), RowPath(section: 0, row: 3),
      ])
    #expect(query.sections.map { $0.elements.map(\.id) } == [[2, 1, 3, 4]])
  }

  /// A row that moves finds the rows that sort before it with one
  /// comparison per level, and orders ties by array position only when the
  /// row after them sorts as it does: both ways must end where a fresh
  /// evaluation does.
  @Test func aRowThatMovesAmongEqualKeysLandsInArrayOrder() {
    let array = ObservableArray([
      TestItem(1, "b"), TestItem(2, "a"), TestItem(3, "b"), TestItem(4, "c"), TestItem(5, "b"),
    ])
    let query = array.query(sortedBy: { $0.text < $1.text })
    var moves: [[Int]] = []
    let observer = query.observeChanges { moves += $0.changeSet.moves.map { [$0.from, $0.to] } }
    #expect(query.ids == [2, 1, 3, 5, 4])
    // Into the middle of three ties, by its place in the array (3, between
    // 3 at 2 and 5 at 4).
    array.cell(for: 4)?.value.text = "b"
    #expect(query.ids == [2, 1, 3, 4, 5])
    // To the front of the ties, which it was before in the array.
    array.cell(for: 2)?.value.text = "b"
    #expect(query.ids == [1, 2, 3, 4, 5])
    // No ties where it lands: before all of them.
    array.cell(for: 5)?.value.text = "a"
    #expect(query.ids == [5, 1, 2, 3, 4])
    observer.cancel()
    #expect(query.ids == Self.fresh(array))
    #expect(moves == [[4, 3], [0, 1], [4, 0]])
  }

  @Test func aRowThatMovesAcrossSectionsLandsAmongEqualKeysInArrayOrder() {
    let array = ObservableArray([
      TestItem(1, "b"), TestItem(2, "b"), TestItem(3, "b"), TestItem(4, "a"),
    ])
    // Sections by `on`, the rows on first.
    let query = array.query(sortedBy: { $0.text < $1.text }, sectionedBy: { $0.on ? 0 : 1 })
    array.cell(for: 3)?.value.on = true
    array.cell(for: 1)?.value.on = true
    #expect(query.sections.map { $0.elements.map(\.id) } == [[1, 3], [4, 2]])
    // 2 ties with both rows on: it goes between them, by array order.
    array.cell(for: 2)?.value.on = true
    #expect(query.sections.map { $0.elements.map(\.id) } == [[1, 2, 3], [4]])
    // 4 sorts before all of them.
    array.cell(for: 4)?.value.on = true
    #expect(query.sections.map { $0.elements.map(\.id) } == [[4, 1, 2, 3]])
  }

  /// A sectioned query publishes each row redrawn in place, and each row
  /// moved across sections, in a change it reuses for the next one: a
  /// batch an observer kept, or a list it took out of one, must stay as it
  /// was delivered.
  @Test func batchesAnObserverKeepsStayAsDeliveredThroughLaterEdits() {
    let array = Self.makeArray()
    // Sections by `on` (all off at first), rows by text:
    // [2 "a", 1 "b", 3 "b", 4 "c"].
    let query = array.query(sortedBy: { $0.text < $1.text }, sectionedBy: { $0.on ? 1 : 0 })
    var kept: [SectionedBatchUpdate] = []
    var keptMoves: [[SectionedBatchUpdate.RowMove]] = []
    let observer = query.observeChanges { change in
      kept.append(change.batchUpdate)
      keptMoves.append(change.batchUpdate.moves)
    }
    func path(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }
    // Two rows moved into a new section, then one back: the first makes
    // the section, so its batch is not a lone move.
    array.cell(for: 1)?.value.on = true
    array.cell(for: 3)?.value.on = true
    array.cell(for: 1)?.value.on = false
    // Rows redrawn in place: new texts that sort as the old ones did.
    array.cell(for: 2)?.value.text = "a1"
    array.cell(for: 4)?.value.text = "c1"
    array.cell(for: 2)?.value.text = "a2"
    observer.cancel()
    #expect(kept.count == 6)
    guard kept.count == 6 else { return }
    // [2, 3, 4] and [1]: 3 moves from 0.1 to 1.1, after 1 (a tie, by
    // array order).
    #expect(kept[1].moves == [.init(from: path(0, 1), to: path(1, 1))])
    #expect(kept[1].reconfigurations == [path(1, 1)])
    #expect(kept[1].changedRows == [path(1, 1)])
    // 1 moves back: from 1.0 to 0.1, after 2 "a".
    #expect(kept[2].moves == [.init(from: path(1, 0), to: path(0, 1))])
    #expect(kept[2].reconfigurations == [path(0, 1)])
    #expect(keptMoves[1] == [.init(from: path(0, 1), to: path(1, 1))])
    #expect(keptMoves[2] == [.init(from: path(1, 0), to: path(0, 1))])
    // Sections now: [2 "a", 1 "b", 4 "c"] and [3 "b"].
    #expect(kept[3].reloads == [path(0, 0)])
    #expect(kept[4].reloads == [path(0, 2)])
    #expect(kept[5].reloads == [path(0, 0)])
    #expect(kept[4].changedRows == [path(0, 2)])
    #expect(kept[3].moves.isEmpty && kept[4].moves.isEmpty)
    #expect(query.sections.map { $0.elements.map(\.id) } == [[2, 1, 4], [3]])
  }

  /// A lone move across sections is followed without a step.
  ///
  /// That is, a lone update that moves its row to a section that is there,
  /// from one that keeps rows; one that makes or empties a section takes
  /// the general step. Both publish what a fresh grouping shows, from a
  /// write inside another observer's delivery too, and a write to a
  /// detached cell publishes nothing.
  @Test func aLoneMoveAcrossSectionsWithoutAStepMatchesAFreshGrouping() {
    let array = ObservableArray((0..<8).map { TestItem($0, "t\($0 % 3)", on: $0 < 4) })
    let query = array.query(sortedBy: { $0.text < $1.text }, sectionedBy: { $0.on ? 1 : 0 })
    func fresh() -> [[Int]] {
      [false, true].compactMap { on in
        let ids = Self.freshIDs(array.elements.filter { $0.on == on })
        return ids.isEmpty ? nil : ids
      }
    }
    var batches: [SectionedBatchUpdate] = []
    var reacted = false
    let observer = query.observeChanges { change in
      batches.append(change.batchUpdate)
      // Inside this delivery, once: another row moves across.
      if !reacted {
        reacted = true
        array.cell(for: 5)?.value.on = true
      }
    }
    func path(_ section: Int, _ row: Int) -> RowPath { RowPath(section: section, row: row) }
    // Off: [4 t1, 5 t2, 6 t0, 7 t1] by text -> [6, 4, 7, 5]; on: [0 t0, 3 t0, 1 t1, 2 t2].
    #expect(query.sections.map(\.ids) == [[6, 4, 7, 5], [0, 3, 1, 2]])
    array.cell(for: 1)?.value.on = false
    // 1 goes to "off" after 6 "t0" and before 4 and 7 (ties on "t1", by
    // array order); the reaction then moves 5 into "on".
    #expect(batches.count == 2)
    #expect(batches.first?.moves == [.init(from: path(1, 2), to: path(0, 1))])
    #expect(batches.first?.sectionInsertions == [] && batches.first?.sectionDeletions == [])
    #expect(batches.last?.moves.count == 1)
    #expect(query.sections.map(\.ids) == fresh())
    // Every "on" row leaves: the last one empties its section, which goes.
    for id in query.sections[1].ids { array.cell(for: id)?.value.on = false }
    #expect(batches.last?.sectionDeletions == [1])
    #expect(query.sections.map(\.ids) == fresh())
    // One comes back: a section appears.
    array.cell(for: 2)?.value.on = true
    #expect(batches.last?.sectionInsertions == [1])
    #expect(query.sections.map(\.ids) == fresh())
    // A detached cell: refused, nothing published.
    guard let cell = array.cell(for: 6) else {
      Issue.record("no cell for 6")
      return
    }
    array.remove(id: 6)
    let count = batches.count
    let reports = Diagnostics.capturing { cell.value.on.toggle() }
    observer.cancel()
    #expect(reports.count == 1)
    #expect(batches.count == count)
    #expect(query.sections.map(\.ids) == fresh())
  }

  /// Ids sorted by text, ties by array order.
  static func freshIDs(_ elements: [TestItem]) -> [Int] {
    elements.enumerated().sorted {
      $0.element.text != $1.element.text
        ? $0.element.text < $1.element.text : $0.offset < $1.offset
    }.map(\.element.id)
  }
}

import POMVVM
import POMVVMTesting
import TestSupport
import Testing

@Suite("SectionedBatchUpdate and its identity diff")
struct SectionedBatchUpdateTests {
  private typealias Sections = [(key: String, ids: [Int])]

  private func path(_ section: Int, _ row: Int) -> RowPath {
    RowPath(section: section, row: row)
  }

  @Test func rowPathsOrderBySectionThenRow() {
    #expect(path(0, 5) < path(1, 0))
    #expect(path(1, 0) < path(1, 1))
    #expect(!(path(1, 1) < path(1, 1)))
    #expect([path(1, 0), path(0, 2), path(0, 1)].sorted() == [path(0, 1), path(0, 2), path(1, 0)])
    #expect(path(2, 3).description == "2.3")
  }

  @Test func theDescriptionNamesEveryPart() {
    let batch = SectionedBatchUpdate(
      sectionDeletions: [2], sectionInsertions: [0], sectionMoves: [.init(from: 0, to: 1)],
      deletions: [path(1, 0)], insertions: [path(1, 1)],
      moves: [.init(from: path(0, 0), to: path(2, 3))], reloads: [path(0, 4)],
      reconfigurations: [path(2, 3)])
    #expect(
      batch.description
        == "delete sections [2], insert sections [0], move sections [0->1], delete [1.0], "
        + "insert [1.1], move [0.0->2.3], reload [0.4], reconfigure [2.3]")
    #expect(SectionedBatchUpdate().description == "no change")
    #expect(SectionedBatchUpdate().isEmpty)
    #expect(SectionedBatchUpdate.reloadData.description == "reloadData")
    #expect(!SectionedBatchUpdate.reloadData.isEmpty)
  }

  /// The lists live in one shared object (a copy retains it once): each
  /// copy must still change alone, whichever list changes, and equality and
  /// hashing must follow the lists, not the object.
  @Test func aCopyOfABatchChangesAloneAndComparesByItsLists() {
    let parts: [WritableKeyPath<SectionedBatchUpdate, [RowPath]>] = [
      \.deletions, \.insertions, \.reloads, \.reconfigurations, \.changedRows,
    ]
    for part in parts {
      var original = SectionedBatchUpdate(moves: [.init(from: path(0, 0), to: path(1, 0))])
      let copy = original
      original[keyPath: part].append(path(3, 4))
      #expect(original[keyPath: part] == [path(3, 4)])
      #expect(copy[keyPath: part].isEmpty)
      #expect(copy.moves == original.moves)
      #expect(original != copy)
      var again = copy
      again[keyPath: part] = [path(3, 4)]
      #expect(again == original)
      #expect(again.hashValue == original.hashValue)
      #expect(copy[keyPath: part].isEmpty)
    }
    var lone = SectionedBatchUpdate()
    lone.reloads.append(path(9, 9))
    #expect(SectionedBatchUpdate().reloads.isEmpty)
    var sections = SectionedBatchUpdate()
    let empty = sections
    sections.sectionDeletions.append(1)
    sections.sectionInsertions = [2]
    sections.sectionMoves.append(.init(from: 0, to: 3))
    sections.moves.append(.init(from: path(0, 1), to: path(0, 2)))
    #expect(empty == SectionedBatchUpdate())
    #expect(empty.isEmpty)
    #expect(
      sections
        == SectionedBatchUpdate(
          sectionDeletions: [1], sectionInsertions: [2], sectionMoves: [.init(from: 0, to: 3)],
          moves: [.init(from: path(0, 1), to: path(0, 2))]))
    #expect(SectionedBatchUpdate() != SectionedBatchUpdate.reloadData)
    #expect(Set([sections, SectionedBatchUpdate(), sections]).count == 2)
  }

  @Test func aChangedRowThatMovesToAnotherSectionIsOneMoveAndAReconfiguration() {
    let batch = SectionedBatchUpdate.difference(
      from: [(key: "A", ids: [1, 2]), (key: "B", ids: [3])],
      to: [(key: "A", ids: [2]), (key: "B", ids: [1, 3])], changedIDs: [1])
    #expect(
      batch
        == SectionedBatchUpdate(
          moves: [.init(from: path(0, 0), to: path(1, 0))], reconfigurations: [path(1, 0)],
          changedRows: [path(1, 0)]))
    #expect(batch.description == "move [0.0->1.0], reconfigure [1.0]")
  }

  @Test func aChangedRowThatStaysIsReloadedAtItsOldPath() {
    let batch = SectionedBatchUpdate.difference(
      from: [(key: "A", ids: [1, 2]), (key: "B", ids: [3, 4])],
      to: [(key: "A", ids: [1]), (key: "B", ids: [3, 4])], changedIDs: [4])
    #expect(
      batch
        == SectionedBatchUpdate(
          deletions: [path(0, 1)], reloads: [path(1, 1)], changedRows: [path(1, 1)]))
  }

  @Test func aSectionAppearsWithItsRowsAndNoRowOperationNamesIt() {
    // 2 leaves A for a new section B: a deletion and a section insertion,
    // never a move into the inserted section.
    let batch = SectionedBatchUpdate.difference(
      from: [(key: "A", ids: [1, 2, 3])], to: [(key: "A", ids: [1, 3]), (key: "B", ids: [2])],
      changedIDs: [2])
    #expect(batch == SectionedBatchUpdate(sectionInsertions: [1], deletions: [path(0, 1)]))
  }

  @Test func aSectionDisappearsWithItsRows() {
    let batch = SectionedBatchUpdate.difference(
      from: [(key: "A", ids: [1, 3]), (key: "B", ids: [2])], to: [(key: "A", ids: [1, 2, 3])],
      changedIDs: [2])
    #expect(batch == SectionedBatchUpdate(sectionDeletions: [1], insertions: [path(0, 1)]))
  }

  @Test func sectionsOutOfOrderAreMovedTheFewestTimes() {
    let batch = SectionedBatchUpdate.difference(
      from: [(key: "A", ids: [1]), (key: "B", ids: [2]), (key: "C", ids: [3])],
      to: [(key: "C", ids: [3]), (key: "A", ids: [1]), (key: "B", ids: [2])])
    #expect(batch == SectionedBatchUpdate(sectionMoves: [.init(from: 2, to: 0)]))
  }

  @Test func rowsOutOfOrderInASectionAreMovedTheFewestTimes() {
    let batch = SectionedBatchUpdate.difference(
      from: [(key: "A", ids: [1, 2, 3, 4])], to: [(key: "A", ids: [2, 3, 4, 1])],
      changedIDs: [3])
    #expect(
      batch
        == SectionedBatchUpdate(
          moves: [.init(from: path(0, 0), to: path(0, 3))], reloads: [path(0, 2)],
          changedRows: [path(0, 1)]))
  }

  @Test func equalSectionsGiveAnEmptyBatch() {
    let sections: Sections = [(key: "A", ids: [1, 2]), (key: "B", ids: [3])]
    #expect(SectionedBatchUpdate.difference(from: sections, to: sections).isEmpty)
    #expect(SectionedBatchUpdate.difference(from: [] as Sections, to: []).isEmpty)
  }

  @Test func aBatchLargerThanTheListsIsAReload() {
    let batch = SectionedBatchUpdate.difference(
      from: [(key: "A", ids: [1, 2])], to: [(key: "A", ids: [3, 4])])
    #expect(batch.isReloadData)
    // Replacing a whole section is two section operations, not a reload.
    let replaced = SectionedBatchUpdate.difference(
      from: [(key: "A", ids: [1, 2])], to: [(key: "B", ids: [3, 4])])
    #expect(replaced == SectionedBatchUpdate(sectionDeletions: [0], sectionInsertions: [0]))
  }

  /// Random sections on both sides, ids that move within and across
  /// sections, sections that come, go and reorder: every batch passes
  /// UIKit's rules and leaves the new sections.
  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func everyDiffPassesTheHeadlessRules(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    func pick(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    func makeSections() -> Sections {
      let keys = ["A", "B", "C", "D", "E"].filter { _ in pick(3) != 0 }
      var ids = Array(0..<20).filter { _ in pick(4) != 0 }
      ids.shuffle(using: &random)
      var sections = keys.map { (key: $0, ids: [Int]()) }
      if pick(4) == 0 { sections.shuffle(using: &random) }
      guard !sections.isEmpty else { return [] }
      for id in ids {
        sections[pick(sections.count)].ids.append(id)
      }
      // Sometimes an empty section: the diff must take those too.
      return sections.filter { !$0.ids.isEmpty || pick(5) == 0 }
    }
    var old = makeSections()
    var reloads = 0
    for step in 0..<500 {
      var new: Sections
      if pick(3) == 0 {
        new = makeSections()
      } else {
        // A few moves: the common case of an edit or a small batch.
        new = old
        for _ in 0..<(1 + pick(3)) where !new.isEmpty {
          let from = pick(new.count)
          guard !new[from].ids.isEmpty else { continue }
          let id = new[from].ids.remove(at: pick(new[from].ids.count))
          let to = pick(new.count)
          new[to].ids.insert(id, at: pick(new[to].ids.count + 1))
        }
      }
      let changed = Set((0..<20).filter { _ in pick(5) == 0 })
      let batch = SectionedBatchUpdate.difference(from: old, to: new, changedIDs: changed)
      if batch.isReloadData { reloads += 1 }
      var list = HeadlessSectionedList(sections: old.map { .init(key: $0.key, ids: $0.ids) })
      let newSections = new.map {
        HeadlessSectionedList<String, Int>.Section(key: $0.key, ids: $0.ids)
      }
      let violations = list.apply(batch, newSections: newSections, changed: changed)
      #expect(violations == [], "seed \(seed), step \(step): \(batch)")
      #expect(list.sections == newSections, "seed \(seed), step \(step): \(batch)")
      old = new
    }
    // The check is worth something only if most batches are patches.
    #expect(reloads < 250)
  }
}

import POMVVMTesting
import Testing

/// The headless sectioned list refuses, for each of UIKit's rules, a
/// hand-made update that breaks it, with that rule's message.
@Suite("HeadlessSectionedList")
struct HeadlessSectionedListTests {
  private typealias List = HeadlessSectionedList<String, String>
  private typealias Section = List.Section

  /// Off: a b, On: c d.
  private let old = [Section(key: "Off", ids: ["a", "b"]), Section(key: "On", ids: ["c", "d"])]

  private func path(_ section: Int, _ row: Int) -> RowPath {
    RowPath(section: section, row: row)
  }

  /// Applies `update` to a list showing `old`, and returns what broke and
  /// the sections it ended with.
  private func apply(
    _ update: SectionedBatchUpdate, _ newSections: [Section], changed: Set<String> = []
  ) -> (violations: [ListRuleViolation], sections: [Section]) {
    var list = List(sections: old)
    let violations = list.apply(update, newSections: newSections, changed: changed)
    return (violations, list.sections)
  }

  @Test func aValidUpdateBreaksNothingAndLeavesTheNewSections() {
    // Off: a b, On: c d -> Off: a, On: b* c x, Later: y
    let new = [
      Section(key: "Off", ids: ["a"]), Section(key: "On", ids: ["b", "c", "x"]),
      Section(key: "Later", ids: ["y"]),
    ]
    let (violations, sections) = apply(
      SectionedBatchUpdate(
        sectionInsertions: [2], deletions: [path(1, 1)], insertions: [path(1, 2)],
        moves: [.init(from: path(0, 1), to: path(1, 0))], reconfigurations: [path(1, 0)]),
      new, changed: ["b"])
    #expect(violations == [])
    #expect(sections == new)
  }

  @Test func aReloadOfTheDataTakesAnything() {
    let new = [Section(key: "New", ids: ["z"])]
    let (violations, sections) = apply(.reloadData, new, changed: ["a"])
    #expect(violations == [])
    #expect(sections == new)
  }

  @Test func aSectionDeletionOutOfRangeBreaksTheSectionIndices() {
    let (violations, sections) = apply(
      SectionedBatchUpdate(sectionDeletions: [2]), [Section(key: "Off", ids: ["a", "b"])])
    #expect(
      violations == [
        ListRuleViolation(
          rule: .sectionIndices,
          message: "attempt to delete section 2, but there are only 2 sections before the update")
      ])
    // An update UIKit would refuse leaves the list reloaded from its data.
    #expect(sections == [Section(key: "Off", ids: ["a", "b"])])
  }

  @Test func deletingAndMovingOneSectionBreaksTheSectionIndices() {
    let violations = apply(
      SectionedBatchUpdate(sectionDeletions: [0], sectionMoves: [.init(from: 0, to: 0)]),
      [Section(key: "On", ids: ["c", "d"])]
    ).violations
    #expect(violations.map(\.rule).contains(.sectionIndices))
    #expect(violations.first?.message == "attempt to delete and move the same section 0")
  }

  @Test func insertingAndMovingToOneSectionBreaksTheSectionIndices() {
    let violations = apply(
      SectionedBatchUpdate(sectionInsertions: [0], sectionMoves: [.init(from: 1, to: 0)]),
      [Section(key: "On", ids: ["c", "d"]), Section(key: "Off", ids: ["a", "b"])]
    ).violations
    #expect(
      violations.contains(
        ListRuleViolation(
          rule: .sectionIndices, message: "attempt to insert and move to the same section 0")))
  }

  @Test func aSectionCountThatDoesNotAddUpBreaksTheSectionCount() {
    let violations = apply(SectionedBatchUpdate(), [Section(key: "Off", ids: ["a", "b"])])
      .violations
    #expect(
      violations == [
        ListRuleViolation(
          rule: .sectionCount,
          message:
            "Invalid update: invalid number of sections. The number of sections contained in "
            + "the table view after the update (1) must be equal to the number of sections "
            + "contained in the table view before the update (2), plus or minus the number of "
            + "sections inserted or deleted (0 inserted, 0 deleted).")
      ])
  }

  @Test func aRowDeletedFromADeletedSectionBreaksTheRowsOfChangedSections() {
    let violations = apply(
      SectionedBatchUpdate(sectionDeletions: [1], deletions: [path(1, 0)]),
      [Section(key: "Off", ids: ["a", "b"])]
    ).violations
    #expect(
      violations == [
        ListRuleViolation(
          rule: .rowsOfChangedSections,
          message:
            "attempt to delete row 0 from section 1, which is being deleted: its rows go with it")
      ])
  }

  @Test func aRowMovedIntoAnInsertedSectionBreaksTheRowsOfChangedSections() {
    // The crash of fetched-results controllers: the last row of a section
    // moved into a section that appears.
    let violations = apply(
      SectionedBatchUpdate(
        sectionInsertions: [2], moves: [.init(from: path(1, 1), to: path(2, 0))]),
      [
        Section(key: "Off", ids: ["a", "b"]), Section(key: "On", ids: ["c"]),
        Section(key: "Later", ids: ["d"]),
      ]
    ).violations
    #expect(
      violations == [
        ListRuleViolation(
          rule: .rowsOfChangedSections,
          message:
            "attempt to move row 1 of section 1 to row 0 of section 2, which is being inserted: "
            + "its rows come from the data source")
      ])
  }

  @Test func deletingAndMovingOneRowBreaksTheOldIndices() {
    let violations = apply(
      SectionedBatchUpdate(
        deletions: [path(0, 0)], insertions: [path(1, 0)],
        moves: [.init(from: path(0, 0), to: path(1, 2))]),
      [Section(key: "Off", ids: ["b"]), Section(key: "On", ids: ["x", "c", "d"])]
    ).violations
    #expect(
      violations.contains(
        ListRuleViolation(
          rule: .oldIndices,
          message:
            "attempt to perform a delete and a move from the same index path (section 0, row 0)")
      ))
  }

  @Test func aRowInsertedOutOfRangeBreaksTheNewIndices() {
    let violations = apply(
      SectionedBatchUpdate(insertions: [path(0, 5)]),
      [Section(key: "Off", ids: ["a", "b", "x"]), Section(key: "On", ids: ["c", "d"])]
    ).violations
    #expect(
      violations == [
        ListRuleViolation(
          rule: .newIndices,
          message:
            "attempt to insert row 5 into section 0, but there are only 3 rows in section 0 "
            + "after the update")
      ])
  }

  @Test func aRowCountThatDoesNotAddUpCountsTheRowsMovedInAndOut() {
    // b moves to On, but Off's data still has it.
    let violations = apply(
      SectionedBatchUpdate(moves: [.init(from: path(0, 1), to: path(1, 0))]),
      [Section(key: "Off", ids: ["a", "b"]), Section(key: "On", ids: ["b", "c", "d"])]
    ).violations
    #expect(
      violations == [
        ListRuleViolation(
          rule: .rowCount,
          message:
            "Invalid update: invalid number of rows in section 0. The number of rows contained "
            + "in an existing section after the update (2) must be equal to the number of rows "
            + "contained in that section before the update (2), plus or minus the number of "
            + "rows inserted or deleted from that section (0 inserted, 0 deleted) and plus or "
            + "minus the number of rows moved into or out of that section (0 moved in, 1 moved "
            + "out).")
      ])
  }

  @Test func aKeptSectionWithAnotherKeyBreaksTheSectionIdentities() {
    // Off is renamed Later and moved after On: a batch that moves it
    // leaves its old header where the data has another key.
    let new = [Section(key: "On", ids: ["c", "d"]), Section(key: "Later", ids: ["a", "b"])]
    let (violations, sections) = apply(
      SectionedBatchUpdate(sectionMoves: [.init(from: 0, to: 1)]), new)
    #expect(
      violations == [
        ListRuleViolation(
          rule: .sectionIdentities,
          message:
            "section 1 after the update is section 0 before it, whose key is \"Off\", but the "
            + "data source has \"Later\" there: the update does not describe the change")
      ])
    #expect(sections == new)
  }

  @Test func anUpdateThatDoesNotDescribeTheChangeBreaksTheRowIdentities() {
    // a and b swap, but the batch says nothing.
    let violations = apply(
      SectionedBatchUpdate(),
      [Section(key: "Off", ids: ["b", "a"]), Section(key: "On", ids: ["c", "d"])]
    ).violations
    #expect(
      violations == [
        ListRuleViolation(
          rule: .rowIdentities,
          message:
            "row 0 of section 0 shows \"a\" after the update, but the data source has \"b\" "
            + "there: the update does not describe the change (the section shows [\"a\", \"b\"], "
            + "the data source has [\"b\", \"a\"])")
      ])
  }

  @Test func aChangedRowThatIsMovedButNotReconfiguredBreaksTheChangedRows() {
    let new = [Section(key: "Off", ids: ["a"]), Section(key: "On", ids: ["b", "c", "d"])]
    let violations = apply(
      SectionedBatchUpdate(moves: [.init(from: path(0, 1), to: path(1, 0))]), new,
      changed: ["b"]
    ).violations
    #expect(
      violations == [
        ListRuleViolation(
          rule: .changedRows,
          message:
            "row 0 of section 1 shows \"b\", whose value changed, but it was neither reloaded, "
            + "reconfigured, nor deleted and inserted: it still shows the old value")
      ])
    // Reconfigured after the move, it is redrawn.
    #expect(
      apply(
        SectionedBatchUpdate(
          moves: [.init(from: path(0, 1), to: path(1, 0))], reconfigurations: [path(1, 0)]),
        new, changed: ["b"]
      ).violations == [])
  }

  @Test func aChangedRowInAnInsertedSectionIsDrawnFromTheData() {
    let new = [
      Section(key: "Off", ids: ["a"]), Section(key: "On", ids: ["c", "d"]),
      Section(key: "Later", ids: ["b"]),
    ]
    let violations = apply(
      SectionedBatchUpdate(sectionInsertions: [2], deletions: [path(0, 1)]), new,
      changed: ["b", "c"]
    ).violations
    // c changed and was left alone: only c is reported.
    #expect(
      violations.map(\.message) == [
        "row 0 of section 1 shows \"c\", whose value changed, but it was neither reloaded, "
          + "reconfigured, nor deleted and inserted: it still shows the old value"
      ])
  }

  @Test func aMovedSectionKeepsItsRowsAndTakesRowOperations() {
    // On moves before Off, and a row moves inside it.
    let new = [Section(key: "On", ids: ["d", "c"]), Section(key: "Off", ids: ["a", "b"])]
    let (violations, sections) = apply(
      SectionedBatchUpdate(
        sectionMoves: [.init(from: 1, to: 0)], moves: [.init(from: path(1, 1), to: path(0, 0))]),
      new)
    #expect(violations == [])
    #expect(sections == new)
  }
}

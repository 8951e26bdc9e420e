import POMVVMTesting
import Testing

/// The headless list refuses, for each of UIKit's rules, a hand-made update
/// that breaks it, with that rule's message.
@MainActor
@Suite("HeadlessList")
struct HeadlessListTests {
  private let old = ["a", "b", "c", "d"]

  /// Applies `update` to a list showing `old`, and returns what broke.
  private func broken(
    _ update: BatchUpdate, newRows: [String], changed: Set<String> = []
  ) -> (violations: [ListRuleViolation], rows: [String]) {
    var list = HeadlessList(rows: old)
    let violations = list.apply(update, newRows: newRows, changed: changed)
    return (violations, list.rows)
  }

  @Test func aValidUpdateBreaksNothingAndLeavesTheNewRows() {
    // a b c d -> d b* x c: delete a, move d to the top, insert x, reload b.
    let (violations, rows) = broken(
      BatchUpdate(
        deletions: [0], insertions: [2], moves: [.init(from: 3, to: 0)], reloads: [1]),
      newRows: ["d", "b", "x", "c"], changed: ["b"])
    #expect(violations == [])
    #expect(rows == ["d", "b", "x", "c"])
  }

  @Test func aDeletionOutOfRangeBreaksTheOldIndices() {
    let (violations, rows) = broken(BatchUpdate(deletions: [4]), newRows: ["a", "b", "c"])
    #expect(
      violations == [
        ListRuleViolation(
          rule: .oldIndices,
          message:
            "attempt to delete row 4 from section 0 which only contains 4 rows before the update")
      ])
    // An update UIKit would refuse leaves the list reloaded from its data.
    #expect(rows == ["a", "b", "c"])
  }

  @Test func aRepeatedReloadBreaksTheOldIndices() {
    let violations = broken(BatchUpdate(reloads: [1, 1]), newRows: old).violations
    #expect(violations.map(\.rule) == [.oldIndices])
    #expect(violations.first?.message == "attempt to reload row 1 from section 0 twice")
  }

  @Test func deletingAndReloadingOneRowBreaksTheOldIndices() {
    let violations = broken(
      BatchUpdate(deletions: [2], reloads: [2]), newRows: ["a", "b", "d"]
    ).violations
    #expect(
      violations == [
        ListRuleViolation(
          rule: .oldIndices,
          message: "attempt to delete and reload the same index path (section 0, row 2)")
      ])
  }

  @Test func deletingAndMovingOneRowBreaksTheOldIndices() {
    let violations = broken(
      BatchUpdate(deletions: [0], moves: [.init(from: 0, to: 2)]), newRows: ["b", "c", "d"]
    ).violations
    #expect(violations.map(\.rule).contains(.oldIndices))
    #expect(
      violations.first?.message
        == "attempt to perform a delete and a move from the same index path (section 0, row 0)")
  }

  @Test func movingAndReloadingOneRowBreaksTheOldIndices() {
    // The crash of a moved row that changed, handed over as move + reload.
    let violations = broken(
      BatchUpdate(moves: [.init(from: 0, to: 3)], reloads: [0]), newRows: ["b", "c", "d", "a"],
      changed: ["a"]
    ).violations
    // The refused reload does not redraw the row either.
    #expect(violations.map(\.rule) == [.oldIndices, .changedRows])
    #expect(
      violations.first?.message.hasPrefix(
        "attempt to move and reload the same index path (section 0, row 0)") == true)
  }

  @Test func anInsertionOutOfRangeBreaksTheNewIndices() {
    let violations = broken(BatchUpdate(insertions: [5]), newRows: old + ["e"]).violations
    #expect(
      violations == [
        ListRuleViolation(
          rule: .newIndices,
          message:
            "attempt to insert row 5 into section 0, but there are only 5 rows in section 0 "
            + "after the update")
      ])
  }

  @Test func insertingAndMovingToOneRowBreaksTheNewIndices() {
    // RxDataSources #321.
    let violations = broken(
      BatchUpdate(deletions: [1], insertions: [0], moves: [.init(from: 2, to: 0)]),
      newRows: ["c", "a", "d"]
    ).violations
    #expect(violations.map(\.rule).contains(.newIndices))
    #expect(
      violations.first?.message
        == "attempt to insert and move to the same index path (section 0, row 0)")
  }

  @Test func aReconfigurationOutOfRangeBreaksTheNewIndices() {
    let violations = broken(BatchUpdate(reconfigurations: [4]), newRows: old).violations
    #expect(violations.map(\.rule) == [.newIndices])
    #expect(
      violations.first?.message
        == "attempt to reconfigure row 4 of section 0, but there are only 4 rows in section 0 "
        + "after the update")
  }

  @Test func aCountThatDoesNotAddUpBreaksTheRowCount() {
    // The data source gained a row the update does not insert.
    let violations = broken(BatchUpdate(), newRows: old + ["e"]).violations
    #expect(violations.map(\.rule) == [.rowCount])
    #expect(
      violations.first?.message
        == "Invalid update: invalid number of rows in section 0. The number of rows contained "
        + "in an existing section after the update (5) must be equal to the number of rows "
        + "contained in that section before the update (4), plus or minus the number of rows "
        + "inserted or deleted from that section (0 inserted, 0 deleted) and plus or minus the "
        + "number of rows moved into or out of that section (0 moved in, 0 moved out).")
  }

  @Test func anUpdateThatDoesNotDescribeTheChangeBreaksTheRowIdentities() {
    // A swap reported as one move too few: the counts add up, the rows don't.
    let (violations, rows) = broken(
      BatchUpdate(moves: [.init(from: 0, to: 1)]), newRows: ["b", "a", "d", "c"])
    #expect(violations.map(\.rule) == [.rowIdentities])
    #expect(
      violations.first?.message.hasPrefix(
        "row 2 of section 0 shows \"c\" after the update, but the data source has \"d\" there")
        == true)
    #expect(rows == ["b", "a", "c", "d"])
  }

  @Test func aChangedRowLeftAloneBreaksTheChangedRows() {
    let violations = broken(
      BatchUpdate(moves: [.init(from: 0, to: 3)]), newRows: ["b", "c", "d", "a"], changed: ["a"]
    ).violations
    #expect(
      violations == [
        ListRuleViolation(
          rule: .changedRows,
          message:
            "row 3 of section 0 shows \"a\", whose value changed, but it was neither reloaded, "
            + "reconfigured, nor deleted and inserted: it still shows the old value")
      ])
  }

  @Test func aChangedRowIsRedrawnByAReloadAReconfigurationOrADeletionAndInsertion() {
    let newRows = ["b", "c", "d", "a"]
    for update in [
      BatchUpdate(moves: [.init(from: 0, to: 3)], reconfigurations: [3]),
      BatchUpdate(deletions: [0], insertions: [3]),
    ] {
      #expect(broken(update, newRows: newRows, changed: ["a"]).violations == [])
    }
    #expect(broken(BatchUpdate(reloads: [2]), newRows: old, changed: ["c"]).violations == [])
  }

  @Test func aReloadChangeSetThatDoesNotReloadTheDataBreaksTheReloadDataRule() {
    var list = HeadlessList(rows: [1, 2])
    let change = ArrayChange(
      changeSet: .reload(from: [Pair(1), Pair(2)], to: [Pair(3)]), newElements: [Pair(3)])
    let violations = list.apply(BatchUpdate(deletions: [0, 1], insertions: [0]), for: change)
    #expect(violations.map(\.rule) == [.reloadData])
    #expect(
      violations.first?.message
        == "the change is a reload, but the batch update does not reload the data "
        + "(isReloadData is false): delete [0, 1], insert [0]")
    #expect(list.rows == [3])
    #expect(list.apply(.reloadData, for: change) == [])
  }

  @Test func aStepOutOfRangeBreaksTheStepIndices() {
    var list = HeadlessList(rows: old)
    // After the first deletion, row 3 is gone.
    let violations = list.apply([.delete(0), .delete(3)], newRows: ["b", "c"])
    #expect(
      violations == [
        ListRuleViolation(
          rule: .stepIndices,
          message:
            "step 2 of 2, delete(3): attempt to delete row 3 from section 0 which only "
            + "contains 3 rows")
      ])
    #expect(list.rows == ["b", "c"])
  }

  @Test func stepsThatEndElsewhereBreakTheCountOrTheIdentities() {
    var list = HeadlessList(rows: old)
    #expect(list.apply([.delete(0)], newRows: old).map(\.rule) == [.rowCount])
    list = HeadlessList(rows: old)
    #expect(
      list.apply([.move(from: 0, to: 3)], newRows: ["b", "c", "a", "d"]).map(\.rule)
        == [.rowIdentities])
  }

  @Test func stepsRedrawAChangedRowOnlyWhenTheyReloadIt() {
    var list = HeadlessList(rows: old)
    #expect(
      list.apply([.move(from: 0, to: 3)], newRows: ["b", "c", "d", "a"], changed: ["a"]).map(
        \.rule) == [.changedRows])
    list = HeadlessList(rows: old)
    #expect(
      list.apply(
        [.move(from: 0, to: 3), .reload(3)], newRows: ["b", "c", "d", "a"], changed: ["a"])
        == [])
    #expect(list.rows == ["b", "c", "d", "a"])
  }

  @Test func everyRuleHasATestAbove() {
    // The four section rules are tested with HeadlessSectionedList.
    #expect(ListRule.allCases.count == 11)
  }
}

/// An identifiable value for hand-made changes.
private struct Pair: Identifiable, Equatable {
  var id: Int
  init(_ id: Int) { self.id = id }
}

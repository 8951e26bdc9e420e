/// A list view without a screen: it holds the identities of its rows, and
/// takes an update only the way UIKit's table and collection views would,
/// checking every rule UIKit enforces before it applies it.
///
/// Apply a `BatchUpdate` or a sequence of `ListStep`s
/// together with the data source's new rows (the identities the list must
/// show afterwards): the list reports every broken rule, with the kind of
/// message UIKit raises, then applies the update as UIKit would, so that a
/// test can compare ``rows`` with the array.
///
/// ```swift
/// var list = HeadlessList(rows: items.map(\.id))
/// let subscription = items.observeChanges { change in
///   let broken = list.apply(change.changeSet.batchUpdate, for: change)
///   #expect(broken.isEmpty)
///   #expect(list.rows == change.newElements.map(\.id))
/// }
/// ```
///
/// The rules, as ``ListRule`` names them:
///
/// - ``ListRule/oldIndices``: deletions, reloads and move sources are unique
///   and within the old count; no index is both deleted and reloaded,
///   deleted and moved, or reloaded and moved.
/// - ``ListRule/newIndices``: insertions, move destinations and
///   reconfigurations are unique and within the new count; no index is both
///   inserted and a move destination.
/// - ``ListRule/rowCount``: the new count is the old count minus the
///   deletions plus the insertions.
/// - ``ListRule/rowIdentities``: the old rows less the deleted and moved-out
///   ones, in their old order, with the inserted and moved-in rows at their
///   new indices, are the data source's new rows.
/// - ``ListRule/changedRows``: every row whose element changed is reloaded,
///   reconfigured, or deleted and inserted.
/// - ``ListRule/reloadData``: a reload change set gives a reload of the data.
/// - ``ListRule/stepIndices``: each step's index is valid when it runs.
///
/// After an update whose indices cannot be applied at all (out of range,
/// repeated, or counts that do not add up — UIKit would raise), the list
/// reloads from the data source's rows, as `reloadData()` would, so that
/// the next update is checked on its own.
public struct HeadlessList<ID: Hashable> {
  /// The identities of the rows the list shows, in order.
  public private(set) var rows: [ID]

  /// Creates a list showing these rows.
  ///
  /// - Parameter rows: The identities of the rows, in order.
  public init(rows: [ID] = []) {
    self.rows = rows
  }

  /// One row as the list shows it: the element it shows (`nil` for a row
  /// just inserted, which the list asks the data source for) and whether
  /// it was drawn from the new data.
  private struct Row {
    var id: ID?
    var isFresh: Bool
  }

  /// Checks a batch update against UIKit's rules, then applies it.
  ///
  /// - Parameters:
  ///   - update: The batch update, as one `performBatchUpdates` call and the
  ///     reconfigurations after it.
  ///   - newRows: The data source's rows after the update.
  ///   - changed: The identities of the elements whose value changed.
  /// - Returns: The broken rules, empty if UIKit would take the update.
  /// - Complexity: O(*n* + *k*), where *n* is the number of rows.
  @discardableResult
  public mutating func apply(
    _ update: BatchUpdate, newRows: [ID], changed: Set<ID> = []
  ) -> [ListRuleViolation] {
    if update.isReloadData {
      rows = newRows
      return []
    }
    var broken: [ListRuleViolation] = []
    func fail(_ rule: ListRule, _ message: String) {
      broken.append(ListRuleViolation(rule: rule, message: message))
    }
    let oldCount = rows.count
    let newCount = newRows.count
    var applicable = true

    // Before the update: what each old row is told.
    var deleted = [Bool](repeating: false, count: oldCount)
    var reloaded = [Bool](repeating: false, count: oldCount)
    var movedOut = [Bool](repeating: false, count: oldCount)
    func mark(_ index: Int, _ marks: inout [Bool], _ verb: String) -> Bool {
      guard index >= 0 && index < oldCount else {
        fail(
          .oldIndices,
          "attempt to \(verb) row \(index) from section 0 which only contains \(oldCount) "
            + "rows before the update")
        applicable = false
        return false
      }
      guard !marks[index] else {
        fail(.oldIndices, "attempt to \(verb) row \(index) from section 0 twice")
        applicable = false
        return false
      }
      marks[index] = true
      return true
    }
    for index in update.deletions {
      _ = mark(index, &deleted, "delete")
    }
    for index in update.reloads where mark(index, &reloaded, "reload") {
      if deleted[index] {
        fail(.oldIndices, "attempt to delete and reload the same index path \(path(index))")
      }
    }
    for move in update.moves where mark(move.from, &movedOut, "move") {
      if deleted[move.from] {
        fail(
          .oldIndices,
          "attempt to perform a delete and a move from the same index path \(path(move.from))")
        applicable = false
      }
      if reloaded[move.from] {
        fail(
          .oldIndices,
          "attempt to move and reload the same index path \(path(move.from)) (UIKit reports "
            + "it as \"attempt to perform a delete and a move from the same index path\")")
      }
    }

    // After the update: what each new row is.
    var entering = [Row?](repeating: nil, count: newCount)
    var insertedAt = [Bool](repeating: false, count: newCount)
    for index in update.insertions {
      guard index >= 0 && index < newCount else {
        fail(
          .newIndices,
          "attempt to insert row \(index) into section 0, but there are only \(newCount) rows "
            + "in section 0 after the update")
        applicable = false
        continue
      }
      guard !insertedAt[index] else {
        fail(.newIndices, "attempt to insert row \(index) into section 0 twice")
        applicable = false
        continue
      }
      insertedAt[index] = true
      entering[index] = Row(id: nil, isFresh: true)
    }
    for move in update.moves {
      guard move.to >= 0 && move.to < newCount else {
        fail(
          .newIndices,
          "attempt to move row \(move.from) to row \(move.to) of section 0, but there are only "
            + "\(newCount) rows in section 0 after the update")
        applicable = false
        continue
      }
      if insertedAt[move.to] {
        fail(.newIndices, "attempt to insert and move to the same index path \(path(move.to))")
        applicable = false
      } else if entering[move.to] != nil {
        fail(.newIndices, "attempt to move two rows to the same index path \(path(move.to))")
        applicable = false
      } else if move.from >= 0 && move.from < oldCount {
        entering[move.to] = Row(id: rows[move.from], isFresh: false)
      }
    }
    var reconfigured = [Bool](repeating: false, count: newCount)
    for index in update.reconfigurations {
      guard index >= 0 && index < newCount else {
        fail(
          .newIndices,
          "attempt to reconfigure row \(index) of section 0, but there are only \(newCount) "
            + "rows in section 0 after the update")
        continue
      }
      if reconfigured[index] {
        fail(.newIndices, "attempt to reconfigure row \(index) of section 0 twice")
      }
      reconfigured[index] = true
    }

    let expectedCount = oldCount - update.deletions.count + update.insertions.count
    if newCount != expectedCount {
      fail(
        .rowCount,
        "Invalid update: invalid number of rows in section 0. The number of rows contained in "
          + "an existing section after the update (\(newCount)) must be equal to the number of "
          + "rows contained in that section before the update (\(oldCount)), plus or minus the "
          + "number of rows inserted or deleted from that section (\(update.insertions.count) "
          + "inserted, \(update.deletions.count) deleted) and plus or minus the number of rows "
          + "moved into or out of that section (0 moved in, 0 moved out).")
      applicable = false
    }
    guard applicable else {
      rows = newRows
      return broken
    }

    // The rows UIKit ends with: the stayers in their old order, the
    // entering rows at their new indices.
    var result: [Row] = []
    result.reserveCapacity(newCount)
    var nextOld = 0
    for index in 0..<newCount {
      if let row = entering[index] {
        result.append(row)
        continue
      }
      while deleted[nextOld] || movedOut[nextOld] { nextOld += 1 }
      result.append(Row(id: rows[nextOld], isFresh: reloaded[nextOld]))
      nextOld += 1
    }
    for index in 0..<newCount where reconfigured[index] {
      result[index].isFresh = true
    }
    broken += finish(result, newRows: newRows, changed: changed, after: "the update")
    return broken
  }

  /// Checks steps against UIKit's rules, one at a time as the list applies
  /// them, then applies them.
  ///
  /// - Parameters:
  ///   - steps: The steps, in order.
  ///   - newRows: The data source's rows after the last step.
  ///   - changed: The identities of the elements whose value changed.
  /// - Returns: The broken rules, empty if every step is valid and the rows
  ///   end as the data source's.
  /// - Complexity: O(*n* · *s*) in the worst case, for *s* steps.
  @discardableResult
  public mutating func apply(
    _ steps: [ListStep], newRows: [ID], changed: Set<ID> = []
  ) -> [ListRuleViolation] {
    var list = rows.map { Row(id: $0, isFresh: false) }
    for (number, step) in steps.enumerated() {
      let count = list.count
      var problem: String?
      switch step {
      case .delete(let index):
        if index >= 0 && index < count {
          list.remove(at: index)
        } else {
          problem =
            "attempt to delete row \(index) from section 0 which only contains \(count) rows"
        }
      case .insert(let index):
        if index >= 0 && index <= count {
          list.insert(Row(id: nil, isFresh: true), at: index)
        } else {
          problem =
            "attempt to insert row \(index) into section 0 which only contains \(count) rows"
        }
      case .move(let from, let to):
        if from >= 0 && from < count && to >= 0 && to < count {
          list.insert(list.remove(at: from), at: to)
        } else {
          problem =
            "attempt to move row \(from) to row \(to) of section 0 which only contains \(count) rows"
        }
      case .reload(let index):
        if index >= 0 && index < count {
          list[index].isFresh = true
        } else {
          problem =
            "attempt to reload row \(index) from section 0 which only contains \(count) rows"
        }
      }
      if let problem {
        rows = newRows
        return [
          ListRuleViolation(
            rule: .stepIndices, message: "step \(number + 1) of \(steps.count), \(step): \(problem)"
          )
        ]
      }
    }
    guard list.count == newRows.count else {
      rows = newRows
      return [
        ListRuleViolation(
          rule: .rowCount,
          message:
            "invalid number of rows in section 0: after the last step the list has \(list.count) "
            + "rows, but the data source has \(newRows.count)")
      ]
    }
    return finish(list, newRows: newRows, changed: changed, after: "the last step")
  }

  /// Fills the inserted rows from the data source, checks the identities
  /// and the changed rows, and keeps the rows.
  private mutating func finish(
    _ result: [Row], newRows: [ID], changed: Set<ID>, after what: String
  ) -> [ListRuleViolation] {
    var broken: [ListRuleViolation] = []
    var shown: [ID] = []
    shown.reserveCapacity(result.count)
    var mismatch: Int?
    for (index, row) in result.enumerated() {
      let id = row.id ?? newRows[index]
      if id != newRows[index] && mismatch == nil { mismatch = index }
      shown.append(id)
    }
    if let index = mismatch {
      broken.append(
        ListRuleViolation(
          rule: .rowIdentities,
          message:
            "row \(index) of section 0 shows \(describe(shown[index])) after \(what), but the "
            + "data source has \(describe(newRows[index])) there: the update does not describe "
            + "the change (the list shows \(describe(shown)), the data source has "
            + "\(describe(newRows)))"))
    }
    if !changed.isEmpty {
      for (index, row) in result.enumerated()
      where !row.isFresh && changed.contains(shown[index]) {
        broken.append(
          ListRuleViolation(
            rule: .changedRows,
            message:
              "row \(index) of section 0 shows \(describe(shown[index])), whose value changed, "
              + "but it was neither reloaded, reconfigured, nor deleted and inserted: it still "
              + "shows the old value"))
      }
    }
    rows = shown
    return broken
  }

  private func path(_ row: Int) -> String {
    "(section 0, row \(row))"
  }
}

extension HeadlessList {
  /// Checks the batch update made for one change of an `ObservableArray`,
  /// then applies it: the data source's new rows are the change's new
  /// contents, and the changed elements its updates.
  ///
  /// Besides the rules of ``apply(_:newRows:changed:)-(BatchUpdate,_,_)``,
  /// this checks that a reload change set gives `BatchUpdate/isReloadData`.
  ///
  /// - Parameters:
  ///   - update: The batch update made for the change.
  ///   - change: The change.
  /// - Returns: The broken rules.
  /// - Complexity: O(*n* + *k*).
  @discardableResult
  public mutating func apply<Element: Identifiable>(
    _ update: BatchUpdate, for change: ArrayChange<Element>
  ) -> [ListRuleViolation] where Element.ID == ID {
    var broken: [ListRuleViolation] = []
    if change.changeSet.isReload && !update.isReloadData {
      broken.append(
        ListRuleViolation(
          rule: .reloadData,
          message:
            "the change is a reload, but the batch update does not reload the data "
            + "(isReloadData is false): \(update)"))
    }
    broken += apply(
      update, newRows: change.newElements.map(\.id),
      changed: Set(change.changeSet.updates.map(\.newElement.id)))
    return broken
  }

  /// Checks the steps made for one change of an `ObservableArray`, then
  /// applies them.
  ///
  /// - Parameters:
  ///   - steps: The steps made for the change.
  ///   - change: The change.
  /// - Returns: The broken rules.
  /// - Complexity: O(*n* · *s*) in the worst case, for *s* steps.
  @discardableResult
  public mutating func apply<Element: Identifiable>(
    _ steps: [ListStep], for change: ArrayChange<Element>
  ) -> [ListRuleViolation] where Element.ID == ID {
    apply(
      steps, newRows: change.newElements.map(\.id),
      changed: Set(change.changeSet.updates.map(\.newElement.id)))
  }
}

/// A rule of UIKit's batch updates, as ``HeadlessList`` checks it.
public enum ListRule: String, Hashable, Sendable, CaseIterable {
  /// Deletions, reloads and move sources are unique and within the old
  /// count; no index is both deleted and reloaded, deleted and moved, or
  /// reloaded and moved.
  case oldIndices = "old indices are unique, in range and told one thing"
  /// Insertions, move destinations and reconfigurations are unique and
  /// within the new count; no index is both inserted and a move destination.
  case newIndices = "new indices are unique, in range and told one thing"
  /// The new count is the old count minus the deletions plus the insertions.
  case rowCount = "the row count adds up"
  /// The rows after the update are the data source's rows.
  case rowIdentities = "the rows after the update are the new contents"
  /// Every row whose element changed is reloaded, reconfigured, or deleted
  /// and inserted.
  case changedRows = "every changed row is redrawn"
  /// A reload change set gives a reload of the data.
  case reloadData = "a reload change set reloads the data"
  /// Each step's index is valid when the step runs.
  case stepIndices = "each step's index is valid when it runs"
  /// Section deletions and move sources are unique and within the old
  /// section count, and no section is both; section insertions and move
  /// destinations are unique and within the new count, and no section is
  /// both. Checked by ``HeadlessSectionedList``.
  case sectionIndices = "section indices are unique, in range and told one thing"
  /// The new section count is the old count minus the deleted sections plus
  /// the inserted ones.
  case sectionCount = "the section count adds up"
  /// No row operation names a section being deleted or inserted.
  case rowsOfChangedSections = "no row operation names a section being deleted or inserted"
  /// Every section that stays has the key the data source has at its new
  /// index.
  case sectionIdentities = "the sections after the update are the new sections"
}

/// A broken rule: which one, and the message UIKit would raise.
public struct ListRuleViolation: Error, Hashable, Sendable, CustomStringConvertible {
  /// The rule.
  public var rule: ListRule
  /// What broke it, in the words UIKit uses where it has some.
  public var message: String

  /// Creates a violation.
  ///
  /// - Parameters:
  ///   - rule: The rule.
  ///   - message: What broke it.
  public init(rule: ListRule, message: String) {
    self.rule = rule
    self.message = message
  }

  /// The rule and the message.
  public var description: String { "\(rule.rawValue): \(message)" }
}

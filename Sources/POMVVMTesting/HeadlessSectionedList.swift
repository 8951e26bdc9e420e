/// A sectioned list view without a screen: it holds its sections — a key
/// and the identities of its rows each — and takes an update only the way
/// UIKit's table and collection views would, checking every rule UIKit
/// enforces before it applies it.
///
/// It is the sectioned sibling of ``HeadlessList``. Apply a
/// `SectionedBatchUpdate` together with the data source's new sections: the
/// list reports every broken rule, with the kind of message UIKit raises,
/// then applies the update as UIKit would, so that a test can compare
/// ``sections`` with the data.
///
/// ```swift
/// var list = HeadlessSectionedList(sections: [.init(key: "Off", ids: [1, 2])])
/// let broken = list.apply(
///   SectionedBatchUpdate(
///     sectionInsertions: [1],
///     deletions: [RowPath(section: 0, row: 1)]),
///   newSections: [.init(key: "Off", ids: [1]), .init(key: "On", ids: [2])])
/// #expect(broken.isEmpty)
/// ```
///
/// The rules, as ``ListRule`` names them:
///
/// - ``ListRule/sectionIndices``: section deletions and move sources are
///   unique and within the old section count, and no section is both;
///   section insertions and move destinations are unique and within the new
///   section count, and no section is both.
/// - ``ListRule/sectionCount``: the new section count is the old count
///   minus the deleted sections plus the inserted ones.
/// - ``ListRule/rowsOfChangedSections``: no row operation names a section
///   being deleted (its rows go with it) or inserted (its rows come from
///   the data).
/// - ``ListRule/oldIndices`` and ``ListRule/newIndices``: in each section,
///   as for ``HeadlessList``; a row is not both deleted and moved.
/// - ``ListRule/rowCount``: the row count of every section that stays adds
///   up, counting the rows moved in and out.
/// - ``ListRule/sectionIdentities``: every section that stays has the key
///   the data has at its new index.
/// - ``ListRule/rowIdentities``: after the update, every section's rows are
///   the data source's.
/// - ``ListRule/changedRows``: every row whose element changed is reloaded,
///   reconfigured, or deleted and inserted (or arrives in an inserted
///   section).
///
/// After an update UIKit would refuse outright (indices out of range or
/// repeated, counts that do not add up), the list reloads from the data
/// source's sections, as `reloadData()` would, so that the next update is
/// checked on its own.
public struct HeadlessSectionedList<Key: Hashable, ID: Hashable> {
  /// One section as the list shows it: its key and the identities of its
  /// rows, in order.
  public struct Section: Hashable {
    /// The section's key, which its header shows.
    public var key: Key
    /// The identities of the section's rows, in order.
    public var ids: [ID]

    /// Creates a section.
    ///
    /// - Parameters:
    ///   - key: The section's key.
    ///   - ids: The identities of its rows, in order.
    public init(key: Key, ids: [ID]) {
      self.key = key
      self.ids = ids
    }
  }

  /// The sections the list shows, in order.
  public private(set) var sections: [Section]

  /// Creates a list showing these sections.
  ///
  /// - Parameter sections: The sections, in order.
  public init(sections: [Section] = []) {
    self.sections = sections
  }

  /// One row as the list ends up showing it: the element it shows (`nil`
  /// for a row just inserted, which the list asks the data source for) and
  /// whether it was drawn from the new data.
  private struct Row {
    var id: ID?
    var isFresh: Bool
  }

  /// Checks a sectioned batch update against UIKit's rules, then applies it.
  ///
  /// - Parameters:
  ///   - update: The batch update, as one `performBatchUpdates` call and the
  ///     reconfigurations after it.
  ///   - newSections: The data source's sections after the update.
  ///   - changed: The identities of the elements whose value changed.
  /// - Returns: The broken rules, empty if UIKit would take the update.
  /// - Complexity: O(*n* + *s* + *k*), where *n* is the number of rows, *s*
  ///   the number of sections and *k* the size of the update.
  @discardableResult
  public mutating func apply(
    _ update: SectionedBatchUpdate, newSections: [Section], changed: Set<ID> = []
  ) -> [ListRuleViolation] {
    if update.isReloadData {
      sections = newSections
      return []
    }
    var broken: [ListRuleViolation] = []
    func fail(_ rule: ListRule, _ message: String) {
      broken.append(ListRuleViolation(rule: rule, message: message))
    }
    let oldSectionCount = sections.count
    let newSectionCount = newSections.count
    var applicable = true

    // Sections before the update.
    var sectionDeleted = [Bool](repeating: false, count: oldSectionCount)
    var sectionMovedOut = [Bool](repeating: false, count: oldSectionCount)
    for index in update.sectionDeletions {
      guard index >= 0 && index < oldSectionCount else {
        fail(
          .sectionIndices,
          "attempt to delete section \(index), but there are only \(oldSectionCount) sections "
            + "before the update")
        applicable = false
        continue
      }
      if sectionDeleted[index] {
        fail(.sectionIndices, "attempt to delete section \(index) twice")
        applicable = false
      }
      sectionDeleted[index] = true
    }
    for move in update.sectionMoves {
      guard move.from >= 0 && move.from < oldSectionCount else {
        fail(
          .sectionIndices,
          "attempt to move section \(move.from), but there are only \(oldSectionCount) sections "
            + "before the update")
        applicable = false
        continue
      }
      if sectionDeleted[move.from] {
        fail(.sectionIndices, "attempt to delete and move the same section \(move.from)")
        applicable = false
      } else if sectionMovedOut[move.from] {
        fail(.sectionIndices, "attempt to move section \(move.from) twice")
        applicable = false
      }
      sectionMovedOut[move.from] = true
    }

    // Sections after the update: which old section each new one is.
    var sectionInserted = [Bool](repeating: false, count: newSectionCount)
    var oldSectionOf = [Int?](repeating: nil, count: newSectionCount)
    for index in update.sectionInsertions {
      guard index >= 0 && index < newSectionCount else {
        fail(
          .sectionIndices,
          "attempt to insert section \(index) but there are only \(newSectionCount) sections "
            + "after the update")
        applicable = false
        continue
      }
      if sectionInserted[index] {
        fail(.sectionIndices, "attempt to insert section \(index) twice")
        applicable = false
      }
      sectionInserted[index] = true
    }
    for move in update.sectionMoves {
      guard move.to >= 0 && move.to < newSectionCount else {
        fail(
          .sectionIndices,
          "attempt to move section \(move.from) to section \(move.to), but there are only "
            + "\(newSectionCount) sections after the update")
        applicable = false
        continue
      }
      if sectionInserted[move.to] {
        fail(.sectionIndices, "attempt to insert and move to the same section \(move.to)")
        applicable = false
      } else if oldSectionOf[move.to] != nil {
        fail(.sectionIndices, "attempt to move two sections to the same section \(move.to)")
        applicable = false
      } else if move.from >= 0 && move.from < oldSectionCount {
        oldSectionOf[move.to] = move.from
      }
    }
    let expectedSectionCount =
      oldSectionCount - update.sectionDeletions.count + update.sectionInsertions.count
    if newSectionCount != expectedSectionCount {
      fail(
        .sectionCount,
        "Invalid update: invalid number of sections. The number of sections contained in the "
          + "table view after the update (\(newSectionCount)) must be equal to the number of "
          + "sections contained in the table view before the update (\(oldSectionCount)), plus "
          + "or minus the number of sections inserted or deleted "
          + "(\(update.sectionInsertions.count) inserted, \(update.sectionDeletions.count) "
          + "deleted).")
      applicable = false
    }
    guard applicable else {
      sections = newSections
      return broken
    }
    // The sections that stay, in their old order, fill the other slots.
    var newSectionOf = [Int?](repeating: nil, count: oldSectionCount)
    var nextOldSection = 0
    for index in 0..<newSectionCount where !sectionInserted[index] {
      if let old = oldSectionOf[index] {
        newSectionOf[old] = index
        continue
      }
      while sectionDeleted[nextOldSection] || sectionMovedOut[nextOldSection] {
        nextOldSection += 1
      }
      oldSectionOf[index] = nextOldSection
      newSectionOf[nextOldSection] = index
      nextOldSection += 1
    }

    // Rows before the update: what each old row is told.
    var deleted = sections.map { [Bool](repeating: false, count: $0.ids.count) }
    var reloaded = deleted
    var movedOut = deleted
    var movedOutCount = [Int](repeating: 0, count: oldSectionCount)
    var deletedCount = [Int](repeating: 0, count: oldSectionCount)
    /// Checks an old path; `false` if it cannot be applied.
    func checkOld(_ path: RowPath, _ verb: String) -> Bool {
      guard path.section >= 0 && path.section < oldSectionCount else {
        fail(
          .oldIndices,
          "attempt to \(verb) row \(path.row) from section \(path.section), but there are only "
            + "\(oldSectionCount) sections before the update")
        applicable = false
        return false
      }
      guard !sectionDeleted[path.section] else {
        fail(
          .rowsOfChangedSections,
          "attempt to \(verb) row \(path.row) from section \(path.section), which is being "
            + "deleted: its rows go with it")
        applicable = false
        return false
      }
      let count = sections[path.section].ids.count
      guard path.row >= 0 && path.row < count else {
        fail(
          .oldIndices,
          "attempt to \(verb) row \(path.row) from section \(path.section) which only contains "
            + "\(count) rows before the update")
        applicable = false
        return false
      }
      return true
    }
    for path in update.deletions where checkOld(path, "delete") {
      if deleted[path.section][path.row] {
        fail(.oldIndices, "attempt to delete row \(path.row) from section \(path.section) twice")
        applicable = false
        continue
      }
      deleted[path.section][path.row] = true
      deletedCount[path.section] += 1
    }
    for path in update.reloads where checkOld(path, "reload") {
      if reloaded[path.section][path.row] {
        fail(.oldIndices, "attempt to reload row \(path.row) from section \(path.section) twice")
        continue
      }
      reloaded[path.section][path.row] = true
      if deleted[path.section][path.row] {
        fail(.oldIndices, "attempt to delete and reload the same index path \(pathText(path))")
      }
    }
    for move in update.moves where checkOld(move.from, "move") {
      let path = move.from
      if movedOut[path.section][path.row] {
        fail(.oldIndices, "attempt to move row \(path.row) from section \(path.section) twice")
        applicable = false
        continue
      }
      movedOut[path.section][path.row] = true
      movedOutCount[path.section] += 1
      if deleted[path.section][path.row] {
        fail(
          .oldIndices,
          "attempt to perform a delete and a move from the same index path \(pathText(path))")
        applicable = false
      }
      if reloaded[path.section][path.row] {
        fail(
          .oldIndices,
          "attempt to move and reload the same index path \(pathText(path)) (UIKit reports it "
            + "as \"attempt to perform a delete and a move from the same index path\")")
      }
    }

    // Rows after the update: what enters each new row.
    var entering = newSections.map { [Row?](repeating: nil, count: $0.ids.count) }
    var insertedAt = newSections.map { [Bool](repeating: false, count: $0.ids.count) }
    var insertedCount = [Int](repeating: 0, count: newSectionCount)
    var movedInCount = [Int](repeating: 0, count: newSectionCount)
    /// Checks a new path; `false` if it cannot be applied.
    func checkNew(_ path: RowPath, _ what: String) -> Bool {
      guard path.section >= 0 && path.section < newSectionCount else {
        fail(
          .newIndices,
          "attempt to \(what) section \(path.section), but there are only \(newSectionCount) "
            + "sections after the update")
        applicable = false
        return false
      }
      guard !sectionInserted[path.section] else {
        fail(
          .rowsOfChangedSections,
          "attempt to \(what) section \(path.section), which is being inserted: its rows come "
            + "from the data source")
        applicable = false
        return false
      }
      let count = newSections[path.section].ids.count
      guard path.row >= 0 && path.row < count else {
        fail(
          .newIndices,
          "attempt to \(what) section \(path.section), but there are only \(count) rows in "
            + "section \(path.section) after the update")
        applicable = false
        return false
      }
      return true
    }
    for path in update.insertions where checkNew(path, "insert row \(path.row) into") {
      if insertedAt[path.section][path.row] {
        fail(.newIndices, "attempt to insert row \(path.row) into section \(path.section) twice")
        applicable = false
        continue
      }
      insertedAt[path.section][path.row] = true
      insertedCount[path.section] += 1
      entering[path.section][path.row] = Row(id: nil, isFresh: true)
    }
    for move in update.moves {
      let path = move.to
      guard
        checkNew(
          path,
          "move row \(move.from.row) of section \(move.from.section) to row "
            + "\(path.row) of")
      else { continue }
      movedInCount[path.section] += 1
      if insertedAt[path.section][path.row] {
        fail(.newIndices, "attempt to insert and move to the same index path \(pathText(path))")
        applicable = false
      } else if entering[path.section][path.row] != nil {
        fail(.newIndices, "attempt to move two rows to the same index path \(pathText(path))")
        applicable = false
      } else if move.from.section >= 0 && move.from.section < oldSectionCount,
        sections[move.from.section].ids.indices.contains(move.from.row)
      {
        entering[path.section][path.row] = Row(
          id: sections[move.from.section].ids[move.from.row], isFresh: false)
      }
    }
    var reconfigured = newSections.map { [Bool](repeating: false, count: $0.ids.count) }
    for path in update.reconfigurations {
      guard path.section >= 0 && path.section < newSectionCount,
        newSections[path.section].ids.indices.contains(path.row)
      else {
        fail(
          .newIndices,
          "attempt to reconfigure row \(path.row) of section \(path.section), which is not "
            + "there after the update")
        continue
      }
      if reconfigured[path.section][path.row] {
        fail(
          .newIndices, "attempt to reconfigure row \(path.row) of section \(path.section) twice")
      }
      reconfigured[path.section][path.row] = true
    }

    // The row count of every section that stays adds up (when the indices
    // did, or UIKit stops at those).
    for index in 0..<newSectionCount where applicable {
      guard let old = oldSectionOf[index] else { continue }
      let oldCount = sections[old].ids.count
      let newCount = newSections[index].ids.count
      let expected =
        oldCount - deletedCount[old] - movedOutCount[old] + insertedCount[index]
        + movedInCount[index]
      if newCount != expected {
        fail(
          .rowCount,
          "Invalid update: invalid number of rows in section \(index). The number of rows "
            + "contained in an existing section after the update (\(newCount)) must be equal to "
            + "the number of rows contained in that section before the update (\(oldCount)), "
            + "plus or minus the number of rows inserted or deleted from that section "
            + "(\(insertedCount[index]) inserted, \(deletedCount[old]) deleted) and plus or "
            + "minus the number of rows moved into or out of that section "
            + "(\(movedInCount[index]) moved in, \(movedOutCount[old]) moved out).")
        applicable = false
      }
    }
    guard applicable else {
      sections = newSections
      return broken
    }

    // The sections UIKit ends with: in each one that stays, its stayers in
    // their old order and the entering rows at their new indices; an
    // inserted one, fresh from the data.
    var result: [[Row]] = []
    result.reserveCapacity(newSectionCount)
    for index in 0..<newSectionCount {
      let count = newSections[index].ids.count
      guard let old = oldSectionOf[index] else {
        result.append([Row](repeating: Row(id: nil, isFresh: true), count: count))
        continue
      }
      if sections[old].key != newSections[index].key {
        fail(
          .sectionIdentities,
          "section \(index) after the update is section \(old) before it, whose key is "
            + "\(describe(sections[old].key)), but the data source has "
            + "\(describe(newSections[index].key)) there: the update does not describe the "
            + "change")
      }
      var rows: [Row] = []
      rows.reserveCapacity(count)
      var nextOld = 0
      for row in 0..<count {
        if var entering = entering[index][row] {
          entering.isFresh = entering.isFresh || reconfigured[index][row]
          rows.append(entering)
          continue
        }
        while deleted[old][nextOld] || movedOut[old][nextOld] { nextOld += 1 }
        rows.append(
          Row(
            id: sections[old].ids[nextOld],
            isFresh: reloaded[old][nextOld] || reconfigured[index][row]))
        nextOld += 1
      }
      result.append(rows)
    }
    broken += finish(result, newSections: newSections, changed: changed)
    return broken
  }

  /// Fills the inserted rows from the data source, checks the identities
  /// and the changed rows, and keeps the sections.
  private mutating func finish(
    _ result: [[Row]], newSections: [Section], changed: Set<ID>
  ) -> [ListRuleViolation] {
    var broken: [ListRuleViolation] = []
    var shown: [Section] = []
    shown.reserveCapacity(result.count)
    for (index, rows) in result.enumerated() {
      let data = newSections[index]
      var ids: [ID] = []
      ids.reserveCapacity(rows.count)
      var mismatch: Int?
      for (row, shownRow) in rows.enumerated() {
        let id = shownRow.id ?? data.ids[row]
        if id != data.ids[row] && mismatch == nil { mismatch = row }
        ids.append(id)
        if !shownRow.isFresh && changed.contains(id) {
          broken.append(
            ListRuleViolation(
              rule: .changedRows,
              message:
                "row \(row) of section \(index) shows \(describe(id)), whose value changed, but "
                + "it was neither reloaded, reconfigured, nor deleted and inserted: it still "
                + "shows the old value"))
        }
      }
      if let row = mismatch {
        broken.append(
          ListRuleViolation(
            rule: .rowIdentities,
            message:
              "row \(row) of section \(index) shows \(describe(ids[row])) after the update, but "
              + "the data source has \(describe(data.ids[row])) there: the update does not "
              + "describe the change (the section shows \(describe(ids)), the data source has "
              + "\(describe(data.ids)))"))
      }
      shown.append(Section(key: data.key, ids: ids))
    }
    sections = shown
    return broken
  }

  private func pathText(_ path: RowPath) -> String {
    "(section \(path.section), row \(path.row))"
  }
}

extension HeadlessSectionedList.Section: Sendable where Key: Sendable, ID: Sendable {}

extension HeadlessSectionedList.Section: CustomStringConvertible {
  /// The key and the rows, such as `"Off": [1, 2]`.
  public var description: String {
    "\(POMVVMTesting.describe(key)): \(POMVVMTesting.describe(ids))"
  }
}

extension SectionedBatchUpdate {
  /// The batch update that turns one sectioned list into another, matching
  /// sections by key and rows by id.
  ///
  /// A section whose key is only in `old` is deleted and one whose key is
  /// only in `new` is inserted, with their rows; the sections that stay and
  /// are out of order are moved, the fewest moves that explain the new
  /// order. A row whose id is in a section that stays on both sides is kept:
  /// in the same section, the rows off the longest run that kept its order
  /// are moved; to another section, it is one move. Any other row is
  /// deleted or inserted. A kept id in `changedIDs` is a reload at its old
  /// path when it did not move, or a reconfiguration at its new path when
  /// it did (see ``SectionedBatchUpdate``).
  ///
  /// Every batch it returns obeys UIKit's rules for a batch (see
  /// ``SectionedBatchUpdate``). When the update would name more sections and
  /// rows than the lists hold, it is ``reloadData`` instead.
  ///
  /// ```swift
  /// let batch = SectionedBatchUpdate.difference(
  ///   from: [(key: "A", ids: [1, 2]), (key: "B", ids: [3])],
  ///   to: [(key: "A", ids: [2]), (key: "B", ids: [1, 3])],
  ///   changedIDs: [1])
  /// // move [0.0->1.0], reconfigure [1.0]
  /// ```
  ///
  /// - Parameters:
  ///   - old: The sections before, each a key and the ids of its rows. Keys
  ///     are unique, and so are ids across all sections.
  ///   - new: The sections after, with the same uniqueness.
  ///   - changedIDs: The ids whose element changed its value; ids not on
  ///     both sides are ignored.
  /// - Returns: A batch update valid for UIKit.
  /// - Complexity: O(*n* + *s*), where *n* is the number of rows on both
  ///   sides and *s* the number of sections, when the rows that stay keep
  ///   their order; O(*m* log *m*) more for the *m* rows or sections whose
  ///   order changed.
  public static func difference<Key: Hashable, ID: Hashable>(
    from old: [(key: Key, ids: [ID])], to new: [(key: Key, ids: [ID])],
    changedIDs: Set<ID> = []
  ) -> SectionedBatchUpdate {
    // Sections, by key.
    var oldSectionOfKey: [Key: Int] = [:]
    oldSectionOfKey.reserveCapacity(old.count)
    for (index, section) in old.enumerated() {
      precondition(
        oldSectionOfKey.updateValue(index, forKey: section.key) == nil,
        "SectionedBatchUpdate: duplicate section key \(section.key) in the old sections")
    }
    var newSectionOfOld = [Int?](repeating: nil, count: old.count)
    var oldSectionOfNew = [Int?](repeating: nil, count: new.count)
    var sectionInsertions: [Int] = []
    var keptSections: [(old: Int, new: Int)] = []
    var newKeys: Set<Key> = []
    newKeys.reserveCapacity(new.count)
    for (index, section) in new.enumerated() {
      precondition(
        newKeys.insert(section.key).inserted,
        "SectionedBatchUpdate: duplicate section key \(section.key) in the new sections")
      if let oldIndex = oldSectionOfKey[section.key] {
        newSectionOfOld[oldIndex] = index
        oldSectionOfNew[index] = oldIndex
        keptSections.append((oldIndex, index))
      } else {
        sectionInsertions.append(index)
      }
    }
    var sectionDeletions: [Int] = []
    for index in old.indices where newSectionOfOld[index] == nil {
      sectionDeletions.append(index)
    }
    var sectionMoves: [SectionMove] = []
    let sectionsStay = _IdentityDiff._longestIncreasingRun(keptSections.map(\.old))
    for (position, pair) in keptSections.enumerated() where !sectionsStay[position] {
      sectionMoves.append(SectionMove(from: pair.old, to: pair.new))
    }

    // Rows, by id: only the rows of sections that stay can be kept.
    var oldPath: [ID: RowPath] = [:]
    oldPath.reserveCapacity(old.reduce(0) { $0 + $1.ids.count })
    for (section, entry) in old.enumerated() {
      for (row, id) in entry.ids.enumerated() {
        precondition(
          oldPath.updateValue(RowPath(section: section, row: row), forKey: id) == nil,
          "SectionedBatchUpdate: duplicate id \(id) in the old sections")
      }
    }
    // Which rows of each old section that stays were kept, by old row.
    var kept = old.indices.map {
      [Bool](repeating: false, count: newSectionOfOld[$0] == nil ? 0 : old[$0].ids.count)
    }
    var newIDs: Set<ID> = []
    var insertions: [RowPath] = []
    var moves: [RowMove] = []
    var reloads: [RowPath] = []
    var reconfigurations: [RowPath] = []
    var changedRows: [RowPath] = []
    var inSection: [(oldRow: Int, newRow: Int)] = []
    for (section, entry) in new.enumerated() {
      for id in entry.ids {
        precondition(
          newIDs.insert(id).inserted, "SectionedBatchUpdate: duplicate id \(id) in the new sections"
        )
      }
      guard let oldSection = oldSectionOfNew[section] else { continue }
      // First pass: the rows that stay in this section, to find those that
      // kept their order.
      inSection.removeAll(keepingCapacity: true)
      for (row, id) in entry.ids.enumerated() {
        if let from = oldPath[id], from.section == oldSection {
          inSection.append((from.row, row))
        }
      }
      let stay = _IdentityDiff._longestIncreasingRun(inSection.map(\.oldRow))
      // Second pass, in the new order: insertions, moves and changes.
      var nextInSection = 0
      for (row, id) in entry.ids.enumerated() {
        let to = RowPath(section: section, row: row)
        guard let from = oldPath[id], newSectionOfOld[from.section] != nil else {
          insertions.append(to)
          continue
        }
        kept[from.section][from.row] = true
        let isChanged = changedIDs.contains(id)
        if from.section == oldSection {
          let stays = stay[nextInSection]
          nextInSection += 1
          if stays {
            if isChanged {
              reloads.append(from)
              changedRows.append(to)
            }
            continue
          }
        }
        moves.append(RowMove(from: from, to: to))
        if isChanged {
          reconfigurations.append(to)
          changedRows.append(to)
        }
      }
    }
    var deletions: [RowPath] = []
    for (section, entry) in old.enumerated() where newSectionOfOld[section] != nil {
      for row in entry.ids.indices where !kept[section][row] {
        deletions.append(RowPath(section: section, row: row))
      }
    }
    // Reloads follow the new order of sections; a section move can put them
    // out of the old order.
    if !sectionMoves.isEmpty { reloads.sort() }

    let size =
      sectionDeletions.count + sectionInsertions.count + sectionMoves.count + deletions.count
      + insertions.count + moves.count + reloads.count + reconfigurations.count
    let oldSize = old.count + oldPath.count
    let newSize = new.count + newIDs.count
    if size > Swift.max(oldSize, newSize) { return .reloadData }
    return SectionedBatchUpdate(
      sectionDeletions: sectionDeletions, sectionInsertions: sectionInsertions,
      sectionMoves: sectionMoves, deletions: deletions, insertions: insertions, moves: moves,
      reloads: reloads, reconfigurations: reconfigurations, changedRows: changedRows)
  }
}

import POMVVM

/// Applies a sectioned batch update to sections of ids the way a table view
/// would, checking the rules it enforces on the way.
///
/// - Returns: The sections after, and the broken rules.
func replay<Key: Hashable>(
  _ batch: SectionedBatchUpdate, on old: [(key: Key, ids: [Int])],
  data new: [(key: Key, ids: [Int])]
) -> (sections: [[Int]], broken: [String]) {
  if batch.isReloadData { return (new.map(\.ids), []) }
  var broken: [String] = []
  let deletedSections = Set(batch.sectionDeletions)
  let insertedSections = Set(batch.sectionInsertions)
  if !batch.sectionMoves.isEmpty { broken.append("unexpected section moves") }
  if old.count - deletedSections.count + insertedSections.count != new.count {
    broken.append("section counts do not add up")
  }
  var leaving: Set<RowPath> = []
  for path in batch.deletions + batch.moves.map(\.from) {
    if deletedSections.contains(path.section) {
      broken.append("row \(path) is in a deleted section")
    }
    guard old.indices.contains(path.section), old[path.section].ids.indices.contains(path.row)
    else {
      broken.append("old row \(path) is out of range")
      continue
    }
    if !leaving.insert(path).inserted { broken.append("old row \(path) leaves twice") }
  }
  for path in batch.reloads where leaving.contains(path) || deletedSections.contains(path.section) {
    broken.append("reloaded row \(path) also leaves")
  }
  var entering: [RowPath: Int] = [:]
  for path in batch.insertions {
    if insertedSections.contains(path.section) {
      broken.append("row \(path) is in an inserted section")
    }
    guard new.indices.contains(path.section), new[path.section].ids.indices.contains(path.row)
    else {
      broken.append("new row \(path) is out of range")
      continue
    }
    entering[path] = new[path.section].ids[path.row]
  }
  for move in batch.moves {
    if insertedSections.contains(move.to.section) {
      broken.append("move to \(move.to) is in an inserted section")
    }
    guard old.indices.contains(move.from.section),
      old[move.from.section].ids.indices.contains(move.from.row)
    else { continue }
    if entering.updateValue(old[move.from.section].ids[move.from.row], forKey: move.to) != nil {
      broken.append("new row \(move.to) is entered twice")
    }
  }
  guard broken.isEmpty else { return ([], broken) }
  var surviving = old.enumerated().filter { !deletedSections.contains($0.offset) }.map {
    section in
    section.element.ids.enumerated().filter {
      !leaving.contains(RowPath(section: section.offset, row: $0.offset))
    }.map(\.element)
  }.makeIterator()
  var result: [[Int]] = []
  for index in new.indices {
    if insertedSections.contains(index) {
      result.append(new[index].ids)
      continue
    }
    var staying = (surviving.next() ?? []).makeIterator()
    var rows: [Int] = []
    let total = new[index].ids.count
    for row in 0..<total {
      if let id = entering[RowPath(section: index, row: row)] {
        rows.append(id)
      } else if let id = staying.next() {
        rows.append(id)
      } else {
        broken.append("section \(index) runs out of rows at \(row)")
        break
      }
    }
    if staying.next() != nil { broken.append("section \(index) has rows left over") }
    result.append(rows)
  }
  return (result, broken)
}

/// One operation on a list view that applies it at once: what AppKit's
/// `NSTableView` and `NSOutlineView` do with `removeRows`, `insertRows`,
/// `moveRow` and `reloadData(forRowIndexes:columnIndexes:)`, even between
/// `beginUpdates()` and `endUpdates()`.
///
/// ``ChangeSet/steps`` turns a change set into steps. Unlike a
/// ``BatchUpdate``, whose indices are all taken before or after the whole
/// update, each step's index is an index of the list as it stands after the
/// steps before it.
///
/// ```swift
/// tableView.beginUpdates()
/// ids = newIDs
/// for step in change.changeSet.steps {
///   switch step {
///   case .delete(let row): tableView.removeRows(at: [row], withAnimation: .effectFade)
///   case .insert(let row): tableView.insertRows(at: [row], withAnimation: .effectFade)
///   case .move(let from, let to): tableView.moveRow(at: from, to: to)
///   case .reload(let row): tableView.reloadData(forRowIndexes: [row], columnIndexes: [0])
///   }
/// }
/// tableView.endUpdates()
/// ```
public enum ListStep: Hashable, Sendable {
  /// Removes the row at this index.
  case delete(Int)
  /// Inserts a row at this index; the list asks its data source for it.
  case insert(Int)
  /// Moves a row: `from` is its index now, `to` its index afterwards (as
  /// removing it and inserting it there would leave it).
  case move(from: Int, to: Int)
  /// Redraws the row at this index from the data source.
  case reload(Int)
}

extension ListStep: CustomStringConvertible {
  /// The step as it reads in failure messages: `delete(2)`, `move(0->3)`.
  public var description: String {
    switch self {
    case .delete(let row): "delete(\(row))"
    case .insert(let row): "insert(\(row))"
    case .move(let from, let to): "move(\(from)->\(to))"
    case .reload(let row): "reload(\(row))"
    }
  }
}

extension ChangeSet {
  /// The change as steps that a list view applies one at a time.
  ///
  /// Deletions come first, from the bottom up; then insertions and moves,
  /// by the rows' final order (an inserted or moved row may land above
  /// rows that are still to move, so its step's index is the index at
  /// that moment, not always its final one); and last a reload of every
  /// changed row at its final index, once every row is where it ends up —
  /// so a moved row that changed is moved, then reloaded, never reloaded
  /// where it was. After the last step the rows are the new contents.
  ///
  /// A reload change set gives the deletion of every old row and the
  /// insertion of every new one; a view that can should check
  /// ``isReload`` first and reload everything instead.
  ///
  /// - Complexity: O(*k* log *k*), where *k* is the number of changes, and
  ///   O(*k*) when nothing moved; a reload is O(*n*).
  public var steps: [ListStep] {
    if let reload {
      return reload.old.indices.reversed().map { .delete($0) }
        + reload.new.indices.map { .insert($0) }
    }
    var steps: [ListStep] = []
    steps.reserveCapacity(removals.count + insertions.count + moves.count + updates.count)
    var deletions = removals.map { $0.index }
    if !deletions.isStrictlyAscending { deletions.sort() }
    for index in deletions.reversed() {
      steps.append(.delete(index))
    }
    var inserted = insertions.map { $0.index }
    if !inserted.isStrictlyAscending { inserted.sort() }
    if moves.isEmpty {
      for index in inserted {
        steps.append(.insert(index))
      }
    } else {
      _appendMovingSteps(deletions: deletions, insertions: inserted, to: &steps)
    }
    var changed = updates.map { $0.newIndex }
    if !changed.isStrictlyAscending { changed.sort() }
    for index in changed {
      steps.append(.reload(index))
    }
    return steps
  }

  /// Appends the insertions and moves, by ascending final index, once the
  /// deletions are done.
  ///
  /// The rows that stay keep their order; call them the *stayers*. A row
  /// still to move sits among them where it was; a row already placed sits
  /// right before the first stayer that follows it in the final order.
  /// Ordering every such row by a key — the number of stayers before it,
  /// then whether it is still to move, then its old or new index — gives
  /// the list's order at any moment, and a Fenwick tree over the keys
  /// counts the rows before any of them in O(log *k*).
  private func _appendMovingSteps(
    deletions: [Int], insertions: [Int], to steps: inout [ListStep]
  ) {
    // Stayers before each move's source: its old index less the deleted
    // and moved-out rows above it.
    let sources = moves.indices.sorted { moves[$0].from < moves[$1].from }
    var stayersBefore = [Int](repeating: 0, count: moves.count)
    var deletedAbove = 0
    for (movedAbove, move) in sources.enumerated() {
      let from = moves[move].from
      while deletedAbove < deletions.count && deletions[deletedAbove] < from {
        deletedAbove += 1
      }
      stayersBefore[move] = from - deletedAbove - movedAbove
    }
    // The targets — insertions and move destinations — by final index.
    var targets: [(index: Int, move: Int?)] = insertions.map { ($0, nil) }
    targets += moves.indices.map { (moves[$0].to, $0) }
    targets.sort { $0.index < $1.index }

    // Keys: a row to move is (stayers before it, 0, old index); a placed
    // row is (stayers before it, 1, new index).
    var keys: [(stayers: Int, placed: Int, index: Int, slot: Int)] = []
    keys.reserveCapacity(moves.count + targets.count)
    for move in moves.indices {
      keys.append((stayersBefore[move], 0, moves[move].from, move))
    }
    for (position, target) in targets.enumerated() {
      keys.append((target.index - position, 1, target.index, moves.count + position))
    }
    keys.sort { ($0.stayers, $0.placed, $0.index) < ($1.stayers, $1.placed, $1.index) }
    var rank = [Int](repeating: 0, count: keys.count)
    for (order, key) in keys.enumerated() {
      rank[key.slot] = order
    }
    var tree = _FenwickTree(count: keys.count)
    for move in moves.indices {
      tree.add(1, at: rank[move])
    }
    for (position, target) in targets.enumerated() {
      let stayers = target.index - position
      let slot = rank[moves.count + position]
      if let move = target.move {
        let from = stayersBefore[move] + tree.count(before: rank[move])
        tree.add(-1, at: rank[move])
        steps.append(.move(from: from, to: stayers + tree.count(before: slot)))
      } else {
        steps.append(.insert(stayers + tree.count(before: slot)))
      }
      tree.add(1, at: slot)
    }
  }
}

/// Counts of marked positions, with prefix sums in O(log *n*).
struct _FenwickTree {
  private var sums: [Int]

  init(count: Int) {
    sums = [Int](repeating: 0, count: count + 1)
  }

  /// Adds `delta` at `position`.
  mutating func add(_ delta: Int, at position: Int) {
    var index = position + 1
    while index < sums.count {
      sums[index] += delta
      index += index & -index
    }
  }

  /// The sum of the positions before `position`.
  func count(before position: Int) -> Int {
    var index = position
    var total = 0
    while index > 0 {
      total += sums[index]
      index -= index & -index
    }
    return total
  }
}

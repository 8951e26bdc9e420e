import TestSupport
import Testing

@testable import POMVVM

@Suite("Sectioned rows")
struct SectionedRowsTests {
  /// Random batches (one row moved across sections, one deleted, one
  /// inserted, a move and a deletion together), compared with plain arrays
  /// after every step, with the rows read right after the batch: the row
  /// inserted last is read from what the rows remember, the others from
  /// their chunks, and a removal makes them forget it.
  @Test(arguments: 1...3)
  func followedBatchesReadAsPlainArrays(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed))
    func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    var model: [[Int]] = [Array(0..<1_500), Array(1_500..<1_600), Array(1_600..<1_610)]
    var rows = _SectionedRows<Int, Int>(keys: [0, 1, 2], ids: model)
    var nextID = 10_000
    var failures: [String] = []
    var remembered = 0
    func anyRow() -> RowPath {
      let section = pick(3)
      return RowPath(section: section, row: pick(model[section].count))
    }
    func anyPlace() -> RowPath {
      let section = pick(3)
      return RowPath(section: section, row: pick(model[section].count + 1))
    }
    for step in 0..<3_000 {
      let batch: SectionedBatchUpdate
      var inserted: RowPath?
      switch pick(4) {
      case 0 where model.allSatisfy({ $0.count > 1 }):
        // A lone move, as a toggle across sections makes.
        let from = anyRow()
        let id = model[from.section].remove(at: from.row)
        let to = anyPlace()
        model[to.section].insert(id, at: to.row)
        batch = SectionedBatchUpdate(moves: [.init(from: from, to: to)])
        inserted = to
      case 1 where model.allSatisfy({ $0.count > 1 }):
        let path = anyRow()
        model[path.section].remove(at: path.row)
        batch = SectionedBatchUpdate(deletions: [path])
      case 2 where model.allSatisfy({ $0.count > 2 }):
        // A deletion and a move in one batch, both at old paths.
        let deleted = anyRow()
        var moved = anyRow()
        while moved == deleted { moved = anyRow() }
        let deletedID = model[deleted.section][deleted.row]
        let movedID = model[moved.section][moved.row]
        model[deleted.section].removeAll { $0 == deletedID }
        model[moved.section].removeAll { $0 == movedID }
        let to = anyPlace()
        model[to.section].insert(movedID, at: to.row)
        batch = SectionedBatchUpdate(deletions: [deleted], moves: [.init(from: moved, to: to)])
        inserted = to
      default:
        let path = anyPlace()
        model[path.section].insert(nextID, at: path.row)
        nextID += 1
        batch = SectionedBatchUpdate(insertions: [path])
        inserted = path
      }
      let fits = rows.follow(
        batch, key: { $0 }, sectionIDs: { model[$0] },
        id: { model[$0.section][$0.row] })
      if !fits {
        failures.append("step \(step): \(batch) does not fit")
        continue
      }
      if let inserted, rows.lastInsertedPath == inserted { remembered += 1 }
      // The inserted row and a few others each step, every row now and
      // then.
      var paths = (0..<6).map { _ in anyRow() }
      if let inserted { paths.append(inserted) }
      if step % 250 == 0 {
        paths = model.indices.flatMap { section in
          model[section].indices.map { RowPath(section: section, row: $0) }
        }
      }
      for path in paths where rows.id(at: path) != model[path.section][path.row] {
        failures.append("step \(step): \(path) reads wrong")
      }
      if rows.count != model.reduce(0, { $0 + $1.count }) {
        failures.append("step \(step): count \(rows.count)")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
    // The remembered row was used, not bypassed.
    #expect(remembered > 500)
  }

  /// A removal before the row inserted last forgets it: the row at its old
  /// path is another one then.
  @Test func aRemovalForgetsTheRowInsertedLast() {
    var rows = _SectionedRows<String, Int>(keys: ["a", "b"], ids: [[1, 2, 3], [4, 5]])
    let fits = rows.insertRow(9, at: RowPath(section: 1, row: 1))
    #expect(fits)
    #expect(rows.id(at: RowPath(section: 1, row: 1)) == 9)
    let removed = rows.removeRow(at: RowPath(section: 1, row: 0))
    #expect(removed == 4)
    #expect(rows.id(at: RowPath(section: 1, row: 1)) == 5)
    #expect(rows.id(at: RowPath(section: 1, row: 0)) == 9)
    #expect(rows.id(at: RowPath(section: 1, row: 2)) == nil)
  }
}

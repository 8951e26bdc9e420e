import TestSupport
import Testing

@testable import POMVVM

@Suite("Row chunks")
struct RowChunksTests {
  /// Random inserts and removals at any row, in a section that grows to
  /// several chunks, splits them and empties them again, compared with a
  /// plain array after every step: every row read, and every place found
  /// by the chunks' counts.
  @Test(arguments: 1...3)
  func insertsRemovalsAndReadsMatchAPlainArray(seed: Int) {
    var random = SplitMix64(seed: UInt64(seed))
    func pick(_ count: Int) -> Int { Int(random.next() % UInt64(count)) }
    let maximum = _RowChunks<Int>.maximum
    var chunks = _RowChunks<Int>([])
    var model: [Int] = []
    var nextID = 0
    var failures: [String] = []
    var mostChunks = 0
    var emptiedChunks = 0
    // Grows past five chunks, then shrinks to nothing, then grows again.
    let phases = [
      (steps: 8 * maximum, grow: 4), (steps: 10 * maximum, grow: 1), (steps: 600, grow: 4),
    ]
    for (phase, (steps, grow)) in phases.enumerated() {
      for step in 0..<steps {
        if model.isEmpty || pick(5) < grow {
          let row = pick(model.count + 1)
          chunks.insert(nextID, at: row)
          model.insert(nextID, at: row)
          nextID += 1
        } else {
          let row = pick(model.count)
          let before = chunks.chunks.count
          let removed = chunks.remove(at: row)
          if removed != model.remove(at: row) {
            failures.append("phase \(phase) step \(step): removed \(removed)")
          }
          if chunks.chunks.count < before { emptiedChunks += 1 }
        }
        mostChunks = max(mostChunks, chunks.chunks.count)
        if chunks.count != model.count {
          failures.append("phase \(phase) step \(step): count \(chunks.count), not \(model.count)")
        }
        // A few reads each step, and all rows now and then.
        let rows =
          step % 500 == 0
          ? Array(model.indices)
          : (0..<3).compactMap { _ in
            model.isEmpty ? nil : pick(model.count)
          }
        for row in rows where chunks[row] != model[row] {
          failures.append(
            "phase \(phase) step \(step): row \(row) is \(chunks[row]), not \(model[row])")
        }
        if chunks.chunks.contains(where: { $0.isEmpty || $0.count > maximum }) {
          failures.append("phase \(phase) step \(step): a chunk is empty or over \(maximum)")
        }
        if failures.count > 5 { break }
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(5))")
    #expect(chunks.ids == model)
    // The run reached several chunks, split them and emptied some.
    #expect(mostChunks >= 5)
    #expect(emptiedChunks >= 1)
  }

  /// A section made from many ids starts in half-full chunks, and the end
  /// of every chunk is a place to insert at.
  @Test func aLargeSectionIsSplitAndEveryChunkBoundaryTakesAnInsertion() {
    let maximum = _RowChunks<Int>.maximum
    var model = Array(0..<(5 * maximum + 7))
    var chunks = _RowChunks(model)
    #expect(chunks.chunks.count == 11)
    #expect(chunks.ids == model)
    var nextID = model.count
    // Each boundary between chunks, and the very end.
    for boundary in stride(from: 0, through: model.count, by: maximum / 2).reversed() {
      chunks.insert(nextID, at: boundary)
      model.insert(nextID, at: boundary)
      nextID += 1
    }
    chunks.insert(nextID, at: model.count)
    model.append(nextID)
    #expect(chunks.count == model.count)
    #expect(model.indices.allSatisfy { chunks[$0] == model[$0] })
    #expect(chunks.ids == model)
  }
}

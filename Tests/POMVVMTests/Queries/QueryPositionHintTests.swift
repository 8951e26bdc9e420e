import POMVVM
import Testing

/// A query's order tree remembers where each row's element was in the
/// array (a hint its comparisons read before the id index): the hints go
/// stale when the array inserts, removes or moves elements before a row,
/// and must then be checked and found again, never trusted.
@MainActor
@Suite("Query position hints")
struct QueryPositionHintTests {
  /// Rows placed among rows whose hints are stale still go where a fresh
  /// sort puts them.
  ///
  /// The rows sort by a text that many share, so that ties go by array
  /// position: after edits all over the array (which place rows, and
  /// record their positions), the array shifts every position (rows in at
  /// the front, one out, one moved), and the next edits place their rows
  /// among rows whose hints are stale. Both a flat and a sectioned query
  /// equal a fresh sort after every step.
  @Test
  func rowsPlacedAfterTheArrayShiftsItsPositionsKeepTheArraysOrderForTies() {
    let texts = ["a", "b", "c"]
    let array = ObservableArray<TestItem>(
      (0..<60).map { TestItem($0, texts[$0 % 3], on: $0 % 2 == 0) })
    let flat = array.query(sortedBy: { $0.text < $1.text })
    let sectioned = array.query(sortedBy: { $0.text < $1.text }, sectionedBy: { $0.on ? 1 : 0 })
    var failures: [String] = []
    func check(_ step: String) {
      // A stable sort: ties keep the array's order.
      let sorted = array.elements.enumerated()
        .sorted { ($0.element.text, $0.offset) < ($1.element.text, $1.offset) }
        .map(\.element)
      if flat.ids != sorted.map(\.id) { failures.append("\(step): flat \(flat.ids)") }
      let expected = [0, 1].compactMap { key -> [Int]? in
        let ids = sorted.filter { ($0.on ? 1 : 0) == key }.map(\.id)
        return ids.isEmpty ? nil : ids
      }
      let shown = sectioned.sections.map(\.ids)
      if shown != expected { failures.append("\(step): sectioned \(shown), not \(expected)") }
    }
    var nextID = 60
    for round in 0..<8 {
      // Edits spread over the array: a toggle moves its row across
      // sections, a new text moves it within its section.
      for offset in stride(from: round % 5, to: array.count, by: 5) {
        var element = array[offset]
        if offset % 2 == 0 {
          element.on.toggle()
        } else {
          element.text = texts[(offset + round) % 3]
        }
        _ = array.update(element)
        check("round \(round), edit at \(offset)")
      }
      // Every position shifts.
      for _ in 0..<(round % 3 + 1) {
        array.insert(TestItem(nextID, texts[nextID % 3], on: nextID % 2 == 0), at: 0)
        nextID += 1
      }
      _ = array.remove(at: array.count / 2)
      array.move(from: array.count - 1, to: 1)
      check("round \(round), shifted")
    }
    #expect(failures == [])
  }
}

import POMVVM
import TestSupport
import Testing

/// The id tables of arrays, cells and queries hash `Int` ids by one
/// multiplication (multiply-shift) instead of `hashValue`: every id must
/// still be found, whatever its bits, and regular ids must spread.
@MainActor
@Suite("Id hashing")
struct IDHashingTests {
  /// Ids whose low bits are all alike, or that sit at the ends of `Int`.
  nonisolated static let patterns: [(name: String, ids: [Int])] = [
    ("sequential", Array(0..<4_096)),
    ("negative", (1...4_096).map { -$0 }),
    ("multiples of 2^32", (0..<4_096).map { $0 << 32 }),
    ("multiples of 2^40", (0..<4_096).map { $0 << 40 }),
    ("multiples of 1,024", (0..<4_096).map { $0 * 1_024 }),
    ("top bits only", (0..<64).map { $0 << 57 } + [.min, .max, .min + 1, .max - 1]),
  ]

  @Test(arguments: 0..<6)
  func everyIDIsFoundWhateverItsBits(pattern: Int) {
    let ids = Self.patterns[pattern].ids
    let array = ObservableArray(ids.map { TestItem($0, "\($0)") })
    let query = array.query(sortedBy: { $0.id > $1.id })
    let rows = ids.sorted(by: >)
    for (position, id) in ids.enumerated() {
      #expect(array.index(id: id) == position, "\(Self.patterns[pattern].name): id \(id)")
      #expect(query.index(id: id).map { rows[$0] } == id)
      #expect(array.cell(for: id)?.value.text == "\(id)")
    }
    #expect(!array.contains(id: 7 << 61 | 12_345))
    // Removing every other id leaves the rest findable: probe chains that
    // ran through removed slots are repaired.
    for id in ids.enumerated().filter({ $0.offset % 2 == 0 }).map(\.element) {
      array.remove(id: id)
    }
    for (position, id) in ids.enumerated() {
      #expect(array.contains(id: id) == (position % 2 == 1))
      #expect(query.contains(id: id) == (position % 2 == 1))
    }
    #expect(array.count == ids.count / 2)
  }

  /// Regular ids land on many different slots, not on a few: at half load,
  /// random slots would give about 79% distinct ones.
  @Test(arguments: 0..<5)
  func regularIDsSpreadOverTheTable(pattern: Int) {
    let ids = Self.patterns[pattern].ids
    let capacity = ids.count * 2
    let slots = Set(ids.map { _homeSlot(of: $0, capacity) })
    #expect(slots.count * 10 >= ids.count * 7, "\(Self.patterns[pattern].name): \(slots.count)")
    #expect(slots.allSatisfy { (0..<capacity).contains($0) })
  }

  @Test func otherIDTypesStillHashThroughHashValue() {
    let ids = (0..<2_048).map { "row \($0)" }
    let capacity = 4_096
    let slots = Set(ids.map { _homeSlot(of: $0, capacity) })
    #expect(slots.count * 10 >= ids.count * 7)
    let array = ObservableArray(ids.map { StringItem(id: $0) })
    #expect(ids.indices.allSatisfy { array.index(id: ids[$0]) == $0 })
  }
}

private struct StringItem: Identifiable, Equatable {
  var id: String
}

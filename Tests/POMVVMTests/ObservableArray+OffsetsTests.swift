import Foundation
import POMVVM
import POMVVMTesting
import TestSupport
import Testing

/// `remove(atOffsets:)` and `move(fromOffsets:toOffset:)`, the shapes of
/// SwiftUI's `onDelete` and `onMove`.
@MainActor
@Suite("ObservableArray offsets")
struct ObservableArrayOffsetsTests {
  static func letters(_ count: Int = 6) -> ObservableArray<TestItem> {
    ObservableArray((0..<count).map { TestItem($0, String(UnicodeScalar(UInt8(97 + $0)))) })
  }

  /// Runs `body` on an array of a…f and returns the texts after it and the
  /// change sets it published.
  func outcome(_ body: (ObservableArray<TestItem>) -> Void) -> (String, [ChangeSet<TestItem>]) {
    let array = Self.letters()
    var changes: [ChangeSet<TestItem>] = []
    let subscription = array.observeChanges { changes.append($0.changeSet) }
    body(array)
    withExtendedLifetime(subscription) {}
    return (array.map(\.text).joined(), changes)
  }

  @Test(arguments: [
    ([1, 3, 4], "acf"),
    ([4, 1, 3, 1], "acf"),  // any order, repeats once
    ([0], "bcdef"),
    ([0, 1, 2, 3, 4, 5], ""),
  ])
  func removeAtOffsetsRemovesThemInOneChangeSet(offsets: [Int], expected: String) throws {
    let (texts, changes) = outcome { $0.remove(atOffsets: offsets) }
    #expect(texts == expected)
    #expect(changes.count == 1)
    #expect(changes.first?.removals.map(\.index) == Array(Set(offsets)).sorted())
    #expect(changes.first?.isReload == false)
  }

  @Test(arguments: [
    ([1], 4, "acdbef"),  // before e, as SwiftUI counts: the offset in the old array
    ([4], 1, "aebcdf"),
    ([0, 2], 4, "bdacef"),
    ([1, 3, 5], 0, "bdface"),
    ([0, 1], 6, "cdefab"),
    ([0, 1], 99, "cdefab"),  // past the end: the end
    ([2], 2, "abcdef"),  // before itself: nothing
    ([2], 3, "abcdef"),  // after itself: nothing
  ])
  func moveFromOffsetsMovesThemInOneChangeSet(offsets: [Int], destination: Int, expected: String)
    throws
  {
    let (texts, changes) = outcome { $0.move(fromOffsets: offsets, toOffset: destination) }
    #expect(texts == expected)
    #expect(changes.count == (expected == "abcdef" ? 0 : 1))
    for change in changes {
      #expect(change.removals.isEmpty && change.insertions.isEmpty && change.updates.isEmpty)
      #expect(try change.applied(to: Self.letters().elements).map(\.text).joined() == expected)
    }
  }

  /// What SwiftUI's `onDelete` and `onMove` give, passed as they are.
  @Test func removingAFewOffsetsCostsTheirRemovalsNotADiffOfTheArray() {
    let array = ObservableArray((0..<2_000).map { Counted(id: CountedID(value: $0)) })
    var changes: [ChangeSet<Counted>] = []
    let subscription = array.observeChanges { changes.append($0.changeSet) }
    CountedID.hashes = 0
    // Near both ends: a diff of the array hashes every id between them;
    // the removals shift and renumber a few.
    array.remove(atOffsets: [1_995, 2, 5])
    #expect(CountedID.hashes < 100)
    #expect(changes.count == 1)
    #expect(changes.first?.removals.map(\.index) == [2, 5, 1_995])
    #expect(array.count == 1_997)
    #expect(array.index(id: CountedID(value: 1_999)) == 1_996)
    #expect(array.index(id: CountedID(value: 6)) == 4)
    #expect(array.index(id: CountedID(value: 1_995)) == nil)
    // Many offsets: one pass, the same change.
    array.remove(atOffsets: Array(stride(from: 0, to: 1_000, by: 2)))
    #expect(changes.count == 2)
    #expect(changes.last?.removals.count == 500)
    #expect(array.map(\.id.value).prefix(3) == [1, 4, 7])
    #expect(array.index(id: CountedID(value: 1_999)) == 1_496)
    withExtendedLifetime(subscription) {}
  }

  @Test func anIndexSetCanBePassedDirectly() {
    let (texts, changes) = outcome { array in
      array.remove(atOffsets: IndexSet([1, 3]))
      array.move(fromOffsets: IndexSet(integersIn: 0..<2), toOffset: 4)
    }
    #expect(texts == "efac")
    #expect(changes.count == 2)
  }

  @Test func bothKeepTheArrayLaws() {
    let array = Self.letters(8)
    checkObservableArrayLaws(
      array,
      mutations: [
        ArrayMutation("move 1, 2, 6 to 0") { $0.move(fromOffsets: [1, 2, 6], toOffset: 0) },
        ArrayMutation("move 0, 7 to the end") { $0.move(fromOffsets: [0, 7], toOffset: 8) },
        ArrayMutation("remove 0, 3, 7") { $0.remove(atOffsets: [0, 3, 7]) },
        ArrayMutation("move 4 to 1") { $0.move(fromOffsets: [4], toOffset: 1) },
        ArrayMutation("remove everything") { $0.remove(atOffsets: 0..<5) },
      ],
      counting: [\.on])
    #expect(array.isEmpty)
  }

  @Test func outOfRangeOffsetsAreRefusedVisiblyAndChangeNothing() {
    var results: [Bool] = []
    let (texts, changes) = outcome { array in
      let reports = Diagnostics.capturingReports {
        results.append(array.remove(atOffsets: [1, 6, -1]))
        results.append(array.move(fromOffsets: [0, 9], toOffset: 2))
        results.append(array.move(fromOffsets: [0], toOffset: -1))
      }
      #expect(
        reports.map(\.message) == [
          "remove(atOffsets:) refused: the offsets -1, 6 are out of range 0..<6; nothing was removed",
          "move(fromOffsets:toOffset:) refused: the offset 9 is out of range 0..<6; nothing moved",
          "move(fromOffsets:toOffset:) refused: the destination -1 is before the first element; "
            + "nothing moved",
        ])
      #expect(reports.allSatisfy { $0.fileID == "POMVVMTests/ObservableArray+OffsetsTests.swift" })
    }
    #expect(results == [false, false, false])
    #expect(texts == "abcdef")
    #expect(changes.isEmpty)
  }

  @Test func noOffsetsChangeNothingAndPublishNothing() {
    var results: [Bool] = []
    let (texts, changes) = outcome { array in
      results = [array.remove(atOffsets: []), array.move(fromOffsets: [], toOffset: 3)]
    }
    #expect(results == [true, true])
    #expect(texts == "abcdef")
    #expect(changes.isEmpty)
  }

  @Test func undoOfAMultiRowMoveRestoresTheOrder() {
    let array = Self.letters()
    let history = UndoHistory()
    history.track(array, actionName: "Move")
    array.move(fromOffsets: [0, 2, 5], toOffset: 4)
    #expect(array.map(\.text).joined() == "bdacfe")
    #expect(history.undo())
    #expect(array.map(\.text).joined() == "abcdef")
    #expect(history.redo())
    #expect(array.map(\.text).joined() == "bdacfe")
  }
}

/// An id that counts how often it is hashed.
private struct CountedID: Hashable, Sendable {
  nonisolated(unsafe) static var hashes = 0
  var value: Int

  func hash(into hasher: inout Hasher) {
    Self.hashes += 1
    hasher.combine(value)
  }
}

private struct Counted: Identifiable, Equatable, Sendable {
  var id: CountedID
}

import Testing

@testable import POMVVM

/// `ObservableArray._patch`: a change given as what it changes (how a
/// database store takes in another process's commit) is one change of only
/// those elements, which replays; a description that does not fit the array
/// is refused and changes nothing.
@MainActor
@Suite("ObservableArray patch")
struct ObservableArrayPatchTests {
  struct Row: Identifiable, Equatable {
    var id: Int
    var text = ""
  }

  static func rows(_ ids: [Int]) -> [Row] { ids.map { Row(id: $0) } }

  @Test func aPatchIsOneChangeOfOnlyTheElementsItNames() throws {
    let array = ObservableArray(Self.rows([1, 2, 3, 4, 5, 6]))
    let before = array.elements
    var changes: [ArrayChange<Row>] = []
    let subscription = array.observeChanges { changes.append($0) }
    let cell = try #require(array.cell(for: 1))
    // 1 moves after 2, 7 enters behind it, 4 leaves, 6 is edited in place,
    // 8 enters at the end.
    #expect(
      array._patch(
        leaving: [0, 3],
        entering: [
          .init(after: 1, elements: [Row(id: 1), Row(id: 7)]),
          .init(after: nil, elements: [Row(id: 8)]),
        ],
        updates: [(5, Row(id: 6, text: "six"))]))
    #expect(array.map(\.id) == [2, 1, 7, 3, 5, 6, 8])
    #expect(array[id: 6]?.text == "six")
    #expect(changes.count == 1)
    let changeSet = try #require(changes.first?.changeSet)
    #expect(changeSet.removals.map(\.element.id) == [4])
    #expect(changeSet.insertions.map(\.index) == [2, 6])
    #expect(changeSet.moves == [.init(from: 0, to: 1)])
    #expect(changeSet.updates.map(\.newElement.id) == [6], "1 moved with the same value")
    #expect(try changeSet.applied(to: before) == array.elements)
    #expect(!cell.isDetached)
    for (position, element) in array.elements.enumerated() {
      #expect(array.index(id: element.id) == position)
    }
    _ = subscription
  }

  @Test func aDescriptionThatDoesNotFitIsRefused() {
    let array = ObservableArray(Self.rows([1, 2, 3]))
    var changes = 0
    let subscription = array.observeChanges { _ in changes += 1 }
    let refused: [(leaving: [Int], entering: [ObservableArray<Row>._EnteringRun])] = [
      ([1, 0], []),  // not ascending
      ([3], []),  // out of range
      ([], [.init(after: 0, elements: [Row(id: 2)])]),  // 2 is here and does not leave
      ([1], [.init(after: 1, elements: [Row(id: 9)])]),  // after an element that leaves
      ([], [.init(after: 1, elements: [Row(id: 9)]), .init(after: 0, elements: [Row(id: 8)])]),
      ([], [.init(after: nil, elements: [Row(id: 9)]), .init(after: 0, elements: [Row(id: 8)])]),
      ([], [.init(after: 0, elements: [Row(id: 9), Row(id: 9)])]),  // an id twice
    ]
    for (leaving, entering) in refused {
      #expect(!array._patch(leaving: leaving, entering: entering, updates: []))
    }
    #expect(!array._patch(leaving: [], entering: [], updates: [(0, Row(id: 2))]))
    #expect(array.elements == Self.rows([1, 2, 3]))
    #expect(changes == 0)
    _ = subscription
  }
}

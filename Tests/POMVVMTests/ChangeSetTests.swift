import POMVVM
import TestSupport
import Testing

@Suite("ChangeSet")
struct ChangeSetTests {
  typealias Set = ChangeSet<String>

  @Test func appliesRemovalsThenInsertionsAndMovesThenUpdates() throws {
    let old = ["a", "b", "c", "d"]
    let changeSet = Set(
      removals: [.init(index: 1, element: "b")],
      insertions: [.init(index: 0, element: "x")],
      updates: [.init(oldIndex: 3, newIndex: 1, oldElement: "d", newElement: "D")],
      moves: [.init(from: 3, to: 1)])
    #expect(try changeSet.applied(to: old) == ["x", "D", "a", "c"])
    #expect(try changeSet.inverted.applied(to: ["x", "D", "a", "c"]) == old)
  }

  @Test func aReloadCarriesBothContents() throws {
    let changeSet = Set.reload(from: ["a"], to: ["b", "c"])
    #expect(changeSet.isReload)
    #expect(changeSet.count == 2)
    #expect(try changeSet.applied(to: ["a"]) == ["b", "c"])
    #expect(try changeSet.inverted.applied(to: ["b", "c"]) == ["a"])
    #expect(changeSet.description == "reload 2")
  }

  @Test(arguments: [
    (Set(removals: [.init(index: 5, element: "?")]), "old index 5 is out of range for 2 elements"),
    (
      Set(removals: [.init(index: 0, element: "a")], moves: [.init(from: 0, to: 1)]),
      "old index 0 leaves the array twice"
    ),
    (
      Set(insertions: [.init(index: 0, element: "x"), .init(index: 0, element: "y")]),
      "new index 0 is entered twice"
    ),
    (
      Set(insertions: [.init(index: 7, element: "x")]), "new index 7 is out of range for 3 elements"
    ),
    (
      Set(updates: [.init(oldIndex: 4, newIndex: 4, oldElement: "?", newElement: "!")]),
      "update index 4 is out of range for 2 elements"
    ),
  ])
  func aChangeSetThatDoesNotFitIsReportedNotApplied(changeSet: Set, message: String) {
    #expect(throws: ChangeSetMismatch(message)) {
      try changeSet.applied(to: ["a", "b"])
    }
  }

  @Test func describesItsParts() {
    let changeSet = Set(
      removals: [.init(index: 1, element: "b")], insertions: [.init(index: 0, element: "x")],
      updates: [.init(oldIndex: 2, newIndex: 2, oldElement: "c", newElement: "C")],
      moves: [.init(from: 0, to: 3)])
    #expect(changeSet.description == "remove [1], insert [0], move [0->3], update [2]")
    #expect(Set().description == "no change")
    #expect(Set().isEmpty)
  }
}

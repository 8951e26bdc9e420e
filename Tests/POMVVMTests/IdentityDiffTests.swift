import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Identity diff")
struct IdentityDiffTests {
  typealias Changes = ChangeSet<TestItem>

  static func items(_ ids: [Int], text: String = "x") -> [TestItem] {
    ids.map { TestItem($0, text) }
  }

  func changeSet(from old: [TestItem], to new: [TestItem]) -> Changes? {
    let array = ObservableArray(old)
    var published: Changes?
    let subscription = array.observeChanges { published = $0.changeSet }
    array.replaceAll(with: new)
    withExtendedLifetime(subscription) {}
    return published
  }

  @Test func anEditInPlaceIsAnUpdateNotNothing() {
    var new = Self.items([1, 2, 3])
    new[1].text = "edited"
    #expect(
      changeSet(from: Self.items([1, 2, 3]), to: new)
        == Changes(updates: [
          .init(
            oldIndex: 1, newIndex: 1, oldElement: TestItem(2), newElement: TestItem(2, "edited"))
        ]))
  }

  @Test func appendedAndRemovedElementsAreInsertionsAndRemovals() {
    #expect(
      changeSet(from: Self.items([1, 2, 3]), to: Self.items([1, 3, 4]))
        == Changes(
          removals: [.init(index: 1, element: TestItem(2))],
          insertions: [.init(index: 2, element: TestItem(4))]))
  }

  @Test func aReorderIsTheFewestMoves() {
    // 5 jumps to the front: one move, not four.
    #expect(
      changeSet(from: Self.items([1, 2, 3, 4, 5]), to: Self.items([5, 1, 2, 3, 4]))
        == Changes(moves: [.init(from: 4, to: 0)]))
  }

  @Test func aMovedElementThatChangedIsAlsoAnUpdate() {
    let new = [TestItem(3, "edited"), TestItem(1), TestItem(2)]
    #expect(
      changeSet(from: Self.items([1, 2, 3]), to: new)
        == Changes(
          updates: [
            .init(
              oldIndex: 2, newIndex: 0, oldElement: TestItem(3), newElement: TestItem(3, "edited"))
          ],
          moves: [.init(from: 2, to: 0)]))
  }

  @Test func aChangeSetLargerThanTheArrayIsAReload() {
    let old = Self.items([1, 2, 3, 4])
    let new = Self.items([5, 6, 7, 8])
    #expect(changeSet(from: old, to: new) == Changes.reload(from: old, to: new))
  }

  @Test func nonEquatableElementsThatStayAreReportedAsUpdated() {
    struct Plain: Identifiable {
      var id: Int
    }
    let array = ObservableArray([Plain(id: 1), Plain(id: 2), Plain(id: 3)])
    var published: ChangeSet<Plain>?
    let subscription = array.observeChanges { published = $0.changeSet }
    array.replaceAll(with: [Plain(id: 1), Plain(id: 2), Plain(id: 3), Plain(id: 4)])
    #expect(published?.updates.map(\.newIndex) == [0, 1, 2])
    #expect(published?.insertions.map(\.index) == [3])
    withExtendedLifetime(subscription) {}
  }

  @Test func theDiffOfAServerRefreshReplays() throws {
    var random = SplitMix64(seed: 42)
    let old = (0..<1_000).map { TestItem($0, "v\($0 % 7)") }
    var new = old.filter { _ in random.next() % 10 != 0 }
    for index in new.indices where random.next() % 10 == 0 { new[index].text = "edited" }
    new.insert(TestItem(5_000), at: 10)
    new.swapAt(3, 700)
    let changes = try #require(changeSet(from: old, to: new))
    #expect(!changes.isReload)
    #expect(try changes.applied(to: old) == new)
    #expect(changes.moves.count <= 2)
  }
}

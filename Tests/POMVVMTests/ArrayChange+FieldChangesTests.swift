import POMVVM
import TestSupport
import Testing

/// `ArrayChange.changes(of:)`: which elements a change changed a field of,
/// with the old and new values; insertions and removals are not field
/// changes.
@MainActor
@Suite("ArrayChange field changes")
struct ArrayChangeFieldChangesTests {
  struct ToDo: Identifiable, Equatable {
    var id: Int
    var title: String
    var isComplete = false

    /// `isComplete`, counting its reads, for the complexity test.
    var countedIsComplete: Bool {
      ToDo.reads += 1
      return isComplete
    }

    nonisolated(unsafe) static var reads = 0
  }

  typealias Flip = FieldChange<Int, Bool>

  /// An array of to-dos, 1 to `count`, with 2 complete, and every flip of
  /// `isComplete` its changes report.
  @MainActor
  final class Fixture {
    let array: ObservableArray<ToDo>
    let flips = Recorder<[Flip]>()
    var subscription: Subscription?

    init(count: Int = 4) {
      array = ObservableArray(
        (1...count).map { ToDo(id: $0, title: "to-do \($0)", isComplete: $0 == 2) })
      subscription = array.observeChanges { [flips] change in
        flips.record(change.changes(of: \.isComplete))
      }
    }
  }

  @Test func aToggleIsOneFieldChangeWithItsOldAndNewValue() throws {
    let fixture = Fixture()
    try #require(fixture.array.cell(for: 3, \.isComplete)).value = true
    try #require(fixture.array.cell(for: 2, \.isComplete)).value.toggle()
    #expect(
      fixture.flips.events == [
        [Flip(id: 3, index: 2, oldValue: false, newValue: true)],
        [Flip(id: 2, index: 1, oldValue: true, newValue: false)],
      ])
  }

  @Test func deletingOrClearingCompletedItemsIsNoFieldChange() {
    let fixture = Fixture()
    fixture.array.remove(id: 2)
    fixture.array.update(ToDo(id: 4, title: "to-do 4", isComplete: true))
    fixture.array.batch { $0.removeAll { $0.isComplete } }  // "clear completed"
    fixture.array.append(ToDo(id: 9, title: "new", isComplete: true))
    fixture.array.removeAll()
    #expect(
      fixture.flips.events == [
        [], [Flip(id: 4, index: 2, oldValue: false, newValue: true)], [], [], [],
      ])
  }

  @Test func anEditOfAnotherFieldIsNoChangeOfThisOne() {
    let fixture = Fixture()
    fixture.array.update(ToDo(id: 1, title: "renamed"))
    fixture.array.move(from: 0, to: 3)
    #expect(fixture.flips.events == [[], []])
  }

  @Test func aReplacementMatchesElementsByIdAndIgnoresNewAndGoneOnes() {
    let fixture = Fixture()
    fixture.array.replaceAll(with: [
      ToDo(id: 4, title: "to-do 4", isComplete: true),
      ToDo(id: 7, title: "new", isComplete: true),
      ToDo(id: 2, title: "to-do 2", isComplete: false),
      ToDo(id: 1, title: "to-do 1, renamed"),
    ])
    #expect(
      fixture.flips.events == [
        [
          Flip(id: 4, index: 0, oldValue: false, newValue: true),
          Flip(id: 2, index: 2, oldValue: true, newValue: false),
        ]
      ])
  }

  @Test func aReloadIsMatchedByIdToo() {
    let old = [ToDo(id: 1, title: "a"), ToDo(id: 2, title: "b", isComplete: true)]
    let new = [ToDo(id: 3, title: "c"), ToDo(id: 2, title: "b"), ToDo(id: 1, title: "a")]
    let change = ArrayChange(changeSet: .reload(from: old, to: new), newElements: new)
    #expect(
      change.changes(of: \.isComplete) == [Flip(id: 2, index: 1, oldValue: true, newValue: false)])
    #expect(change.changes(of: \.title) == [])
  }

  @Test func aQuerysChangeGivesIndicesInTheQuery() throws {
    let fixture = Fixture()
    let active = fixture.array.query(where: { !$0.isComplete })
    let others = fixture.array.query(where: { $0.id != 1 })
    let flips = Recorder<[Flip]>()
    let activeFlips = Recorder<[Flip]>()
    let subscriptions = [
      others.observeChanges { flips.record($0.changes(of: \.isComplete)) },
      active.observeChanges { activeFlips.record($0.changes(of: \.isComplete)) },
    ]
    fixture.array.update(ToDo(id: 3, title: "to-do 3 renamed"))
    try #require(fixture.array.cell(for: 3, \.isComplete)).value = true
    #expect(flips.events == [[], [Flip(id: 3, index: 1, oldValue: false, newValue: true)]])
    // In the query of active items, the completed one is a removal.
    #expect(activeFlips.events == [[], []])
    withExtendedLifetime(subscriptions) {}
  }

  @Test func findingTheChangesCostsTheUpdatesNotTheArray() throws {
    let fixture = Fixture(count: 10_000)
    var reads = -1
    let subscription = fixture.array.observeChanges { change in
      ToDo.reads = 0
      _ = change.changes(of: \.countedIsComplete)
      reads = ToDo.reads
    }
    try #require(fixture.array.cell(for: 5_000, \.isComplete)).value = true
    #expect(reads == 2)
    withExtendedLifetime(subscription) {}
  }
}

import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("ObservableArray")
struct ObservableArrayTests {
  typealias Changes = ChangeSet<TestItem>

  /// An array with 0:a, 1:b, 2:c, and a recorder of its change sets.
  @MainActor
  final class Fixture {
    let array = ObservableArray([TestItem(0, "a"), TestItem(1, "b"), TestItem(2, "c")])
    let changes = Recorder<ChangeSet<TestItem>>()
    var subscription: Subscription?

    init() {
      subscription = array.observeChanges { [changes] in changes.record($0.changeSet) }
    }
  }

  @Test func isARandomAccessCollectionOfTheElements() {
    let fixture = Fixture()
    #expect(fixture.array.map(\.text) == ["a", "b", "c"])
    #expect(fixture.array.count == 3)
    #expect(fixture.array[1] == TestItem(1, "b"))
    #expect(fixture.array[id: 2] == TestItem(2, "c"))
    #expect(fixture.array.index(id: 2) == 2)
    #expect(fixture.array.index(id: 9) == nil)
    #expect(fixture.array.contains(id: 0))
  }

  @Test func everyMutationPublishesItsExactChangeSet() {
    let fixture = Fixture()
    let array = fixture.array
    array.insert(TestItem(3, "d"), at: 1)  // a d b c
    array.append(TestItem(4, "e"))  // a d b c e
    array.remove(at: 0)  // d b c e
    array.remove(id: 2)  // d b e
    array.move(from: 2, to: 0)  // e d b
    array.replace(at: 1, with: TestItem(3, "D"))  // e D b
    array.replace(at: 2, with: TestItem(5, "f"))  // e D f
    array.update(TestItem(4, "E", on: true))  // E D f
    array.append(contentsOf: [TestItem(6, "g"), TestItem(7, "h")])  // E D f g h
    array.removeAll()
    #expect(
      fixture.changes.events == [
        Changes(insertions: [.init(index: 1, element: TestItem(3, "d"))]),
        Changes(insertions: [.init(index: 4, element: TestItem(4, "e"))]),
        Changes(removals: [.init(index: 0, element: TestItem(0, "a"))]),
        Changes(removals: [.init(index: 2, element: TestItem(2, "c"))]),
        Changes(moves: [.init(from: 2, to: 0)]),
        Changes(updates: [
          .init(
            oldIndex: 1, newIndex: 1, oldElement: TestItem(3, "d"), newElement: TestItem(3, "D"))
        ]),
        Changes(
          removals: [.init(index: 2, element: TestItem(1, "b"))],
          insertions: [.init(index: 2, element: TestItem(5, "f"))]),
        Changes(updates: [
          .init(
            oldIndex: 0, newIndex: 0, oldElement: TestItem(4, "e"),
            newElement: TestItem(4, "E", on: true))
        ]),
        Changes(insertions: [
          .init(index: 3, element: TestItem(6, "g")), .init(index: 4, element: TestItem(7, "h")),
        ]),
        Changes(
          removals: [
            .init(index: 0, element: TestItem(4, "E", on: true)),
            .init(index: 1, element: TestItem(3, "D")), .init(index: 2, element: TestItem(5, "f")),
            .init(index: 3, element: TestItem(6, "g")), .init(index: 4, element: TestItem(7, "h")),
          ]),
      ])
    #expect(array.isEmpty)
  }

  @Test func mutationsThatChangeNothingPublishNothing() {
    let fixture = Fixture()
    fixture.array.replace(at: 0, with: TestItem(0, "a"))
    fixture.array.move(from: 1, to: 1)
    fixture.array.append(contentsOf: [])
    fixture.array.replaceAll(with: fixture.array.elements)
    fixture.array.batch { _ in }
    fixture.array.batch {
      $0.swapAt(0, 1)
      $0.swapAt(0, 1)
    }
    fixture.array.update(TestItem(1, "b"))
    fixture.array.remove(atOffsets: [])
    fixture.array.move(fromOffsets: [1], toOffset: 1)
    fixture.array.move(fromOffsets: [1], toOffset: 2)
    fixture.array.move(fromOffsets: [], toOffset: 0)
    #expect(fixture.array.update(TestItem(9, "nobody")) == false)
    #expect(fixture.array.remove(id: 9) == nil)
    #expect(fixture.changes.events == [])
  }

  @Test func observersGetTheContentsBeforeAndAfter() {
    let array = ObservableArray([TestItem(0, "a"), TestItem(1, "b")])
    let seen = Recorder<[[String]]>()
    let subscription = array.observeChanges { change in
      seen.record([change.oldElements.map(\.text), change.newElements.map(\.text)])
    }
    array.insert(TestItem(2, "c"), at: 1)
    array.replaceAll(with: [TestItem(9, "z")])
    #expect(seen.events == [[["a", "b"], ["a", "c", "b"]], [["a", "c", "b"], ["z"]]])
    withExtendedLifetime(subscription) {}
  }

  @Test func aMutationFromAnObserverIsDeliveredAfterTheCurrentChangeInOrder() throws {
    let array = ObservableArray([TestItem(0, "a")])
    var contents = array.elements
    let firstSeen = Recorder<String>()
    let secondSeen = Recorder<String>()
    let first = array.observeChanges { change in
      firstSeen.record(change.changeSet.description)
      // When 1 arrives, remove 0: a nested mutation.
      if change.changeSet.insertions.contains(where: { $0.element.id == 1 }) {
        array.remove(id: 0)
      }
    }
    var replayed = true
    let second = array.observeChanges { change in
      secondSeen.record(change.changeSet.description)
      replayed = replayed && (try? change.changeSet.applied(to: contents)) == change.newElements
      contents = change.newElements
    }
    array.append(TestItem(1, "b"))
    #expect(firstSeen.events == ["insert [1]", "remove [0]"])
    #expect(secondSeen.events == ["insert [1]", "remove [0]"])
    #expect(replayed)
    #expect(array.elements == [TestItem(1, "b")])
    withExtendedLifetime((first, second)) {}
  }

  @Test func anOwnerScopedObservationEndsWithTheOwner() {
    final class ListView: SubscriptionOwner {
      let subscriptions = SubscriptionBag()
      var rows = 0
    }
    let array = ObservableArray([TestItem(0)])
    var view: ListView? = ListView()
    if let view {
      array.observeChanges(view) { view, change in view.rows = change.newElements.count }
    }
    array.append(TestItem(1))
    #expect(view?.rows == 2)
    view = nil
    array.append(TestItem(2))
  }

  @Test func duplicateIdsStopWithAMessageNamingTheId() async {
    await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      await MainActor.run {
        let array = ObservableArray([TestItem(1), TestItem(2)])
        array.append(TestItem(2))
      }
    }.map { result in
      #expect(
        String(decoding: result.standardErrorContent, as: UTF8.self).contains("duplicate id 2"))
    }
  }

  @Test func replacementContentsThatRepeatIdsAreRefusedVisiblyAndChangeNothing() {
    let fixture = Fixture()
    let before = fixture.array.elements
    var accepted = true
    let reports = Diagnostics.capturingReports {
      accepted = fixture.array.replaceAll(with: [
        TestItem(0), TestItem(7), TestItem(7), TestItem(2), TestItem(8), TestItem(8), TestItem(8),
      ])
    }
    #expect(!accepted)
    #expect(fixture.array.elements == before)
    #expect(fixture.changes.events == [])
    #expect(reports.count == 1)
    #expect(
      reports.first?.message
        == "replaceAll(with:) refused: the new contents repeat the ids 7, 8; the array is unchanged"
    )
    #expect(reports.first?.fileID == "POMVVMTests/ObservableArrayTests.swift")
  }

  @Test func anIdThatStaysInThePrefixCannotBeRepeatedInTheMiddle() {
    let fixture = Fixture()
    let reports = Diagnostics.capturing {
      fixture.array.replaceAll(with: [TestItem(0), TestItem(0), TestItem(2)])
      // A batch publishes through the same diff.
      fixture.array.batch { $0.append(TestItem(1)) }
    }
    #expect(fixture.array.map(\.id) == [0, 1, 2])
    #expect(fixture.changes.events == [])
    #expect(
      reports == [
        "replaceAll(with:) refused: the new contents repeat the id 0; the array is unchanged",
        "replaceAll(with:) refused: the new contents repeat the id 1; the array is unchanged",
      ])
  }

  @Test func appendedElementsThatRepeatIdsAreRefusedVisiblyAndChangeNothing() {
    let fixture = Fixture()
    var accepted = true
    let reports = Diagnostics.capturing {
      accepted = fixture.array.append(contentsOf: [
        TestItem(5), TestItem(1), TestItem(6), TestItem(6),
      ])
    }
    #expect(!accepted)
    #expect(fixture.array.map(\.id) == [0, 1, 2])
    #expect(fixture.changes.events == [])
    #expect(
      reports == [
        "append(contentsOf:) refused: the new elements repeat the ids 1, 6; the array is unchanged"
      ])
    // The index is intact: the array still finds and takes ids.
    #expect(fixture.array.index(id: 2) == 2 && fixture.array.index(id: 5) == nil)
    #expect(fixture.array.append(contentsOf: [TestItem(5)]))
    #expect(fixture.array.index(id: 5) == 3)
  }

  @Test func initialElementsThatRepeatIdsKeepTheFirstOfEachAndReport() {
    var array: ObservableArray<TestItem>?
    let reports = Diagnostics.capturingReports {
      array = ObservableArray([
        TestItem(1, "first"), TestItem(2), TestItem(1, "second"), TestItem(3), TestItem(2),
      ])
    }
    #expect(array?.map(\.description) == ["1:first-", "2:x-", "3:x-"])
    #expect(array?.index(id: 3) == 2)
    #expect(
      reports.map(\.message) == [
        "ObservableArray dropped 2 elements whose ids repeat an earlier element's, the ids 1, 2; "
          + "it keeps the first element of each id"
      ])
    #expect(reports.first?.line != 0)
  }

  @Test func repeatedIdsAreNamedWithControlCharactersVisible() {
    struct Tagged: Identifiable, Equatable {
      var id: String
    }
    let array = ObservableArray([Tagged(id: "a")])
    let reports = Diagnostics.capturing {
      array.replaceAll(with: [Tagged(id: "x\u{1B}[2J"), Tagged(id: "x\u{1B}[2J")])
    }
    #expect(
      reports == [
        "replaceAll(with:) refused: the new contents repeat the id x\\u{1B}[2J; the array is "
          + "unchanged"
      ])
  }
}

import POMVVM
import TestSupport
import Testing

/// `replaceAll(with:duplicates:)`: contents with repeated ids, from a
/// server, kept with the first or the last copy of each id, or refused.
@MainActor
@Suite("DuplicateIDPolicy")
struct DuplicateIDPolicyTests {
  /// A search result that is not `Equatable`, for the generic overload.
  struct Hit: Identifiable {
    var id: Int
    var title: String
  }

  /// A response that holds 1 twice and 3 three times.
  let response = [
    TestItem(1, "one, first"), TestItem(2, "two"), TestItem(3, "three, first"),
    TestItem(1, "one, last"), TestItem(3, "three, middle"), TestItem(3, "three, last"),
  ]

  @Test func keepFirstKeepsTheFirstElementOfEachIdWhereItStands() throws {
    let array = ObservableArray([TestItem(9, "old")])
    let changes = Recorder<ChangeSet<TestItem>>()
    let subscription = array.observeChanges { changes.record($0.changeSet) }
    let reports = Diagnostics.capturing {
      #expect(array.replaceAll(with: response, duplicates: .keepFirst))
    }
    #expect(
      array.elements == [
        TestItem(1, "one, first"), TestItem(2, "two"), TestItem(3, "three, first"),
      ])
    #expect(reports == [])
    #expect(changes.events.count == 1)
    #expect(try changes.events.first?.applied(to: [TestItem(9, "old")]) == array.elements)
    withExtendedLifetime(subscription) {}
  }

  @Test func keepLastKeepsTheLastElementOfEachIdWhereItStands() throws {
    let array = ObservableArray([TestItem(3, "three, old"), TestItem(1, "one, old")])
    let changes = Recorder<ChangeSet<TestItem>>()
    let subscription = array.observeChanges { changes.record($0.changeSet) }
    let reports = Diagnostics.capturing {
      #expect(array.replaceAll(with: response, duplicates: .keepLast))
    }
    #expect(
      array.elements == [TestItem(2, "two"), TestItem(1, "one, last"), TestItem(3, "three, last")])
    #expect(reports == [])
    #expect(
      try changes.events.first?.applied(to: [TestItem(3, "three, old"), TestItem(1, "one, old")])
        == array.elements)
    #expect(array.index(id: 3) == 2)
    withExtendedLifetime(subscription) {}
  }

  @Test func refuseIsTheDefaultRefusal() {
    let array = ObservableArray([TestItem(9, "old")])
    var accepted = true
    let reports = Diagnostics.capturing {
      accepted = array.replaceAll(with: response, duplicates: .refuse)
    }
    #expect(!accepted)
    #expect(array.elements == [TestItem(9, "old")])
    #expect(
      reports == [
        "replaceAll(with:) refused: the new contents repeat the ids 1, 3; the array is unchanged"
      ])
  }

  @Test func contentsWithoutRepeatsAreTakenAsTheyAreUnderEveryPolicy() {
    let unique = [TestItem(2, "b"), TestItem(1, "a")]
    for policy in [DuplicateIDPolicy.refuse, .keepFirst, .keepLast] {
      let array = ObservableArray([TestItem(1, "a")])
      #expect(array.replaceAll(with: unique, duplicates: policy))
      #expect(array.elements == unique)
    }
  }

  @Test func elementsThatAreNotEquatableAreKeptTheSameWay() {
    let array = ObservableArray([Hit(id: 5, title: "old")])
    let hits = [Hit(id: 1, title: "a"), Hit(id: 2, title: "b"), Hit(id: 1, title: "c")]
    #expect(array.replaceAll(with: hits, duplicates: .keepLast))
    #expect(array.map(\.title) == ["b", "c"])
    #expect(array.replaceAll(with: hits, duplicates: .keepFirst))
    #expect(array.map(\.title) == ["a", "b"])
    let reports = Diagnostics.capturing {
      #expect(!array.replaceAll(with: hits, duplicates: .refuse))
    }
    #expect(reports.count == 1)
    #expect(array.map(\.title) == ["a", "b"])
  }
}

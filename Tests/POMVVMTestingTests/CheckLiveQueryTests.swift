import MasterDetail
import POMVVMTesting
import Testing

/// The live query checks pass for the kit's queries over thousands of
/// random steps, and fail, at the caller's line, for a query whose
/// predicate reads state it is not told of, or when the check is given the
/// wrong section key.
@MainActor
@Suite("checkLiveQuery")
struct CheckLiveQueryTests {
  private static func edited(_ element: Item, _ variant: Int) -> Item {
    var element = element
    switch variant % 3 {
    case 0: element.on.toggle()
    case 1: element.text = "\(variant % 5)"
    default:
      element.text = "\(variant % 5)"
      element.on.toggle()
    }
    return element
  }

  private static func items() -> ObservableArray<Item> {
    ObservableArray((0..<12).map { item($0, "\($0 % 5)", on: $0.isMultiple(of: 2)) })
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func aFilteredSortedQueryKeepsItsLaws(seed: UInt64) {
    let query = Self.items().query(where: { $0.on }, sortedBy: { $0.text < $1.text })
    checkLiveQuery(
      query, randomMutations: 2_000, seed: seed,
      newElement: { item(1_000 + $0, "\($0 % 5)", on: $0.isMultiple(of: 3)) },
      edited: Self.edited)
  }

  @Test func aQueryInTheArraysOrderKeepsItsLaws() {
    checkLiveQuery(
      Self.items().query(where: { $0.text != "3" }), randomMutations: 500, seed: 9,
      newElement: { item(1_000 + $0, "\($0 % 5)") }, edited: Self.edited)
  }

  @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
  func aSectionedQueryKeepsItsLaws(seed: UInt64) {
    let query = Self.items().query(
      where: { $0.text != "4" }, sortedBy: { $0.text < $1.text },
      sectionedBy: { $0.on ? 1 : 0 })
    checkLiveQuery(
      query, sectionedBy: { $0.on ? 1 : 0 }, randomMutations: 2_000, seed: seed,
      newElement: { item(1_000 + $0, "\($0 % 5)", on: $0.isMultiple(of: 3)) },
      edited: Self.edited)
  }

  @Test func theCheckLeavesTheQueryWithItsOwnPredicateAndOrder() {
    let items = Self.items()
    let query = items.query(where: { $0.on }, sortedBy: { $0.text < $1.text })
    checkLiveQuery(
      query, randomMutations: 300, seed: 3,
      newElement: { item(1_000 + $0, "\($0 % 5)", on: true) }, edited: Self.edited)
    #expect(query.elements.allSatisfy { $0.on })
    #expect(query.elements.map(\.text) == query.elements.map(\.text).sorted())
  }

  @Test func aQueryWhosePredicateReadsUntoldStateFailsAtTheCallersLine() {
    // The predicate reads a threshold that `edited` moves behind the
    // query's back: the query is not evaluated again.
    final class Threshold { var text = "2" }
    let threshold = Threshold()
    let query = Self.items().query(where: { $0.text >= threshold.text })
    let line = #line + 2
    let failures = recordedFailures {
      checkLiveQuery(
        query, randomMutations: 200, seed: 4,
        newElement: { item(1_000 + $0, "\($0 % 5)") },
        edited: { element, variant in
          threshold.text = "\(variant % 5)"
          return Self.edited(element, variant)
        })
    }
    #expect(failures.laws.contains("the query equals a from-scratch evaluation"))
    #expect(failures.locations == [here(line)])
    #expect(failures.first?.message.contains("seed: 4") == true)
    #expect(failures.first?.message.contains("step ") == true)
  }

  @Test func theWrongSectionKeyFailsTheFromScratchLaw() {
    let query = Self.items().query(sectionedBy: { $0.on ? 1 : 0 })
    let failures = recordedFailures {
      checkLiveQuery(
        query, sectionedBy: { $0.text == "1" ? 1 : 0 }, randomMutations: 5, seed: 1,
        newElement: { item(1_000 + $0) }, edited: Self.edited)
    }
    #expect(failures.laws.first == "the query equals a from-scratch evaluation")
    #expect(failures.first?.message.contains("before the first step") == true)
  }

  @Test func anEditThatChangesTheIdIsAMisuse() {
    let failures = recordedFailures {
      checkLiveQuery(
        Self.items().query(), randomMutations: 50, seed: 2,
        newElement: { item(1_000 + $0) },
        edited: { element, _ in item(element.id + 500) })
    }
    #expect(failures.laws == ["misuse"])
    #expect(failures.first?.message.contains("`edited` changed the id") == true)
  }
}

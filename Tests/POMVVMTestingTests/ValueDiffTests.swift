import Foundation
import Testing

@testable import POMVVMTesting

private struct Address: Equatable {
  var street: String
  var city: String
}

private struct Person: Equatable {
  var name: String
  var age: Int
  var address: Address
  var tags: [String]
}

private enum Status: Equatable {
  case idle
  case loading(page: Int)
  case loaded(page: Int, titles: [String])
  case failed(String)
}

private struct Meeting: Equatable {
  var title: String
  var start: Date
}

private struct Row: Equatable {
  var id: Int
  var text: String
  var on: Bool
}

/// An object that refers to itself.
private final class Node {
  var name: String
  var next: Node?

  init(_ name: String) {
    self.name = name
  }
}

@Suite("ValueDiff")
struct ValueDiffTests {
  @Test func aNestedStructShowsOnlyTheFieldsThatDiffer() {
    let old = Person(
      name: "Ada", age: 36, address: Address(street: "1 Main St", city: "London"), tags: ["a"])
    var new = old
    new.address.city = "Paris"
    new.age = 37
    #expect(
      ValueDiff.diff(old, new) == """
          Person(
        -   age: 36
        +   age: 37
            address: Address(
        -     city: "London"
        +     city: "Paris"
              … (1 unchanged)
            )
            … (2 unchanged)
          )
        """)
  }

  @Test func anEnumWithPayloadsShowsTheCaseAndThePayloadThatDiffers() {
    #expect(
      ValueDiff.diff(
        Status.loaded(page: 1, titles: ["Alien", "Brazil"]),
        Status.loaded(page: 1, titles: ["Alien", "Casablanca"])) == """
            .loaded(
              titles: [
                … (1 unchanged)
          -     [1]: "Brazil"
          +     [1]: "Casablanca"
              ]
              … (1 unchanged)
            )
          """)
    #expect(
      ValueDiff.diff(Status.loading(page: 2), Status.failed("offline")) == """
        - .loading(page: 2)
        + .failed("offline")
        """)
    #expect(
      ValueDiff.diff(Status.idle, Status.loading(page: 1)) == """
        - .idle
        + .loading(page: 1)
        """)
  }

  @Test func anArrayWithOneChangedElementShowsItAloneWithItsIndex() {
    let old = (0..<100).map { Row(id: $0, text: "row \($0)", on: false) }
    var new = old
    new[42].on = true
    #expect(
      ValueDiff.diff(old, new) == """
          [
            … (42 unchanged)
            [42]: Row(
        -     on: false
        +     on: true
              … (2 unchanged)
            )
            … (57 unchanged)
          ]
        """)
  }

  @Test func anArrayShowsInsertionsAndRemovalsWithTheirIndices() {
    #expect(
      ValueDiff.diff(["a", "b", "c", "d"], ["a", "c", "d", "e"]) == """
          [
            … (1 unchanged)
        -   [1]: "b"
            … (2 unchanged)
        +   [3]: "e"
          ]
        """)
  }

  @Test func aLongStringShowsWhereItDiffers() {
    let old = String(repeating: "All work and no play. ", count: 10) + "The end."
    let new = String(repeating: "All work and no play. ", count: 10) + "The End!"
    #expect(
      ValueDiff.diff(old, new) == """
        - "…rk and no play. The end."
        + "…rk and no play. The End!"
                                ^ first difference, at character 225
        """)
  }

  @Test func aLongStringShowsBothEndsCutWhenTheDifferenceIsInTheMiddle() {
    let old = String(repeating: "a", count: 100) + "x" + String(repeating: "b", count: 100)
    let new = String(repeating: "a", count: 100) + "y\n" + String(repeating: "b", count: 100)
    #expect(
      ValueDiff.diff(old, new) == """
        - "…aaaaaaaaaaaaaaaaaaaaxbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb…"
        + "…aaaaaaaaaaaaaaaaaaaay\\nbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb…"
                                ^ first difference, at character 101
        """)
  }

  @Test func anObjectIsShownByItsFieldsOnlyAtTheTopSoThatCyclesEnd() {
    let node = Node("a")
    node.next = node
    defer { node.next = nil }  // no leak for LeakSanitizer to report
    #expect(ValueDiff.render(node) == "Node(name: \"a\", next: Node(…))")
    #expect(ValueDiff.render([node]) == "[Node(…)]")
  }

  @Test func equalValuesHaveNoDiff() {
    #expect(ValueDiff.diff(Status.loading(page: 1), Status.loading(page: 1)) == nil)
    #expect(ValueDiff.render(Optional(Status.failed("x")) as Any) == ".failed(\"x\")")
    #expect(ValueDiff.render(["b": 2, "a": 1]) == "[\"a\": 1, \"b\": 2]")
  }

  @Test func datesAreShownInISO8601() {
    let old = Meeting(title: "Standup", start: Date(timeIntervalSinceReferenceDate: 256_260_690))
    var new = old
    new.start.addTimeInterval(90.25)
    #expect(
      ValueDiff.render(old) == "Meeting(title: \"Standup\", start: 2009-02-13T23:31:30Z)")
    #expect(
      ValueDiff.diff(old, new) == """
          Meeting(
        -   start: 2009-02-13T23:31:30Z
        +   start: 2009-02-13T23:33:00.25Z
            … (1 unchanged)
          )
        """)
    #expect(ValueDiff.render([old.start]) == "[2009-02-13T23:31:30Z]")
  }

  @Test func datesAMomentApartStillDiffer() {
    let date = Date(timeIntervalSinceReferenceDate: -0.000_5)
    #expect(ValueDiff.render(date) == "2000-12-31T23:59:59.9995Z")
    #expect(
      ValueDiff.diff(date, date.addingTimeInterval(0.000_001)) == """
        - 2000-12-31T23:59:59.9995Z
        + 2000-12-31T23:59:59.999501Z
        """)
  }
}

import MasterDetail
import POMVVMTesting
import Testing

/// A binding token made of plain subscriptions.
@MainActor
private final class PlainToken: SubscriptionToken {
  private var parts: [Subscription]
  private let cancels: Bool

  init(_ parts: [Subscription], cancels: Bool = true) {
    self.parts = parts
    self.cancels = cancels
  }

  func cancel() {
    guard cancels else { return }
    for part in parts {
      part.cancel()
    }
    parts = []
  }

  var isActive: Bool { !parts.isEmpty }
}

/// Keeps "sticky" bindings alive forever, as a registry that never forgets
/// would.
@MainActor
private enum Registry {
  static var bindings: [AnyObject] = []
}

/// A two-way binding without loop protection: with values that cannot be
/// compared, each side's change sets the other, forever.
@MainActor
private func loopingBind<A: MutableObservableCell, B: MutableObservableCell>(
  _ a: A, _ b: B
) -> any SubscriptionToken where A.Value == B.Value {
  b.value = a.value
  return PlainToken([
    a.observeChanges { [weak b] in b?.value = $0 },
    b.observeChanges { [weak a] in a?.value = $0 },
  ])
}

/// A two-way binding that a registry keeps, whose token cannot end it.
@MainActor
private func stickyBind<A: MutableObservableCell, B: MutableObservableCell>(
  _ a: A, _ b: B
) -> any SubscriptionToken where A.Value == B.Value {
  b.value = a.value
  let token = PlainToken(
    [a.observeChanges { b.value = $0 }, b.observeChanges { a.value = $0 }], cancels: false)
  Registry.bindings.append(token)
  return token
}

@MainActor
@Suite("checkBindingLaws")
struct CheckBindingLawsTests {
  @Test func storedCellsBindLawfully() {
    checkBindingLaws({ Observable($0) }, { Observable($0) }, values: [1, 2, 3])
  }

  @Test func cellsOfValuesThatCannotBeComparedBindLawfully() {
    checkBindingLaws(
      { Observable(Opaque(number: $0.number)) }, { Observable($0) },
      values: [Opaque(number: 1), Opaque(number: 2), Opaque(number: 3)],
      by: { $0.number == $1.number })
  }

  @Test func aProjectionBindsLawfullyToAStoredCell() {
    checkBindingLaws(
      { Observable(item(1, $0)).projection(\.text) }, { Observable($0) }, values: ["a", "b", "c"])
  }

  @Test func aFieldCellOfAnArrayBindsLawfullyToAStoredCell() {
    checkBindingLaws(
      { on in required(ObservableArray([item(1, on: on)]).cell(for: 1, \.on), "field cell") },
      { Observable($0) }, values: [false, true])
  }

  @Test func elementCellsOfTwoArraysBindLawfully() {
    checkBindingLaws(
      elementCell, elementCell, values: [item(1, "a"), item(1, "b"), item(1, "b", on: true)])
  }

  /// The binding of the detail screen's text field.
  @Test func theSampleDetailTextBindsLawfullyToATextField() {
    checkBindingLaws(
      { text in
        let master = makeMaster([text])
        return required(master.detailViewModel(for: master.items[0].id), "detail").text
      }, { Observable($0) }, values: ["a", "b", "c"])
  }

  @Test func aCellWrittenOutsideTheKitBindsLawfully() {
    checkBindingLaws({ HandmadeCell($0) }, { Observable($0) }, values: [1, 2, 3])
  }

  @Test func aBindingThatLoopsIsStoppedAndReported() {
    let line = #line + 2
    let failures = recordedFailures {
      checkBindingLaws(
        { Observable(Opaque(number: $0.number)) }, { Observable($0) },
        values: [Opaque(number: 1), Opaque(number: 2)], by: { $0.number == $1.number },
        binding: loopingBind)
    }
    #expect(failures.laws == Array(repeating: "a binding never loops", count: 4))
    #expect(failures.locations == [here(line)])
    #expect(
      failures.first?.message == """
        Binding law 'a binding never loops' failed for Observable<Opaque> ↔ Observable<Opaque>: \
        setting the first cell to Opaque(number: 2), a cell was told of changes more than 32 \
        times [first: 33, second: 32]; the check cancelled the binding to stop it
        Trace:
          - checkBindingLaws(Observable<Opaque>, Observable<Opaque>)
          - setting the first cell
        """)
  }

  @Test func aBindingThatCancellingCannotEndFailsTheCancellationLaws() {
    defer { Registry.bindings.removeAll() }
    let line = #line + 2
    let failures = recordedFailures {
      checkBindingLaws(
        { Observable($0) }, { Observable($0) }, values: [1, 2, 3], binding: stickyBind)
    }
    #expect(
      failures.laws == [
        "cancelling ends the binding", "cancelling ends the binding",
        "cancelling ends the binding", "cancelling releases both sides",
      ])
    #expect(failures.locations == [here(line)])
    #expect(
      failures.last?.message.contains(
        "still alive after cancelling and dropping the first cell (#1), the second cell (#2) "
          + "and the token (#3): Observable<Int> (#1), Observable<Int> (#2), PlainToken (#3)")
        == true)
  }

  @Test func aOneWayBindingFailsTheWayBack() {
    let line = #line + 2
    let failures = recordedFailures {
      checkBindingLaws(
        { Observable($0) }, { Observable($0) }, values: [1, 2, 3], binding: { $0.bind(to: $1) })
    }
    #expect(
      failures.laws == [
        "a change to the second side reaches the first",
        "a ring of bindings brings every cell to the value",
        "a ring of bindings brings every cell to the value",
        "a dense graph of bindings brings every cell to the value",
        "a dense graph of bindings brings every cell to the value",
      ])
    #expect(failures.locations == [here(line)])
  }
}

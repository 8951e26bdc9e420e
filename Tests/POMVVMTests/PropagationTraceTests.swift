import POMVVM
import Testing

/// The propagation trace: every step of a propagation, in order, with its
/// depth; nothing while it is off.
///
/// The tests are synchronous: no other test's propagation can run on the
/// main actor between their start and stop.
@MainActor
@Suite("Propagation trace")
struct PropagationTraceTests {
  struct Item: Identifiable, Equatable {
    var id: Int
    var on: Bool
  }

  /// The lines of the steps `body` causes.
  private func trace(_ body: () -> Void) -> [String] {
    var lines: [String] = []
    PropagationTrace.start { lines.append($0.description) }
    defer { PropagationTrace.stop() }
    body()
    return lines
  }

  @Test func aSetShowsItsObserversAndTheBindingsThatForward() {
    let name = Observable("Ada").labelled("name")
    let label = Observable("").labelled("label")
    let line = #line + 1
    name.bind(to: label)
    let subscription = label.observeChanges { _ in }
    let lines = trace { name.value = "Grace" }
    #expect(
      lines == [
        "name = Grace",
        "  → binding name → label (POMVVMTests/PropagationTraceTests.swift:\(line))",
        "    label = Grace",
        "      → observer of label",
      ])
    subscription.cancel()
  }

  @Test func aDuplicateSetIsShownAndStops() {
    let name = Observable("Ada").labelled("name")
    let subscription = name.observeChanges { _ in }
    #expect(trace { name.value = "Ada" } == ["name: Ada is unchanged, nobody is told"])
    subscription.cancel()
  }

  @Test func derivedCellsRecomputeAfterTheirSourcesObservers() {
    let a = Observable(1).labelled("a")
    let double = a.map { $0 * 2 }.labelled("double")
    let subscriptions = [a.observeChanges { _ in }, double.observeChanges { _ in }]
    #expect(
      trace { a.value = 5 } == [
        "a = 5",
        "  → observer of a",
        "double recomputed = 10",
        "  → observer of double",
      ])
    extendLifetime(subscriptions)
  }

  @Test func anArrayChangeShowsCellsThenAggregatesThenTheChangeSet() throws {
    let items = ObservableArray([Item(id: 1, on: false), Item(id: 2, on: false)]).labelled("items")
    let open = items.liveCount(where: \.on).labelled("open switches")
    let cell = try #require(items.cell(for: 1)).labelled("item 1")
    let lines = trace { cell.value.on = true }
    #expect(lines.count == 3)
    #expect(lines[0] == "item 1 = Item(id: 1, on: true)")
    #expect(lines[1] == "open switches updated = 1")
    #expect(lines[2].hasPrefix("items published "))
    extendLifetime(open)
  }

  @Test func aNestedSetShowsThePassItCutShort() {
    let value = Observable(0).labelled("value")
    let first = value.observeChanges { if $0 == 1 { value.value = 2 } }
    let second = value.observeChanges { _ in }
    #expect(
      trace { value.value = 1 } == [
        "value = 1",
        "  → observer of value",
        "    value = 2",
        "      → observer of value",
        "      → observer of value",
        "value: pass stopped, a newer value reached every observer",
      ])
    extendLifetime([first, second])
  }

  @Test func offRecordsNothingAndStepsTheHandlerCausesAreLeftOut() {
    let name = Observable("Ada").labelled("name")
    let echo = Observable("").labelled("echo")
    var lines: [String] = []
    PropagationTrace.start {
      lines.append($0.description)
      echo.value = $0.description
    }
    name.value = "Grace"
    PropagationTrace.stop()
    name.value = "Linus"
    #expect(lines == ["name = Grace"])
    #expect(!PropagationTrace.isOn)
  }

  /// An observer may stop and start the trace in the middle of a
  /// propagation: nothing crashes, and later steps keep their depths.
  @Test func aTraceRestartedInsideAPropagationKeepsItsDepths() {
    let value = Observable(0).labelled("value")
    let other = Observable(0).labelled("other")
    var lines: [String] = []
    let restart = value.observeChanges { _ in
      PropagationTrace.stop()
      PropagationTrace.start { lines.append($0.description) }
      other.value += 1
    }
    let after = value.observeChanges { _ in other.value += 1 }
    PropagationTrace.start { lines.append($0.description) }
    value.value = 1
    value.value = 2
    PropagationTrace.stop()
    #expect(
      lines == [
        "value = 1", "  → observer of value", "    other = 1", "  → observer of value",
        "    other = 2", "value = 2", "  → observer of value", "    other = 3",
        "  → observer of value", "    other = 4",
      ])
    extendLifetime([restart, after])
  }

  @Test func aStepWithANegativeDepthIsNotIndented() {
    let step = PropagationStep(kind: .changed, subject: "a", detail: "1", depth: -3)
    #expect(step.description == "a = 1")
  }

  @Test func controlCharactersInValuesAreVisible() {
    let name = Observable("").labelled("na\u{1B}me")
    #expect(trace { name.value = "\u{1B}[31mred\r" } == ["na\\u{1B}me = \\u{1B}[31mred\\u{0D}"])
  }

  @Test func anUnlabelledCellIsNamedByItsKindTypeAndOrigin() {
    let line = #line + 1
    let flag = Observable(false)
    #expect(
      trace { flag.value = true } == [
        "cell<Bool> @POMVVMTests/PropagationTraceTests.swift:\(line) = true"
      ])
  }

  @Test func cellsMadeWhileTheTraceIsOnAreTraced() {
    var cell: Observable<Int>?
    let lines = trace {
      cell = Observable(0).labelled("late")
      cell?.value = 1
    }
    #expect(lines == ["late = 1"])
  }
}

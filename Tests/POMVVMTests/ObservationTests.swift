import Observation
import POMVVM
import TestSupport
import Testing

/// Every piece of the kit's state is visible to Observation tracking: a real
/// change fires a tracker once; a de-duplicated set or untouched state never.
@MainActor
@Suite("Observation")
struct ObservationTests {
  @Test func aStoredCell() {
    let cell = Observable(1)
    let other = Observable(1)
    let tracker = track { _ = cell.value }
    other.value = 2
    cell.value = 1
    #expect(tracker.fired == 0, "an untouched cell and a de-duplicated set fire nothing")
    cell.value = 2
    cell.value = 3
    #expect(tracker.fired == 1)
  }

  @Test func aStoredCellOfValuesThatCannotBeCompared() {
    let cell = Observable(Opaque(number: 1))
    let tracker = track { _ = cell.value }
    cell.value = Opaque(number: 1)
    #expect(tracker.fired == 1, "every set of such a cell is a change")
  }

  @Test func aMappedCellFiresOnlyWhenItsValueChanges() {
    let source = Observable(1)
    let isOdd = source.map { $0 % 2 == 1 }
    let tracker = track { _ = isOdd.value }
    source.value = 3
    #expect(tracker.fired == 0, "the source changed, the derived value did not")
    source.value = 4
    #expect(tracker.fired == 1)
  }

  @Test func aCombinedCellFiresOncePerSetOfItsSources() {
    let a = Observable(1)
    let sum = combine(.every, a.map { $0 * 2 }, a.map { $0 * 3 }, initial: 0) { $0 + $1 }
    let tracker = track { _ = sum.value }
    a.value = 2
    #expect(tracker.fired == 1)
    #expect(sum.value == 10)
  }

  @Test func aProjectionFiresOnlyForItsField() {
    let item = Observable(TestItem(1, "a"))
    let on = item.projection(\.on)
    let tracker = track { _ = on.value }
    item.value.text = "b"
    #expect(tracker.fired == 0, "another field changed")
    on.value = true
    #expect(tracker.fired == 1)
  }

  @Test func anElementCellAndItsFieldFireOnlyForTheirElement() throws {
    let array = ObservableArray([TestItem(1), TestItem(2)])
    let cell = try #require(array.cell(for: 1))
    let on = try #require(array.cell(for: 1, \.on))
    let cellTracker = track { _ = cell.value }
    let fieldTracker = track { _ = on.value }
    array.update(TestItem(2, "other"))
    array.append(TestItem(3))
    array.update(TestItem(1))
    #expect([cellTracker.fired, fieldTracker.fired] == [0, 0], "other elements, equal value")
    on.value = true
    #expect([cellTracker.fired, fieldTracker.fired] == [1, 1])
  }

  @Test func anAggregateFiresWhenItsCountChanges() {
    let array = ObservableArray([TestItem(1), TestItem(2)])
    let openCount = array.liveCount(where: \.on)
    let tracker = track { _ = openCount.value }
    array.update(TestItem(1, "renamed"))
    #expect(tracker.fired == 0, "the count stayed")
    array.update(TestItem(2, on: true))
    #expect(tracker.fired == 1)
  }

  @Test(arguments: ArrayRead.allCases)
  func theArraysContentsFireOncePerMutation(_ read: ArrayRead) {
    let array = ObservableArray([TestItem(1), TestItem(2)])
    let tracker = track { read.perform(on: array) }
    array.update(TestItem(1))
    #expect(tracker.fired == 0, "a rewrite with an equal value is no change")
    array.append(TestItem(3))
    array.remove(id: 3)
    #expect(tracker.fired == 1)
  }

  @Test func aDeletedElementsCellFiresForTheDetachmentAndNotForRefusedWrites() throws {
    let array = ObservableArray([TestItem(1), TestItem(2)])
    let cell = try #require(array.cell(for: 1))
    let tracker = track {
      _ = cell.value
      _ = cell.isDetached
    }
    array.remove(id: 1)
    #expect(tracker.fired == 1)
    let again = track { _ = cell.value }
    _ = Diagnostics.capturing { cell.value.text = "refused" }
    #expect(again.fired == 0)
  }

  @Test func aTrackerOnADerivedCellDoesNotDependOnItsSources() {
    let source = Observable(1)
    let label = source.map { $0 > 0 ? "positive" : "not positive" }
    source.value = 5  // marks and recomputes outside the tracker
    let tracker = track { _ = label.value }
    source.value = 7
    #expect(tracker.fired == 0)
  }

  /// A tracker's `onChange` runs inside the set, after the value is stored
  /// and before the cell's observers; a set it makes is delivered at once.
  @Test func aSetFromOnChangeIsDeliveredBeforeTheCellsObservers() {
    let a = Observable(0)
    let b = Observable(0)
    let order = Recorder<String>()
    let subscriptions = [
      a.observeChanges { order.record("a observer \($0), b is \(b.value)") },
      b.observeChanges { order.record("b observer \($0)") },
    ]
    withObservationTracking(
      { _ = a.value }, onChange: { MainActor.assumeIsolated { b.value = 10 } })
    a.value = 1
    #expect(order.events == ["b observer 10", "a observer 1, b is 10"])
    withExtendedLifetime(subscriptions) {}
  }

  /// SwiftUI's pattern: a tracker that fires reads again and so registers
  /// again; every change is seen, however many came before.
  @Test func aTrackerThatRegistersAgainSeesEveryChange() {
    /// Reads the cell under tracking, and again each time the tracker fires.
    @MainActor
    final class Reader {
      let cell: Observable<Int>
      var fired = 0

      init(_ cell: Observable<Int>) {
        self.cell = cell
      }

      func register() {
        withObservationTracking(
          { _ = cell.value },
          onChange: { [weak self] in
            MainActor.assumeIsolated {
              guard let self else { return }
              self.fired += 1
              self.register()
            }
          })
      }
    }
    let cell = Observable(0)
    let reader = Reader(cell)
    cell.value = 1  // before any tracker
    reader.register()
    for value in 2...5 {
      cell.value = value
    }
    #expect(reader.fired == 4)
  }

  @Test func anInPlaceMutationIsNotARead() {
    let cell = Observable(0)
    let item = Observable(TestItem(1))
    let on = item.projection(\.on)
    let tracker = track {
      cell.value += 1
      on.value.toggle()
    }
    cell.value = 10
    on.value = false
    #expect(tracker.fired == 0)
  }

  @Test func aSetInsideAnObserverFiresTheOtherCellsTrackerOnce() {
    let a = Observable(0)
    let b = Observable(0)
    let forward = a.observeChanges { b.value = $0 * 10 }
    let tracker = track { _ = b.value }
    a.value = 1
    a.value = 2
    #expect(tracker.fired == 1)
    #expect(b.value == 20)
    forward.cancel()
  }
}

/// The ways to read an array's contents, each tested on its own.
enum ArrayRead: String, CaseIterable, CustomTestStringConvertible {
  case elements, count, subscriptByPosition, subscriptByID, indexByID, containsID, iteration

  var testDescription: String { rawValue }

  @MainActor
  func perform(on array: ObservableArray<TestItem>) {
    switch self {
    case .elements: _ = array.elements
    case .count: _ = array.count
    case .subscriptByPosition: _ = array[0]
    case .subscriptByID: _ = array[id: 1]
    case .indexByID: _ = array.index(id: 2)
    case .containsID: _ = array.contains(id: 3)
    case .iteration:
      for element in array { _ = element }
    }
  }
}

/// Accepts what SwiftUI's `@Bindable` accepts.
func requiresBindableKind<T: AnyObject & Observation.Observable>(_ value: T) -> ObjectIdentifier {
  ObjectIdentifier(value)
}

@MainActor
@Suite("Observation conformances")
struct ObservationConformanceTests {
  /// `@Bindable` needs an `Observation.Observable` class; writing through a
  /// key path is what `$cell.value` does.
  @Test func everyKindOfStateIsAnObservationObservableClass() throws {
    let cell = Observable(1)
    let array = ObservableArray([TestItem(1)])
    let elementCell = try #require(array.cell(for: 1))
    let kinds: [ObjectIdentifier] = [
      requiresBindableKind(cell),
      requiresBindableKind(cell.map { $0 + 1 }),
      requiresBindableKind(Observable(TestItem(1)).projection(\.on)),
      requiresBindableKind(elementCell),
      requiresBindableKind(array.liveCount(where: \.on)),
      requiresBindableKind(array),
    ]
    #expect(Set(kinds).count == 6)
    let binding: ReferenceWritableKeyPath<Observable<Int>, Int> = \.value
    let tracker = track { _ = cell[keyPath: binding] }
    cell[keyPath: binding] = 2
    #expect(tracker.fired == 1)
  }
}

// MARK: - The two `Observable`s

/// An app model made with Observation's macro, which `import POMVVM` leaves
/// alone.
@Observable
final class Shelf {
  var title = "Groceries"
}

/// An app model that conforms to Observation's protocol itself.
///
/// With `import POMVVM`, the bare name `Observable` in a type position is the
/// kit's generic cell, so `extension Pantry: Observable {}` fails with
/// "reference to generic type 'Observable' requires arguments in <...>": the
/// protocol is spelled `Observation.Observable`.
final class Pantry {}
extension Pantry: Observation.Observable {}

/// Observation's protocol as a generic constraint, spelled as it must be.
func countModels<Model: Observation.Observable>(_ models: [Model]) -> Int { models.count }

@MainActor
@Suite("The two Observables")
struct TwoObservablesTests {
  /// Both spellings, next to each other in one file that imports both
  /// modules: this test is first a compile test.
  @Test func theKitsCellAndObservationsProtocolCompileSideBySide() {
    let title: Observable<String> = Observable("")  // the kit's cell
    let typed: POMVVM.Observable<String> = title  // the same type, qualified
    let shelf = Shelf()  // @Observable: Observation's macro
    let models: [any Observation.Observable] = [shelf, Pantry(), title]
    let greeting = Derived(observing: { "Shopping: \(shelf.title)" })
    greeting.bind(to: typed)
    #expect(title.value == "Shopping: Groceries")
    #expect(models.count == 3)
    #expect(countModels([shelf]) == 1)
    #expect(countModels([Pantry(), Pantry()]) == 2)
  }
}

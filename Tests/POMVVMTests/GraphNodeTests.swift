import TestSupport
import Testing

@testable import POMVVM

/// A derived cell is one object, its list and its graph node at once; these
/// tests pin the edges and the lifetimes that come with that.
@MainActor
@Suite("Graph nodes")
struct GraphNodeTests {
  struct Item: Equatable {
    var text: String
    var on: Bool
  }

  /// A cell written outside the kit: derived cells reach it through a
  /// subscription, not through the graph.
  final class ForeignCell<Value>: MutableObservableCell {
    let inner: Observable<Value>

    init(_ value: Value) { inner = Observable(value) }

    var value: Value {
      get { inner.value }
      set { inner.value = newValue }
    }

    @discardableResult
    func set(_ newValue: Value) -> Bool {
      inner.value = newValue
      return true
    }

    func observe(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
      inner.observe(handler)
    }

    func observeChanges(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription {
      inner.observeChanges(handler)
    }
  }

  /// The edges a cell holds, as (reader, input) pairs, and how they are kept.
  private func edges(of list: _ObserverListBase) -> (shape: String, inputs: [Int]) {
    let shape =
      switch list._dependents {
      case .none: "none"
      case .one: "one"
      case .many: "many"
      }
    return (shape, list._dependentEdges.map(\.index))
  }

  @Test func oneReaderNeedsNoArrayAndTheEdgesFollowReleases() {
    let item = Observable(Item(text: "a", on: false))
    var first: ProjectedCell<Observable<Item>, Bool>? = item.projection(\.on)
    #expect(edges(of: item) == ("one", [0]))
    var second: ProjectedCell<Observable<Item>, String>? = item.projection(\.text)
    #expect(edges(of: item) == ("many", [0, 0]))

    weak let weakFirst = first
    first = nil
    #expect(weakFirst == nil)
    #expect(edges(of: item) == ("one", [0]))

    item.value.text = "b"
    #expect(second?.value == "b")

    weak let weakSecond = second
    second = nil
    #expect(weakSecond == nil)
    #expect(edges(of: item) == ("none", []))
    // A set with no readers left reaches no freed node.
    item.value = Item(text: "c", on: true)
    #expect(item.value.text == "c")
  }

  @Test func aSecondInputIsKeptWithItsIndex() {
    let a = Observable(1)
    let b = Observable(2)
    var sum: Derived<Int>? = combine(a, b) { $0 + $1 }
    #expect(edges(of: a) == ("one", [0]))
    #expect(edges(of: b) == ("many", [1]))
    b.value = 5
    #expect(sum?.value == 6)

    weak let weakSum = sum
    sum = nil
    #expect(weakSum == nil)
    #expect(edges(of: a) == ("none", []))
    #expect(edges(of: b) == ("none", []))
  }

  @Test func aCellThatReadsOneSourceTwiceLeavesBothEdges() {
    let a = Observable(3)
    var twice: Derived<Int>? = combine(a, a) { $0 * $1 }
    #expect(edges(of: a) == ("many", [0, 1]))
    a.value = 4
    #expect(twice?.value == 16)
    twice = nil
    #expect(edges(of: a) == ("none", []))
  }

  @Test func derivedCellsFollowACellThatIsNotTheKits() {
    let foreign = ForeignCell(Item(text: "a", on: false))
    var on: ProjectedCell<ForeignCell<Item>, Bool>? = foreign.projection(\.on)
    var length: Derived<Int>? = foreign.map(\.text.count)
    let recorder = Recorder<Bool>()
    let subscription = on?.observeChanges(recorder.handler)

    foreign.value = Item(text: "abc", on: true)
    #expect(recorder.events == [true])
    #expect(length?.value == 3)
    on?.value = false
    #expect(foreign.value.on == false)
    #expect(recorder.events == [true, false])
    #expect(foreign.inner.observerCount == 2)

    // Releasing the derived cells ends their subscriptions to the cell.
    subscription?.cancel()
    weak let weakOn = on
    weak let weakLength = length
    on = nil
    length = nil
    #expect(weakOn == nil)
    #expect(weakLength == nil)
    #expect(foreign.inner.observerCount == 0)
    foreign.value = Item(text: "abcd", on: true)
    #expect(recorder.events == [true, false])
  }

  struct Outer: Equatable {
    struct Inner: Equatable { var x: Int }
    var inner: Inner
    var flag: Bool
  }

  @Test func aProjectionOfAProjectionIsCurrentWhenReadMidPropagation() {
    let outer = Observable(Outer(inner: .init(x: 1), flag: false))
    let inner = outer.projection(\.inner)
    let x = inner.projection(\.x)
    #expect(inner._height == 1)
    #expect(x._height == 2)
    var seen: [Int] = []
    // This observer runs before either projection recomputes: the read
    // pulls both, the outer one through its check state.
    let subscription = outer.observeChanges { _ in seen.append(x.value) }
    let recorder = Recorder<Int>()
    let observed = x.observeChanges(recorder.handler)
    outer.value.inner.x = 4
    #expect(seen == [4])
    #expect(recorder.events == [4])
    outer.value.flag = true
    #expect(seen == [4, 4])
    #expect(recorder.events == [4])
    x.value = 7
    #expect(outer.value.inner.x == 7)
    #expect(recorder.events == [4, 7])
    subscription.cancel()
    observed.cancel()
  }

  final class Box: Equatable {
    var count = 0
    static func == (lhs: Box, rhs: Box) -> Bool { lhs === rhs }
  }

  struct Record: Equatable {
    var name: String
    var inner: Outer.Inner
    var box: Box
    var tags: [String]
    var shout: String {
      get { name.uppercased() }
      set { name = newValue.lowercased() }
    }
  }

  /// Reads, writes and notifications through a projection agree with the
  /// base, whichever way the field is reached.
  private func checkProjection<Base: MutableObservableCell, Field: Equatable>(
    _ base: Base, _ keyPath: WritableKeyPath<Base.Value, Field>, inPlace: Bool,
    next: Field, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let cell = base.projection(keyPath)
    #expect(cell._readsInPlace == inPlace, sourceLocation: sourceLocation)
    let recorder = Recorder<Field>()
    let subscription = cell.observeChanges(recorder.handler)
    cell.value = next
    #expect(base.value[keyPath: keyPath] == next, sourceLocation: sourceLocation)
    #expect(cell.value == next, sourceLocation: sourceLocation)
    #expect(recorder.events == [next], sourceLocation: sourceLocation)
    subscription.cancel()
  }

  @Test func fieldsAreReadInPlaceWhenTheKeyPathAndTheBaseAllowIt() {
    func record() -> Record {
      Record(name: "ada", inner: .init(x: 1), box: Box(), tags: ["a"])
    }
    let stored = Observable(record())
    checkProjection(stored, \.name, inPlace: true, next: "grace")
    checkProjection(stored, \.inner.x, inPlace: true, next: 9)
    checkProjection(stored, \.tags, inPlace: true, next: ["b", "c"])
    let box = Box()
    checkProjection(stored, \.box, inPlace: true, next: box)
    // A class reference ends the stored path: the key path is used.
    box.count = 3
    let count = stored.projection(\.box.count)
    #expect(!count._readsInPlace)
    #expect(count.value == 3)
    // So does a computed property.
    checkProjection(stored, \.shout, inPlace: false, next: "LOVELACE")
    #expect(stored.value.name == "lovelace")

    // A base that is not a stored cell is read through its value.
    let wrapped = AnyMutableCell(Observable(record()))
    checkProjection(wrapped, \.name, inPlace: false, next: "grace")
    let items = ObservableArray([TestItem(1, "a")])
    if let element = items.cell(for: 1) {
      checkProjection(element, \.text, inPlace: true, next: "b")
      #expect(items[id: 1]?.text == "b")
    } else {
      Issue.record("no element cell")
    }
    // A projection of a projection reads its base's value, which pulls.
    checkProjection(stored.projection(\.inner), \.x, inPlace: false, next: 5)
    #expect(stored.value.inner.x == 5)
  }
}

@MainActor
@Suite("Releasing deep chains")
struct DeepChainReleaseTests {
  /// Each level used to release the next from inside its `deinit`: about
  /// twenty frames a level, a stack overflow at 10,000 levels in debug.
  @Test func releasingAChainOf100000MapsUsesConstantStack() {
    let source = Observable(0)
    var last: Derived<Int>? = source.map { $0 }
    weak let first = last
    for _ in 0..<100_000 {
      last = last?.map { $0 + 1 }
    }
    #expect(last?.value == 100_000)
    last = nil
    #expect(first == nil, "the whole chain is released")
  }

  @Test func releasingAChainOf100000CombinersUsesConstantStack() {
    let source = Observable(1)
    var last: Derived<Int>? = combine(source, source) { $0 + $1 }
    weak let first = last
    for _ in 0..<100_000 {
      guard let previous = last else { break }
      last = combine(previous, previous) { first, _ in first + 1 }
    }
    #expect(last?.value == 100_002)
    last = nil
    #expect(first == nil, "the whole chain is released")
  }
}

/// Marking and pulling used to recurse once per level: a set on the root of
/// a chain of about 60,000 maps overflowed the main thread's stack in debug.
@MainActor
@Suite("Setting and reading deep chains")
struct DeepChainPropagationTests {
  static let depth = 200_000

  @Test func aSetOnTheRootOfAChainOf200000MapsReachesItsEnd() {
    let source = Observable(0)
    var last = source.map { $0 }
    for _ in 0..<Self.depth {
      last = last.map { $0 + 1 }
    }
    var seen: [Int] = []
    let token = last.observeChanges { seen.append($0) }
    source.value = 1
    source.value = 2
    #expect(seen == [Self.depth + 1, Self.depth + 2])
    #expect(last.value == Self.depth + 2)
    token.cancel()
  }

  /// An observer of the root runs before the queue drains: its read of the
  /// chain's end pulls every level, which must not recurse.
  @Test func anObserverOfTheRootReadsTheEndOfAChainOf200000Maps() {
    let source = Observable(0)
    var last = source.map { $0 }
    for _ in 0..<Self.depth {
      last = last.map { $0 + 1 }
    }
    let end = last
    var read: [Int] = []
    let token = source.observeChanges { _ in read.append(end.value) }
    source.value = 5
    #expect(read == [Self.depth + 5])
    token.cancel()
  }

  @Test func aChainOf200000CombinersIsSetReadAndReleased() {
    let source = Observable(1)
    var last: Derived<Int>? = combine(source, source) { $0 + $1 }
    weak let first = last
    for _ in 0..<Self.depth {
      guard let previous = last else { break }
      last = combine(previous, previous) { first, _ in first + 1 }
    }
    weak let end = last
    var read: [Int] = []
    let token = source.observeChanges { _ in read.append(end?.value ?? -1) }
    source.value = 2
    #expect(read == [Self.depth + 4])
    #expect(last?.value == Self.depth + 4)
    token.cancel()
    last = nil
    #expect(first == nil, "the whole chain is released")
  }

  /// Each level projects the one before through a type-erased cell, so that
  /// the chain has one type rather than 200,000 nested ones. (A write at
  /// the end goes through every level's `set`, as a call chain: writes
  /// are not part of this promise.)
  @Test func aChainOf200000ProjectionsIsSetReadAndReleased() {
    let source = Observable(Nested())
    var last: AnyMutableCell<Nested>? = AnyMutableCell(source.projection(\.self))
    weak let first = last
    for _ in 0..<Self.depth {
      guard let previous = last else { break }
      last = AnyMutableCell(previous.projection(\.self))
    }
    weak let end = last
    var read: [Int] = []
    let token = source.observeChanges { _ in read.append(end?.value.count ?? -1) }
    source.value.count = 7
    #expect(read == [7])
    #expect(last?.value.count == 7)
    token.cancel()
    last = nil
    #expect(first == nil, "the whole chain is released")
  }

  struct Nested: Equatable {
    var count = 0
  }
}

@MainActor
@Suite("Registrars")
struct RegistrarTests {
  /// Making a derived cell computes its first value; that read is the
  /// kit's own, not the app's, so it makes no Observation registrar on the
  /// source.
  @Test func makingAMapOrACombinerMakesNoRegistrarOnItsSources() {
    let source = Observable(1)
    let other = Observable(2)
    let doubled = source.map { $0 * 2 }
    let label = source.map { "\($0)" as String? }
    let sum = combine(source, other) { $0 + $1 }
    #expect(source._tracking == nil)
    #expect(other._tracking == nil)
    #expect(doubled._node._tracking == nil)
    #expect([doubled.value, sum.value] == [2, 3])
    #expect(label.value == "1")
    #expect(doubled._node._tracking != nil, "a read by the app makes one")
  }
}

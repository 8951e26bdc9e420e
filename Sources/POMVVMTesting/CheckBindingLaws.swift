/// Checks that a two-way binding between two cell types round-trips values
/// both ways, never loops, and ends and releases both cells when cancelled.
///
/// By default the binding checked is the kit's
/// `MutableObservableCell.bidirectionalBind(to:)`; pass `binding` to check
/// your own binding code between your own cells:
///
/// ```swift
/// @Test @MainActor func theDetailTextFieldBindsToTheItem() {
///   checkBindingLaws(
///     { text in ObservableArray([Note(id: 1, text: text)]).cell(for: 1, \.text)! },
///     { Observable($0) },
///     values: ["", "draft", "final"])
/// }
/// ```
///
/// The check first runs ``checkObservableLaws(_:values:fileID:filePath:line:column:)``
/// on both cell types, then checks these laws:
///
/// - *binding makes both sides equal*;
/// - *a change to the first side reaches the second*, and *a change to the
///   second side reaches the first*;
/// - *a binding never loops*: binding and every set tell each cell at most
///   once, in a pair and in a ring of bindings (where, when values are not
///   `Equatable`, the cell that was set may be told twice);
/// - *a ring of bindings brings every cell to the value*: four cells bound
///   in a ring (first₁ ↔ second₁ ↔ first₂ ↔ second₂ ↔ first₁) all take a
///   value set on any of them;
/// - *a dense graph of bindings brings every cell to the value*, in a
///   complete graph (each of three first cells bound to each of three second
///   cells) and in a seeded random dense graph of eight cells, where a set
///   tells each cell twice at most and no binding reports that it did not
///   settle (each graph reports its first failure only);
/// - *cancelling ends the binding*: after the token is cancelled, neither
///   side hears the other;
/// - *cancelling releases both sides*: once cancelled and dropped, both
///   cells and the token are deallocated.
///
/// To stop a binding that loops, the check cancels its token when a cell is
/// told the same change too many times; a binding whose token cannot stop
/// it overflows the stack.
///
/// - Parameters:
///   - makeFirst: Makes a cell of the first type holding a value.
///   - makeSecond: Makes a cell of the second type holding a value.
///   - values: Sample values; duplicates are ignored, and at least two must
///     differ.
///   - bind: Binds a first cell to a second one, both ways, and returns the
///     binding's token; by default, `first.bidirectionalBind(to: second)`.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkBindingLaws<First: MutableObservableCell, Second: MutableObservableCell>(
  _ makeFirst: (First.Value) -> First,
  _ makeSecond: (First.Value) -> Second,
  values: [First.Value],
  binding bind: (First, Second) -> any SubscriptionToken = { $0.bidirectionalBind(to: $1) },
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) where First.Value: Equatable, Second.Value == First.Value {
  let context = CheckContext(
    "checkBindingLaws(\(First.self), \(Second.self))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  runBindingLaws(
    makeFirst, makeSecond, values: values, by: { $0 == $1 }, deduplicates: true, binding: bind,
    in: context)
}

/// Checks that a two-way binding between two cell types round-trips values
/// both ways, never loops, and ends and releases both cells when cancelled,
/// for values that are not `Equatable`.
///
/// The laws are those of
/// ``checkBindingLaws(_:_:values:binding:fileID:filePath:line:column:)``,
/// with `areEquivalent` telling values apart. Cells of values that are not
/// `Equatable` notify on every set, even of an equal value, so the *no
/// notification on equal sets* law of the cells is not checked, and in a
/// ring the cell that was set may be told twice: once by the set, once when
/// the value comes back around.
///
/// ```swift
/// checkBindingLaws(
///   { Observable($0) }, { Observable($0) },
///   values: [Sketch(strokes: 1), Sketch(strokes: 2)],
///   by: { $0.strokes == $1.strokes })
/// ```
///
/// - Parameters:
///   - makeFirst: Makes a cell of the first type holding a value.
///   - makeSecond: Makes a cell of the second type holding a value.
///   - values: Sample values; at least two must differ.
///   - areEquivalent: Whether two values are the same, as far as the
///     binding is concerned.
///   - bind: Binds a first cell to a second one, both ways, and returns the
///     binding's token; by default, `first.bidirectionalBind(to: second)`.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkBindingLaws<First: MutableObservableCell, Second: MutableObservableCell>(
  _ makeFirst: (First.Value) -> First,
  _ makeSecond: (First.Value) -> Second,
  values: [First.Value],
  by areEquivalent: (First.Value, First.Value) -> Bool,
  binding bind: (First, Second) -> any SubscriptionToken = { $0.bidirectionalBind(to: $1) },
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) where Second.Value == First.Value {
  let context = CheckContext(
    "checkBindingLaws(\(First.self), \(Second.self))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  runBindingLaws(
    makeFirst, makeSecond, values: values, by: areEquivalent, deduplicates: false,
    binding: bind, in: context)
}

/// Counts how often each cell is told of a change, and stops a loop by
/// cancelling the bindings when a count runs away.
@MainActor
final class NotificationCounter {
  /// More notifications than this for one change is a loop.
  static let loopLimit = 32

  let names: [String]
  private(set) var counts: [Int]
  private(set) var stoppedALoop = false
  var tokens: [any SubscriptionToken] = []

  init(_ names: [String]) {
    self.names = names
    counts = Array(repeating: 0, count: names.count)
  }

  func count(_ index: Int) {
    counts[index] += 1
    if counts[index] > Self.loopLimit && !stoppedALoop {
      stoppedALoop = true
      for token in tokens {
        token.cancel()
      }
    }
  }

  func reset() {
    counts = Array(repeating: 0, count: names.count)
  }

  /// The counts by cell, such as `[first: 1, second: 1]`.
  var description: String {
    "[" + zip(names, counts).map { "\($0): \($1)" }.joined(separator: ", ") + "]"
  }
}

@MainActor
func runBindingLaws<First: MutableObservableCell, Second: MutableObservableCell>(
  _ makeFirst: (First.Value) -> First,
  _ makeSecond: (First.Value) -> Second,
  values: [First.Value],
  by areEquivalent: (First.Value, First.Value) -> Bool,
  deduplicates: Bool,
  binding bind: (First, Second) -> any SubscriptionToken,
  in context: CheckContext
) where Second.Value == First.Value {
  typealias Value = First.Value
  let laws = context.laws("Binding", for: "\(First.self) ↔ \(Second.self)")
  var distinct: [Value] = []
  for value in values where !distinct.contains(where: { areEquivalent($0, value) }) {
    distinct.append(value)
  }
  guard distinct.count >= 2 else {
    laws.misuse("it needs at least two different values; got \(describe(values))")
    return
  }
  /// A sample value that differs from `value`.
  func other(than value: Value) -> Value {
    distinct.first { !areEquivalent($0, value) } ?? distinct[0]
  }

  context.step("checkObservableLaws(\(First.self))") {
    runObservableLaws(
      makeFirst, values: distinct, by: areEquivalent, deduplicates: deduplicates, in: context)
  }
  context.step("checkObservableLaws(\(Second.self))") {
    runObservableLaws(
      makeSecond, values: distinct, by: areEquivalent, deduplicates: deduplicates, in: context)
  }

  /// Reports a loop the counter had to stop; `true` if there was one.
  func stoppedALoop(_ counter: NotificationCounter, _ doing: String) -> Bool {
    guard counter.stoppedALoop else { return false }
    laws.fail(
      "a binding never loops",
      "\(doing), a cell was told of changes more than \(NotificationCounter.loopLimit) times "
        + "\(counter.description); the check cancelled the binding to stop it")
    return true
  }

  var released: [WeakReference] = []
  pair: do {
    let first = makeFirst(distinct[0])
    let second = makeSecond(distinct[1])
    let counter = NotificationCounter(["first", "second"])
    let subscriptions = [
      first.observeChanges { _ in counter.count(0) },
      second.observeChanges { _ in counter.count(1) },
    ]
    defer { cancel(subscriptions) }
    let token = bind(first, second)
    counter.tokens = [token]
    let holdings = { "first holds \(describe(first.value)), second \(describe(second.value))" }

    let bound = context.step("binding") { () -> Bool in
      if stoppedALoop(counter, "binding") { return false }
      laws.expect(
        "a binding never loops", counter.counts.allSatisfy { $0 <= 1 },
        "binding told the cells \(counter.description); expected at most once each")
      laws.expect(
        "binding makes both sides equal", areEquivalent(first.value, second.value), holdings())
      return true
    }
    guard bound else { break pair }

    for (name, index) in [("first", 0), ("second", 1)] {
      let otherName = index == 0 ? "second" : "first"
      let looped = context.step("setting the \(name) cell") { () -> Bool in
        counter.reset()
        let value = other(than: index == 0 ? first.value : second.value)
        if index == 0 {
          first.value = value
        } else {
          second.value = value
        }
        if stoppedALoop(counter, "setting the \(name) cell to \(describe(value))") { return true }
        laws.expect(
          "a change to the \(name) side reaches the \(otherName)",
          areEquivalent(first.value, value) && areEquivalent(second.value, value),
          "after setting the \(name) cell to \(describe(value)), \(holdings())")
        laws.expect(
          "a binding never loops", counter.counts.allSatisfy { $0 <= 1 },
          "setting the \(name) cell told the cells \(counter.description); expected once each")
        return false
      }
      if looped { break pair }
    }

    context.step("cancelling") {
      token.cancel()
      laws.expect(
        "cancelling ends the binding", !token.isActive, "the token is still active")
      counter.reset()
      let kept = second.value
      first.value = other(than: first.value)
      laws.expect(
        "cancelling ends the binding", areEquivalent(second.value, kept) && counter.counts[1] == 0,
        "after setting the first cell, \(holdings()); the second was told \(counter.counts[1]) "
          + "times")
      let keptFirst = first.value
      second.value = other(than: second.value)
      laws.expect(
        "cancelling ends the binding", areEquivalent(first.value, keptFirst),
        "after setting the second cell, \(holdings())")
    }
    released = [WeakReference(first), WeakReference(second), WeakReference(token)]
  }
  if !released.isEmpty {
    context.step("cancelling") {
      let alive = survivors(released)
      laws.expect(
        "cancelling releases both sides", alive.isEmpty,
        "still alive after cancelling and dropping the first cell (#1), the second cell (#2) "
          + "and the token (#3): \(alive.joined(separator: ", "))")
    }
  }

  context.step("a ring first₁ ↔ second₁ ↔ first₂ ↔ second₂ ↔ first₁") {
    let first1 = makeFirst(distinct[0])
    let second1 = makeSecond(distinct[0])
    let first2 = makeFirst(distinct[0])
    let second2 = makeSecond(distinct[0])
    let counter = NotificationCounter(["first₁", "second₁", "first₂", "second₂"])
    let values: [() -> Value] = [
      { first1.value }, { second1.value }, { first2.value }, { second2.value },
    ]
    let subscriptions = [
      first1.observeChanges { _ in counter.count(0) },
      second1.observeChanges { _ in counter.count(1) },
      first2.observeChanges { _ in counter.count(2) },
      second2.observeChanges { _ in counter.count(3) },
    ]
    defer { cancel(subscriptions) }
    // Each token joins the counter as soon as it exists, so that a loop the
    // next binding starts can be stopped.
    for (first, second) in [
      (first1, second1), (first2, second1), (first2, second2), (first1, second2),
    ] {
      counter.tokens.append(bind(first, second))
      if stoppedALoop(counter, "binding the ring") { break }
    }
    defer {
      for token in counter.tokens {
        token.cancel()
      }
    }
    if counter.stoppedALoop { return }

    let holdings = {
      "[" + zip(counter.names, values).map { "\($0): \(describe($1()))" }.joined(separator: ", ")
        + "]"
    }
    for (name, set) in [("first₁", { first1.value = $0 }), ("second₂", { second2.value = $0 })]
      as [(String, (Value) -> Void)]
    {
      counter.reset()
      let value = other(than: first1.value)
      set(value)
      if stoppedALoop(counter, "setting \(name) in the ring") { return }
      laws.expect(
        "a ring of bindings brings every cell to the value",
        values.allSatisfy { areEquivalent($0(), value) },
        "after setting \(name) to \(describe(value)), the cells hold \(holdings())")
      let index = counter.names.firstIndex(of: name) ?? 0
      let bounded = counter.counts.enumerated().allSatisfy { cell, count in
        count <= 1 || (!deduplicates && cell == index && count == 2)
      }
      laws.expect(
        "a binding never loops", bounded,
        "setting \(name) in the ring told the cells \(counter.description); expected once each"
          + (deduplicates ? "" : " (twice at most for \(name))"))
    }
  }

  /// Binds firsts to seconds along `edges` (first index, second index), sets
  /// each cell in turn, and checks that every cell takes the value, is told
  /// at most twice, and that no binding reports that it did not settle.
  func checkGraph(_ title: String, size: Int, edges: [(Int, Int)]) {
    context.step(title) {
      let firsts = (0..<size).map { _ in makeFirst(distinct[0]) }
      let seconds = (0..<size).map { _ in makeSecond(distinct[0]) }
      let names =
        firsts.indices.map { "first\($0 + 1)" } + seconds.indices.map { "second\($0 + 1)" }
      let counter = NotificationCounter(names)
      let reads: [() -> Value] =
        firsts.map { cell in { cell.value } } + seconds.map { cell in { cell.value } }
      let writes: [(Value) -> Void] =
        firsts.map { cell in { cell.value = $0 } } + seconds.map { cell in { cell.value = $0 } }
      let subscriptions =
        firsts.indices.map { index in firsts[index].observeChanges { _ in counter.count(index) } }
        + seconds.indices.map { index in
          seconds[index].observeChanges { _ in counter.count(size + index) }
        }
      defer { cancel(subscriptions) }
      defer {
        for token in counter.tokens {
          token.cancel()
        }
      }
      for (first, second) in edges {
        counter.tokens.append(bind(firsts[first], seconds[second]))
        if stoppedALoop(counter, "binding the graph") { return }
      }
      for index in [0, 2 * size - 1, size] {
        counter.reset()
        let value = other(than: reads[index]())
        let reports = Diagnostics.capturing { writes[index](value) }
        if stoppedALoop(counter, "setting \(names[index]) in the graph") { return }
        let holdings =
          "[" + zip(names, reads).map { "\($0): \(describe($1()))" }.joined(separator: ", ") + "]"
        // One failure per graph says enough.
        guard
          laws.expect(
            "a dense graph of bindings brings every cell to the value",
            reads.allSatisfy { areEquivalent($0(), value) },
            "after setting \(names[index]) to \(describe(value)), the cells hold \(holdings)"),
          laws.expect(
            "a binding never loops", counter.counts.allSatisfy { $0 <= 2 } && reports.isEmpty,
            "setting \(names[index]) in the graph told the cells \(counter.description); "
              + "expected twice at most each"
              + (reports.isEmpty ? "" : "; reported: \(reports.joined(separator: "; "))"))
        else { return }
      }
    }
  }
  checkGraph(
    "a complete graph: each of 3 first cells bound to each of 3 second cells", size: 3,
    edges: (0..<3).flatMap { first in (0..<3).map { (first, $0) } })
  var random = SplitMix64(seed: 0x5EED)
  var denseEdges = (0..<4).flatMap { [($0, $0), (($0 + 1) % 4, $0)] }
  for first in 0..<4 {
    for second in 0..<4 where second != first && (first + 3) % 4 != second {
      if Int.random(in: 0..<3, using: &random) > 0 { denseEdges.append((first, second)) }
    }
  }
  denseEdges.shuffle(using: &random)
  checkGraph("a random dense graph of 4 first and 4 second cells", size: 4, edges: denseEdges)
}

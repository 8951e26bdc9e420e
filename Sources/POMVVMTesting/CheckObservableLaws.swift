/// Checks that a mutable cell type obeys the laws of an observable cell, for
/// every value in a sample.
///
/// Call it from a test, with a factory for your cell type and a few values;
/// at least two must differ:
///
/// ```swift
/// @Test @MainActor func temperatureCellIsLawful() {
///   checkObservableLaws({ TemperatureCell(celsius: $0) }, values: [-5, 0, 21.5])
/// }
/// ```
///
/// The laws, each checked on fresh cells from `make`:
///
/// - *a new cell holds its initial value*;
/// - *get after set*: reading after writing through `value` or `set(_:)`
///   gives the value written, and `set(_:)` accepts it;
/// - *observe starts with the current value*;
/// - *each change notifies once, with the new value*;
/// - *no notification on equal sets*;
/// - *observers are told in subscription order*;
/// - *cancel ends delivery*, also when an earlier observer cancels a later
///   one during a notification;
/// - *release ends delivery*: releasing a subscription ends it like
///   cancelling it;
/// - *a re-entrant set ends consistent*: when an observer sets the cell while
///   it is notifying, the cell ends with the newer value and so does every
///   observer's last value.
///
/// Every failure is reported at the caller's location, through Swift Testing
/// or XCTest, whichever runs the test, with the law's name and the values
/// seen.
///
/// - Parameters:
///   - make: Makes a new cell holding a value.
///   - values: Sample values; duplicates are ignored, and at least two must
///     differ.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkObservableLaws<Cell: MutableObservableCell>(
  _ make: (Cell.Value) -> Cell,
  values: [Cell.Value],
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) where Cell.Value: Equatable {
  let context = CheckContext(
    "checkObservableLaws(\(Cell.self))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  runObservableLaws(make, values: values, by: { $0 == $1 }, deduplicates: true, in: context)
}

/// The Observable laws, for layers that compare values with a closure.
///
/// `deduplicates` says whether sets of an equivalent value must notify no
/// one: true of `Equatable` values in the kit's cells; other values notify
/// on every set.
@MainActor
func runObservableLaws<Cell: MutableObservableCell>(
  _ make: (Cell.Value) -> Cell,
  values: [Cell.Value],
  by areEquivalent: (Cell.Value, Cell.Value) -> Bool,
  deduplicates: Bool,
  in context: CheckContext
) {
  let laws = context.laws("Observable", for: "\(Cell.self)")
  var distinct: [Cell.Value] = []
  for value in values where !distinct.contains(where: { areEquivalent($0, value) }) {
    distinct.append(value)
  }
  guard distinct.count >= 2 else {
    laws.misuse("it needs at least two different values; got \(describe(values))")
    return
  }
  let first = distinct[0]
  let second = distinct[1]
  // Every value once, then back to the first: each step changes the value.
  let walk = Array(distinct.dropFirst()) + [first]

  context.step("a new cell") {
    for value in distinct {
      let cell = make(value)
      laws.expect(
        "a new cell holds its initial value", areEquivalent(cell.value, value),
        "made with \(describe(value)), it holds \(describe(cell.value))")
    }
  }

  context.step("get after set") {
    let cell = make(first)
    for value in walk {
      cell.value = value
      laws.expect(
        "get after set", areEquivalent(cell.value, value),
        "after `value = \(describe(value))` it holds \(describe(cell.value))")
    }
    for value in walk {
      let accepted = cell.set(value)
      laws.expect(
        "get after set", accepted && areEquivalent(cell.value, value),
        "`set(\(describe(value)))` returned \(accepted) and it holds \(describe(cell.value))")
    }
  }

  context.step("observing") {
    let cell = make(first)
    let seen = History<Cell.Value>()
    let subscription = cell.observe(seen.record)
    laws.expect(
      "observe starts with the current value",
      equivalent(seen.entries, [first], by: areEquivalent),
      "holding \(describe(first)), the handler was called with \(describe(seen.entries))")
    subscription.cancel()
  }

  context.step("setting each value in turn: \(describe(walk))") {
    let cell = make(first)
    let seen = History<Cell.Value>()
    let subscription = cell.observeChanges(seen.record)
    for value in walk {
      cell.value = value
    }
    laws.expect(
      "each change notifies once, with the new value",
      equivalent(seen.entries, walk, by: areEquivalent),
      "expected \(describe(walk)), saw \(describe(seen.entries))")
    subscription.cancel()
  }

  if deduplicates {
    context.step("setting equal values") {
      let cell = make(first)
      let seen = History<Cell.Value>()
      let subscription = cell.observeChanges(seen.record)
      cell.value = first
      cell.set(first)
      cell.value = second
      cell.value = second
      cell.set(second)
      laws.expect(
        "no notification on equal sets", equivalent(seen.entries, [second], by: areEquivalent),
        "setting \(describe([first, first, second, second, second])) from \(describe(first)), "
          + "expected \(describe([second])), saw \(describe(seen.entries))")
      subscription.cancel()
    }
  }

  /// Three observers, A, B and C, subscribed in that order.
  func observers(of cell: Cell, into seen: History<Told<Cell.Value>>) -> [Subscription] {
    ["A", "B", "C"].map { name in
      cell.observeChanges { seen.record(Told(observer: name, value: $0)) }
    }
  }
  func told(_ names: [String], _ value: Cell.Value) -> [Told<Cell.Value>] {
    names.map { Told(observer: $0, value: value) }
  }
  func expectTold(_ law: String, _ seen: History<Told<Cell.Value>>, _ expected: [Told<Cell.Value>])
  {
    laws.expect(
      law, equivalent(seen.entries, expected, by: areEquivalent),
      "expected \(describe(expected)), saw \(describe(seen.entries))")
  }

  context.step("three observers") {
    let cell = make(first)
    let seen = History<Told<Cell.Value>>()
    let subscriptions = observers(of: cell, into: seen)
    cell.value = second
    cell.value = first
    expectTold(
      "observers are told in subscription order", seen,
      told(["A", "B", "C"], second) + told(["A", "B", "C"], first))
    cancel(subscriptions)
  }

  context.step("cancelling B before a set") {
    let cell = make(first)
    let seen = History<Told<Cell.Value>>()
    let subscriptions = observers(of: cell, into: seen)
    subscriptions[1].cancel()
    laws.expect(
      "cancel ends delivery", !subscriptions[1].isActive,
      "a cancelled subscription still says it is active")
    cell.value = second
    expectTold("cancel ends delivery", seen, told(["A", "C"], second))
    cancel(subscriptions)
  }

  context.step("A cancelling C while the cell notifies") {
    let cell = make(first)
    let seen = History<Told<Cell.Value>>()
    var victim: Subscription?
    let a = cell.observeChanges { value in
      seen.record(Told(observer: "A", value: value))
      victim?.cancel()
    }
    let b = cell.observeChanges { seen.record(Told(observer: "B", value: $0)) }
    victim = cell.observeChanges { seen.record(Told(observer: "C", value: $0)) }
    cell.value = second
    cell.value = first
    expectTold(
      "cancel ends delivery", seen, told(["A", "B"], second) + told(["A", "B"], first))
    cancel([a, b])
  }

  context.step("releasing B's subscription") {
    let cell = make(first)
    let seen = History<Told<Cell.Value>>()
    var subscriptions = observers(of: cell, into: seen)
    subscriptions.remove(at: 1)
    cell.value = second
    expectTold("release ends delivery", seen, told(["A", "C"], second))
    cancel(subscriptions)
  }

  // With two values, A sets the cell back to the first one.
  let reentrant = distinct.count > 2 ? distinct[2] : first
  context.step(
    "A setting \(describe(reentrant)) when it is told \(describe(second))"
  ) {
    let cell = make(first)
    var lastSeen: [String: Cell.Value] = [:]
    var hasSet = false
    let a = cell.observeChanges { [weak cell] value in
      lastSeen["A"] = value
      if !hasSet {
        hasSet = true
        cell?.value = reentrant
      }
    }
    let others = ["B", "C"].map { name in
      cell.observeChanges { lastSeen[name] = $0 }
    }
    cell.value = second
    let final = cell.value
    let consistent =
      areEquivalent(final, reentrant)
      && ["A", "B", "C"].allSatisfy { name in
        lastSeen[name].map { areEquivalent($0, final) } ?? false
      }
    let lastValues = ["A", "B", "C"].map { "\($0): \(lastSeen[$0].map(describe) ?? "nothing")" }
    laws.expect(
      "a re-entrant set ends consistent", consistent,
      "expected the cell and every observer's last value to be \(describe(reentrant)); "
        + "the cell holds \(describe(final)), the observers last saw "
        + "[\(lastValues.joined(separator: ", "))]")
    cancel([a] + others)
  }
}

/// Cancels every subscription a check made.
@MainActor
func cancel(_ subscriptions: [Subscription]) {
  for subscription in subscriptions {
    subscription.cancel()
  }
}

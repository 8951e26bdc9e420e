/// Checks that a type is a correct `Switchable`: its operations really move
/// its `on` cell, are idempotent, tell observers in order, and, once the
/// switch is detached from what it edits, refuse visibly instead of crashing.
///
/// ```swift
/// @Test @MainActor func rowsAreSwitchable() {
///   let master = MasterViewModel()
///   checkSwitchable(
///     { master.cellViewModel(for: master.insertNowDate().id)! },
///     detach: { master.delete(id: $0.id) })
/// }
/// ```
///
/// The check first runs ``checkObservableLaws(_:values:fileID:filePath:line:column:)``
/// on the `on` cell, then checks these laws, from a switch that is off and
/// from one that is on:
///
/// - *open turns the switch on*, *close turns the switch off*, *toggle
///   flips the switch*, each operation returning `true`;
/// - *open twice is open once* and *close twice is close once*: the second
///   call changes nothing and notifies no one;
/// - *observers are told in order*: three observers of `on` see every
///   change, in subscription order.
///
/// With `detach`, it also checks that *a detached switch refuses* (every
/// operation returns `false` and leaves `on` as it was, without a crash)
/// and that *each refusal is reported* to `Diagnostics`.
///
/// - Parameters:
///   - make: Makes a switch. Each call should give a switch that no other
///     call shares, or at least one that nothing else changes meanwhile.
///   - detach: Cuts a switch from what it edits, such as deleting the item
///     it shows; `nil` skips the detachment laws.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkSwitchable<Model: Switchable>(
  _ make: () -> Model,
  detach: ((Model) -> Void)? = nil,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let context = CheckContext(
    "checkSwitchable(\(Model.self))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  runSwitchableLaws(make, detach: detach, in: context)
}

/// What a switch did during a few operations.
struct SwitchHistory: Equatable, CustomStringConvertible {
  /// What each operation returned.
  var returned: [Bool]
  /// The values the `on` cell's observers were told.
  var told: [Bool]
  /// The value of `on` afterwards.
  var final: Bool

  var description: String {
    "returned \(returned), observers told \(told), ends \(final ? "on" : "off")"
  }
}

@MainActor
func runSwitchableLaws<Model: Switchable>(
  _ make: () -> Model, detach: ((Model) -> Void)?, in context: CheckContext
) {
  let laws = context.laws("Switchable", for: "\(Model.self)")

  context.step("checkObservableLaws(on)") {
    runObservableLaws(
      { value -> Model.SwitchCell in
        let model = make()
        model.on.value = value
        return model.on
      }, values: [false, true], by: { $0 == $1 }, deduplicates: true, in: context)
  }

  /// A new switch in state `start`, or `nil` if it will not take the state.
  func fresh(_ start: Bool) -> Model? {
    let model = make()
    guard model.on.set(start), model.on.value == start else {
      laws.misuse("a new switch does not take the value \(start) through its `on` cell")
      return nil
    }
    return model
  }

  /// Runs operations on a new switch in state `start`, recording what they do.
  func run(_ start: Bool, _ operations: [(Model) -> Bool]) -> SwitchHistory? {
    guard let model = fresh(start) else { return nil }
    let told = History<Bool>()
    let subscription = model.on.observeChanges(told.record)
    let returned = operations.map { $0(model) }
    subscription.cancel()
    return SwitchHistory(returned: returned, told: told.entries, final: model.on.value)
  }

  let open: (Model) -> Bool = { $0.openSwitch() }
  let close: (Model) -> Bool = { $0.closeSwitch() }
  let toggle: (Model) -> Bool = { $0.toggleSwitch() }

  for start in [false, true] {
    context.step("starting \(start ? "on" : "off")") {
      let cases: [(law: String, operations: [(Model) -> Bool], expected: SwitchHistory)] = [
        (
          "open turns the switch on", [open],
          SwitchHistory(returned: [true], told: start ? [] : [true], final: true)
        ),
        (
          "close turns the switch off", [close],
          SwitchHistory(returned: [true], told: start ? [false] : [], final: false)
        ),
        (
          "toggle flips the switch", [toggle, toggle],
          SwitchHistory(returned: [true, true], told: [!start, start], final: start)
        ),
        (
          "open twice is open once", [open, open],
          SwitchHistory(returned: [true, true], told: start ? [] : [true], final: true)
        ),
        (
          "close twice is close once", [close, close],
          SwitchHistory(returned: [true, true], told: start ? [false] : [], final: false)
        ),
      ]
      for (law, operations, expected) in cases {
        if let seen = run(start, operations) {
          laws.expectEqual(law, seen, expected)
        }
      }

      guard let model = fresh(start) else { return }
      let told = History<Told<Bool>>()
      let subscriptions = ["A", "B", "C"].map { name in
        model.on.observeChanges { told.record(Told(observer: name, value: $0)) }
      }
      model.toggleSwitch()
      model.toggleSwitch()
      cancel(subscriptions)
      let expected = [!start, start].flatMap { value in
        ["A", "B", "C"].map { Told(observer: $0, value: value) }
      }
      laws.expect(
        "observers are told in order", equivalent(told.entries, expected, by: { $0 == $1 }),
        "toggling twice, expected \(describe(expected)), saw \(describe(told.entries))")
    }
  }

  guard let detach else { return }
  context.step("detached") {
    let model = make()
    let start = model.on.value
    // Detaching may itself report, for instance when a view model deletes
    // its item; only the operations' reports count.
    _ = Diagnostics.capturing { detach(model) }
    let told = History<Bool>()
    let subscription = model.on.observeChanges(told.record)
    var returned: [Bool] = []
    var reports: [Int] = []
    for operation in [open, close, toggle] {
      reports.append(Diagnostics.capturing { returned.append(operation(model)) }.count)
    }
    subscription.cancel()
    laws.expectEqual(
      "a detached switch refuses",
      SwitchHistory(returned: returned, told: told.entries, final: model.on.value),
      SwitchHistory(returned: [false, false, false], told: [], final: start),
      "open, close, toggle")
    laws.expect(
      "each refusal is reported", reports.allSatisfy { $0 > 0 },
      "open, close and toggle sent \(reports) reports to Diagnostics; expected at least one each")
  }
}

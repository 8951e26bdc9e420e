import POMVVM
import Testing

@MainActor
@Suite("Cancelled writes")
struct CancelledWriteTests {
  /// Where the operation is when it is cancelled.
  enum Point: String, CaseIterable, CustomTestStringConvertible {
    case beforeTheSleep
    case duringTheSleep
    case afterTheSleepBeforeTheMainActor

    var testDescription: String { rawValue }
  }

  /// What an operation writes: a stored cell, an array, and an element's
  /// cell and projection.
  @MainActor
  final class Target: Sendable {
    let cell = Observable(0)
    let array = ObservableArray([TestItem(1)])
    /// The cell of element 1 (the array holds it, so there is one).
    let element: ElementCell<TestItem>?
    /// How many times the operation got past its writes (not a kit cell).
    var wrote = 0

    init() {
      element = array.cell(for: 1)
    }

    func write() {
      cell.value = 1
      array.append(TestItem(2 + wrote))  // a new id at every write
      element?.value.on = true
      wrote += 1
    }

    var isUnchanged: Bool {
      cell.value == 0 && array.elements == [TestItem(1)] && element?.value == TestItem(1)
    }
    var tookTheWrites: Bool {
      cell.value == 1 && element?.value == TestItem(1, on: true)
        && array.elements == [TestItem(1, on: true), TestItem(2)]
    }
  }

  /// Cancels the operation at `point`, once its sleep on `clock` is at
  /// that point; the test holds the main actor meanwhile, so "after the
  /// sleep" is before the operation is back on it.
  private static func cancel(at point: Point, clock: HandClock, _ cancel: () -> Void) async {
    switch point {
    case .beforeTheSleep:
      cancel()
    case .duringTheSleep:
      await clock.waitForSleepers(1)
      cancel()
    case .afterTheSleepBeforeTheMainActor:
      await clock.waitForSleepers(1)
      clock.releaseAll()
      cancel()
    }
  }

  private static func refusals(in reports: [String]) -> [String] {
    reports.filter { $0.contains("was cancelled, and a cancelled operation changes nothing more") }
  }

  @Test(arguments: Point.allCases)
  func anEffectCancelledAtAnyPointChangesNothingAndIsReportedOnce(at point: Point) async {
    let clock = HandClock()
    let effects = Effects()
    let target = Target()
    let reports = await Diagnostics.capturing {
      effects.run(id: "save") { [clock] in
        try? await clock.sleep(for: .seconds(1))
        target.write()
        target.write()
      }
      await Self.cancel(at: point, clock: clock) { effects.cancel(id: "save") }
      await effects.waitUntilIdle()
    }
    #expect(target.wrote == 2)
    #expect(target.isUnchanged)
    let refusals = Self.refusals(in: reports)
    #expect(refusals.count == 1)
    #expect(refusals.first?.contains(#"effect "save""#) == true)
  }

  @Test(arguments: Point.allCases)
  func aLoadRequestCancelledAtAnyPointChangesNothingAndIsReportedOnce(at point: Point) async {
    let clock = HandClock()
    let load = Load<Int>()
    let target = Target()
    let reports = await Diagnostics.capturing {
      load.start { [clock] in
        try? await clock.sleep(for: .seconds(1))
        await MainActor.run { target.write() }
        return 1
      }
      await Self.cancel(at: point, clock: clock) { load.cancel() }
      await load.waitUntilFinished()
    }
    #expect(target.wrote == 1)
    #expect(target.isUnchanged)
    #expect(load.value == .idle)
    let refusals = Self.refusals(in: reports)
    #expect(refusals.count == 1)
    #expect(refusals.first?.contains("load request") == true)
  }

  @Test(arguments: Point.allCases)
  func aReplacedLoadRequestChangesNothing(at point: Point) async {
    let clock = HandClock()
    let load = Load<Int>()
    let target = Target()
    let reports = await Diagnostics.capturing {
      load.start { [clock] in
        try? await clock.sleep(for: .seconds(1))
        await MainActor.run { target.write() }
        return 1
      }
      await Self.cancel(at: point, clock: clock) { load.start { 2 } }
      await load.waitUntilFinished()
    }
    #expect(target.wrote == 1)
    #expect(target.isUnchanged)
    #expect(load.value == .loaded(2))
    #expect(Self.refusals(in: reports).count == 1)
  }

  enum Event: Equatable {
    case start
    case stop
  }

  @Test(arguments: Point.allCases)
  func aFeedbackCancelledAtAnyPointChangesNothingAndIsReportedOnce(at point: Point) async {
    let clock = HandClock()
    let target = Target()
    let machine = StateMachine<Bool, Event>(
      initial: false,
      reduce: { state, event in state = event == .start },
      feedbacks: [
        .effect(whenever: { $0 ? "saving" : nil }) { [clock] _ in
          try? await clock.sleep(for: .seconds(1))
          await MainActor.run { target.write() }
          return nil
        }
      ])
    let reports = await Diagnostics.capturing {
      machine.send(.start)
      await Self.cancel(at: point, clock: clock) { machine.send(.stop) }
      await machine.waitUntilIdle()
    }
    #expect(target.wrote == 1)
    #expect(target.isUnchanged)
    let refusals = Self.refusals(in: reports)
    #expect(refusals.count == 1)
    #expect(refusals.first?.contains(#"feedback for "saving""#) == true)
  }

  @Test func operationsThatAreNotCancelledStillWrite() async {
    let clock = HandClock()
    let effects = Effects()
    let load = Load<Int>()
    let effectTarget = Target()
    let loadTarget = Target()
    let reports = await Diagnostics.capturing {
      effects.run(id: "save") { [clock] in
        try? await clock.sleep(for: .seconds(1))
        effectTarget.write()
      }
      load.start { [clock] in
        try? await clock.sleep(for: .seconds(1))
        await MainActor.run { loadTarget.write() }
        return 1
      }
      await clock.waitForSleepers(2)
      clock.releaseAll()
      await effects.waitUntilIdle()
      await load.waitUntilFinished()
    }
    #expect(effectTarget.tookTheWrites)
    #expect(loadTarget.tookTheWrites)
    #expect(load.value == .loaded(1))
    #expect(reports.isEmpty)
  }

  @Test func aCancelledTaskThatTheKitDidNotStartStillWrites() async {
    let clock = HandClock()
    let effects = Effects()
    let gate = Gate()
    let kitTarget = Target()
    let target = Target()
    let reports = await Diagnostics.capturing {
      // A cancelled kit task that has not returned: the check is armed.
      effects.run(id: "held") { [clock] in
        try? await clock.sleep(for: .seconds(1))
        await gate.wait()
        kitTarget.write()
      }
      effects.cancel(id: "held")
      await gate.waitForWaiter()
      let other = Task { @MainActor in
        withUnsafeCurrentTask { $0?.cancel() }
        #expect(Task.isCancelled)
        target.write()
      }
      await other.value
      target.cell.value = 7  // the test's own task
      gate.open()
      await effects.waitUntilIdle()
    }
    #expect(target.array.elements == [TestItem(1, on: true), TestItem(2)])
    #expect(target.cell.value == 7)
    #expect(kitTarget.wrote == 1)
    #expect(kitTarget.isUnchanged)
    #expect(Self.refusals(in: reports).count == 1)
  }

  @Test func aWriteThatAnswersWhetherItWasTakenSaysNo() async {
    let effects = Effects()
    let target = Target()
    let answers = Answers()
    let reports = await Diagnostics.capturing {
      effects.run(id: "save") {
        let taken = [
          target.cell.set(5),
          target.element?.set(TestItem(1, "y")) ?? true,
          target.array.update(TestItem(1, "z")),
          target.array.replaceAll(with: []),
          target.array.append(contentsOf: [TestItem(3)]),
        ]
        answers.taken = taken
        target.array.insert(TestItem(4), at: 0)
        target.array.move(from: 0, to: 0)
        target.array.replace(at: 0, with: TestItem(5))
        _ = target.array.remove(at: 0)
        _ = target.array.remove(id: 1)
        target.array.removeAll()
      }
      effects.cancel(id: "save")
      await effects.waitUntilIdle()
    }
    #expect(answers.taken == [false, false, false, false, false])
    #expect(target.isUnchanged)
    #expect(Self.refusals(in: reports).count == 1)
  }
  @Test func aCancelledEffectNeitherStartsNorCancelsALoadNorSendsAnEvent() async {
    let effects = Effects()
    let loaded = Load<Int>()
    let started = Load<Int>()
    let machine = StateMachine<Bool, Event>(
      initial: false, reduce: { state, event in state = event == .start }, feedbacks: [])
    loaded.start { 1 }
    await loaded.waitUntilFinished()
    let reports = await Diagnostics.capturing {
      effects.run(id: "chain") {
        started.start { 2 }
        loaded.cancel()
        loaded.reset()
        machine.send(.start)
      }
      effects.cancel(id: "chain")
      await effects.waitUntilIdle()
      await started.waitUntilFinished()
    }
    #expect(started.value == .idle)
    #expect(loaded.value == .loaded(1))
    #expect(machine.state.value == false)
    #expect(Self.refusals(in: reports).count == 1)
  }
}

/// What the writes of an operation answered.
@MainActor
final class Answers {
  var taken: [Bool] = []
}

/// Holds a task until the test opens it; unlike a clock's sleep, it does
/// not end when the task is cancelled.
final class Gate: Sendable {
  private let state = _Locked<(open: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

  func wait() async {
    await withCheckedContinuation { continuation in
      let open = state.withLock { state -> Bool in
        if !state.open { state.waiter = continuation }
        return state.open
      }
      if open { continuation.resume() }
    }
  }

  /// Yields until a task waits.
  func waitForWaiter() async {
    while state.withLock({ $0.waiter == nil }) { await Task.yield() }
  }

  func open() {
    let waiter = state.withLock { state in
      state.open = true
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
  }
}

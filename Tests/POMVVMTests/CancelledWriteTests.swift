import POMVVM
import POMVVMTesting
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

// MARK: - An operation that cancels itself (issue 49, item 1)

@MainActor
@Suite("Operations that cancel themselves")
struct SelfCancellationTests {
  private static func refusals(in reports: [String]) -> [String] {
    reports.filter { $0.contains("was cancelled, and a cancelled operation changes nothing more") }
  }

  /// The issue's example: a timer's last act cancels the effects and pops.
  @Test func anOperationThatCancelsItselfAndPopsPopsAndTellsTheObservers() async {
    let path = StackPath<Int>([1, 2])
    var told: [[Int]] = []
    let token = path.observeChanges { told.append($0.map(\.screen)) }
    let effects = Effects()
    var popped: Bool?
    let reports = await Diagnostics.capturing {
      effects.run(id: "tick") {
        effects.cancelAll()
        popped = path.pop()
      }
      await effects.waitUntilIdle()
    }
    #expect(path.screens == [1])
    #expect(told == [[1]])
    #expect(popped == true)
    #expect(reports.isEmpty)
    withExtendedLifetime(token) {}
  }

  /// TCA's search: the debounce's last act cancels the debounce by id and
  /// starts the search.
  @Test func aDebounceThatCancelsItselfByIdStartsItsSearch() async {
    let clock = ManualClock()
    let effects = Effects()
    let search = Load<String>()
    var statuses: [LoadStatus<String>] = []
    let token = search.observeChanges { statuses.append($0) }
    func searchQueryChangeDebounced() {
      effects.cancel(id: "searchDebounce")
      search.start { "found" }
    }
    let reports = await Diagnostics.capturing {
      effects.run(id: "searchDebounce") {
        try await clock.sleep(for: .milliseconds(300))
        searchQueryChangeDebounced()
      }
      await clock.advance(by: .milliseconds(300))
      await effects.waitUntilIdle()
      await search.waitUntilFinished()
    }
    #expect(statuses == [.loading, .loaded("found")])
    #expect(reports.isEmpty)
    withExtendedLifetime(token) {}
  }

  @MainActor
  final class Meeting: ViewModel, Dismissible {
    let effects = Effects()
    var seconds = 0
    var dismissed: Bool?

    /// SyncUps' meeting timer: the last tick ends the meeting.
    func start(clock: ManualClock, ticks: Int) {
      effects.timer(id: "meeting", every: .seconds(1), clock: clock) { [weak self] in
        guard let self else { return }
        seconds += 1
        if seconds == ticks {
          effects.cancelAll()
          dismissed = dismiss()
        }
      }
    }
  }

  @Test func aTimersLastTickThatCancelsItAndPopsItsScreenEndsTheMeeting() async {
    let clock = ManualClock()
    let path = StackPath<Meeting>()
    let navigation = HeadlessNavigationStack(path)
    let meeting = Meeting()
    path.push(meeting)
    var told: [Int] = []
    let token = path.observeChanges { told.append($0.count) }
    meeting.start(clock: clock, ticks: 3)
    let reports = await Diagnostics.capturing {
      await clock.advance(by: .seconds(5))
      await meeting.effects.waitUntilIdle()
    }
    #expect(meeting.seconds == 3)
    #expect(meeting.dismissed == true)
    #expect(path.isEmpty && told == [0])
    #expect(navigation.shown == path.ids && navigation.violations.isEmpty)
    #expect(reports.isEmpty)
    withExtendedLifetime(token) {}
  }

  @Test func aTimersLastTickThatCancelsItAndDismissesItsSheetEndsTheMeeting() async {
    let clock = ManualClock()
    let sheet = Presentation<Meeting>()
    let presenter = HeadlessPresenter(sheet)
    let meeting = Meeting()
    sheet.present(meeting)
    var told: [Bool] = []
    let token = sheet.observeChanges { told.append($0 != nil) }
    meeting.start(clock: clock, ticks: 2)
    let reports = await Diagnostics.capturing {
      await clock.advance(by: .seconds(5))
      await meeting.effects.waitUntilIdle()
    }
    #expect(meeting.dismissed == true)
    #expect(sheet.destination == nil && told == [false])
    #expect(!presenter.isShowing && presenter.violations.isEmpty)
    #expect(reports.isEmpty)
    withExtendedLifetime(token) {}
  }

  @Test func anOperationThatCancelsItselfIsRefusedOnceItHasSuspended() async {
    let effects = Effects()
    let cell = Observable(0)
    let path = StackPath<Int>()
    let reports = await Diagnostics.capturing {
      effects.run(id: "once") {
        effects.cancel(id: "once")
        cell.value = 1
        path.push(1)
        await Task.yield()
        cell.value = 2
        path.push(2)
      }
      await effects.waitUntilIdle()
    }
    #expect(cell.value == 1)
    #expect(path.screens == [1])
    #expect(Self.refusals(in: reports).count == 1)
  }

  @Test func anOperationCancelledBySomeoneElseStillChangesNothing() async {
    let clock = ManualClock()
    let effects = Effects()
    let other = Effects()
    let cell = Observable(0)
    let reports = await Diagnostics.capturing {
      effects.run(id: "victim") {
        try? await clock.sleep(for: .seconds(1))
        cell.value = 1
      }
      // Another operation cancels it: that one cancelled itself no more
      // than the test did.
      other.run(id: "canceller") { effects.cancelAll() }
      await other.waitUntilIdle()
      await effects.waitUntilIdle()
    }
    #expect(cell.value == 0)
    #expect(Self.refusals(in: reports).count == 1)
  }

  enum Action: Equatable {
    case delete
  }

  /// A navigation change of an operation that someone else cancelled is
  /// refused whole: nothing changes, no one is told, the call says so.
  @Test func aNavigationChangeOfACancelledOperationIsRefusedWholeAndSaysSo() async {
    struct Item: Identifiable, Equatable {
      var id: Int
    }
    let items = ObservableArray([Item(id: 1)])
    let path = StackPath<Int>([1, 2])
    let sheet = Presentation<AlertState<Action>>()
    let alert = AlertState<Action>(
      title: "Delete?", buttons: [.destructive("Delete", action: .delete), .cancel()])
    sheet.present(alert)
    let ids = path.ids
    var toldPath = 0
    var toldSheet = 0
    let tokens = [
      path.observeChanges { _ in toldPath += 1 },
      sheet.observeChanges { _ in toldSheet += 1 },
    ]
    let effects = Effects()
    var answers: [String] = []
    let reports = await Diagnostics.capturingReports {
      effects.run(id: "late") {
        let pushed = path.push(3)
        answers.append("push \(path[id: pushed] == nil ? "refused" : "taken")")
        answers.append("tied push \(path.push(4, tiedTo: items.cell(for: 1)!) == nil)")
        answers.append("pop \(path.pop())")
        answers.append("pop from \(path.pop(from: ids[0]))")
        answers.append("pop to \(path.pop(to: ids[0]))")
        answers.append("pop to root \(path.popToRoot())")
        answers.append("replace \(path.replace(with: [7]))")
        answers.append("set ids \(path.setIDs([]))")
        path.ids = []
        answers.append("dismiss \(sheet.dismiss())")
        answers.append("answer \(String(describing: sheet.answer(alert.buttons[0])))")
        answers.append("present \(sheet.present(alert))")
        answers.append("tied present \(sheet.present(alert, tiedTo: items.cell(for: 1)!))")
        sheet.destination = nil
      }
      effects.cancel(id: "late")
      await effects.waitUntilIdle()
    }
    #expect(
      answers == [
        "push refused", "tied push true", "pop false", "pop from false", "pop to false",
        "pop to root false", "replace false", "set ids false", "dismiss false", "answer nil",
        "present false", "tied present false",
      ])
    #expect(path.ids == ids && path.screens == [1, 2])
    #expect(sheet.destination == alert)
    #expect(toldPath == 0 && toldSheet == 0)
    #expect(reports.count == 1)
    #expect(
      reports.first?.message.hasPrefix(
        "StackPath<Int> (made at POMVVMTests/CancelledWriteTests.swift:") == true,
      "\(reports)")
    #expect(reports.first?.message.contains(#"refused a push: effect "late""#) == true)
    withExtendedLifetime(tokens) {}
  }

  @MainActor
  final class Child: ViewModel, Dismissible {}

  @Test func aViewModelThatDismissesItselfFromACancelledOperationIsRefusedAndSaysSo() async {
    let path = StackPath<Child>()
    let child = Child()
    path.push(child)
    let effects = Effects()
    var dismissed: Bool?
    let reports = await Diagnostics.capturing {
      effects.run(id: "close") { dismissed = child.dismiss() }
      effects.cancelAll()
      await effects.waitUntilIdle()
    }
    #expect(dismissed == false)
    #expect(path.count == 1)
    #expect(reports.count == 1, "the refusal only, not \"no stack shows it\": \(reports)")
    #expect(reports.first?.contains("refused a pop") == true)
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

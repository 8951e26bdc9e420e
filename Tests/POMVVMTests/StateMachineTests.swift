import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("StateMachine")
struct StateMachineTests {
  enum State: Equatable {
    case idle
    case loading(Int)
    case loaded(Int, String)
  }

  enum Event: Equatable {
    case load(Int)
    case loaded(Int, String)
    case reset
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch (state, event) {
    case (_, .load(let id)): state = .loading(id)
    case (.loading(let id), .loaded(let loadedID, let text)) where id == loadedID:
      state = .loaded(id, text)
    case (_, .reset): state = .idle
    default: break
    }
  }

  /// A machine whose loading effect waits for a latch per id, and logs when
  /// it starts, finishes and is cancelled.
  @MainActor
  struct Fixture {
    let log = EffectLog()
    let latches: [Int: Latch] = Dictionary(uniqueKeysWithValues: (1...3).map { ($0, Latch()) })
    let machine: StateMachine<State, Event>

    init() {
      let log = log
      let latches = latches
      machine = StateMachine(
        initial: .idle, reduce: StateMachineTests.reduce,
        feedbacks: [
          .effect(whenever: { state -> Int? in
            if case .loading(let id) = state { id } else { nil }
          }) { id in
            await log.append("start \(id)")
            let opened = await latches[id]?.wait() ?? false
            await log.append(opened ? "finish \(id)" : "cancelled \(id)")
            return .loaded(id, "movie \(id)")
          }
        ])
    }
  }

  /// A machine whose effect loads the task-local service's name, and
  /// records an issue when asked to.
  private static func serviceMachine(recordingIssue: Bool) -> StateMachine<State, Event> {
    StateMachine(
      initial: .idle, reduce: reduce,
      feedbacks: [
        .effect(whenever: { state -> Int? in
          if case .loading(let id) = state { id } else { nil }
        }) { id in
          if recordingIssue { Issue.record("recorded inside the feedback") }
          return .loaded(id, TaskLocalService.name)
        }
      ])
  }

  @Test func aTaskLocalValueReachesAFeedbackEffect() async {
    let machine = Self.serviceMachine(recordingIssue: false)
    TaskLocalService.$name.withValue("stub") {
      machine.send(.load(1))
    }
    await machine.waitUntilIdle()
    #expect(machine.state.value == .loaded(1, "stub"))
  }

  @Test func anIssueRecordedInsideAFeedbackBelongsToTheTestThatSentTheEvent() async {
    let machine = Self.serviceMachine(recordingIssue: true)
    await withKnownIssue {
      machine.send(.load(1))
      await machine.waitUntilIdle()
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["recorded inside the feedback"]
    }
    #expect(machine.state.value == .loaded(1, "live"))
  }

  @Test func reducesEventsInOrderAndPublishesTheState() {
    let machine = StateMachine<State, Event>(initial: .idle, reduce: Self.reduce)
    let states = Recorder<State>()
    let subscription = machine.state.observe(states.handler)
    machine.send(.load(1))
    machine.send(.loaded(2, "wrong id: ignored"))
    machine.send(.loaded(1, "one"))
    machine.send(.reset)
    #expect(states.events == [.idle, .loading(1), .loaded(1, "one"), .idle])
    withExtendedLifetime(subscription) {}
  }

  @Test func eventsSentWhileReducingAreQueuedInOrder() {
    let machine = StateMachine<State, Event>(initial: .idle, reduce: Self.reduce)
    let states = Recorder<State>()
    // An observer reacts to loading(1) by sending two more events.
    let reactor = machine.state.observeChanges { state in
      if state == .loading(1) {
        machine.send(.loaded(1, "one"))
        machine.send(.load(2))
      }
    }
    let recorder = machine.state.observeChanges(states.handler)
    machine.send(.load(1))
    #expect(states.events == [.loading(1), .loaded(1, "one"), .loading(2)])
    withExtendedLifetime((reactor, recorder)) {}
  }

  @Test func anEffectStartsWhenTheStateEntersItsKeyAndItsResultIsReduced() async {
    let fixture = Fixture()
    fixture.machine.send(.load(1))
    await fixture.log.waitFor("start 1")
    #expect(!fixture.machine.isIdle)
    fixture.latches[1]?.open()
    await fixture.machine.waitUntilIdle()
    #expect(fixture.machine.state.value == .loaded(1, "movie 1"))
    #expect(await fixture.log.entries == ["start 1", "finish 1"])
    #expect(fixture.machine.isIdle)
  }

  @Test func leavingTheStateCancelsTheEffectAndDropsItsLateResult() async {
    let fixture = Fixture()
    fixture.machine.send(.load(1))
    await fixture.log.waitFor("start 1")
    fixture.machine.send(.load(2))  // leaves loading(1)
    await fixture.log.waitFor("cancelled 1")
    await fixture.log.waitFor("start 2")
    fixture.latches[2]?.open()
    await fixture.machine.waitUntilIdle()
    #expect(fixture.machine.state.value == .loaded(2, "movie 2"))
    #expect(
      Set(await fixture.log.entries) == ["start 1", "cancelled 1", "start 2", "finish 2"],
      "effect 1 returned .loaded(1, ...) after it was cancelled; that event was dropped")
  }

  @Test func anEffectThatIgnoresCancellationStillCannotLandInTheWrongState() async {
    let log = EffectLog()
    let latch = Latch()
    let machine = StateMachine<State, Event>(
      initial: .idle, reduce: Self.reduce,
      feedbacks: [
        .effect(whenever: { $0 == .loading(1) ? 1 : nil }) { id in
          // Ignores cancellation: waits for the latch whatever happens.
          await log.append("start")
          _ = await Task.detached { await latch.wait() }.value
          return .loaded(id, "stale")
        }
      ])
    machine.send(.load(1))
    await log.waitFor("start")
    machine.send(.reset)
    latch.open()
    await machine.waitUntilIdle()
    #expect(machine.state.value == .idle)
  }

  @Test func releasingTheMachineCancelsItsEffects() async {
    let log = EffectLog()
    weak var weakMachine: StateMachine<State, Event>?
    do {
      let machine = StateMachine<State, Event>(
        initial: .loading(1), reduce: Self.reduce,
        feedbacks: [
          .effect(whenever: { _ in 1 }) { _ in
            await log.append("start")
            let opened = await Latch().wait()
            await log.append(opened ? "finished" : "cancelled")
            return nil
          }
        ])
      weakMachine = machine
      await log.waitFor("start")
    }
    #expect(weakMachine == nil)
    await log.waitFor("cancelled")
  }

  @Test func anEffectCanSendSeveralEventsWhileItRuns() async {
    enum Count: Equatable {
      case counting(Int)
    }
    let machine = StateMachine<Count, Int>(
      initial: .counting(0),
      reduce: { state, step in
        if case .counting(let total) = state { state = .counting(total + step) }
      },
      feedbacks: [
        .effects(whenever: { _ in "always" }) { _, send in
          for step in [1, 2, 3] {
            await send(step)
          }
        }
      ])
    await machine.waitUntilIdle()
    #expect(machine.state.value == .counting(6))
  }
}

import POMVVM
import POMVVMTesting
import Testing

/// A screen whose view model runs each kind of kit work: a timer, a load,
/// a state machine's feedback and a debounced cell.
@MainActor
private final class Meeting: ViewModel {
  let effects = Effects()
  let ticks = Observable(0)
  let transcript = Load<String>()
  let machine: StateMachine<Int, Int>
  let query = Observable("")
  let settled: Derived<String>
  let sheet = Presentation<Sheet>()
  weak var parent: Host?

  init(clock: ManualClock) {
    machine = StateMachine(
      initial: 0,
      reduce: { state, event in state = event },
      feedbacks: [
        .effect(whenever: { $0 == 1 ? true : nil }) { _ in
          try? await clock.sleep(for: .seconds(5))
          return 2
        }
      ])
    settled = query.debounced(for: .seconds(5), clock: clock)
  }

  func start(clock: ManualClock) {
    effects.timer(id: "tick", every: .seconds(1), clock: clock) { [weak self] in
      self?.ticks.value += 1
    }
    transcript.start {
      try await clock.sleep(for: .seconds(5))
      return "done"
    }
    machine.send(1)
    query.value = "dune"
  }
}

/// A sheet that the meeting presents, with a timer of its own.
@MainActor
private final class Notes: ViewModel {
  let effects = Effects()
  let saves = Observable(0)

  func start(clock: ManualClock) {
    effects.timer(id: "autosave", every: .seconds(1), clock: clock) { [weak self] in
      self?.saves.value += 1
    }
  }
}

private enum Sheet {
  case notes(Notes)
}

private enum Screen {
  case meeting(Meeting)
  case sibling(Sibling)
  case other(Int)
}

/// The parent: owns the stack, and runs a timer of its own.
@MainActor
private final class Host: ViewModel {
  let path = StackPath<Screen>()
  let destination = Presentation<Screen>()
  let effects = Effects()
  let beats = Observable(0)

  func start(clock: ManualClock) {
    effects.timer(id: "beat", every: .seconds(1), clock: clock) { [weak self] in
      self?.beats.value += 1
    }
  }
}

/// A screen that keeps its parent and its parent's stack, to push
/// siblings.
@MainActor
private final class Sibling: ViewModel {
  let path: StackPath<Screen>
  let host: Host
  let effects = Effects()
  let ticks = Observable(0)

  init(host: Host) {
    path = host.path
    self.host = host
  }
}

/// Cancels what is left (before the fix, a popped screen's timers) and
/// waits for it, so that a failing test ends.
@MainActor
private func stop(_ runners: Effects...) async {
  for effects in runners {
    effects.cancelAll()
    await effects.waitUntilIdle()
  }
}

@MainActor
@Suite("A screen's work ends when it leaves")
struct ScreenWorkTests {
  @Test func poppingAScreenEndsItsWorkWhileATestStillHoldsIt() async {
    let clock = ManualClock()
    let host = Host()
    let meeting = Meeting(clock: clock)
    host.path.push(.meeting(meeting))
    meeting.start(clock: clock)
    await clock.advance(by: .seconds(2))
    #expect(meeting.ticks.value == 2)

    host.path.pop()
    #expect(!meeting.effects.isRunning(id: "tick"))
    await clock.advance(by: .seconds(10))
    await meeting.transcript.waitUntilFinished()
    await meeting.machine.waitUntilIdle()
    // Held by the test, but its timer stopped with the pop; the load's and
    // the feedback's late results were dropped; the debounce let nothing
    // through.
    #expect(meeting.ticks.value == 2)
    #expect(meeting.transcript.value == .loading)
    #expect(meeting.machine.state.value == 1)
    #expect(meeting.settled.value == "")
    await stop(meeting.effects)
  }

  @Test func dismissingADestinationEndsItsWorkAndThatOfTheSheetItPresents() async {
    let clock = ManualClock()
    let host = Host()
    let meeting = Meeting(clock: clock)
    let notes = Notes()
    host.destination.present(.meeting(meeting))
    meeting.sheet.present(.notes(notes))
    meeting.start(clock: clock)
    notes.start(clock: clock)
    await clock.advance(by: .seconds(1))
    #expect([meeting.ticks.value, notes.saves.value] == [1, 1])

    host.destination.dismiss()
    await clock.advance(by: .seconds(3))
    #expect([meeting.ticks.value, notes.saves.value] == [1, 1])
    await stop(meeting.effects, notes.effects)
    await clock.advance(by: .seconds(10))
    await meeting.transcript.waitUntilFinished()
    await meeting.machine.waitUntilIdle()
  }

  @Test func presentingAnotherDestinationEndsTheWorkOfTheOneItReplaces() async {
    let clock = ManualClock()
    let host = Host()
    let first = Meeting(clock: clock)
    host.destination.present(.meeting(first))
    first.start(clock: clock)
    host.destination.present(.other(1))
    await clock.advance(by: .seconds(10))
    #expect(first.ticks.value == 0)
    await stop(first.effects)
    await first.transcript.waitUntilFinished()
    await first.machine.waitUntilIdle()
  }

  @Test func thePlatformsPopEndsTheWorkToo() async {
    let clock = ManualClock()
    let host = Host()
    let meeting = Meeting(clock: clock)
    host.path.push(.other(1))
    host.path.push(.meeting(meeting))
    meeting.start(clock: clock)
    host.path.ids = Array(host.path.ids.prefix(1))  // the back button
    await clock.advance(by: .seconds(10))
    #expect(meeting.ticks.value == 0)
    await stop(meeting.effects)
    await meeting.transcript.waitUntilFinished()
    await meeting.machine.waitUntilIdle()
  }

  @Test func thePopLeavesTheParentsWorkAloneThoughTheScreenReachesIt() async {
    let clock = ManualClock()
    let host = Host()
    host.start(clock: clock)
    let meeting = Meeting(clock: clock)
    meeting.parent = host
    let sibling = Sibling(host: host)
    host.path.push(.meeting(meeting))
    host.path.push(.sibling(sibling))
    sibling.effects.timer(id: "tick", every: .seconds(1), clock: clock) { [weak sibling] in
      sibling?.ticks.value += 1
    }
    meeting.start(clock: clock)
    await clock.advance(by: .seconds(1))

    host.path.popToRoot()
    await clock.advance(by: .seconds(3))
    #expect(host.beats.value == 4)
    #expect(sibling.ticks.value == 1)
    #expect(meeting.ticks.value == 1)
    #expect(host.path.isEmpty)
    await stop(host.effects, sibling.effects, meeting.effects)
    await clock.advance(by: .seconds(10))
    await meeting.transcript.waitUntilFinished()
    await meeting.machine.waitUntilIdle()
  }

  @Test func aScreenThatStaysOnTheStackKeepsItsWork() async {
    let clock = ManualClock()
    let host = Host()
    let kept = Meeting(clock: clock)
    let gone = Meeting(clock: clock)
    host.path.push(.meeting(kept))
    host.path.push(.meeting(gone))
    host.path.push(.meeting(kept))  // shown twice
    kept.effects.timer(id: "tick", every: .seconds(1), clock: clock) { [weak kept] in
      kept?.ticks.value += 1
    }
    host.path.pop()  // one of its two screens
    host.path.replace(with: [.meeting(kept)])  // a deep link that keeps it
    await clock.advance(by: .seconds(2))
    #expect(kept.ticks.value == 2)
    await stop(kept.effects)
  }

  @Test func aPoppedScreenCanStartWorkAgainOnceItIsShownAgain() async {
    let clock = ManualClock()
    let host = Host()
    let meeting = Meeting(clock: clock)
    host.path.push(.meeting(meeting))
    host.path.pop()
    host.path.push(.meeting(meeting))
    meeting.effects.timer(id: "tick", every: .seconds(1), clock: clock) { [weak meeting] in
      meeting?.ticks.value += 1
    }
    await clock.advance(by: .seconds(1))
    #expect(meeting.ticks.value == 1)
    host.path.pop()
    await clock.advance(by: .seconds(1))
    #expect(meeting.ticks.value == 1)
    await stop(meeting.effects)
  }

  @Test func aTickThatPopsItsOwnScreenFinishesTheTick() async {
    let clock = ManualClock()
    let host = Host()
    let meeting = Meeting(clock: clock)
    host.path.push(.meeting(meeting))
    var told: [Int] = []
    let token = host.path.observeChanges { told.append($0.count) }
    meeting.effects.timer(id: "tick", every: .seconds(1), clock: clock) { [weak host] in
      host?.path.pop()
    }
    await clock.advance(by: .seconds(3))
    // The pop ended the timer that made it; the tick that popped finished.
    #expect(!meeting.effects.isRunning(id: "tick"))
    #expect(told == [0])
    #expect(host.path.isEmpty)
    token.cancel()
    await stop(meeting.effects)
  }

  @Test func anObserverThatPushesThePoppedScreenBackKeepsItsWork() async {
    let clock = ManualClock()
    let host = Host()
    let meeting = Meeting(clock: clock)
    host.path.push(.meeting(meeting))
    meeting.effects.timer(id: "tick", every: .seconds(1), clock: clock) { [weak meeting] in
      meeting?.ticks.value += 1
    }
    // Re-entrant: the platform (or an undo) puts the screen back while the
    // pop is delivered; the screen is shown again, so its work goes on.
    var pushedBack = false
    let token = host.path.observeChanges { [weak host] entries in
      guard entries.isEmpty, !pushedBack else { return }
      pushedBack = true
      host?.path.push(.meeting(meeting))
    }
    host.path.pop()
    await clock.advance(by: .seconds(2))
    #expect(host.path.count == 1)
    #expect(meeting.ticks.value == 2)
    token.cancel()
    await stop(meeting.effects)
  }

  @Test func aPoppedScreenIsStillReleasedWhenNothingHoldsIt() async {
    let clock = ManualClock()
    let host = Host()
    weak var released: Meeting?
    do {
      let meeting = Meeting(clock: clock)
      released = meeting
      host.path.push(.meeting(meeting))
      meeting.start(clock: clock)
    }
    host.path.pop()
    await clock.advance(by: .seconds(10))
    #expect(released == nil)
  }

  @Test func stacksOfPlainScreensAreUntouched() {
    let path = StackPath<Int>([1, 2, 3])
    path.pop()
    path.replace(with: [4])
    #expect(path.screens == [4])
  }
}

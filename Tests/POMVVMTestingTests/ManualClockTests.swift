import POMVVM
import Testing

@testable import POMVVMTesting

/// What sleepers did, in order, on the main actor.
@MainActor
private final class WakeLog {
  var entries: [String] = []

  /// Starts a sleeper as `sleeper(_:until:on:then:)` does, and returns once
  /// it is asleep on the clock: the sleep runs off the main actor, so
  /// sleepers started one after the other may otherwise reach the clock in
  /// either order.
  @discardableResult
  func asleep(
    _ name: String, until offset: Duration, on clock: ManualClock,
    then next: (@MainActor () -> Void)? = nil
  ) async -> Task<Void, Never> {
    let before = clock.sleeperCount
    let task = sleeper(name, until: offset, on: clock, then: next)
    var rounds = 0
    while clock.sleeperCount <= before && rounds < 100_000 {
      await Task.yield()
      rounds += 1
    }
    return task
  }

  /// Starts a task that sleeps until `offset` on `clock`, then logs `name`
  /// (or `name cancelled`).
  @discardableResult
  func sleeper(
    _ name: String, until offset: Duration, on clock: ManualClock,
    then next: (@MainActor () -> Void)? = nil
  ) -> Task<Void, Never> {
    Task {
      do {
        try await clock.sleep(until: .init(offset: offset))
        entries.append("\(name) at \(clock.now.offset)")
        next?()
      } catch {
        entries.append("\(name) \(error is CancellationError ? "cancelled" : "failed")")
      }
    }
  }
}

@MainActor
@Suite("ManualClock")
struct ManualClockTests {
  @Test func sleepersWakeInDeadlineOrderWhateverTheOrderTheySleptIn() async {
    let clock = ManualClock()
    let log = WakeLog()
    log.sleeper("c", until: .seconds(3), on: clock)
    log.sleeper("a", until: .seconds(1), on: clock)
    log.sleeper("b", until: .seconds(2), on: clock)
    await clock.advance(by: .seconds(5))
    #expect(log.entries == ["a at 1.0 seconds", "b at 2.0 seconds", "c at 3.0 seconds"])
    #expect(clock.now.offset == .seconds(5))
    #expect(clock.sleeperCount == 0)
  }

  @Test func sleepersAtOneDeadlineWakeInTheOrderTheySleptIn() async {
    let clock = ManualClock()
    let log = WakeLog()
    for name in ["first", "second", "third"] {
      await log.asleep(name, until: .seconds(1), on: clock)
    }
    await clock.advance(by: .seconds(1))
    #expect(
      log.entries == ["first at 1.0 seconds", "second at 1.0 seconds", "third at 1.0 seconds"])
  }

  @Test func nothingWakesWithoutAnAdvance() async {
    let clock = ManualClock()
    let log = WakeLog()
    log.sleeper("a", until: .seconds(1), on: clock)
    for _ in 0..<100 { await Task.yield() }
    #expect(log.entries.isEmpty)
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .milliseconds(999))
    #expect(log.entries.isEmpty, "the deadline is not reached yet")
    await clock.advance(by: .milliseconds(1))
    #expect(log.entries == ["a at 1.0 seconds"])
  }

  @Test func anAdvanceCountsASleepStartedJustBeforeIt() async {
    let clock = ManualClock()
    let log = WakeLog()
    // The task has not run yet: advance lets it reach its sleep first.
    log.sleeper("a", until: .milliseconds(300), on: clock)
    await clock.advance(by: .milliseconds(300))
    #expect(log.entries == ["a at 0.3 seconds"])
  }

  @Test func aWakeUpSettlesBeforeTheNextSleeperWakes() async {
    let clock = ManualClock()
    let log = WakeLog()
    await log.asleep("a", until: .seconds(1), on: clock) {
      // What the first wake-up does runs before the second sleeper wakes.
      log.entries.append("a's effect")
    }
    await log.asleep("b", until: .seconds(1), on: clock)
    await clock.advance(by: .seconds(1))
    #expect(log.entries == ["a at 1.0 seconds", "a's effect", "b at 1.0 seconds"])
  }

  @Test func aSleeperCancelledBeforeItsDeadlineThrowsAtOnceAndNeverWakes() async {
    let clock = ManualClock()
    let log = WakeLog()
    let task = log.sleeper("a", until: .seconds(1), on: clock)
    await clock.advance(by: .milliseconds(500))
    #expect(clock.sleeperCount == 1)
    task.cancel()
    #expect(clock.sleeperCount == 0, "the sleeper leaves the clock when cancelled")
    await task.value
    #expect(log.entries == ["a cancelled"])
    await clock.advance(by: .seconds(5))
    #expect(log.entries == ["a cancelled"])
  }

  @Test func aSleeperCancelledAtItsDeadlineDoesNotWake() async {
    let clock = ManualClock()
    let log = WakeLog()
    var victim: Task<Void, Never>?
    // Both are due at 1 s; the first, woken first, cancels the second.
    await log.asleep("killer", until: .seconds(1), on: clock) { victim?.cancel() }
    victim = await log.asleep("victim", until: .seconds(1), on: clock)
    await clock.advance(by: .seconds(1))
    #expect(log.entries == ["killer at 1.0 seconds", "victim cancelled"])
  }

  @Test func aTaskCancelledBeforeItSleepsThrowsAtOnce() async {
    let clock = ManualClock()
    let log = WakeLog()
    let task = log.sleeper("a", until: .seconds(1), on: clock)
    task.cancel()
    await task.value
    #expect(log.entries == ["a cancelled"])
    #expect(clock.sleeperCount == 0)
  }

  @Test func aSleepUntilNowOrEarlierReturnsAtOnce() async throws {
    let clock = ManualClock()
    await clock.advance(by: .seconds(1))
    try await clock.sleep(until: .init(offset: .seconds(1)))
    try await clock.sleep(for: .zero)
    #expect(clock.sleeperCount == 0)
  }

  @Test func runWakesSleepersThatWakeUpsSchedule() async {
    let clock = ManualClock()
    let log = WakeLog()
    log.sleeper("a", until: .seconds(1), on: clock) {
      log.sleeper("b", until: .seconds(3), on: clock) {
        log.sleeper("c", until: .seconds(2), on: clock)  // in the past: returns at once
      }
    }
    await clock.run()
    #expect(log.entries == ["a at 1.0 seconds", "b at 3.0 seconds", "c at 3.0 seconds"])
    #expect(clock.now.offset == .seconds(3))
    #expect(clock.sleeperCount == 0)
  }

  @Test func anAdvanceWakesSleepersScheduledInsideItsSpan() async {
    let clock = ManualClock()
    let log = WakeLog()
    log.sleeper("a", until: .seconds(1), on: clock) {
      log.sleeper("b", until: .seconds(2), on: clock)
      log.sleeper("late", until: .seconds(9), on: clock)
    }
    await clock.advance(by: .seconds(5))
    #expect(log.entries == ["a at 1.0 seconds", "b at 2.0 seconds"])
    #expect(clock.sleepers.map(\.deadline.offset) == [.seconds(9)])
    // A task left asleep would never end: LeakSanitizer reports it.
    await clock.run()
    #expect(log.entries.last == "late at 9.0 seconds")
    #expect(clock.sleeperCount == 0)
  }

  @Test func runStopsAnEndlessTimerWithAFailureNamingItsSleeper() async {
    let clock = ManualClock()
    let task = Task {
      await _WaitOrigin.$current.withValue("a ticker") {
        while (try? await clock.sleep(for: .seconds(1))) != nil {}
      }
    }
    await withKnownIssue {
      await clock.run(maxWakeUps: 5)
    } matching: { issue in
      issue.comments.map(\.rawValue).joined()
        == """
        ManualClock.run() stopped after 5 wake-ups, at 5.0 seconds: sleepers keep scheduling \
        sleepers. Still sleeping:
          a ticker until 6.0 seconds
        """
    }
    task.cancel()
    await task.value
  }

  @Test func sleepersListTheirOwners() async {
    let clock = ManualClock()
    let task = Task {
      await _WaitOrigin.$current.withValue("effect \"sort\"") {
        try? await clock.sleep(for: .seconds(1))
      }
    }
    await clock.advance()
    #expect(clock.sleepers.map(\.description) == ["effect \"sort\" until 1.0 seconds"])
    task.cancel()
    await task.value
  }

  @Test func anAdvanceGivesUpOnAKitTaskBlockedOnSomethingElseAndSaysSo() async {
    let clock = ManualClock(patience: .milliseconds(50))
    let effects = Effects()
    let gate = AsyncStream<Void>.makeStream()
    effects.run(id: "blocked", fileID: "App/Screen.swift", line: 9) {
      for await _ in gate.stream {}
    }
    var reports: [String] = []
    // The test fails too (ManualClock+ChildTaskTests.swift checks how).
    _ = await recordedFailuresAwaiting {
      reports = await Diagnostics.capturing {
        await clock.advance(by: .seconds(1))
      }
    }
    #expect(reports.count == 1)
    #expect(
      reports.first?.hasPrefix(
        #"advancing the clock did not wait for 1 task of the kit that neither finished nor slept on a clock after 50ms with no progress: effect "blocked" (started at Screen.swift:9)"#
      ) == true)
    gate.continuation.finish()
    await effects.waitUntilIdle()
  }

  @Test func anAdvanceWaitsForAnEffectThatSleepsAgainAfterWork() async {
    let clock = ManualClock()
    let effects = Effects()
    var steps: [String] = []
    effects.run(id: "steps") {
      try await clock.sleep(for: .seconds(1))
      await Self.hop()
      steps.append("one")
      try await clock.sleep(for: .seconds(1))
      await Self.hop()
      steps.append("two")
    }
    await clock.advance(by: .seconds(2))
    #expect(steps == ["one", "two"])
  }

  nonisolated private static func hop() async {
    await Task.yield()
  }
}

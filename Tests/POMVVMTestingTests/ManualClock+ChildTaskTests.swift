import POMVVM
import Synchronization
import Testing

@testable import POMVVMTesting

// An advance and the kit's tasks that make child tasks or that are slow
// (issue 49, items 11 and 12): a timeout race whose timer child sleeps while
// the other child works, an `async let` that works while its parent sleeps,
// and a timer whose tick works off the main actor for much longer than many
// rounds of yields take.
//
// The work is real and bounded: a fixed number of steps of arithmetic, off
// the main actor, in one job or in many (yielding between them). An advance
// that waits for it passes however long it takes (up to the clock's
// patience, seconds); one that stopped waiting too early returns while it
// still runs.

/// Fixed work off the main actor.
private enum Work {
  /// Runs `steps` steps of arithmetic, in one go, and returns their result.
  nonisolated static func spin(_ steps: Int) -> UInt64 {
    var value: UInt64 = 1
    for _ in 0..<steps { value = value &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407 }
    return value
  }

  /// `spin(_:)` as an `async` function, which runs off the main actor.
  @concurrent
  nonisolated static func spinning(_ steps: Int) async -> UInt64 {
    spin(steps)
  }

  /// `steps` steps of arithmetic off the main actor, in `chunks` jobs: the
  /// task yields between them, as work that awaits now and then does.
  @concurrent
  nonisolated static func spinning(_ steps: Int, in chunks: Int) async -> UInt64 {
    var total: UInt64 = 0
    for _ in 0..<chunks {
      total &+= spin(steps / chunks)
      await Task.yield()
    }
    return total
  }
}

private struct TimedOut: Error {}

/// A flag set off the main actor and read on it.
private final class Flag: Sendable {
  private let value = Atomic(false)

  func set() { value.store(true, ordering: .releasing) }

  var isSet: Bool { value.load(ordering: .acquiring) }
}

@MainActor
@Suite("ManualClock and the kit's child tasks and slow tasks")
struct ManualClockChildTaskTests {
  @Test func anAdvanceWaitsForAChildThatWorksWhileItsTimeoutSiblingSleeps() async {
    let clock = ManualClock()
    let effects = Effects()
    var result: String?
    effects.run(id: "race") {
      result = try await withThrowingTaskGroup(of: String.self) { group in
        group.addTask { "done \(await Work.spinning(40_000_000, in: 400) > 0)" }
        group.addTask {
          try await clock.sleep(for: .seconds(5))
          throw TimedOut()
        }
        defer { group.cancelAll() }
        return try await group.next() ?? "none"
      }
    }
    await clock.advance()
    #expect(result == "done true", "the advance returned while the working child still ran")
    #expect(clock.sleeperCount == 0, "the race's timer child was cancelled")
    await effects.waitUntilIdle()
  }

  @Test func anAdvanceWaitsForAnAsyncLetThatWorksWhileItsParentSleeps() async {
    let clock = ManualClock()
    let effects = Effects()
    let prefetched = Flag()
    var log: [String] = []
    effects.run(id: "prefetch") {
      async let work: Void = {
        _ = await Work.spinning(40_000_000, in: 400)
        prefetched.set()
      }()
      try await clock.sleep(for: .seconds(1))
      await work
      log.append("shown")
    }
    await clock.advance()
    #expect(prefetched.isSet, "the advance returned while the async let still worked")
    #expect(clock.sleeperCount == 1)
    await clock.advance(by: .seconds(1))
    #expect(log == ["shown"])
    await effects.waitUntilIdle()
  }

  @Test func aTimerWhoseTickWorksLongOffTheMainActorIsNotGivenUpOn() async {
    let clock = ManualClock()
    let effects = Effects()
    var ticks = 0
    effects.timer(id: "tick", every: .seconds(1), clock: clock) {
      // One job that lasts much longer than a thousand rounds of yields.
      _ = await Work.spinning(40_000_000)
      ticks += 1
    }
    let reports = await Diagnostics.capturing {
      await clock.advance(by: .seconds(2))
    }
    #expect(ticks == 2)
    #expect(reports.isEmpty)
    effects.cancelAll()
    await effects.waitUntilIdle()
  }

  @Test func anAdvanceFailsTheTestNamingATaskBlockedOnSomethingElse() async {
    let clock = ManualClock(patience: .milliseconds(50))
    let effects = Effects()
    let gate = AsyncStream<Void>.makeStream()
    effects.run(id: "blocked", fileID: "App/Screen.swift", line: 9) {
      for await _ in gate.stream {}
    }
    let failures = await recordedFailuresAwaiting {
      _ = await Diagnostics.capturing {
        await clock.advance(by: .seconds(1))
      }
    }
    #expect(
      failures.map(\.message) == [
        #"ManualClock did not wait for 1 task of the kit that neither finished nor slept on a clock, and made no progress for 50ms: effect "blocked" (started at Screen.swift:9). A task that awaits something else (a continuation, a stream the test feeds later, a real clock) settles only once it is fed: feed it before the advance, or inject the clock being advanced"#
      ])
    #expect(failures.map(\.location) == ["ManualClock+ChildTaskTests.swift:131"])
    gate.continuation.finish()
    await effects.waitUntilIdle()
  }

  // MARK: - The order ImmediateClock does not promise (issue 49, item 14)

  @Test func runOrdersATimerAndALongerEffectByDeadlineOnEveryRun() async {
    // ImmediateClock returns from both sleeps at once, in whatever order
    // the executor runs the two tasks; ManualClock.run() wakes them in
    // deadline order, every time.
    for _ in 0..<50 {
      let clock = ManualClock()
      let effects = Effects()
      var log: [String] = []
      var seconds = 0
      effects.timer(id: "meeting", every: .seconds(1), clock: clock) {
        seconds += 1
        log.append("tick \(seconds)")
      }
      effects.run(id: "speech") {
        try await clock.sleep(for: .milliseconds(2_500))
        _ = await Work.spinning(1_000)
        log.append("spoken")
        effects.cancel(id: "meeting")
      }
      await clock.run()
      #expect(log == ["tick 1", "tick 2", "spoken"])
      await effects.waitUntilIdle()
    }
  }
}

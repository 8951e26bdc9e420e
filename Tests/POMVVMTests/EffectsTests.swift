import POMVVM
import POMVVMTesting
import TestSupport
import Testing

@MainActor
@Suite("Effects")
struct EffectsTests {
  /// A view model whose search waits on a clock, then writes its result
  /// unless it was cancelled meanwhile.
  @MainActor
  final class Search {
    let clock: ManualClock
    let effects = Effects()
    var results: [String] = []
    var log: [String] = []

    init(clock: ManualClock) {
      self.clock = clock
    }

    func search(_ query: String, after delay: Duration = .seconds(1)) {
      effects.run(id: "search", cancelInFlight: true) { [weak self, clock] in
        do {
          try await clock.sleep(for: delay)
        } catch {
          self?.log.append("cancelled \(query)")
          throw error
        }
        self?.results.append(query)
      }
    }
  }

  @Test func cancelInFlightCancelsTheOperationRunningUnderTheId() async {
    let clock = ManualClock()
    let search = Search(clock: clock)
    search.search("d")
    await clock.advance(by: .milliseconds(500))
    search.search("du")
    await clock.advance(by: .seconds(1))
    #expect(search.log == ["cancelled d"])
    #expect(search.results == ["du"])
    #expect(search.effects.inFlight.value == 0)
  }

  @Test func withoutCancelInFlightOperationsUnderOneIdRunSideBySide() async {
    let clock = ManualClock()
    let effects = Effects()
    var done: [Int] = []
    for index in 1...2 {
      effects.run(id: "tick") {
        try await clock.sleep(for: .seconds(1))
        done.append(index)
      }
    }
    #expect(effects.inFlight.value == 2)
    await clock.advance(by: .seconds(1))
    // Both ran to the end. Which one registered its sleep first is up to
    // the global executor (the clock's sleep is not on the main actor), so
    // their order at one deadline is not part of the promise.
    #expect(done.sorted() == [1, 2])
    #expect(effects.inFlight.value == 0)
  }

  @Test func idsAreIndependent() async {
    let clock = ManualClock()
    let effects = Effects()
    var done: [String] = []
    effects.run(id: "a") {
      try await clock.sleep(for: .seconds(1))
      done.append("a")
    }
    effects.run(id: "b") {
      try await clock.sleep(for: .seconds(2))
      done.append("b")
    }
    effects.cancel(id: "a")
    #expect(effects.isRunning(id: "b"))
    #expect(!effects.isRunning(id: "a"))
    await clock.run()
    #expect(done == ["b"])
  }

  @Test func inFlightCountsTheRunningOperations() async {
    let clock = ManualClock()
    let effects = Effects()
    let counts = Recorder<Int>()
    let subscription = effects.inFlight.observe(counts.handler)
    effects.run(id: 1) { try await clock.sleep(for: .seconds(1)) }
    effects.run(id: 2) { try await clock.sleep(for: .seconds(2)) }
    effects.run(id: 3) { try await clock.sleep(for: .seconds(3)) }
    effects.cancel(id: 3)
    await clock.advance(by: .seconds(1))
    await clock.advance(by: .seconds(1))
    #expect(counts.events == [0, 1, 2, 3, 2, 1, 0])
    withExtendedLifetime(subscription) {}
  }

  @Test func releasingTheEffectsCancelsEverythingItRuns() async {
    let clock = ManualClock()
    var search: Search? = Search(clock: clock)
    weak let effects = search?.effects
    search?.search("d")
    await clock.advance()
    #expect(clock.sleeperCount == 1)
    search = nil
    #expect(effects == nil)
    #expect(clock.sleeperCount == 0, "the operation's sleep was cancelled")
  }

  @Test func cancelAllCancelsEveryId() async {
    let clock = ManualClock()
    let effects = Effects()
    var done: [String] = []
    effects.run(id: "a") {
      try await clock.sleep(for: .seconds(1))
      done.append("a")
    }
    effects.run(id: "b") {
      try await clock.sleep(for: .seconds(1))
      done.append("b")
    }
    await clock.advance()
    effects.cancelAll()
    #expect(effects.inFlight.value == 0)
    #expect(clock.sleeperCount == 0)
    await effects.waitUntilIdle()
    await clock.run()
    #expect(done == [])
  }

  @Test func aCancelledOperationsLateResultIsDropped() async {
    let effects = Effects()
    let latch = Latch()
    var results: [String] = []
    effects.run(id: "load") {
      // A call that ignores cancellation, then the check that drops its result.
      _ = await Task.detached { await latch.wait() }.value
      try Task.checkCancellation()
      results.append("late")
    }
    await Task.yield()
    effects.cancel(id: "load")
    latch.open()
    await effects.waitUntilIdle()
    #expect(results == [])
  }

  @Test func waitUntilIdleWaitsForOperationsStartedMeanwhile() async {
    let effects = Effects()
    var done: [String] = []
    effects.run(id: "first") {
      done.append("first")
      effects.run(id: "second") { done.append("second") }
    }
    await effects.waitUntilIdle()
    #expect(done == ["first", "second"])
  }

  @Test func anErrorOtherThanCancellationIsReported() async {
    struct Offline: Error {}
    let effects = Effects()
    let reports = await Diagnostics.capturing {
      effects.run(id: "sync", line: 7) { throw Offline() }
      await effects.waitUntilIdle()
    }
    #expect(reports == ["Effect \"sync\" failed: Offline()"])
  }

  @Test func aTaskLocalValueReachesAnOperation() async {
    let effects = Effects()
    var seen: [String] = []
    TaskLocalService.$name.withValue("stub") {
      effects.run(id: "load") { seen.append(TaskLocalService.name) }
    }
    await effects.waitUntilIdle()
    #expect(seen == ["stub"])
  }

  @Test func anIssueRecordedInsideAnOperationBelongsToTheTestThatStartedIt() async {
    let effects = Effects()
    await withKnownIssue {
      effects.run(id: "load") { Issue.record("recorded inside the operation") }
      await effects.waitUntilIdle()
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["recorded inside the operation"]
    }
  }

  @Test func aSleepingOperationTellsTheClockWhoItIs() async {
    let clock = ManualClock()
    let effects = Effects()
    effects.run(id: "sort", line: 48) { try await clock.sleep(for: .seconds(1)) }
    await clock.advance()
    #expect(
      clock.sleepers.map(\.description) == [
        "effect \"sort\" (started at EffectsTests.swift:48) until 1.0 seconds"
      ])
    effects.cancelAll()
  }
}

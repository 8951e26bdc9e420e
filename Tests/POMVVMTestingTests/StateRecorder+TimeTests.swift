import POMVVM
import Testing

@testable import POMVVMTesting

/// A list that sorts itself one second after the last toggle, through an
/// effect, and shows a query debounced by 300 ms.
@MainActor
private final class SortingList: ViewModel {
  let items = Observable(["b", "a"])
  let query = Observable("")
  let settledQuery: Derived<String>
  let effects = Effects()
  private let clock: ManualClock

  init(clock: ManualClock) {
    self.clock = clock
    settledQuery = query.debounced(
      for: .milliseconds(300), clock: clock, fileID: "Search/SearchViewModel.swift", line: 12)
  }

  func toggle() {
    effects.run(
      id: "sort", cancelInFlight: true, fileID: "ToDo/TodosViewModel.swift", line: 48
    ) { [weak self, clock] in
      try await clock.sleep(for: .seconds(1))
      self?.items.value.sort()
    }
  }
}

@MainActor
@Suite("StateRecorder with time and effects")
struct StateRecorderTimeTests {
  @Test func aStepAdvancesTheClockAndExpectsWhatTheWokenEffectChanged() async {
    let clock = ManualClock()
    let list = SortingList(clock: clock)
    let recorder = StateRecorder(of: list)
    recorder.perform { list.toggle() }
    await recorder.perform {
      await clock.advance(by: .milliseconds(999))
    }
    await recorder.perform {
      await clock.advance(by: .milliseconds(1))
    } expecting: {
      $0.changed(\.items, to: ["a", "b"])
    }
    recorder.perform {
      list.query.value = "dune"
    } expecting: {
      $0.changed(\.query, to: "dune")
    }
    await recorder.perform {
      await clock.advance(by: .milliseconds(300))
    } expecting: {
      $0.changed(\.settledQuery, to: "dune")
    }
    recorder.finish()
  }

  @Test func finishReportsAnEffectStillRunning() async {
    let clock = ManualClock()
    let list = SortingList(clock: clock)
    let recorder = StateRecorder(of: list)
    recorder.perform { list.toggle() }
    await clock.advance(by: .milliseconds(500))
    let failures = recordedFailures { recorder.finish() }
    #expect(
      failures.map(\.message) == [
        #"1 effect still running: "sort" (started at TodosViewModel.swift:48)"#
      ])
    #expect(list.effects.inFlight.value == 0, "finish() cancels what it reported")
    #expect(clock.sleeperCount == 0)
  }

  @Test func finishReportsAPendingDebounce() async {
    let clock = ManualClock()
    let list = SortingList(clock: clock)
    let recorder = StateRecorder(of: list)
    recorder.perform {
      list.query.value = "du"
    } expecting: {
      $0.changed(\.query, to: "du")
    }
    let failures = recordedFailures { recorder.finish() }
    #expect(
      failures.map(\.message) == [
        #"1 time operator still waiting on a clock: debounced 300ms "settledQuery" (made at SearchViewModel.swift:12)"#
      ])
  }

  @Test func finishNamesEveryPendingEffectAndOperatorAtOnce() async {
    let clock = ManualClock()
    let list = SortingList(clock: clock)
    let unstored = list.query.throttled(
      for: .seconds(1), clock: clock, fileID: "Search/SearchViewModel.swift", line: 20)
    let recorder = StateRecorder(of: list)
    recorder.perform {
      list.toggle()
      list.effects.run(id: 7, fileID: "ToDo/TodosViewModel.swift", line: 60) {
        try await clock.sleep(for: .seconds(5))
      }
      list.query.value = "x"
      list.query.value = "xy"  // held by the throttle until its window ends
    } expecting: {
      $0.changed(\.query, to: "x")
      $0.changed(\.query, to: "xy")
    }
    let failures = recordedFailures { recorder.finish() }
    #expect(
      failures.map(\.message) == [
        #"2 effects still running: "sort" (started at TodosViewModel.swift:48), "7" (started at TodosViewModel.swift:60)"#,
        #"2 time operators still waiting on a clock: debounced 300ms "settledQuery" (made at SearchViewModel.swift:12), throttled latest 1s (made at SearchViewModel.swift:20)"#,
      ])
    extendLifetime(unstored)
  }

  @Test func finishPassesOnceTheClockHasRunEverythingOut() async {
    let clock = ManualClock()
    let list = SortingList(clock: clock)
    let recorder = StateRecorder(of: list)
    recorder.perform { list.toggle() }
    await recorder.perform {
      await clock.run()
    } expecting: {
      $0.changed(\.items, to: ["a", "b"])
    }
    recorder.finish()
  }

  // MARK: - Every kind of work

  /// A screen that loads, runs a state machine, and a timer.
  @MainActor
  private final class Screen: ViewModel {
    let movie = Load<String>(fileID: "Movies/MovieViewModel.swift", line: 10)
    let machine: StateMachine<Int, Int>
    let effects = Effects()

    init(clock: ManualClock) {
      machine = StateMachine(
        initial: 0, reduce: { state, event in state = event },
        feedbacks: [
          .effect(
            whenever: { $0 == 1 ? 1 : nil }, fileID: "Movies/MoviesViewModel.swift", line: 20
          ) { _ in
            try? await clock.sleep(for: .seconds(5))
            return nil
          }
        ])
    }
  }

  @Test func finishReportsALoadRequestAndAFeedbackInFlightByTheirLines() async {
    let clock = ManualClock()
    let screen = Screen(clock: clock)
    let recorder = StateRecorder(of: screen)
    recorder.perform {
      screen.movie.start(fileID: "Movies/MovieViewModel.swift", line: 30) {
        try await clock.sleep(for: .seconds(5))
        return "Dune"
      }
      screen.machine.send(1)
    } expecting: {
      $0.changed(\.movie, to: .loading)
      $0.changed(\.machine.state, to: 1)
    }
    await clock.advance(by: .seconds(1))
    let failures = recordedFailures { recorder.finish() }
    #expect(
      failures.map(\.message) == [
        #"1 load request still running: load "movie" request (started at MovieViewModel.swift:30)"#,
        #"1 state machine feedback still running: feedback for "1" (declared at MoviesViewModel.swift:20)"#,
      ])
    await screen.movie.waitUntilFinished()
    await screen.machine.waitUntilIdle()
    #expect(clock.sleeperCount == 0, "finish() cancels what it reported")
  }

  @Test func finishReportsAnOperationCancelledButNotReturnedAndEscapesItsId() async {
    let clock = ManualClock()
    let list = SortingList(clock: clock)
    let recorder = StateRecorder(of: list)
    let gate = AsyncStream<Void>.makeStream()
    recorder.perform {
      list.effects.run(id: #"say "hi""#, fileID: "ToDo/TodosViewModel.swift", line: 70) {
        // Ignores its cancellation until the test opens the gate.
        await Task { for await _ in gate.stream {} }.value
      }
      list.effects.cancelAll()
    }
    let failures = recordedFailures { recorder.finish() }
    #expect(
      failures.map(\.message) == [
        #"1 effect still running: "say \"hi\"" (started at TodosViewModel.swift:70, cancelled, not returned)"#
      ])
    gate.continuation.finish()
    await list.effects.waitUntilIdle()
  }

  // MARK: - Waiting for cancelled work (issue 49, item 13)

  /// An operation that, once cancelled, still hops off the main actor a
  /// few times before it returns: a request whose service ignores the
  /// cancellation.
  nonisolated private static func hops(_ count: Int) async {
    for _ in 0..<count { await Task.yield() }
  }

  @Test func theAsyncFinishWaitsForAnOperationTheLastStepCancelled() async {
    let clock = ManualClock()
    let list = SortingList(clock: clock)
    let recorder = StateRecorder(of: list)
    recorder.perform {
      list.effects.run(id: "save") {
        await Self.hops(50)
      }
      list.effects.cancelAll()
    }
    // The timeout only bounds a failure: the wait ends when the operation
    // returns.
    await recorder.finish(timeout: .seconds(600))
    #expect(list.effects._runningDescriptions.isEmpty)
  }

  @Test func theSynchronousFinishFailsOnTheSameOperation() async {
    let clock = ManualClock()
    let list = SortingList(clock: clock)
    let recorder = StateRecorder(of: list)
    recorder.perform {
      list.effects.run(id: "save", fileID: "ToDo/TodosViewModel.swift", line: 80) {
        await Self.hops(50)
      }
      list.effects.cancelAll()
    }
    let failures = recordedFailures { recorder.finish() }
    #expect(
      failures.map(\.message) == [
        #"1 effect still running: "save" (started at TodosViewModel.swift:80, cancelled, not returned)"#
      ])
    await list.effects.waitUntilIdle()
  }

  @Test func theAsyncFinishStopsWaitingAfterItsTimeoutAndFails() async {
    let clock = ManualClock()
    let list = SortingList(clock: clock)
    let recorder = StateRecorder(of: list)
    let gate = AsyncStream<Void>.makeStream()
    recorder.perform {
      list.effects.run(id: "stuck", fileID: "ToDo/TodosViewModel.swift", line: 90) {
        // Ignores its cancellation until the test opens the gate.
        await Task { for await _ in gate.stream {} }.value
      }
      list.effects.cancelAll()
    }
    let failures = await recordedFailuresAwaiting {
      await recorder.finish(timeout: .milliseconds(20))
    }
    #expect(
      failures.map(\.message) == [
        #"1 effect still running: "stuck" (started at TodosViewModel.swift:90, cancelled, not returned)"#
      ])
    gate.continuation.finish()
    await list.effects.waitUntilIdle()
  }

  @Test func theAsyncFinishDoesNotWaitForWorkThatWasNotCancelled() async {
    let clock = ManualClock()
    let list = SortingList(clock: clock)
    let recorder = StateRecorder(of: list)
    recorder.perform { list.toggle() }
    let started = ContinuousClock().now
    let failures = await recordedFailuresAwaiting {
      await recorder.finish(timeout: .seconds(600))
    }
    #expect(ContinuousClock().now - started < .seconds(300), "it waited for the sleeping sort")
    #expect(
      failures.map(\.message) == [
        #"1 effect still running: "sort" (started at TodosViewModel.swift:48)"#
      ])
  }

  @Test func bothFinishesCompileWhereTheyAreCalled() async {
    // In an async context, `finish()` without `await` is the synchronous
    // one, as before; the waiting one is named by its `timeout:`.
    let first = StateRecorder(of: SortingList(clock: ManualClock()))
    first.finish()
    let second = StateRecorder(of: SortingList(clock: ManualClock()))
    await second.finish(timeout: .seconds(1))
    let third = StateRecorder(of: SortingList(clock: ManualClock()))
    Self.finishSynchronously(third)
  }

  private static func finishSynchronously(_ recorder: StateRecorder<SortingList>) {
    recorder.finish()
  }
}

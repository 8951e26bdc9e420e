import Movies
import POMVVM
import POMVVMTesting
import TestSupport
import Testing

/// The search-as-you-type screen, tested as the DocC article "Time, effects
/// and testing them" walks through it: a manual clock for the debounce, the
/// state recorder for every change, `finish()` for what still waits.
@MainActor
@Suite("Movie search")
struct MovieSearchViewModelTests {
  @Test func typingSearchesOnce300msAfterTheLastKeystroke() async throws {
    // 1. Inject a manual clock: time moves only when the test says so.
    let clock = ManualClock()
    let catalog = MovieCatalog()
    let harbors = try await catalog.search("harbor")
    let search = MovieSearchViewModel(catalog: catalog, clock: clock)
    let recorder = StateRecorder(of: search)

    // 2. Type: each keystroke changes the query; nothing is asked yet.
    recorder.perform {
      search.query.value = "h"
      search.query.value = "harb"
      search.query.value = "harbor"
    } expecting: {
      $0.changed(\.query, to: "h")
      $0.changed(\.results, to: .waiting("h"))
      $0.changed(\.query, to: "harb")
      $0.changed(\.results, to: .waiting("harb"))
      $0.changed(\.query, to: "harbor")
      $0.changed(\.results, to: .waiting("harbor"))
    }

    // 3. 299 ms of quiet: still nothing.
    await recorder.perform {
      await clock.advance(by: .milliseconds(299))
    }

    // 4. The 300th ms: the debounce fires, the request runs and answers.
    await recorder.perform {
      await clock.advance(by: .milliseconds(1))
      await search.waitUntilIdle()
    } expecting: {
      $0.changed(\.settledQuery, to: "harbor")
      $0.changed(\.results, to: .searching("harbor"))
      $0.changed(\.results, to: .found("harbor", harbors))
    }

    // 5. Nothing is left waiting.
    recorder.finish()
  }

  @Test func aNewQueryCancelsTheRequestInFlightAndItsAnswerIsDropped() async throws {
    let clock = ManualClock()
    let log = EffectLog()
    let catalog = MovieCatalog(beforeAnswering: { _ in
      await log.append("asked")
      // The first request is slow: it waits on the test's clock (so an
      // advance counts it asleep, not blocked) until it is cancelled.
      if await log.entries.count == 1 {
        do {
          try await clock.sleep(for: .seconds(60))
          await log.append("first answered")
        } catch {
          await log.append("first cancelled")
        }
      }
    })
    let signals = try await MovieCatalog().search("signal")
    let search = MovieSearchViewModel(catalog: catalog, clock: clock)
    search.query.value = "harbor"
    await clock.advance(by: .milliseconds(300))
    await log.waitFor("asked")
    #expect(search.results.value == .searching("harbor"))

    let recorder = StateRecorder(of: search)
    await recorder.perform {
      search.query.value = "signal"
      await clock.advance(by: .milliseconds(300))
      await search.waitUntilIdle()
    } expecting: {
      $0.changed(\.query, to: "signal")
      $0.changed(\.results, to: .waiting("signal"))
      $0.changed(\.settledQuery, to: "signal")
      $0.changed(\.results, to: .searching("signal"))
      $0.changed(\.results, to: .found("signal", signals))
    }
    await log.waitFor("first cancelled")
    recorder.finish()
  }

  @Test func anEmptyQueryClearsTheResultsAtOnce() async throws {
    let clock = ManualClock()
    let search = MovieSearchViewModel(catalog: MovieCatalog(), clock: clock)
    search.query.value = "harbor"
    await clock.advance(by: .milliseconds(300))
    await search.waitUntilIdle()
    let recorder = StateRecorder(of: search)
    recorder.perform {
      search.query.value = ""
    } expecting: {
      $0.changed(\.query, to: "")
      $0.changed(\.results, to: .idle)
    }
    // The debounced query follows 300 ms later, and asks nothing.
    await recorder.perform {
      await clock.advance(by: .milliseconds(300))
    } expecting: {
      $0.changed(\.settledQuery, to: "")
    }
    recorder.finish()
  }

  @Test func finishNamesTheDebounceATestForgotToWaitFor() {
    let search = MovieSearchViewModel(catalog: MovieCatalog(), clock: ManualClock())
    let recorder = StateRecorder(of: search)
    recorder.perform {
      search.query.value = "dune"
    } expecting: {
      $0.changed(\.query, to: "dune")
      $0.changed(\.results, to: .waiting("dune"))
    }
    withKnownIssue {
      recorder.finish()
    } matching: { issue in
      // The line is the `debounced` call in the initializer, wherever it moves.
      issue.comments.map(\.rawValue).joined()
        .wholeMatch(
          of:
            #/1 time operator still waiting on a clock: debounced 300ms "settledQuery" \(made at MovieSearchViewModel\.swift:\d+\)/#
        ) != nil
    }
  }

  @Test func aFailedSearchShowsItsError() async {
    let clock = ManualClock()
    let catalog = MovieCatalog()
    let search = MovieSearchViewModel(catalog: catalog, clock: clock)
    catalog.failNextRequest(.search)
    search.query.value = "harbor"
    await clock.advance(by: .milliseconds(300))
    await search.waitUntilIdle()
    #expect(
      search.results.value
        == .failed("harbor", LoadFailure(message: "the catalog is unavailable")))
  }
}

import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Load")
struct LoadTests {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  @Test func aTaskLocalValueReachesTheRequest() async {
    let load = Load<String>()
    TaskLocalService.$name.withValue("stub") {
      load.start { TaskLocalService.name }
    }
    await load.waitUntilFinished()
    #expect(load.value == .loaded("stub"))
  }

  @Test func anIssueRecordedInsideARequestBelongsToTheTestThatStartedIt() async {
    let load = Load<Int>()
    await withKnownIssue {
      load.start {
        Issue.record("recorded inside the request")
        return 1
      }
      await load.waitUntilFinished()
    } matching: { issue in
      issue.comments.map(\.rawValue) == ["recorded inside the request"]
    }
    #expect(load.value == .loaded(1))
  }

  @Test func aSuccessfulRequestGoesIdleLoadingLoaded() async {
    let load = Load<Int>()
    let statuses = Recorder<LoadStatus<Int>>()
    let subscription = load.observe(statuses.handler)
    load.start { 42 }
    await load.waitUntilFinished()
    #expect(statuses.events == [.idle, .loading, .loaded(42)])
    #expect(load.value.value == 42)
    withExtendedLifetime(subscription) {}
  }

  @Test func aFailedRequestKeepsItsMessage() async {
    let load = Load<Int>()
    load.start { throw Failure(description: "catalog unavailable") }
    await load.waitUntilFinished()
    #expect(load.value == .failed(LoadFailure(message: "catalog unavailable")))
    #expect(load.value.failure?.description == "catalog unavailable")
  }

  @Test func restartingCancelsTheRequestUnderWayAndDropsItsResult() async {
    let load = Load<String>()
    let first = Latch()
    let log = EffectLog()
    load.start {
      await log.append("first started")
      _ = await Task.detached { await first.wait() }.value  // ignores cancellation
      return "first"
    }
    await log.waitFor("first started")
    load.start { "second" }
    // The replaced request ignores its cancellation: it returns once the
    // latch opens, and its result is dropped.
    first.open()
    await load.waitUntilFinished()
    #expect(load.value == .loaded("second"))
  }

  @Test func cancelReturnsToIdle() async {
    let load = Load<Int>()
    let log = EffectLog()
    load.start {
      await log.append("started")
      return await Latch().wait() ? 1 : -1
    }
    await log.waitFor("started")
    load.cancel()
    #expect(load.value == .idle)
    await load.waitUntilFinished()
    #expect(load.value == .idle)
  }

  /// movie -> cast -> reviews, each stage failing or not.
  @MainActor
  struct Chain {
    let movie = Load<String>()
    let cast = Load<String>()
    let reviews = Load<String>()

    init(failingAt failing: String? = nil, gate: Latch? = nil) {
      movie.whenLoaded(start: cast) { movie in
        if failing == "cast" { throw Failure(description: "no cast") }
        return "cast of \(movie)"
      }
      cast.whenLoaded(start: reviews) { cast in
        if let gate { _ = await gate.wait() }
        if failing == "reviews" { throw Failure(description: "no reviews") }
        return "reviews after \(cast)"
      }
      movie.start {
        if failing == "movie" { throw Failure(description: "no movie") }
        return "movie 7"
      }
    }

    var statuses: [LoadStatus<String>] { [movie.value, cast.value, reviews.value] }
  }

  /// Only a `.loading` status becomes idle: a result already shown stays,
  /// as `cancel()`'s documentation says (`reset()` forgets it).
  @Test func cancelAfterTheRequestFinishedKeepsItsStatus() async {
    let load = Load<Int>()
    load.start { 42 }
    await load.waitUntilFinished()
    load.cancel()
    #expect(load.value == .loaded(42))
    load.start { throw Failure(description: "gone") }
    await load.waitUntilFinished()
    load.cancel()
    #expect(load.value == .failed(LoadFailure(message: "gone")))
    load.reset()
    #expect(load.value == .idle)
  }

  @Test func aChainLoadsEachStageAfterThePreviousOne() async {
    let chain = Chain()
    await chain.movie.waitUntilFinished()
    #expect(
      chain.statuses == [
        .loaded("movie 7"), .loaded("cast of movie 7"), .loaded("reviews after cast of movie 7"),
      ])
  }

  @Test(arguments: ["movie", "cast", "reviews"])
  func aFailureSkipsTheRestOfTheChain(stage: String) async {
    let chain = Chain(failingAt: stage)
    await chain.movie.waitUntilFinished()
    let expected: [LoadStatus<String>] =
      switch stage {
      case "movie": [.failed(LoadFailure(message: "no movie")), .idle, .idle]
      case "cast": [.loaded("movie 7"), .failed(LoadFailure(message: "no cast")), .idle]
      default:
        [
          .loaded("movie 7"), .loaded("cast of movie 7"),
          .failed(LoadFailure(message: "no reviews")),
        ]
      }
    #expect(chain.statuses == expected)
  }

  @Test func cancellingMidChainCancelsTheRest() async {
    let gate = Latch()
    let chain = Chain(gate: gate)
    // Wait until the reviews are loading (behind the gate).
    while !chain.reviews.value.isLoading {
      await Task.yield()
    }
    chain.movie.cancel()  // not loading: stays loaded; so cancel the stage that is
    chain.cast.reset()
    #expect(chain.reviews.value == .idle, "resetting the cast skips the reviews")
    gate.open()
    await chain.movie.waitUntilFinished()
    #expect(chain.reviews.value == .idle, "the late reviews were dropped")
  }

  @Test func aReleasedLoadCancelsItsRequest() async {
    let log = EffectLog()
    weak var weakLoad: Load<Int>?
    do {
      let load = Load<Int>()
      weakLoad = load
      load.start {
        await log.append("started")
        let opened = await Latch().wait()
        await log.append(opened ? "finished" : "cancelled")
        return 0
      }
      await log.waitFor("started")
    }
    #expect(weakLoad == nil)
    await log.waitFor("cancelled")
  }

  @Test func waitUntilFinishedWaitsForAReplacedRequestToo() async {
    let load = Load<String>()
    let first = Latch()
    let log = EffectLog()
    load.start {
      await log.append("first started")
      _ = await Task { await first.wait() }.value  // ignores cancellation
      await log.append("first returned")
      return "first"
    }
    await log.waitFor("first started")
    load.start { "second" }
    let waiter = Task { await load.waitUntilFinished() }
    first.open()
    await waiter.value
    #expect(await log.entries == ["first started", "first returned"])
    #expect(load.value == .loaded("second"))
  }
}

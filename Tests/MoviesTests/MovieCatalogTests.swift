import Movies
import POMVVMTesting
import Testing

@MainActor
@Suite("Movie catalog")
struct MovieCatalogTests {
  /// The latency is waited on the catalog's clock: a request answers when
  /// the test moves time past it, not before.
  @Test func aRequestAnswersOnceItsClockPassesTheLatency() async throws {
    let clock = ManualClock()
    let catalog = MovieCatalog(latency: .milliseconds(200), clock: clock)
    var answered: Int?
    let request = Task { @MainActor in
      answered = try await catalog.page(1).movies.count
    }
    await clock.advance(by: .milliseconds(199))
    #expect(answered == nil)
    await clock.advance(by: .milliseconds(1))
    try await request.value
    #expect(answered == 5, "a page of the sample catalog")
    #expect(clock.sleeperCount == 0)
  }
}

import Movies
import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Movies list")
struct MoviesListViewModelTests {
  typealias State = MoviesListViewModel.State
  typealias Event = MoviesListViewModel.Event

  static let first = MoviePage(number: 1, count: 3, movies: [])
  static let second = MoviePage(number: 2, count: 3, movies: [])
  static let last = MoviePage(number: 3, count: 3, movies: [])
  static let failure = LoadFailure(message: "down")

  static let states: [State] = [
    .idle, .loading(page: 2), .loaded(first), .loaded(second), .loaded(last),
    .failed(page: 2, failure),
  ]
  static let events: [Event] = [
    .load, .retry, .next, .previous, .pageLoaded(second), .pageLoaded(last),
    .pageFailed(page: 2, failure), .pageFailed(page: 3, failure),
  ]

  /// Where every state goes on every event; `nil` means it stays.
  static let table: [[State?]] = [
    // load, retry, next, previous, loaded 2, loaded 3, failed 2, failed 3
    [.loading(page: 1), nil, nil, nil, nil, nil, nil, nil],  // idle
    [nil, nil, nil, nil, .loaded(second), nil, .failed(page: 2, failure), nil],  // loading 2
    [nil, nil, .loading(page: 2), nil, nil, nil, nil, nil],  // loaded 1
    [nil, nil, .loading(page: 3), .loading(page: 1), nil, nil, nil, nil],  // loaded 2
    [nil, nil, nil, .loading(page: 2), nil, nil, nil, nil],  // loaded 3
    [nil, .loading(page: 2), nil, nil, nil, nil, nil, nil],  // failed 2
  ]

  @Test func reduceMovesEveryStateOnEveryEventAsTheTableSays() {
    var mismatches: [String] = []
    for (row, state) in Self.states.enumerated() {
      for (column, event) in Self.events.enumerated() {
        var reduced = state
        MoviesListViewModel.reduce(&reduced, event)
        let expected = Self.table[row][column] ?? state
        if reduced != expected {
          mismatches.append("\(state) + \(event): expected \(expected), got \(reduced)")
        }
      }
    }
    #expect(mismatches == [])
  }

  @Test func loadsPagesForwardAndBack() async {
    let list = MoviesListViewModel(catalog: MovieCatalog())
    let view = MoviesListView()
    view.bind(to: list)
    #expect(view.lines == ["Movies: idle"])
    #expect(list.send(.load))
    #expect(view.lines == ["Movies: loading"])
    await list.waitUntilIdle()
    #expect(
      view.lines == [
        "Movies: page 1 of 8",
        "  1. The Quiet Harbor (1957)",
        "  2. The Quiet Signal (1964)",
        "  3. The Quiet Orchard (1971)",
        "  4. The Quiet Lighthouse (1978)",
        "  5. The Quiet Engine (1985)",
      ])
    #expect(!list.send(.previous), "there is no page before the first")
    list.send(.next)
    await list.waitUntilIdle()
    #expect(view.lines.first == "Movies: page 2 of 8")
    #expect(list.movie(atRow: 1)?.title == "The Quiet Garden")
    #expect(list.movie(atRow: 9) == nil)
  }

  @Test func aFailureCanBeRetried() async {
    let catalog = MovieCatalog()
    catalog.failNextRequest()
    let list = MoviesListViewModel(catalog: catalog)
    let view = MoviesListView()
    view.bind(to: list)
    list.send(.load)
    await list.waitUntilIdle()
    #expect(view.lines == ["Movies: error: the catalog is unavailable"])
    #expect(!list.send(.next))
    #expect(list.send(.retry))
    await list.waitUntilIdle()
    #expect(view.lines.first == "Movies: page 1 of 8")
  }

  @Test func releasingTheListCancelsTheLoadUnderWay() async {
    let requested = Latch()
    let log = EffectLog()
    weak var weakList: MoviesListViewModel?
    do {
      let catalog = MovieCatalog(beforeAnswering: { _ in
        requested.open()
        await log.append(await Latch().wait() ? "answered" : "cancelled")
      })
      let list = MoviesListViewModel(catalog: catalog)
      weakList = list
      list.send(.load)
      _ = await requested.wait()
    }
    #expect(weakList == nil)
    await log.waitFor("cancelled")
  }
}

import Movies
import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Movie detail")
struct MovieDetailViewModelTests {
  func detail(_ catalog: MovieCatalog) -> (MovieDetailViewModel, MovieDetailView) {
    let model = MovieDetailViewModel(id: 1, catalog: catalog)
    let view = MovieDetailView()
    view.bind(to: model)
    return (model, view)
  }

  @Test func loadsTheMovieThenItsCastThenItsReviews() async {
    let (model, view) = detail(MovieCatalog())
    #expect(view.lines == ["Movie: loading", "  Cast:    -", "  Reviews: -"])
    await model.waitUntilIdle()
    #expect(
      view.lines == [
        "Movie: The Quiet Harbor (1957)",
        "  Cast:    Hana Sato, Ben Okafor, Gus Lindqvist",
        "  Reviews: ★★☆☆☆ Slow, but it stays with you.",
        "           ★★★★☆ An honest, warm film.",
      ])
  }

  @Test(arguments: [MovieCatalog.Request.movie, .cast, .reviews])
  func aFailingStageSkipsTheRest(stage: MovieCatalog.Request) async {
    let catalog = MovieCatalog()
    catalog.failNextRequest(stage, message: "no \(stage)")
    let (model, view) = detail(catalog)
    await model.waitUntilIdle()
    let expected: [String] =
      switch stage {
      case .movie: ["Movie: error: no movie", "  Cast:    -", "  Reviews: -"]
      case .cast:
        ["Movie: The Quiet Harbor (1957)", "  Cast:    error: no cast", "  Reviews: -"]
      default:
        [
          "Movie: The Quiet Harbor (1957)", "  Cast:    Hana Sato, Ben Okafor, Gus Lindqvist",
          "  Reviews: error: no reviews",
        ]
      }
    #expect(view.lines == expected)
  }

  @Test(arguments: [MovieCatalog.Request.movie, .cast, .reviews])
  func aFailingStagePresentsAnAlertWithRetryAndCancel(stage: MovieCatalog.Request) async {
    let catalog = MovieCatalog()
    catalog.failNextRequest(stage, message: "no \(stage)")
    let (model, _) = detail(catalog)
    #expect(model.alert.destination == nil)
    await model.waitUntilIdle()
    let what =
      switch stage {
      case .movie: "the movie"
      case .cast: "the cast"
      default: "the reviews"
      }
    let alert = model.alert.destination
    #expect(
      alert
        == AlertState(
          title: "Couldn't load \(what)", message: "no \(stage)",
          buttons: [ButtonState("Retry", action: .retry), .cancel()]))
    #expect(model.alert.answer(alert!.buttons[0]) == .retry, "the parent gets Retry")
    #expect(model.alert.destination == nil)
  }

  @Test func leavingMidChainCancelsTheRest() async {
    let castRequested = Latch()
    let releaseCast = Latch()
    let catalog = MovieCatalog(beforeAnswering: { request in
      if request == .cast {
        castRequested.open()
        _ = await releaseCast.wait()
      }
    })
    let (model, view) = detail(catalog)
    _ = await castRequested.wait()
    #expect(view.lines == ["Movie: The Quiet Harbor (1957)", "  Cast:    loading", "  Reviews: -"])
    model.close()
    releaseCast.open()
    await model.waitUntilIdle()
    #expect(view.lines == ["Movie: The Quiet Harbor (1957)", "  Cast:    -", "  Reviews: -"])
  }
}

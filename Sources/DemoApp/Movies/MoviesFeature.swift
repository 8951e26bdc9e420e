import Movies
import POMVVM
import TextUI

/// The movie catalog: a list that loads page by page, fails and retries —
/// a state machine with a feedback effect — and a detail that loads a
/// movie, then its cast, then its reviews, as a chain of requests.
///
/// The catalog is local (no network), with the latency of `--latency MS`;
/// `fail next` makes its next request fail. Script mode waits for each
/// command's requests to finish before printing, so its output is the same
/// on every run; the terminal shows `loading` while they run.
///
/// The list has a search field (`search TEXT`, `/` on the terminal): the
/// catalog is asked 300 ms after the last keystroke, a newer query cancels
/// the request in flight, and an empty query clears the results at once.
/// In a script the 300 ms are virtual: `wait 300ms` lets them pass.
@MainActor
public final class MoviesFeature: DemoFeature {
  /// The name that selects the feature: `movies`.
  public static let name = "movies"

  /// What the feature shows.
  public static let summary =
    "a movie catalog: paged loading, errors and retry, a detail loaded as a chain"

  /// The list screen and its commands.
  public static let listScreen = ScriptScreen(
    name: "movies",
    commands: [
      CommandHelp("load", "load the first page"),
      CommandHelp("retry", "load the page that failed again"),
      CommandHelp("next", "load the next page"),
      CommandHelp("prev", "load the previous page"),
      CommandHelp("open N", "show the movie of row N"),
      CommandHelp("search [TEXT]", "type TEXT in the search field; results load after 300ms"),
      CommandHelp("wait DURATION", "let time pass (virtual in a script): 300ms, 1s"),
      CommandHelp("fail next", "make the catalog's next request fail"),
    ])

  /// The detail screen and its commands.
  public static let detailScreen = ScriptScreen(
    name: "movie",
    commands: [
      CommandHelp("retry", "load the movie, its cast and its reviews again"),
      CommandHelp("back", "go back to the list (cancels what is still loading)"),
      CommandHelp("cancel", "dismiss the alert of a failed load; the error stays shown"),
      CommandHelp("fail next", "make the catalog's next request fail"),
    ])

  /// Both screens.
  public static var screens: [ScriptScreen] { [listScreen, detailScreen] }

  /// The catalog every request goes to.
  public let catalog: MovieCatalog

  /// The list's view model.
  public let movies: MoviesListViewModel

  /// The list screen.
  public let list = MoviesListView()

  /// The search field's view model.
  public let search: MovieSearchViewModel

  /// The search, under the list.
  public let searchView = MovieSearchView()

  /// The search field while the user types in it on the terminal.
  var searchEditor: LineEditor?

  /// The detail screen.
  public let detail = MovieDetailView()

  /// The screens pushed over the list: the detail of the movie open.
  ///
  /// A popped detail is released, and what it still loads with it.
  public let path = StackPath<MovieDetailViewModel>()

  /// The detail's view model, while a movie is open: the top of ``path``.
  var detailViewModel: MovieDetailViewModel? { path.last }

  /// Binds the detail screen to the top of ``path``.
  private var navigation: Subscription?

  /// The selected row on the terminal.
  var cursor = ListCursor()

  /// Creates the feature on the list, idle.
  ///
  /// - Parameter environment: The latency of the catalog's requests.
  public init(environment: FeatureEnvironment) {
    catalog = MovieCatalog(latency: environment.latency)
    movies = MoviesListViewModel(catalog: catalog)
    search = MovieSearchViewModel(catalog: catalog, clock: environment.clock)
    list.bind(to: movies)
    searchView.bind(to: search)
    navigation = path.observeChanges { [weak self] _ in self?.followPath() }
  }

  /// Binds the detail screen to the movie on top of the stack, or unbinds
  /// it when the list shows.
  private func followPath() {
    if let top = path.last {
      if detail.viewModel !== top { detail.bind(to: top) }
    } else {
      detail.unbind()
    }
  }

  /// The screen showing now.
  public var currentScreen: ScriptScreen {
    detailViewModel == nil ? Self.listScreen : Self.detailScreen
  }

  /// The screen as text: the list, or the detail with its failed-load
  /// alert under it.
  public var lines: [String] {
    guard let detailViewModel else { return list.lines + searchView.lines }
    guard let alert = detailViewModel.alert.destination else { return detail.lines }
    var lines = detail.lines + ["", "  \(alert.title.withVisibleControlCharacters)"]
    if let message = alert.message { lines.append("  \(message.withVisibleControlCharacters)") }
    lines.append("  " + alert.buttons.map { "[\($0.label)]" }.joined(separator: " "))
    return lines
  }

  /// Answers the failed-load alert: Retry loads the movie again; Cancel
  /// dismisses the alert and leaves the error shown.
  func answer(_ button: ButtonState<MovieDetailViewModel.AlertAction>) {
    switch detailViewModel?.alert.answer(button) {
    case .retry?: retryDetail()
    case nil: break
    }
  }

  /// Waits until the list's and the detail's requests have finished.
  public func settle() async {
    await movies.waitUntilIdle()
    await search.waitUntilIdle()
    await detailViewModel?.waitUntilIdle()
  }

  /// Whether a request is loading.
  public var hasPendingWork: Bool {
    if case .loading = movies.state.value { return true }
    if search.isBusy { return true }
    guard let detailViewModel else { return false }
    return detailViewModel.movie.value.isLoading || detailViewModel.cast.value.isLoading
      || detailViewModel.reviews.value.isLoading
  }

  /// The rows of the page shown, or 0.
  var rowCount: Int {
    if case .loaded(let page) = movies.state.value { page.movies.count } else { 0 }
  }

  /// Opens the movie of a row.
  func open(row index: Int) {
    guard let movie = movies.movie(atRow: index + 1) else { return }
    path.push(MovieDetailViewModel(id: movie.id, catalog: catalog))
  }

  /// Leaves the detail, cancelling what it still loads.
  func back() {
    detailViewModel?.close()
    path.pop()
  }

  /// Loads the open movie again, from the start of its chain.
  func retryDetail() {
    guard let open = detailViewModel else { return }
    open.close()
    path.pop()
    path.push(MovieDetailViewModel(id: open.id, catalog: catalog))
  }
}

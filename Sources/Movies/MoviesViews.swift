import POMVVM

/// The movie list, rendered as text.
///
/// ```
/// Movies: page 1 of 8
///   1. The Quiet Harbor (1957)
///   2. The Quiet Signal (1964)
/// ```
///
/// The first line is `Movies: idle`, `Movies: loading`, `Movies: error:
/// MESSAGE` or `Movies: page P of N`.
@MainActor
public final class MoviesListView: BindableView {
  /// The list the view shows.
  public var viewModel: MoviesListViewModel?

  /// The tokens of the view's current binding.
  public let bindings = SubscriptionBag()

  /// The lines of text, kept up to date from the list's state.
  public let text = Observable<[String]>([])

  /// Creates an unbound view.
  public init() {}

  /// Renders the list's state whenever it changes.
  ///
  /// - Parameter viewModel: The list's view model.
  /// - Returns: The binding tokens.
  public func makeBindings(to viewModel: MoviesListViewModel) -> [any SubscriptionToken] {
    [viewModel.state.map(Self.render).bind(to: text)]
  }

  /// The list as lines of text.
  public var lines: [String] { text.value }

  static func render(_ state: MoviesListViewModel.State) -> [String] {
    switch state {
    case .idle: ["Movies: idle"]
    case .loading: ["Movies: loading"]
    case .failed(_, let failure): ["Movies: error: \(failure)"]
    case .loaded(let page):
      ["Movies: page \(page.number) of \(page.count)"]
        + page.movies.enumerated().map {
          "  \($0.offset + 1). \($0.element.title) (\($0.element.year))"
        }
    }
  }
}

/// A movie's detail, rendered as text.
///
/// ```
/// Movie: The Quiet Harbor (1957)
///   Cast:    Hana Sato, Ben Okafor, Gus Lindqvist
///   Reviews: ★★☆☆☆ Slow, but it stays with you.
///            ★★★★☆ An honest, warm film.
/// ```
///
/// Each line shows its stage's status: `loading`, `error: MESSAGE`, or `-`
/// when the stage was skipped or has not started.
@MainActor
public final class MovieDetailView: BindableView {
  /// The detail the view shows.
  public var viewModel: MovieDetailViewModel?

  /// The tokens of the view's current binding.
  public let bindings = SubscriptionBag()

  /// The movie line.
  public let movieLine = Observable("")

  /// The cast line.
  public let castLine = Observable("")

  /// The review lines.
  public let reviewLines = Observable<[String]>([])

  /// Creates an unbound view.
  public init() {}

  /// Renders each stage's status whenever it changes.
  ///
  /// - Parameter viewModel: The detail's view model.
  /// - Returns: The binding tokens.
  public func makeBindings(to viewModel: MovieDetailViewModel) -> [any SubscriptionToken] {
    [
      viewModel.movie.map { Self.describe($0) { "\($0.title) (\($0.year))" } }.bind(to: movieLine),
      viewModel.cast.map { Self.describe($0) { $0.joined(separator: ", ") } }.bind(to: castLine),
      viewModel.reviews.map { status in
        guard case .loaded(let reviews) = status else { return [Self.describe(status) { _ in "" }] }
        return reviews.isEmpty
          ? ["none"]
          : reviews.map {
            String(repeating: "★", count: $0.stars) + String(repeating: "☆", count: 5 - $0.stars)
              + " " + $0.text
          }
      }.bind(to: reviewLines),
    ]
  }

  /// The detail as lines of text.
  public var lines: [String] {
    let reviews = reviewLines.value
    return [
      "Movie: \(movieLine.value)",
      "  Cast:    \(castLine.value)",
      "  Reviews: \(reviews.first ?? "")",
    ] + reviews.dropFirst().map { "           \($0)" }
  }

  static func describe<Value>(_ status: LoadStatus<Value>, _ show: (Value) -> String) -> String {
    switch status {
    case .idle: "-"
    case .loading: "loading"
    case .loaded(let value): show(value)
    case .failed(let failure): "error: \(failure)"
    }
  }
}

/// The movie search, rendered as text under the list; nothing while the
/// query is empty.
///
/// ```
/// Search "harbor": 6 found
///   - The Quiet Harbor (1957)
///   - A Distant Harbor (1999)
/// ```
///
/// The first line ends with `waiting` while the user types, `searching`
/// while the catalog is asked, the number found, or `error: MESSAGE`.
@MainActor
public final class MovieSearchView: BindableView {
  /// The search the view shows.
  public var viewModel: MovieSearchViewModel?

  /// The tokens of the view's current binding.
  public let bindings = SubscriptionBag()

  /// The lines of text, kept up to date from the search's results.
  public let text = Observable<[String]>([])

  /// How many movies found are listed; the rest are counted.
  public static let shownResults = 5

  /// Creates an unbound view.
  public init() {}

  /// Renders the search's results whenever they change.
  ///
  /// - Parameter viewModel: The search's view model.
  /// - Returns: The binding tokens.
  public func makeBindings(to viewModel: MovieSearchViewModel) -> [any SubscriptionToken] {
    [viewModel.results.map(Self.render).bind(to: text)]
  }

  /// The search as lines of text.
  public var lines: [String] { text.value }

  static func render(_ results: MovieSearchViewModel.Results) -> [String] {
    switch results {
    case .idle: return []
    case .waiting(let query): return ["Search \"\(query)\": waiting"]
    case .searching(let query): return ["Search \"\(query)\": searching"]
    case .failed(let query, let failure): return ["Search \"\(query)\": error: \(failure)"]
    case .found(let query, let movies):
      guard !movies.isEmpty else { return ["Search \"\(query)\": no movie found"] }
      let more = movies.count - shownResults
      return ["Search \"\(query)\": \(movies.count) found"]
        + movies.prefix(shownResults).map { "  - \($0.title) (\($0.year))" }
        + (more > 0 ? ["  … and \(more) more"] : [])
    }
  }
}

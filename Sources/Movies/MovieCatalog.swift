import POMVVM

/// Why the catalog did not answer.
public struct CatalogError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public let message: String

  /// Creates an error.
  ///
  /// - Parameter message: What went wrong.
  public init(_ message: String) {
    self.message = message
  }

  /// The message.
  public var description: String { message }
}

/// A local movie catalog, standing in for a network service: it answers
/// after an injectable latency, and fails on request.
///
/// ```swift
/// let catalog = MovieCatalog(latency: .milliseconds(200))
/// let page = try await catalog.page(1)
/// catalog.failNextRequest()
/// _ = try await catalog.movie(id: 1)   // throws "the catalog is unavailable"
/// ```
///
/// Every request is cancellable: a cancelled request throws
/// `CancellationError` instead of answering.
public actor MovieCatalog {
  /// The kinds of request the catalog answers.
  public enum Request: Hashable, Sendable {
    /// A page of movies.
    case page
    /// One movie.
    case movie
    /// A movie's cast.
    case cast
    /// A movie's reviews.
    case reviews
    /// A search by title.
    case search
  }

  /// How many movies a page holds.
  public let pageSize: Int

  private let movies: [Movie]
  private let latency: Duration
  private let clock: any Clock<Duration>
  private let beforeAnswering: (@Sendable (Request) async throws -> Void)?
  /// Failures asked for and not used yet; a lock, not the actor, guards
  /// them, so that asking takes effect at once, before any request that
  /// follows.
  private let pendingFailures = _Locked<[(kind: Request?, message: String)]>([])

  /// Creates a catalog.
  ///
  /// - Parameters:
  ///   - movies: The movies; the sample catalog by default.
  ///   - latency: How long every request takes.
  ///   - clock: The clock the latency is waited on; by default, a
  ///     `ContinuousClock`. Tests pass a `ManualClock` to decide when a
  ///     request answers.
  ///   - pageSize: How many movies a page holds.
  ///   - beforeAnswering: Runs before each request is answered, for tests
  ///     that hold a request until they are ready; an error it throws fails
  ///     the request.
  public init(
    movies: [Movie] = MovieCatalog.sample, latency: Duration = .zero,
    clock: any Clock<Duration> = ContinuousClock(), pageSize: Int = 5,
    beforeAnswering: (@Sendable (Request) async throws -> Void)? = nil
  ) {
    self.movies = movies
    self.latency = latency
    self.clock = clock
    self.pageSize = max(1, pageSize)
    self.beforeAnswering = beforeAnswering
  }

  /// Makes the next request fail — the next of any kind, or the next of one
  /// kind.
  ///
  /// It takes effect at once: a request made after this call returns fails.
  ///
  /// - Parameters:
  ///   - kind: The kind of request to fail; `nil` fails the next request,
  ///     whatever it is.
  ///   - message: The error's message.
  nonisolated public func failNextRequest(
    _ kind: Request? = nil, message: String = "the catalog is unavailable"
  ) {
    pendingFailures.withLock { $0.append((kind, message)) }
  }

  /// How many injected failures wait for a request, for a screen that
  /// shows that the next request will fail.
  nonisolated public var pendingFailureCount: Int {
    pendingFailures.withLock { $0.count }
  }

  /// How many pages the catalog has.
  public var pageCount: Int { max(1, (movies.count + pageSize - 1) / pageSize) }

  /// One page of movies.
  ///
  /// - Parameter number: The page, from 1.
  /// - Returns: The page.
  /// - Throws: ``CatalogError`` for a page that does not exist or an injected
  ///   failure; `CancellationError` if the request was cancelled.
  public func page(_ number: Int) async throws -> MoviePage {
    try await answer(.page)
    guard (1...pageCount).contains(number) else {
      throw CatalogError("there is no page \(number): pages 1-\(pageCount)")
    }
    let start = (number - 1) * pageSize
    return MoviePage(
      number: number, count: pageCount,
      movies: Array(movies[start..<min(start + pageSize, movies.count)]))
  }

  /// The movies whose title contains `text`, ignoring case, in catalog
  /// order.
  ///
  /// - Parameter text: What to look for; surrounding spaces are ignored.
  /// - Returns: The matching movies; none for a blank `text`.
  /// - Throws: An injected failure; `CancellationError` if the request was
  ///   cancelled.
  public func search(_ text: String) async throws -> [Movie] {
    try await answer(.search)
    let needle = text.trimmingSpaces.lowercased()
    guard !needle.isEmpty else { return [] }
    return movies.filter { $0.title.lowercased().contains(needle) }
  }

  /// A movie by id.
  ///
  /// - Parameter id: The movie's id.
  /// - Returns: The movie.
  /// - Throws: ``CatalogError`` for an unknown id or an injected failure;
  ///   `CancellationError` if the request was cancelled.
  public func movie(id: Int) async throws -> Movie {
    try await answer(.movie)
    guard let movie = movies.first(where: { $0.id == id }) else {
      throw CatalogError("there is no movie \(id)")
    }
    return movie
  }

  /// A movie's cast.
  ///
  /// - Parameter id: The movie's id.
  /// - Returns: The names of the cast, leading roles first.
  /// - Throws: ``CatalogError`` for an injected failure; `CancellationError`
  ///   if the request was cancelled.
  public func cast(of id: Int) async throws -> [String] {
    try await answer(.cast)
    let names = Self.castNames
    return (0..<3).map { names[(id * 7 + $0 * 5) % names.count] }
  }

  /// A movie's reviews.
  ///
  /// - Parameter id: The movie's id.
  /// - Returns: The reviews.
  /// - Throws: ``CatalogError`` for an injected failure; `CancellationError`
  ///   if the request was cancelled.
  public func reviews(of id: Int) async throws -> [Review] {
    try await answer(.reviews)
    let texts = Self.reviewTexts
    return (0..<2).map {
      Review(stars: 1 + (id + $0 * 2) % 5, text: texts[(id + $0 * 3) % texts.count])
    }
  }

  /// Waits the latency, then fails if a failure was requested for this
  /// kind of request.
  private func answer(_ request: Request) async throws {
    if latency > .zero {
      try await clock.sleep(for: latency)
    }
    try await beforeAnswering?(request)
    try Task.checkCancellation()
    let failure = pendingFailures.withLock { failures in
      failures.firstIndex { $0.kind == nil || $0.kind == request }.map { failures.remove(at: $0) }
    }
    if let failure {
      throw CatalogError(failure.message)
    }
  }
}

extension MovieCatalog {
  /// The sample catalog: three dozen made-up movies.
  public static let sample: [Movie] = {
    let openings = ["The Quiet", "A Distant", "Midnight", "The Last", "Paper", "Northern"]
    let subjects = ["Harbor", "Signal", "Orchard", "Lighthouse", "Engine", "Garden"]
    return openings.enumerated().flatMap { row, opening in
      subjects.enumerated().map { column, subject in
        let id = row * subjects.count + column + 1
        return Movie(id: id, title: "\(opening) \(subject)", year: 1950 + (id * 7) % 70)
      }
    }
  }()

  static let castNames = [
    "Ada Park", "Ben Okafor", "Chloé Martin", "Dmitri Volkov", "Elena Ruiz", "Farah Haddad",
    "Gus Lindqvist", "Hana Sato", "Ivo Novak", "Jade Moreau", "Kofi Mensah",
  ]

  static let reviewTexts = [
    "A quiet triumph.", "Slow, but it stays with you.", "Too long by half.",
    "The score does the heavy lifting.", "An honest, warm film.", "Beautiful and empty.",
    "Worth it for the last ten minutes.",
  ]
}

extension String {
  /// The text without leading and trailing spaces.
  var trimmingSpaces: String {
    String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
  }
}

import POMVVM

/// The view model of a movie's detail: the movie, then its cast, then its
/// reviews, loaded as a chain, each with its own status.
///
/// A stage that fails skips the rest of the chain. Leaving the detail
/// (``close()``, or releasing the view model) cancels what is still
/// loading.
@MainActor
public final class MovieDetailViewModel: ViewModel {
  /// The id of the movie shown.
  public let id: Int

  /// The movie.
  public let movie = Load<Movie>()

  /// The movie's cast, loaded once the movie has arrived.
  public let cast = Load<[String]>()

  /// The movie's reviews, loaded once the cast has arrived.
  public let reviews = Load<[Review]>()

  /// Creates the detail of a movie and starts loading it.
  ///
  /// - Parameters:
  ///   - id: The movie's id.
  ///   - catalog: Where the movie comes from.
  public init(id: Int, catalog: MovieCatalog) {
    self.id = id
    movie.whenLoaded(start: cast) { movie in try await catalog.cast(of: movie.id) }
    cast.whenLoaded(start: reviews) { [id] _ in try await catalog.reviews(of: id) }
    movie.start { try await catalog.movie(id: id) }
  }

  /// Leaves the detail: cancels whatever is still loading.
  public func close() {
    movie.cancel()
    cast.cancel()
    reviews.cancel()
  }

  /// Waits until every stage has finished, failed or been skipped.
  public func waitUntilIdle() async {
    await movie.waitUntilFinished()
  }
}

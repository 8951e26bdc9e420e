import POMVVM

/// The view model of a movie's detail: the movie, then its cast, then its
/// reviews, loaded as a chain, each with its own status.
///
/// A stage that fails skips the rest of the chain. Leaving the detail
/// (``close()``, or releasing the view model) cancels what is still
/// loading.
@MainActor
public final class MovieDetailViewModel: ViewModel, SubscriptionOwner, Dismissible {
  /// What the failed-load alert asks the parent to do.
  public enum AlertAction: Hashable, Sendable {
    /// Load the movie again, from the start of its chain.
    case retry
  }

  /// The id of the movie shown.
  public let id: Int

  /// The failed-load alert, presented when a stage fails: Retry (its
  /// action goes to the parent) and Cancel (which only dismisses it).
  public let alert = Presentation<AlertState<AlertAction>>()

  /// The observations of the stages, which present the alert.
  public let subscriptions = SubscriptionBag()

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
    movie.observeChanges(self) { detail, status in detail.alertIfFailed(status, "the movie") }
    cast.observeChanges(self) { detail, status in detail.alertIfFailed(status, "the cast") }
    reviews.observeChanges(self) { detail, status in detail.alertIfFailed(status, "the reviews") }
  }

  private func alertIfFailed<Value>(_ status: LoadStatus<Value>, _ what: String) {
    guard case .failed(let failure) = status else { return }
    alert.present(
      AlertState(
        title: "Couldn't load \(what)", message: "\(failure)",
        buttons: [ButtonState("Retry", action: .retry), .cancel()]))
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

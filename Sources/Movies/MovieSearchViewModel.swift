import POMVVM

/// The movie search field: as the user types, the catalog is asked 300 ms
/// after the last keystroke; a newer query cancels the request in flight,
/// and an empty query clears the results at once.
///
/// ```swift
/// let search = MovieSearchViewModel(catalog: catalog, clock: clock)
/// search.query.value = "d"
/// search.query.value = "dist"       // nothing asked yet
/// // 300 ms later: results == .searching("dist"), then .found("dist", [...])
/// ```
///
/// The debounce is the kit's ``POMVVM/ObservableCell/debounced(for:clock:fileID:line:)``
/// and the request an ``POMVVM/Effects`` operation under the id `"search"`
/// with `cancelInFlight`: the same pair as a TCA search screen's debounced
/// action and cancellable effect.
@MainActor
public final class MovieSearchViewModel: ViewModel {
  /// What the search shows.
  public enum Results: Hashable, Sendable {
    /// No query: nothing to show.
    case idle
    /// The query is typed; the catalog is not asked until the typing stops.
    case waiting(String)
    /// The catalog is asked.
    case searching(String)
    /// The movies found for a query.
    case found(String, [Movie])
    /// Asking the catalog failed.
    case failed(String, LoadFailure)
  }

  /// How long the query must stay unchanged before the catalog is asked.
  public static let debounce = Duration.milliseconds(300)

  /// The search field's text.
  public let query = Observable("").labelled("search query")

  /// The query once the typing stopped: ``query`` debounced by 300 ms.
  public let settledQuery: Derived<String>

  /// What the search shows.
  public let results = Observable(Results.idle).labelled("search results")

  /// The requests, under the id `"search"`.
  public let effects = Effects()

  private let catalog: MovieCatalog
  private var subscriptions: [Subscription] = []

  /// Creates an empty search.
  ///
  /// - Parameters:
  ///   - catalog: Where the movies come from.
  ///   - clock: The clock the debounce waits on; a test passes a manual
  ///     clock, script mode a virtual one.
  public init(catalog: MovieCatalog, clock: some Clock<Duration> = ContinuousClock()) {
    self.catalog = catalog
    settledQuery = query.debounced(for: Self.debounce, clock: clock)
    subscriptions = [
      query.observeChanges { [weak self] in self?.typed($0) },
      settledQuery.observeChanges { [weak self] in self?.search($0) },
    ]
  }

  /// Whether a request runs, or the typing has not settled yet.
  public var isBusy: Bool {
    switch results.value {
    case .waiting, .searching: true
    default: false
    }
  }

  /// Waits until the request in flight, if any, has answered.
  public func waitUntilIdle() async {
    await effects.waitUntilIdle()
  }

  private func typed(_ text: String) {
    guard !text.trimmingSpaces.isEmpty else {
      effects.cancel(id: "search")
      results.value = .idle
      return
    }
    if text != settledQuery.value {
      results.value = .waiting(text)
    }
  }

  private func search(_ text: String) {
    guard !text.trimmingSpaces.isEmpty else { return }
    results.value = .searching(text)
    effects.run(id: "search", cancelInFlight: true) { [weak self, catalog] in
      let outcome: Results
      do {
        outcome = .found(text, try await catalog.search(text))
      } catch is CancellationError {
        return
      } catch {
        outcome = .failed(text, LoadFailure(error))
      }
      // A newer query cancelled this request while it ran: drop its answer.
      try Task.checkCancellation()
      self?.results.value = outcome
    }
  }
}

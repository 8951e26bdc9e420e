import POMVVM

/// The movie list's view model: the list as a state machine that loads a
/// page, shows it or an error, retries, and pages forward and back.
///
/// The loading itself is a feedback effect keyed on the page being loaded:
/// it starts when the state enters `.loading(page:)` and is cancelled if the
/// state leaves it first, so a late answer never lands on another page.
@MainActor
public final class MoviesListViewModel: ViewModel {
  /// Where the list is.
  public enum State: Hashable, Sendable {
    /// Nothing loaded yet.
    case idle
    /// A page is loading.
    case loading(page: Int)
    /// A page is shown.
    case loaded(MoviePage)
    /// Loading a page failed.
    case failed(page: Int, LoadFailure)
  }

  /// What can happen to the list.
  public enum Event: Hashable, Sendable {
    /// The screen appeared: load the first page.
    case load
    /// Try the failed page again.
    case retry
    /// Show the next page.
    case next
    /// Show the previous page.
    case previous
    /// A page arrived.
    case pageLoaded(MoviePage)
    /// Loading a page failed.
    case pageFailed(page: Int, LoadFailure)
  }

  /// The pure transition function: every state and event, and where they
  /// lead.
  ///
  /// Events that make no sense in a state leave it unchanged.
  ///
  /// - Parameters:
  ///   - state: The state, changed in place.
  ///   - event: What happened.
  public static func reduce(_ state: inout State, _ event: Event) {
    switch (state, event) {
    case (.idle, .load):
      state = .loading(page: 1)
    case (.failed(let page, _), .retry):
      state = .loading(page: page)
    case (.loaded(let page), .next) where page.number < page.count:
      state = .loading(page: page.number + 1)
    case (.loaded(let page), .previous) where page.number > 1:
      state = .loading(page: page.number - 1)
    case (.loading(let number), .pageLoaded(let page)) where page.number == number:
      state = .loaded(page)
    case (.loading(let number), .pageFailed(let failed, let failure)) where failed == number:
      state = .failed(page: number, failure)
    default:
      break
    }
  }

  private let machine: StateMachine<State, Event>

  /// Creates the list over a catalog.
  ///
  /// - Parameter catalog: Where the movies come from.
  public init(catalog: MovieCatalog) {
    machine = StateMachine(
      initial: .idle, reduce: Self.reduce,
      feedbacks: [
        .effect(whenever: { state -> Int? in
          if case .loading(let page) = state { page } else { nil }
        }) { page in
          do {
            return .pageLoaded(try await catalog.page(page))
          } catch is CancellationError {
            return nil
          } catch {
            return .pageFailed(page: page, LoadFailure(error))
          }
        }
      ])
    machine.state.labelled("catalog state")
  }

  /// The list's state, as a cell that views observe.
  public var state: Derived<State> { machine.state }

  /// Sends an event, if it makes sense in the current state.
  ///
  /// - Parameter event: What the user did.
  /// - Returns: `false` if the event would change nothing (it is not sent).
  @discardableResult
  public func send(_ event: Event) -> Bool {
    var next = state.value
    Self.reduce(&next, event)
    guard next != state.value else { return false }
    machine.send(event)
    return true
  }

  /// The movie at a row of the shown page.
  ///
  /// - Parameter row: The row, from 1 as displayed.
  /// - Returns: The movie, or `nil` if no page is shown or the row does not
  ///   exist.
  public func movie(atRow row: Int) -> Movie? {
    guard case .loaded(let page) = state.value, page.movies.indices.contains(row - 1) else {
      return nil
    }
    return page.movies[row - 1]
  }

  /// Waits until the page being loaded has arrived or failed.
  public func waitUntilIdle() async {
    await machine.waitUntilIdle()
  }
}

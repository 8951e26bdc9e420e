import Movies
import POMVVMTesting
import Testing

/// The movie list under the state recorder: a load's states, in order.
@MainActor
@Suite("Movies, every change")
struct MoviesRecorderTests {
  @Test func aLoadGoesThroughLoadingToLoadedAndNothingElse() async throws {
    let catalog = MovieCatalog()
    let first = try await catalog.page(1)
    let list = MoviesListViewModel(catalog: catalog)
    let recorder = StateRecorder(of: list)
    await recorder.perform {
      list.send(.load)
      await list.waitUntilIdle()
    } expecting: {
      $0.changed(\.state, to: .loading(page: 1))
      $0.changed(\.state, to: .loaded(first))
    }
    recorder.finish()
  }

  @Test func aFailedLoadThenARetryGoThroughEveryStateInOrder() async throws {
    let catalog = MovieCatalog()
    let first = try await catalog.page(1)
    catalog.failNextRequest()
    let list = MoviesListViewModel(catalog: catalog)
    let recorder = StateRecorder(of: list)
    await recorder.perform {
      list.send(.load)
      await list.waitUntilIdle()
    } expecting: {
      $0.changed(\.state, to: .loading(page: 1))
      $0.changed(\.state) {
        if case .failed(page: 1, _) = $0 { true } else { false }
      }
    }
    await recorder.perform {
      list.send(.retry)
      await list.waitUntilIdle()
    } expecting: {
      $0.changed(\.state, to: .loading(page: 1))
      $0.changed(\.state, to: .loaded(first))
    }
    recorder.finish()
  }

  @Test func aPageThatArrivesAfterTheStepIsCaughtByTheNextOne() async throws {
    let catalog = MovieCatalog()
    let first = try await catalog.page(1)
    let list = MoviesListViewModel(catalog: catalog)
    let recorder = StateRecorder(of: list)
    recorder.perform {
      list.send(.load)
    } expecting: {
      $0.changed(\.state, to: .loading(page: 1))
    }
    await recorder.perform {
      await list.waitUntilIdle()
    } expecting: {
      $0.changed(\.state, to: .loaded(first))
    }
    recorder.finish()
  }
}

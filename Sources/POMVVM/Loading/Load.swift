/// A request's status as a cell, with the request's task: start it, cancel
/// it, chain another request to it.
///
/// A view model exposes its loads so that views observe their status; the
/// requests themselves stay inside the view model:
///
/// ```swift
/// let movie = Load<Movie>()
/// let cast = Load<[CastMember]>()
/// movie.whenLoaded(start: cast) { movie in try await catalog.cast(of: movie.id) }
/// movie.start { try await catalog.movie(id: 7) }   // then the cast loads
/// ```
///
/// Starting a load cancels the request under way; a result that arrives
/// after its request was cancelled or replaced is dropped. Loads end their
/// requests when they are deallocated, and when the screen of the view
/// model that holds them leaves a ``StackPath`` or a ``Presentation`` (the
/// status then stays as it was).
@MainActor
public final class Load<Value: Sendable>: ObservableCell {
  private let storage: Observable<LoadStatus<Value>>
  private var task: Task<Void, Never>?
  private var generation: UInt64 = 0
  /// A request that has not returned yet.
  private struct Request {
    let task: Task<Void, Never>
    let fileID: StaticString
    let line: UInt
  }
  /// Every request started and not returned, current or replaced, by
  /// generation.
  private var requests: [UInt64: Request] = [:]
  private var chains: [Subscription] = []
  private var chainedWaits: [@MainActor () async -> Void] = []
  /// The dependencies in effect where the load was made, which its
  /// requests see, under those in effect where each is started.
  let _madeWithDependencies = DependencyValues.current

  /// Creates an idle load.
  ///
  /// - Parameters:
  ///   - fileID: Where the load is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the load is made; by default, the caller's line.
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    storage = Observable(.idle, fileID: fileID, line: line)
  }

  isolated deinit {
    for request in requests.values { request.task.cancel() }
  }

  /// The current status.
  public var value: LoadStatus<Value> { storage.value }

  /// Starts a request, cancelling the one under way: the status becomes
  /// ``LoadStatus/loading``, then ``LoadStatus/loaded(_:)`` or
  /// ``LoadStatus/failed(_:)``.
  ///
  /// The load runs `operation` in a `Task`, not a detached one: it inherits
  /// the caller's task-local values and priority, so dependencies injected
  /// through task locals reach it, and under Swift Testing an issue it
  /// records belongs to the test that started it. `operation` is an `async`
  /// closure, so it runs where its own isolation says: a plain closure, like
  /// the request of a service, runs off the main actor (on the global
  /// concurrent executor, or on an actor it calls); one written
  /// `{ @MainActor in … }` runs on the main actor. The status is always
  /// updated on the main actor: ``LoadStatus/loading`` at once, the outcome
  /// when `operation` returns or throws.
  ///
  /// POMVVMTesting's `StateRecorder.finish()` names a request that has not
  /// returned (a replaced or cancelled one included) by the line that
  /// started it, and `ManualClock.advance` waits for it to finish or sleep
  /// on a clock.
  ///
  /// - Parameters:
  ///   - fileID: Where the request is started, for reports; by default, the
  ///     caller's file.
  ///   - line: Where the request is started; by default, the caller's line.
  ///   - operation: The request. It is cancelled (through its task's
  ///     cancellation) when the load is cancelled, restarted or deallocated.
  public func start(
    fileID: StaticString = #fileID, line: UInt = #line,
    _ operation: @escaping @Sendable () async throws -> Value
  ) {
    if _refusesCancelledWrite(to: storage) { return }
    task?.cancel()
    generation += 1
    let current = generation
    storage.value = .loading
    let entry = _KitTask.begin("load request (started at \(_fileName(fileID)):\(line))")
    let task = _madeWithDependencies.whileCurrent {
      Task { [weak self] in
        await entry.run {
          let result: LoadStatus<Value>
          do {
            result = .loaded(try await operation())
          } catch {
            result = .failed(LoadFailure(error))
          }
          self?.finish(current, with: result)
        }
      }
    }
    self.task = task
    requests[current] = Request(task: task, fileID: fileID, line: line)
  }

  /// Cancels the request under way, if any.
  ///
  /// A ``LoadStatus/loading`` status becomes ``LoadStatus/idle``; a
  /// finished one, ``LoadStatus/loaded(_:)`` or ``LoadStatus/failed(_:)``,
  /// stays as it is (``reset()`` forgets it).
  public func cancel() {
    if _refusesCancelledWrite(to: storage) { return }
    task?.cancel()
    task = nil
    generation += 1
    if storage.value.isLoading {
      storage.value = .idle
    }
  }

  /// Forgets the result and cancels any request: the status becomes
  /// ``LoadStatus/idle``.
  public func reset() {
    if _refusesCancelledWrite(to: storage) { return }
    cancel()
    storage.value = .idle
  }

  /// Waits until every request this load started has returned — the
  /// current one, and those that a newer ``start(fileID:line:_:)`` or
  /// ``cancel()`` replaced, whose cleanup may still run — and the requests
  /// chained to it, as ``Effects/waitUntilIdle()`` waits for every
  /// operation.
  public func waitUntilFinished() async {
    repeat {
      while let (generation, request) = requests.min(by: { $0.key < $1.key }) {
        await request.task.value
        requests[generation] = nil
      }
      for wait in chainedWaits {
        await wait()
      }
    } while !requests.isEmpty
  }

  /// Chains a request to this one: it starts when this one succeeds, with
  /// its value; when this one starts again, fails or is cancelled, the
  /// chained request is cancelled and its status is ``LoadStatus/idle``
  /// (skipped).
  ///
  /// The chain lives as long as this load; the next load is kept alive by
  /// it.
  ///
  /// - Parameters:
  ///   - next: The load of the chained request.
  ///   - fileID: Where the chain is made, which names its requests in
  ///     reports; by default, the caller's file.
  ///   - line: Where the chain is made; by default, the caller's line.
  ///   - operation: The chained request, given this request's value.
  public func whenLoaded<Next: Sendable>(
    start next: Load<Next>, fileID: StaticString = #fileID, line: UInt = #line,
    _ operation: @escaping @Sendable (Value) async throws -> Next
  ) {
    chainedWaits.append { await next.waitUntilFinished() }
    chains.append(
      storage.observeChanges { status in
        if case .loaded(let value) = status {
          next.start(fileID: fileID, line: line) { try await operation(value) }
        } else {
          next.reset()
        }
      })
  }

  /// Calls `handler` with the current status now, then with every change.
  ///
  /// - Parameter handler: Called on the main actor with each status.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @MainActor (LoadStatus<Value>) -> Void)
    -> Subscription
  {
    storage.observe(handler)
  }

  /// Calls `handler` with every change of the status from now on.
  ///
  /// - Parameter handler: Called on the main actor with each new status.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observeChanges(_ handler: @escaping @MainActor (LoadStatus<Value>) -> Void)
    -> Subscription
  {
    storage.observeChanges(handler)
  }

  private func finish(_ finished: UInt64, with result: LoadStatus<Value>) {
    requests[finished] = nil
    guard finished == generation else { return }
    task = nil
    storage.value = result
  }
}

extension Load: _GraphCell {
  var _graphList: _ObserverListBase { storage }
}

extension Load: _DependencyCarrier {}

extension Load: _ScreenWorkOwner {
  /// Cancels every request and drops its result; the status stays as it
  /// was (the screen that showed it has left).
  func _endScreenWork() {
    task = nil
    generation += 1
    for request in requests.values { request.task.cancel() }
  }
}

extension Load: _PendingWorkOwner {
  package var _pendingDescriptions: [String] {
    requests.sorted { $0.key < $1.key }.map { generation, request in
      "request (started at \(_fileName(request.fileID)):\(request.line)"
        + (generation == self.generation ? ")" : ", cancelled, not returned)")
    }
  }

  package func _cancelPendingWork() {
    cancel()
    for request in requests.values { request.task.cancel() }
  }
}

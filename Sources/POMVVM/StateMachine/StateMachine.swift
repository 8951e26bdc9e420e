/// A state machine a view model owns: the UI as a finite set of states, a
/// pure `reduce` that moves between them on events, and feedback effects
/// for everything that is not pure.
///
/// ```swift
/// let machine = StateMachine<State, Event>(
///   initial: .idle,
///   reduce: { state, event in
///     switch (state, event) {
///     case (.idle, .appeared), (.failed, .retry): state = .loading
///     case (.loading, .loaded(let movies)): state = .loaded(movies)
///     case (.loading, .failed(let failure)): state = .failed(failure)
///     default: break
///     }
///   },
///   feedbacks: [
///     .effect(whenever: { $0 == .loading ? true : nil }) { _ in await load() }
///   ])
/// machine.send(.appeared)
/// ```
///
/// ## Semantics
///
/// - ``state`` is a cell: views observe or bind it.
/// - Events are reduced one at a time, in the order they were sent. An event
///   sent while another is being reduced — by an observer of the state, or by
///   an effect — is queued, never lost, never reduced concurrently.
/// - After every event, each feedback's key is computed from the new state.
///   An effect starts when its key becomes non-`nil`, and is cancelled when
///   the key changes or becomes `nil`; an event it sends after that is
///   dropped, so a late result never lands in a state it was not for.
/// - When the machine is deallocated (with the view model that owns it),
///   every effect is cancelled; so it is when the view model's screen leaves
///   a ``StackPath`` or a ``Presentation``, and what the effects still send
///   is dropped.
///
/// Tests drive a machine deterministically: send events, then
/// `await` ``waitUntilIdle()``, which returns once no effect is running and
/// no event is waiting — no sleeps.
@MainActor
public final class StateMachine<State, Event: Sendable> {
  private let reduce: (inout State, Event) -> Void
  private let feedbacks: [Feedback<State, Event>]
  private let storage: Derived<State>
  private var current: State

  /// Per feedback: the key its effect runs for, and the effect's generation.
  private var running: [(key: AnyHashable?, generation: UInt64)]
  private var nextGeneration: UInt64 = 0
  /// Every effect task not finished yet, cancelled ones included.
  private var tasks: [UInt64: Task<Void, Never>] = [:]
  /// What each effect task in ``tasks`` is, for reports.
  private var descriptions: [UInt64: String] = [:]
  private var queue: [Event] = []
  private var isReducing = false
  /// The dependencies in effect where the machine was made, which its
  /// feedbacks see, under those in effect where each starts.
  let _madeWithDependencies = DependencyValues.current

  /// Creates a machine in its initial state and starts the effects that
  /// state calls for.
  ///
  /// - Parameters:
  ///   - initial: The initial state.
  ///   - reduce: Moves the state on an event; it must be pure (effects go in
  ///     `feedbacks`).
  ///   - feedbacks: The effects, keyed on the state.
  public init(
    initial: State,
    reduce: @escaping (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>] = []
  ) {
    self.reduce = reduce
    self.feedbacks = feedbacks
    storage = Derived(initial)
    current = initial
    running = feedbacks.map { _ in (nil, 0) }
    runFeedbacks()
  }

  isolated deinit {
    for task in tasks.values {
      task.cancel()
    }
  }

  /// The current state, as a cell that views observe.
  public var state: Derived<State> { storage }

  /// Whether no effect is running and no event is waiting.
  public var isIdle: Bool { tasks.isEmpty && queue.isEmpty }

  /// Sends an event: reduced now, or after the event being reduced.
  ///
  /// - Parameter event: What happened.
  public func send(_ event: Event) {
    if _refusesCancelledWrite(to: storage) { return }
    queue.append(event)
    guard !isReducing else { return }
    isReducing = true
    defer { isReducing = false }
    var next = 0
    while next < queue.count {
      let event = queue[next]
      next += 1
      reduce(&current, event)
      storage.update(current)
      runFeedbacks()
    }
    queue.removeAll(keepingCapacity: true)
  }

  /// Waits until no effect is running and no event is waiting to be reduced.
  ///
  /// Effects that an effect's events start are waited for too. Cancelled
  /// effects are waited for until they return.
  public func waitUntilIdle() async {
    while let (generation, task) = tasks.first {
      await task.value
      tasks[generation] = nil
    }
  }

  /// Starts, cancels or keeps each feedback's effect for the current state.
  private func runFeedbacks() {
    for (index, feedback) in feedbacks.enumerated() {
      let key = feedback.key(current)
      guard key != running[index].key else { continue }
      if let previous = tasks[running[index].generation] {
        previous.cancel()
      }
      nextGeneration += 1
      let generation = nextGeneration
      running[index] = (key, generation)
      guard let key else { continue }
      let description =
        "feedback for \(Effects.quoted(key.base)) (declared at "
        + "\(_fileName(feedback.fileID)):\(feedback.line))"
      let entry = _KitTask.begin(description)
      let task = _madeWithDependencies.whileCurrent {
        feedback.run(
          key, entry,
          { [weak self] event in
            await self?.deliver(event, from: index, generation: generation)
          },
          { [weak self] in
            self?.tasks[generation] = nil
            self?.descriptions[generation] = nil
          })
      }
      tasks[generation] = task
      descriptions[generation] = description
    }
  }

  /// The effects that have not returned, in start order: `feedback for
  /// "3" (declared at MoviesViewModel.swift:20)`, with `, cancelled, not
  /// returned` for one whose key changed but that still runs.
  package var _pendingDescriptions: [String] {
    let current = Set(running.map(\.generation))
    return descriptions.sorted { $0.key < $1.key }.map { generation, description in
      current.contains(generation) ? description : description + ", cancelled, not returned"
    }
  }

  /// Cancels every effect that has not returned.
  package func _cancelPendingWork() {
    for task in tasks.values { task.cancel() }
  }

  /// Sends an effect's event, unless the effect was cancelled meanwhile.
  private func deliver(_ event: Event, from feedback: Int, generation: UInt64) {
    guard running[feedback].generation == generation else { return }
    send(event)
  }
}

extension StateMachine: _PendingWorkOwner {}

extension StateMachine: _DependencyCarrier {}

extension StateMachine: _ScreenWorkOwner {
  /// Cancels every feedback and drops what it still sends.
  ///
  /// The state stays as it is; the next event starts the feedbacks its
  /// state calls for.
  func _endScreenWork() {
    for task in tasks.values { task.cancel() }
    running = running.map { _ in (nil, 0) }
  }
}

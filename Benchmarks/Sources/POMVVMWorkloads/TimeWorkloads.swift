import POMVVM

/// The time rows that a synchronous batch can measure: a keystroke into a
/// debounced cell, against the hand-written debounce that starts a task per
/// keystroke.
///
/// The main actor does not run tasks during a batch, so the kit's one
/// sleeping task never wakes (its deadline only moves) and the baseline's
/// tasks pile up, cancelled, until the run ends: the rows measure what a
/// keystroke costs the code that types, which is where a task per keystroke
/// shows.
let timeComparisons: [Comparison] = [
  Comparison(
    "time/keystroke into a debounced cell -> 1 observer of the source",
    target: .ratioAtMost(3),
    baselineName: "hand-written: set + cancel + Task { Task.sleep } per keystroke",
    maxBatch: 20_000,
    kit: { kitDebouncedKeystroke() }, baseline: { handDebouncedKeystroke() }),
  Comparison(
    "time/keystroke into a debounced cell, vs a plain set", target: .none,
    baselineName: "POMVVM Observable set -> 1 observer",
    kit: { kitDebouncedKeystroke() }, baseline: { kitSet() }),
]

/// Types into a cell that a 300 ms debounce reads: each keystroke moves the
/// deadline of the one task that sleeps.
@MainActor
func kitDebouncedKeystroke() -> any Fixture {
  let query = POMVVM.Observable(0)
  let settled = query.debounced(for: .milliseconds(300))
  let subscriptions = [
    query.observeChanges(makeObserver()), settled.observeChanges(makeObserver()),
  ]
  var counter = 0
  return Loop(keeping: (query, settled, subscriptions)) { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      query.value = counter
    }
  }
}

/// The debounce apps write by hand: each keystroke cancels the last task
/// and starts one that sleeps 300 ms, then stores the query.
@MainActor
func handDebouncedKeystroke() -> any Fixture {
  @MainActor final class Debounce {
    let query = POMVVM.Observable(0)
    let settled = POMVVM.Observable(0)
    var task: Task<Void, Never>?
  }
  let debounce = Debounce()
  let subscriptions = [
    debounce.query.observeChanges(makeObserver()),
    debounce.settled.observeChanges(makeObserver()),
  ]
  var counter = 0
  return Loop(keeping: (debounce, subscriptions)) { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      debounce.query.value = counter
      debounce.task?.cancel()
      debounce.task = Task { [weak debounce, counter] in
        do {
          try await Task.sleep(for: .milliseconds(300))
        } catch {
          return
        }
        debounce?.settled.value = counter
      }
    }
  }
}

/// A workload that needs the main actor to run tasks: measured by awaiting,
/// outside the synchronous batches of ``Comparison``.
package struct AsyncComparison: Sendable {
  /// The row's name, as in ``Comparison/path``.
  package var path: String
  /// What the baseline is, in a few words.
  package var baselineName: String
  /// Runs the kit's variant `iterations` times.
  package var kit: @MainActor @Sendable (Int) async -> Void
  /// Runs the baseline `iterations` times.
  package var baseline: @MainActor @Sendable (Int) async -> Void
}

/// `Effects.run` and the operation's completion, against a bare `Task {}`
/// and its completion.
package let asyncTimeComparisons: [AsyncComparison] = [
  AsyncComparison(
    path: "time/Effects.run + completion", baselineName: "Task {} + await its value",
    kit: { iterations in
      let effects = Effects()
      var counter = 0
      for _ in 0..<iterations {
        effects.run(id: 1) { counter &+= 1 }
        await effects.waitUntilIdle()
      }
      sharedSink.total &+= counter
    },
    baseline: { iterations in
      var counter = 0
      for _ in 0..<iterations {
        let task = Task { counter &+= 1 }
        await task.value
      }
      sharedSink.total &+= counter
    })
]

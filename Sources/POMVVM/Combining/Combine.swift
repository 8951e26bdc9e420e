/// Combines cells of different types into a read-only cell, with a typed
/// transform.
///
/// The transform receives the sources' current values, each with its own
/// type; there is no `[Any]` to index and cast. `strategy` says when it runs
/// (see ``CombineStrategy``); until it first runs, the cell holds `initial`.
///
/// ```swift
/// let username = Observable("")
/// let password = Observable("")
/// let canLogIn = combine(.every, username, password, initial: false) { user, pass in
///   user.count >= 6 && pass.count >= 6
/// }
/// username.value = "alice_w"     // canLogIn.value == false
/// password.value = "secret!"     // canLogIn.value == true
/// ```
///
/// - Parameters:
///   - strategy: When the transform runs.
///   - sources: The cells to combine; they are kept alive by the result.
///   - initial: The value before the transform first runs.
///   - transform: Computes the value from the sources' current values.
/// - Returns: The combined cell.
@MainActor
public func combine<each Source: ObservableCell, Result>(
  _ strategy: CombineStrategy,
  _ sources: repeat each Source,
  initial: Result,
  transform: @escaping (repeat (each Source).Value) -> Result
) -> Derived<Result> {
  let derived = Derived(initial)
  var retained: [AnyObject] = []
  for source in repeat each sources {
    retained.append(source)
  }
  let gate = _CombineGate(strategy: strategy, sourceCount: retained.count)
  let recompute: () -> Result = { transform(repeat (each sources).value) }
  var upstream: [Subscription] = []
  var index = 0
  for source in repeat each sources {
    let sourceIndex = index
    upstream.append(
      source.observeChanges { [weak derived] _ in
        guard let derived, gate.shouldFire(afterChangeOf: sourceIndex) else { return }
        derived.update(recompute())
      })
    index += 1
  }
  derived.connect(sources: retained, upstream: upstream)
  return derived
}

/// Combines cells into a read-only cell of optionals that is `nil` until the
/// transform first runs.
///
/// - Parameters:
///   - strategy: When the transform runs.
///   - sources: The cells to combine; they are kept alive by the result.
///   - transform: Computes the value from the sources' current values.
/// - Returns: The combined cell, `nil` until the strategy first fires.
@MainActor
public func combine<each Source: ObservableCell, Result>(
  _ strategy: CombineStrategy,
  _ sources: repeat each Source,
  transform: @escaping (repeat (each Source).Value) -> Result
) -> Derived<Result?> {
  combine(strategy, repeat each sources, initial: nil) { (values: repeat (each Source).Value) in
    Optional(transform(repeat each values))
  }
}

/// Decides, change by change, whether a combined cell fires.
@MainActor
final class _CombineGate {
  private let strategy: CombineStrategy
  private var changed: [Bool]
  private var unchangedCount: Int
  private var hasFired = false

  init(strategy: CombineStrategy, sourceCount: Int) {
    self.strategy = strategy
    changed = Array(repeating: false, count: sourceCount)
    unchangedCount = sourceCount
  }

  func shouldFire(afterChangeOf index: Int) -> Bool {
    if !changed[index] {
      changed[index] = true
      unchangedCount -= 1
    }
    switch strategy {
    case .every:
      return true
    case .all:
      return unchangedCount == 0
    case .first:
      defer { hasFired = true }
      return !hasFired
    }
  }
}

/// Combines cells of different types into a read-only cell, with a typed
/// transform.
///
/// The transform receives the sources' current values, each with its own
/// type; there is no `[Any]` to index and cast. `strategy` says when it runs
/// (see ``CombineStrategy``): every strategy fires on *changes* of the
/// sources, so until it first fires the cell holds `initial`, not the
/// transform of the sources' current values. For a cell that always holds
/// the transform of the current values, computed at once as
/// ``ObservableCell/map(_:fileID:line:)-6s3zx`` is, use ``combine(_:fileID:line:transform:)``.
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
///   - fileID: Where the cell is made, for ``BindingGraph`` and
///     ``PropagationTrace``; by default, the caller's file.
///   - line: Where the cell is made; by default, the caller's line.
///   - transform: Computes the value from the sources' current values.
/// - Returns: The combined cell.
@MainActor
@inlinable
public func combine<each Source: ObservableCell, Result>(
  _ strategy: CombineStrategy,
  _ sources: repeat each Source,
  initial: Result,
  fileID: StaticString = #fileID, line: UInt = #line,
  transform: @escaping (repeat (each Source).Value) -> Result
) -> Derived<Result> {
  let retained = _objects(repeat each sources)
  let gate = _CombineGate(strategy: strategy, sourceCount: retained.count)
  return Derived(
    node: _DerivedNode(initial, sources: retained, gate: gate, fileID: fileID, line: line) {
      transform(repeat (each sources).value)
    })
}

/// Combines cells into a read-only cell of optionals that is `nil` until the
/// transform first runs.
///
/// - Parameters:
///   - strategy: When the transform runs.
///   - sources: The cells to combine; they are kept alive by the result.
///   - fileID: Where the cell is made, for ``BindingGraph`` and
///     ``PropagationTrace``; by default, the caller's file.
///   - line: Where the cell is made; by default, the caller's line.
///   - transform: Computes the value from the sources' current values.
/// - Returns: The combined cell, `nil` until the strategy first fires.
@MainActor
public func combine<each Source: ObservableCell, Result>(
  _ strategy: CombineStrategy,
  _ sources: repeat each Source,
  fileID: StaticString = #fileID, line: UInt = #line,
  transform: @escaping (repeat (each Source).Value) -> Result
) -> Derived<Result?> {
  combine(strategy, repeat each sources, initial: nil, fileID: fileID, line: line) {
    (values: repeat (each Source).Value) in
    Optional(transform(repeat each values))
  }
}

/// Combines cells into a read-only cell that always holds the transform of
/// their current values: computed now, as ``ObservableCell/map(_:fileID:line:)-6s3zx``
/// is, and again after every change of any source.
///
/// ```swift
/// let first = Observable("Ada")
/// let last = Observable("Lovelace")
/// let fullName = combine(first, last) { "\($0) \($1)" }   // "Ada Lovelace"
/// last.value = "Byron"                                     // "Ada Byron"
/// ```
///
/// It is `combine(.every, …)` without an initial value to wait with; like
/// every derived cell it is glitch-free.
///
/// - Parameters:
///   - sources: The cells to combine; they are kept alive by the result.
///   - fileID: Where the cell is made, for ``BindingGraph`` and
///     ``PropagationTrace``; by default, the caller's file.
///   - line: Where the cell is made; by default, the caller's line.
///   - transform: Computes the value from the sources' current values.
/// - Returns: The combined cell.
@MainActor
@inlinable
public func combine<each Source: ObservableCell, Result>(
  _ sources: repeat each Source,
  fileID: StaticString = #fileID, line: UInt = #line,
  transform: @escaping (repeat (each Source).Value) -> Result
) -> Derived<Result> {
  let retained = _objects(repeat each sources)
  let compute = { transform(repeat (each sources).value) }
  return Derived(
    node: _DerivedNode(
      _withoutTracking(compute), sources: retained, fileID: fileID, line: line, compute: compute))
}

/// The cells of a pack, as the objects a derived cell keeps and registers
/// with.
@MainActor
@inlinable
func _objects<each Source: ObservableCell>(_ sources: repeat each Source) -> [AnyObject] {
  var objects: [AnyObject] = []
  for source in repeat each sources {
    objects.append(source)
  }
  return objects
}

/// Decides, change by change, whether a combined cell fires.
@MainActor
@usableFromInline
final class _CombineGate {
  private let strategy: CombineStrategy
  @exclusivity(unchecked)
  private var changed: [Bool]
  @exclusivity(unchecked)
  private var unchangedCount: Int
  @exclusivity(unchecked)
  private var hasFired = false

  @usableFromInline
  init(strategy: CombineStrategy, sourceCount: Int) {
    self.strategy = strategy
    changed = Array(repeating: false, count: sourceCount)
    unchangedCount = sourceCount
  }

  /// Records a change of source `index`.
  func record(changeOf index: Int) {
    if !changed[index] {
      changed[index] = true
      unchangedCount -= 1
    }
  }

  /// Whether the combined cell recomputes, now that a source changed.
  func shouldFire() -> Bool {
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

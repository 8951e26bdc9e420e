/// Runs `operation` with the dependencies that `update` sets, and returns
/// its result.
///
/// ```swift
/// let model = withDependencies {
///   $0.uuid = .incrementing
///   $0.date = .constant(Date(timeIntervalSince1970: 0))
/// } operation: {
///   MasterViewModel()
/// }
/// ```
///
/// The overrides hold for `operation` and for every task started inside it
/// (they are task-local values), and end when it returns. Nested calls
/// add to the outer overrides; the inner value of a dependency wins.
///
/// - Parameters:
///   - update: Sets the dependencies to override, given those in effect.
///   - operation: The code that sees the overrides.
///   - fileID: Where the call is, for the failure of a read in `update` that
///     no override answers, in a test; by default, the caller's file.
///   - filePath: The same file, as a path.
///   - line: Where the call is; by default, the caller's line.
///   - column: Where the call is; by default, the caller's column.
/// - Returns: What `operation` returns.
/// - Throws: What `update` or `operation` throws.
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> Result,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) rethrows -> Result {
  let values = try updated(
    update,
    reader: _DependencyReader(
      kind: "withDependencies", fileID: fileID, filePath: filePath, line: line, column: column))
  return try DependencyValues.$current.withValue(values, operation: operation)
}

/// Runs asynchronous `operation` with the dependencies that `update` sets,
/// and returns its result.
///
/// The overrides hold for `operation` and for every task started inside it
/// — an ``Effects`` operation, a ``Load`` request, a ``StateMachine``
/// feedback — until those end, and no longer apply to the caller once
/// `operation` returns.
///
/// - Parameters:
///   - update: Sets the dependencies to override, given those in effect.
///   - operation: The code that sees the overrides.
///   - isolation: Where `operation` runs: the caller's actor.
///   - fileID: Where the call is, for the failure of a read in `update` that
///     no override answers, in a test; by default, the caller's file.
///   - filePath: The same file, as a path.
///   - line: Where the call is; by default, the caller's line.
///   - column: Where the call is; by default, the caller's column.
/// - Returns: What `operation` returns.
/// - Throws: What `update` or `operation` throws.
public func withDependencies<Result>(
  _ update: (inout DependencyValues) throws -> Void,
  operation: () async throws -> Result,
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) async rethrows -> Result {
  let values = try updated(
    update,
    reader: _DependencyReader(
      kind: "withDependencies", fileID: fileID, filePath: filePath, line: line, column: column))
  return try await DependencyValues.$current.withValue(values, operation: operation)
}

/// The current values with `update` applied; reads inside `update` are
/// attributed to `reader`.
///
/// A dependency that `update` reads and no override answers fails the test
/// only if `update` does not set it afterwards: reading a client to change
/// one endpoint (`$0.speech.status = { .denied }`) is not a use of it.
private func updated(
  _ update: (inout DependencyValues) throws -> Void, reader: _DependencyReader,
  from base: DependencyValues = DependencyValues.current
) rethrows -> DependencyValues {
  var values = base
  let reads = _UpdateReads()
  values.reader = reader
  values.updateReads = reads
  defer {
    if let testing = _dependencyTesting {
      for message in reads.messages { testing.reportUnimplemented(message, by: reader) }
    }
  }
  try update(&values)
  values.reader = nil
  values.updateReads = nil
  return values
}

/// Runs `operation` with the dependencies that `model` was made with, and
/// those that `update` sets: a child view model made later by its parent
/// sees the parent's overrides.
///
/// A view model keeps the dependencies in effect where it was made, but a
/// child it makes later — when the user taps a button, outside the test's
/// `withDependencies` — is made with the dependencies in effect then. Make
/// the child inside `withDependencies(from: self)`, as TCA's
/// `withDependencies(from:)` does:
///
/// ```swift
/// func addTapped() {
///   let form = withDependencies(from: self) { FormViewModel() }
///   destination.present(.add(form))
/// }
/// ```
///
/// The model's dependencies are those kept by its stored properties: each
/// `@Dependency`, and each ``Effects``, ``Load`` and ``StateMachine``,
/// which keep the dependencies in effect where they were made. The
/// overrides in effect where this is called win over them, and `update`'s
/// over both. A model that keeps none (it stores none of these) fails the
/// running test, naming its type; `operation` then sees the dependencies in
/// effect here.
///
/// - Parameters:
///   - model: The view model whose dependencies the operation sees.
///   - update: Sets more dependencies, given those in effect.
///   - operation: The code that sees them: usually, a child's initializer.
///   - fileID: Where the call is, for failures in a test; by default, the
///     caller's file.
///   - filePath: The same file, as a path.
///   - line: Where the call is; by default, the caller's line.
///   - column: Where the call is; by default, the caller's column.
/// - Returns: What `operation` returns.
/// - Throws: What `update` or `operation` throws.
public func withDependencies<Model: AnyObject, Result>(
  from model: Model,
  _ update: (inout DependencyValues) throws -> Void,
  operation: () throws -> Result,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) rethrows -> Result {
  let reader = _DependencyReader(
    kind: "withDependencies", fileID: fileID, filePath: filePath, line: line, column: column)
  let values = try updated(update, reader: reader, from: dependencies(of: model, reader: reader))
  return try DependencyValues.$current.withValue(values, operation: operation)
}

/// Runs `operation` with the dependencies that `model` was made with: a
/// child view model made later by its parent sees the parent's overrides.
///
/// `withDependencies(from: self) { FormViewModel() }`; see
/// ``withDependencies(from:_:operation:fileID:filePath:line:column:)``.
///
/// - Parameters:
///   - model: The view model whose dependencies the operation sees.
///   - operation: The code that sees them: usually, a child's initializer.
///   - fileID: Where the call is, for failures in a test; by default, the
///     caller's file.
///   - filePath: The same file, as a path.
///   - line: Where the call is; by default, the caller's line.
///   - column: Where the call is; by default, the caller's column.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
public func withDependencies<Model: AnyObject, Result>(
  from model: Model,
  operation: () throws -> Result,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) rethrows -> Result {
  try withDependencies(
    from: model, { _ in }, operation: operation, fileID: fileID, filePath: filePath,
    line: line, column: column)
}

/// Runs asynchronous `operation` with the dependencies that `model` was
/// made with, and those that `update` sets.
///
/// See ``withDependencies(from:_:operation:fileID:filePath:line:column:)``.
///
/// - Parameters:
///   - model: The view model whose dependencies the operation sees.
///   - update: Sets more dependencies, given those in effect.
///   - operation: The code that sees them.
///   - isolation: Where `operation` runs: the caller's actor.
///   - fileID: Where the call is, for failures in a test; by default, the
///     caller's file.
///   - filePath: The same file, as a path.
///   - line: Where the call is; by default, the caller's line.
///   - column: Where the call is; by default, the caller's column.
/// - Returns: What `operation` returns.
/// - Throws: What `update` or `operation` throws.
public func withDependencies<Model: AnyObject, Result>(
  from model: Model,
  _ update: (inout DependencyValues) throws -> Void,
  operation: () async throws -> Result,
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) async rethrows -> Result {
  let reader = _DependencyReader(
    kind: "withDependencies", fileID: fileID, filePath: filePath, line: line, column: column)
  let values = try updated(update, reader: reader, from: dependencies(of: model, reader: reader))
  return try await DependencyValues.$current.withValue(values, operation: operation)
}

/// Runs asynchronous `operation` with the dependencies that `model` was
/// made with.
///
/// See ``withDependencies(from:_:operation:fileID:filePath:line:column:)``.
///
/// - Parameters:
///   - model: The view model whose dependencies the operation sees.
///   - operation: The code that sees them.
///   - isolation: Where `operation` runs: the caller's actor.
///   - fileID: Where the call is, for failures in a test; by default, the
///     caller's file.
///   - filePath: The same file, as a path.
///   - line: Where the call is; by default, the caller's line.
///   - column: Where the call is; by default, the caller's column.
/// - Returns: What `operation` returns.
/// - Throws: What `operation` throws.
public func withDependencies<Model: AnyObject, Result>(
  from model: Model,
  operation: () async throws -> Result,
  isolation: isolated (any Actor)? = #isolation,
  fileID: StaticString = #fileID, filePath: StaticString = #filePath,
  line: UInt = #line, column: UInt = #column
) async rethrows -> Result {
  try await withDependencies(
    from: model, { _ in }, operation: operation, isolation: isolation, fileID: fileID,
    filePath: filePath, line: line, column: column)
}

/// The dependencies that `model` keeps (through its stored `@Dependency`
/// properties, ``Effects``, ``Load``s and ``StateMachine``s), with the
/// current overrides on top; the current ones alone, with a failure in a
/// test, when it keeps none.
private func dependencies(of model: AnyObject, reader: _DependencyReader) -> DependencyValues {
  var kept: DependencyValues?
  if let carrier = model as? any _DependencyCarrier { kept = carrier._madeWithDependencies }
  var mirror: Mirror? = Mirror(reflecting: model)
  while let current = mirror {
    for child in current.children {
      guard let carrier = child.value as? any _DependencyCarrier else { continue }
      kept =
        kept.map { $0.merging(carrier._madeWithDependencies) }
        ?? carrier._madeWithDependencies
    }
    mirror = current.superclassMirror
  }
  guard let kept else {
    if let testing = _dependencyTesting, testing.isTesting {
      testing.reportUnimplemented(
        "withDependencies(from:) found no dependencies in \(type(of: model)): it stores no "
          + "@Dependency, Effects, Load or StateMachine, which keep the dependencies in effect "
          + "where it was made; the operation sees those in effect here", by: reader)
    }
    return DependencyValues.current
  }
  return kept.merging(DependencyValues.current)
}

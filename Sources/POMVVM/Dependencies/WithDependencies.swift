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
private func updated(
  _ update: (inout DependencyValues) throws -> Void, reader: _DependencyReader
) rethrows -> DependencyValues {
  var values = DependencyValues.current
  values.reader = reader
  try update(&values)
  values.reader = nil
  return values
}

/// What an unimplemented endpoint that `throws` throws after its failure.
struct _UnimplementedEndpointError: Error, CustomStringConvertible {
  let name: String

  var description: String { "\(_visibleControls(name)) is unimplemented in this test" }
}

/// The dependency keys whose test values are made with `unimplemented`
/// endpoints, which report their own calls instead of failing when read.
///
/// Not API.
enum _UnimplementedEndpoints {
  private static let keys = _Locked<Set<ObjectIdentifier>>([])

  /// Whether `key`'s test value reports the calls of its endpoints.
  ///
  /// Read after the test value was made: making it declares its endpoints.
  static func reportsItsCalls<Key: DependencyKey>(_ key: Key.Type) -> Bool {
    keys.withLock { $0.contains(ObjectIdentifier(key)) }
  }

  /// Records that `key`'s test value has an unimplemented endpoint, and
  /// returns what the endpoint does when it is called: fail the running
  /// test, or report to ``Diagnostics`` outside a test.
  static func declare<Key: DependencyKey>(
    _ key: Key.Type, endpoint: String, outcome: String, fileID: StaticString,
    filePath: StaticString,
    line: UInt, column: UInt
  ) -> @Sendable () -> Void {
    keys.withLock { _ = $0.insert(ObjectIdentifier(key)) }
    let name = _visibleControls("\(Key.Value.self).\(endpoint)")
    let keyName = "\(Key.self)"
    let declaration = _DependencyReader(
      kind: "unimplemented", fileID: fileID, filePath: filePath, line: line, column: column)
    return {
      let message =
        "Unimplemented endpoint \(name) (of \(keyName), declared at \(fileID):\(line)) was "
        + "called in a test that did not set it; \(outcome). Set it: "
        + "withDependencies { $0.….\(_visibleControls(endpoint)) = { … } } operation: { … }"
      if let testing = _dependencyTesting, testing.isTesting {
        testing.reportUnimplemented(message, by: declaration)
      } else {
        Task { @MainActor in
          Diagnostics.report(
            "Unimplemented endpoint \(name) was called outside a test: it is part of "
              + "\(keyName)'s test value", fileID: fileID, line: line)
        }
      }
    }
  }
}

extension DependencyKey {
  /// An endpoint of a test value that fails the running test when it is
  /// called, naming it, and returns `placeholder`: a client whose test
  /// overrides only the endpoints it needs.
  ///
  /// ```swift
  /// struct SpeechClient: Sendable {
  ///   var authorizationStatus: @Sendable () -> Authorization
  ///   var transcribe: @Sendable (URL) async throws -> String
  /// }
  ///
  /// enum SpeechClientKey: DependencyKey {
  ///   static let liveValue = SpeechClient(…)
  ///   static let testValue = SpeechClient(
  ///     authorizationStatus: unimplemented("authorizationStatus", placeholder: .notDetermined),
  ///     transcribe: unimplemented("transcribe"))
  /// }
  ///
  /// // In a test: only `authorizationStatus` is set; calling `transcribe` fails.
  /// withDependencies {
  ///   $0.speech.authorizationStatus = { .denied }
  /// } operation: { … }
  /// ```
  ///
  /// A dependency whose test value is made with `unimplemented` endpoints
  /// does not fail a test when it is read: each endpoint fails when it is
  /// called and the test did not set it. So a test sets the endpoints its
  /// code calls, and nothing else. The failure names the endpoint and the
  /// line of this call, under Swift Testing or XCTest (inside a
  /// `StateRecorder` step, it fails the step). Outside a test, the call is
  /// reported to ``Diagnostics``.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint's name, as the failure shows it with the
  ///     value's type: `SpeechClient.transcribe`.
  ///   - placeholder: What the endpoint returns after the failure, so that
  ///     the code goes on: `.notDetermined`, `[]`, `()`.
  ///   - fileID: Where the endpoint is declared, for the failure; by
  ///     default, the caller's file.
  ///   - filePath: The same file, as a path.
  ///   - line: Where the endpoint is declared; by default, the caller's line.
  ///   - column: Where the endpoint is declared; by default, the caller's
  ///     column.
  /// - Returns: The endpoint, a closure of any arguments; it converts to an
  ///   `async` or `throws` closure too.
  public static func unimplemented<each Argument, Result>(
    _ endpoint: String, placeholder: @autoclosure @escaping @Sendable () -> Result,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> @Sendable (repeat each Argument) -> Result {
    let report = _UnimplementedEndpoints.declare(
      Self.self, endpoint: endpoint, outcome: "it gave its placeholder", fileID: fileID,
      filePath: filePath, line: line, column: column)
    return { (_: repeat each Argument) in
      report()
      return placeholder()
    }
  }

  /// An endpoint of a test value that fails the running test when it is
  /// called, naming it, and throws: for an endpoint that `throws`, which
  /// needs no placeholder.
  ///
  /// See ``unimplemented(_:placeholder:fileID:filePath:line:column:)``.
  ///
  /// - Parameters:
  ///   - endpoint: The endpoint's name, as the failure shows it with the
  ///     value's type: `SpeechClient.transcribe`.
  ///   - fileID: Where the endpoint is declared, for the failure; by
  ///     default, the caller's file.
  ///   - filePath: The same file, as a path.
  ///   - line: Where the endpoint is declared; by default, the caller's line.
  ///   - column: Where the endpoint is declared; by default, the caller's
  ///     column.
  /// - Returns: The endpoint, a throwing closure of any arguments; it
  ///   converts to an `async throws` closure too.
  public static func unimplemented<each Argument, Result>(
    _ endpoint: String,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) -> @Sendable (repeat each Argument) throws -> Result {
    let name = "\(Value.self).\(endpoint)"
    let report = _UnimplementedEndpoints.declare(
      Self.self, endpoint: endpoint, outcome: "it threw an error", fileID: fileID,
      filePath: filePath, line: line, column: column)
    return { (_: repeat each Argument) in
      report()
      throw _UnimplementedEndpointError(name: name)
    }
  }
}

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

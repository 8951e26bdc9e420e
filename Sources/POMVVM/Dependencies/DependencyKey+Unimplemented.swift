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

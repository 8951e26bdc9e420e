import POMVVM
import Testing

/// A failure that a check recorded, reduced to what the tests compare: the
/// law it names and where it was reported.
struct RecordedFailure: Sendable, CustomStringConvertible {
  /// The law in `… law '<law>' failed …`, or `misuse` for a check that could
  /// not run as called.
  var law: String
  /// `File.swift:line` of the reported location.
  var location: String
  /// The whole message.
  var message: String

  init(_ issue: Issue) {
    message = issue.comments.map(\.rawValue).joined(separator: "\n")
    if let start = message.range(of: " law '"), let end = message.range(of: "' failed") {
      law = String(message[start.upperBound..<end.lowerBound])
    } else if message.contains("cannot run:") {
      law = "misuse"
    } else {
      law = "(no law named) \(message)"
    }
    location = issue.sourceLocation.map { "\($0.fileName):\($0.line)" } ?? "(nowhere)"
  }

  var description: String { "\(location): \(message)" }
}

/// Collects issues from a matcher, which may run on any thread.
private final class IssueLog: Sendable {
  private let failures = _Locked<[RecordedFailure]>([])

  func append(_ issue: Issue) {
    failures.withLock { $0.append(RecordedFailure(issue)) }
  }

  var all: [RecordedFailure] { failures.withLock { $0 } }
}

/// Runs `body`, which is expected to fail, inside `withKnownIssue`, and
/// returns every failure it recorded, so that a test compares them whole.
///
/// If `body` records nothing, `withKnownIssue` itself fails the test: a
/// check that cannot fail is caught here.
@MainActor
func recordedFailures(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void
) -> [RecordedFailure] {
  let log = IssueLog()
  withKnownIssue(
    "not a bug: a POMVVMTesting check failing on purpose against a deliberately broken type",
    sourceLocation: sourceLocation
  ) {
    body()
  } matching: { issue in
    log.append(issue)
    return true
  }
  return log.all
}

/// Runs `body`, which is expected to fail, inside `withKnownIssue`, and
/// returns where each issue it recorded was reported.
@MainActor
func recordedIssues(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () -> Void
) -> [SourceLocation] {
  let log = _Locked<[SourceLocation]>([])
  withKnownIssue("not a bug: a failure reported on purpose", sourceLocation: sourceLocation) {
    body()
  } matching: { issue in
    if let location = issue.sourceLocation { log.withLock { $0.append(location) } }
    return true
  }
  return log.withLock { $0 }
}

/// Runs asynchronous `body`, which is expected to fail, inside
/// `withKnownIssue`, and returns where each issue it recorded was reported.
@MainActor
func recordedIssues(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () async -> Void
) async -> [SourceLocation] {
  let log = _Locked<[SourceLocation]>([])
  await withKnownIssue("not a bug: a failure reported on purpose", sourceLocation: sourceLocation) {
    await body()
  } matching: { issue in
    if let location = issue.sourceLocation { log.withLock { $0.append(location) } }
    return true
  }
  return log.withLock { $0 }
}

extension [RecordedFailure] {
  /// The laws, in the order the failures were reported.
  var laws: [String] { map(\.law) }

  /// The distinct locations the failures were reported at.
  var locations: Set<String> { Set(map(\.location)) }
}

/// The location `File.swift:line` in this test target, as failures report it.
func here(_ line: Int, fileID: String = #fileID) -> String {
  "\(fileID.split(separator: "/").last ?? ""):\(line)"
}

/// Unwraps a value a test cannot do without; tests build their fixtures
/// from the sample, so a `nil` here is a broken fixture.
func required<Value>(_ value: Value?, _ what: String) -> Value {
  guard let value else { fatalError("test fixture: no \(what)") }
  return value
}

/// Runs the asynchronous `body`, which is expected to fail, inside
/// `withKnownIssue`, and returns every failure it recorded. (Named apart from
/// `recordedFailures(_:)`: in an `async` test, an `async` overload of the
/// same name would be preferred for a synchronous body, and need `await`.)
@MainActor
func recordedFailuresAwaiting(
  sourceLocation: SourceLocation = #_sourceLocation, _ body: () async -> Void
) async -> [RecordedFailure] {
  let log = IssueLog()
  await withKnownIssue(
    "not a bug: a POMVVMTesting check failing on purpose against a deliberately broken type",
    sourceLocation: sourceLocation
  ) {
    await body()
  } matching: { issue in
    log.append(issue)
    return true
  }
  return log.all
}

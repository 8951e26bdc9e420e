#if canImport(Testing)
import Testing

// A test helper that wraps the recorder takes its caller's location as a
// Swift Testing `SourceLocation` (`sourceLocation: SourceLocation =
// #_sourceLocation`, as `#expect` helpers do) and passes it on here: the
// `StaticString` parameters of the other overloads cannot take a location
// known only at run time.

extension StateRecorder {
  /// Starts recording every cell, array, stream and query reachable from
  /// `root`; an unfinished recorder is reported at a location a test helper
  /// passes through.
  ///
  /// - Parameters:
  ///   - root: The view model, or a value that holds the view models of a
  ///     screen.
  ///   - ignoring: Paths the test excludes on purpose, with everything
  ///     below them (`"cache"`, `"rows[*].onTap"`).
  ///   - sourceLocation: Where an unfinished recorder is reported: a
  ///     helper's own caller, as its `#_sourceLocation` default gives it.
  public convenience init(
    of root: Root, ignoring: [String] = [], sourceLocation: SourceLocation
  ) {
    self.init(of: root, ignoring: ignoring, at: CallerLocation(sourceLocation))
  }

  /// Runs `action`, then checks what changed against `expectations`,
  /// reporting every failure at a location a test helper passes through.
  ///
  /// ```swift
  /// func toggle(
  ///   _ row: Int, in screen: ListScreen, _ recorder: StateRecorder<ListScreen>,
  ///   sourceLocation: SourceLocation = #_sourceLocation
  /// ) {
  ///   recorder.perform(
  ///     { screen.rows[row].toggleSwitch() },
  ///     expecting: { $0.changed(\.rows[row].on, to: true) },
  ///     sourceLocation: sourceLocation)   // failures show at the helper's caller
  /// }
  /// ```
  ///
  /// Under XCTest, which takes only static locations, the failure is
  /// recorded at the helper's call of this method and its message ends
  /// with the location passed.
  ///
  /// - Parameters:
  ///   - action: What the user or the test does.
  ///   - expectations: Fills in what the step is expected to change.
  ///   - sourceLocation: Where failures are reported.
  /// - Throws: What `action` throws, after the changes are checked.
  public func perform<Failure: Error>(
    _ action: () throws(Failure) -> Void,
    expecting expectations: (inout StateExpectations<Root>) -> Void = { _ in },
    sourceLocation: SourceLocation
  ) throws(Failure) {
    try perform(action, expecting: expectations, at: CallerLocation(sourceLocation))
  }

  /// Runs `action` and waits for it, then checks what changed against
  /// `expectations`, reporting every failure at a location a test helper
  /// passes through.
  ///
  /// - Parameters:
  ///   - action: What the user or the test does, and what it waits for.
  ///   - expectations: Fills in what the step is expected to change.
  ///   - sourceLocation: Where failures are reported.
  /// - Throws: What `action` throws, after the changes are checked.
  public func perform<Failure: Error>(
    _ action: () async throws(Failure) -> Void,
    expecting expectations: (inout StateExpectations<Root>) -> Void = { _ in },
    sourceLocation: SourceLocation
  ) async throws(Failure) {
    try await perform(action, expecting: expectations, at: CallerLocation(sourceLocation))
  }

  /// Ends the recording, reporting late changes at a location a test helper
  /// passes through.
  ///
  /// - Parameter sourceLocation: Where failures are reported.
  public func finish(sourceLocation: SourceLocation) {
    finish(at: CallerLocation(sourceLocation))
  }

  /// Waits for the operations that were cancelled to return, for at most
  /// `timeout`, then ends the recording, reporting failures at a location
  /// a test helper passes through.
  ///
  /// - Parameters:
  ///   - timeout: The longest to wait for the cancelled operations.
  ///   - sourceLocation: Where failures are reported.
  public func finish(timeout: Duration, sourceLocation: SourceLocation) async {
    await finish(timeout: timeout, at: CallerLocation(sourceLocation))
  }
}
#endif

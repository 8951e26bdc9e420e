import Observation

/// Counts how often Observation tells a tracker that what it read changed.
///
/// Trackers in the tests are installed and fired on the main thread, so the
/// count is only touched there.
public final class TrackerCount: @unchecked Sendable {
  /// How many times the tracker fired.
  public private(set) var fired = 0

  /// Creates a count of zero.
  public init() {}

  fileprivate func fire() {
    fired += 1
  }
}

/// Reads state under `withObservationTracking`, once, and counts the
/// tracker's firings: a tracker fires at most once, for the first change to
/// anything `read` read.
@MainActor
public func track(_ read: @MainActor () -> Void) -> TrackerCount {
  let count = TrackerCount()
  withObservationTracking({ read() }, onChange: { [count] in count.fire() })
  return count
}

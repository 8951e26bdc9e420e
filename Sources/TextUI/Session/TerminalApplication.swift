/// A full-screen application, which draws its state and reacts to keys.
///
/// It describes each screen as a ``Frame``; ``FullScreenSession`` runs it on
/// a terminal.
@MainActor
public protocol TerminalApplication: AnyObject {
  /// The screen as it should look now.
  ///
  /// - Parameter size: The terminal's size.
  /// - Returns: The frame to show.
  func frame(size: TerminalSize) -> Frame

  /// Reacts to a key.
  ///
  /// - Parameter key: The key the user pressed. ``Key/interrupt`` (Ctrl-C)
  ///   never arrives here: the session ends on it.
  /// - Returns: Whether the application goes on or quits.
  func handle(_ key: Key) -> KeyResponse

  /// Whether work the user started is still under way (a request loading),
  /// so that the screen must be redrawn when it finishes, without a key.
  var hasPendingWork: Bool { get }
}

// MARK: - Default implementations

extension TerminalApplication {
  /// No pending work: the screen changes only on keys.
  public var hasPendingWork: Bool { false }
}

/// What an application wants after a key.
public enum KeyResponse: Hashable, Sendable {
  /// Keep running.
  case `continue`
  /// End the session.
  case quit
}

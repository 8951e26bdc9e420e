/// A terminal that a full-screen application runs on: it switches to and
/// from full-screen mode, reads the user's bytes and writes the screen.
///
/// ``POSIXTerminal`` is the real one; tests give ``FullScreenSession`` a
/// device that replays recorded reads and records what is written.
@MainActor
public protocol TerminalDevice: AnyObject {
  /// Switches the terminal to full-screen mode: raw input (no echo, no line
  /// buffering, Ctrl-C as a byte), the alternate screen, a hidden cursor.
  ///
  /// - Throws: ``TerminalError`` if the terminal cannot be switched.
  func enterFullScreen() throws(TerminalError)

  /// Restores the terminal as it was before ``enterFullScreen()``; calling
  /// it again, or without entering, does nothing.
  func leaveFullScreen()

  /// The terminal's current size.
  ///
  /// - Returns: The size, or ``TerminalSize/standard`` if it is unknown.
  func size() -> TerminalSize

  /// Waits for input and reads what is available.
  ///
  /// - Parameter timeout: How long to wait; `nil` waits until something
  ///   happens.
  /// - Returns: The bytes read, or why the wait ended without bytes.
  /// - Throws: ``TerminalError`` if reading fails.
  func read(timeout: Duration?) throws(TerminalError) -> TerminalInput

  /// Writes text to the terminal, all of it.
  ///
  /// - Parameter text: The text, escape sequences included.
  /// - Throws: ``TerminalError`` if writing fails.
  func write(_ text: String) throws(TerminalError)

  /// Suspends the program, as Ctrl-Z does in a shell with job control:
  /// the terminal restored while it is stopped, and full-screen mode back
  /// when it continues.
  ///
  /// - Returns: Whether the program was suspended (it has continued when
  ///   this returns, and the screen must be drawn whole); `false` where
  ///   the device cannot suspend, and Ctrl-Z is an ordinary key.
  func suspend() -> Bool
}

// MARK: - Default implementations

extension TerminalDevice {
  /// Never suspends: Ctrl-Z is an ordinary key.
  public func suspend() -> Bool { false }
}

/// What a read from a terminal gave.
public enum TerminalInput: Hashable, Sendable {
  /// Bytes the user typed; never empty.
  case bytes([UInt8])
  /// The timeout passed with no input.
  case timedOut
  /// The terminal was resized; the screen must be drawn again.
  case resized
  /// The input ended (the terminal was closed).
  case endOfInput
}

/// A terminal operation that failed.
public struct TerminalError: Error, Hashable, Sendable, CustomStringConvertible {
  /// What failed, and the system's reason.
  public var description: String

  /// Creates an error.
  ///
  /// - Parameter description: What failed, and the system's reason.
  public init(_ description: String) {
    self.description = description
  }
}

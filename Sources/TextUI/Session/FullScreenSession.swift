/// Runs a ``TerminalApplication`` on a terminal: full-screen mode, a loop
/// of reading keys and drawing frames, and the terminal restored at the end.
///
/// Each turn of the loop draws the application's frame (only the lines that
/// changed, through ``ScreenRenderer``), waits for input, decodes every key
/// the read holds (``KeyDecoder``) and hands them to the application in
/// order; then it draws once more. A paste or a fast typist costs one
/// redraw, not one per key.
///
/// The terminal is restored however the session ends: when the application
/// quits, on Ctrl-C (which raw mode delivers as a byte: the session ends
/// with ``SessionEnd/interrupted``), when the input ends, and when reading or
/// writing throws (the restore is in a `defer`). ``POSIXTerminal`` also
/// restores it on fatal signals.
///
/// Ctrl-Z suspends the program (``TerminalDevice/suspend()``): the terminal
/// is restored while it is stopped, and the whole screen is drawn again
/// when it continues. Where the device cannot suspend (job control is off),
/// Ctrl-Z goes to the application like any other key.
///
/// ## Concurrency
///
/// The loop runs on the main actor, like the view models it drives, and
/// waits for a key in `poll(2)`, blocking the thread: an interactive
/// program has nothing else to do while the user thinks, and keys update
/// the view models one at a time, in order. Before each wait it yields, so
/// that work the main actor has queued (the results of requests, say) runs
/// first. While the application has pending work
/// (``TerminalApplication/hasPendingWork``), it waits at most
/// ``pendingWorkInterval`` for a key, then yields and redraws, so that a
/// result shows up without a key press.
@MainActor
public struct FullScreenSession<Device: TerminalDevice> {
  /// The terminal the session runs on.
  public let device: Device

  /// How long to wait for the rest of an escape sequence before a lone
  /// `ESC` counts as the Escape key (see ``KeyDecoder``).
  public var escapeTimeout: Duration

  /// How long to wait for a key, at most, while the application has pending
  /// work, before drawing the screen again.
  public var pendingWorkInterval: Duration = .milliseconds(20)

  /// Creates a session.
  ///
  /// - Parameters:
  ///   - device: The terminal to run on.
  ///   - escapeTimeout: How long to wait for the rest of an escape sequence;
  ///     50 ms by default.
  public init(device: Device, escapeTimeout: Duration = .milliseconds(50)) {
    self.device = device
    self.escapeTimeout = escapeTimeout
  }

  /// Runs an application until it quits, the user presses Ctrl-C or the
  /// input ends.
  ///
  /// - Parameter application: The application to run.
  /// - Returns: How the session ended.
  /// - Throws: ``TerminalError`` if the terminal cannot be switched, read or
  ///   written; the terminal is restored first.
  @discardableResult
  public func run(_ application: some TerminalApplication) async throws(TerminalError)
    -> SessionEnd
  {
    try device.enterFullScreen()
    defer { device.leaveFullScreen() }
    var renderer = ScreenRenderer()
    var decoder = KeyDecoder()
    while true {
      await Task.yield()
      let size = device.size()
      let output = renderer.update(to: application.frame(size: size), size: size)
      if !output.isEmpty {
        try device.write(output)
      }
      let timeout =
        decoder.isAwaitingMore
        ? escapeTimeout : application.hasPendingWork ? pendingWorkInterval : nil
      let keys: [Key]
      switch try device.read(timeout: timeout) {
      case .bytes(let bytes):
        keys = decoder.decode(bytes)
      case .timedOut:
        keys = decoder.flush()
      case .resized:
        renderer.invalidate()
        continue
      case .endOfInput:
        return .endOfInput
      }
      for key in keys {
        if key == .interrupt { return .interrupted }
        if key == .control("z") && device.suspend() {
          renderer.invalidate()
          continue
        }
        if application.handle(key) == .quit { return .quit }
      }
    }
  }
}

/// How a ``FullScreenSession`` ended.
public enum SessionEnd: Hashable, Sendable {
  /// The application quit.
  case quit
  /// The user pressed Ctrl-C.
  case interrupted
  /// The terminal's input ended.
  case endOfInput
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal of the process: raw mode through `termios`, the alternate
/// screen, `poll(2)` for reads with a timeout, `SIGWINCH` for resizes
/// (through a pipe, so that the wait wakes up whichever thread the signal
/// interrupts).
///
/// ``enterFullScreen()`` saves the terminal's settings and
/// ``leaveFullScreen()`` puts them back. Between the two, signal handlers
/// put them back too if the process is ended by a signal (`SIGINT`,
/// `SIGTERM`, `SIGHUP`, `SIGQUIT`) or crashes (`SIGSEGV`, `SIGILL`, …),
/// then hand the signal to its previous handler; a signal that was ignored
/// stays ignored. `SIGTSTP` (Ctrl-Z through ``suspend()``, `kill -TSTP`,
/// job control) puts them back and stops the program; `SIGCONT` takes the
/// terminal back and has the screen drawn again.
///
/// ```swift
/// let terminal = POSIXTerminal()
/// guard POSIXTerminal.isTerminal(STDIN_FILENO) else { return }
/// try FullScreenSession(device: terminal).run(app)
/// ```
@MainActor
public final class POSIXTerminal: TerminalDevice {
  /// The descriptor keys are read from.
  public let inputDescriptor: Int32

  /// The descriptor the screen is written to.
  public let outputDescriptor: Int32

  private var savedAttributes: termios?

  /// Creates the terminal on a pair of descriptors.
  ///
  /// - Parameters:
  ///   - input: The descriptor to read keys from; standard input by default.
  ///   - output: The descriptor to write the screen to; standard output by
  ///     default.
  public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
    inputDescriptor = input
    outputDescriptor = output
  }

  /// Whether a descriptor is a terminal.
  ///
  /// - Parameter descriptor: A file descriptor, such as `STDIN_FILENO`.
  /// - Returns: `true` if it refers to a terminal.
  public nonisolated static func isTerminal(_ descriptor: Int32) -> Bool {
    isatty(descriptor) == 1
  }

  /// Whether the terminal is in full-screen mode.
  public var isFullScreen: Bool { savedAttributes != nil }

  /// Saves the settings, switches to raw mode, enters the alternate screen
  /// and hides the cursor.
  ///
  /// Raw mode: no echo, no line buffering, no signal keys (Ctrl-C arrives
  /// as a byte), no CR/LF translation on input or output, 8-bit bytes,
  /// reads return as soon as one byte is available.
  ///
  /// - Throws: ``TerminalError`` if the input is not a terminal or its
  ///   settings cannot be changed.
  public func enterFullScreen() throws(TerminalError) {
    guard savedAttributes == nil else { return }
    var attributes = termios()
    guard tcgetattr(inputDescriptor, &attributes) == 0 else {
      throw TerminalError("cannot read the terminal's settings: \(systemError())")
    }
    var raw = attributes
    raw.c_iflag &= ~tcflag_t(BRKINT | ICRNL | INPCK | ISTRIP | IXON)
    raw.c_oflag &= ~tcflag_t(OPOST)
    raw.c_cflag |= tcflag_t(CS8)
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | IEXTEN | ISIG)
    withUnsafeMutableBytes(of: &raw.c_cc) { controlCharacters in
      controlCharacters[Int(VMIN)] = 1
      controlCharacters[Int(VTIME)] = 0
    }
    guard tcsetattr(inputDescriptor, TCSANOW, &raw) == 0 else {
      throw TerminalError("cannot switch the terminal to raw mode: \(systemError())")
    }
    savedAttributes = attributes
    _armTerminalRestore(
      input: inputDescriptor, output: outputDescriptor, attributes: attributes, raw: raw)
    do {
      try write(ANSI.enterAlternateScreen + ANSI.hideCursor + ANSI.clearScreen)
    } catch {
      leaveFullScreen()
      throw error
    }
  }

  /// Shows the cursor, leaves the alternate screen (the shell's screen
  /// comes back as it was) and restores the saved settings.
  public func leaveFullScreen() {
    guard var attributes = savedAttributes else { return }
    savedAttributes = nil
    try? write(ANSI.resetStyle + ANSI.showCursor + ANSI.leaveAlternateScreen)
    _ = tcsetattr(inputDescriptor, TCSADRAIN, &attributes)
    _disarmTerminalRestore()
  }

  /// Suspends the program, as Ctrl-Z does in a shell with job control.
  ///
  /// It sends `SIGTSTP` to the program, as the terminal does for Ctrl-Z
  /// outside raw mode. Between ``enterFullScreen()`` and
  /// ``leaveFullScreen()`` that signal, from here or from outside (`kill
  /// -TSTP`, a job-control shell), restores the terminal and leaves the
  /// alternate screen, then stops the program; `SIGCONT` (`fg`) switches
  /// back to raw mode and the alternate screen, and the next read returns
  /// ``TerminalInput/resized`` so that the whole screen is drawn again.
  ///
  /// Job control is off where `SIGTSTP` was ignored when full-screen mode
  /// began (a program started by a shell without job control): then the
  /// program never stops, and this returns `false`.
  ///
  /// - Returns: Whether the program was suspended; it has continued when
  ///   this returns.
  public func suspend() -> Bool {
    _suspendFullScreen()
  }

  /// The window size of the output (or else the input) terminal.
  ///
  /// - Returns: The size, or ``TerminalSize/standard`` if neither
  ///   descriptor reports one.
  public func size() -> TerminalSize {
    for descriptor in [outputDescriptor, inputDescriptor] {
      var window = winsize()
      if ioctl(descriptor, UInt(TIOCGWINSZ), &window) == 0, window.ws_col > 0, window.ws_row > 0 {
        return TerminalSize(width: Int(window.ws_col), height: Int(window.ws_row))
      }
    }
    return .standard
  }

  /// Waits with `poll(2)` until input is available, the timeout passes or
  /// the window is resized, then reads what is available.
  ///
  /// - Parameter timeout: How long to wait; `nil` waits without limit.
  /// - Returns: The bytes, or why there are none.
  /// - Throws: ``TerminalError`` if polling or reading fails.
  public func read(timeout: Duration?) throws(TerminalError) -> TerminalInput {
    let milliseconds = timeout.map(Self.milliseconds) ?? -1
    while true {
      var requests = [
        pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0),
        pollfd(fd: _resizeNotifications, events: Int16(POLLIN), revents: 0),
      ]
      let ready = poll(&requests, nfds_t(_resizeNotifications >= 0 ? 2 : 1), milliseconds)
      if ready < 0 {
        if errno == EINTR { continue }
        throw TerminalError("cannot wait for input: \(systemError())")
      }
      if ready == 0 { return .timedOut }
      if requests[1].revents & Int16(POLLIN) != 0 {
        _drainResizeNotifications()
        // A stop from outside is made here, where the screen is drawn, never
        // in the middle of a frame.
        if _takeStopRequest() {
          _ = _suspendFullScreen()
        } else {
          _takeContinueRequest()
        }
        return .resized
      }
      var buffer = [UInt8](repeating: 0, count: 1024)
      let count = buffer.withUnsafeMutableBytes {
        systemRead(inputDescriptor, $0.baseAddress, $0.count)
      }
      if count > 0 { return .bytes(Array(buffer[..<count])) }
      if count == 0 || errno == EIO { return .endOfInput }
      if errno == EINTR || errno == EAGAIN { continue }
      throw TerminalError("cannot read input: \(systemError())")
    }
  }

  /// Writes all of the text, retrying after partial writes and
  /// interruptions.
  ///
  /// - Parameter text: The text to write.
  /// - Throws: ``TerminalError`` if writing fails.
  public func write(_ text: String) throws(TerminalError) {
    var bytes = Array(text.utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes.withUnsafeMutableBytes {
        systemWrite(outputDescriptor, $0.baseAddress.map { $0 + written }, $0.count - written)
      }
      if count < 0 {
        if errno == EINTR || errno == EAGAIN { continue }
        throw TerminalError("cannot write to the terminal: \(systemError())")
      }
      written += count
    }
  }

  private static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    let total = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    return Int32(clamping: max(total, 0))
  }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int)
  -> Int
{
  write(descriptor, buffer, count)
}

private func systemError() -> String {
  String(cString: strerror(errno))
}

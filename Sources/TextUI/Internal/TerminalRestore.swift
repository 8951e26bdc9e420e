import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// What the signal handlers need to restore the terminal, kept where a
// signal handler may read it: plain globals and buffers allocated once, up
// front, all written only while no handler of ours is installed (a handler
// must not allocate, lock or call into the Swift runtime). The flags that
// handlers set while the program runs are atomics, touched once by
// `_armTerminalRestore` before any handler is installed, so that no handler
// is the first to reach them.

nonisolated(unsafe) private var restoreInput: Int32 = -1
nonisolated(unsafe) private var restoreOutput: Int32 = -1
/// The settings to restore, on the heap rather than in a global `termios`.
///
/// Swift 6.3 on Linux emits a statically initialised global of the imported
/// `termios` without the 3 padding bytes before `c_ispeed`: 57 bytes, where
/// the type takes 60. Storing a whole `termios` into such a global writes
/// past its end (AddressSanitizer reports a global-buffer-overflow). A heap
/// buffer has the type's real size. It is allocated once, by the first
/// ``_armTerminalRestore(input:output:attributes:)``, before any handler
/// that reads it is installed, so no handler ever allocates it.
nonisolated(unsafe) private let restoreAttributes: UnsafeMutablePointer<termios> = {
  let attributes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
  attributes.initialize(to: termios())
  return attributes
}()
/// The raw-mode settings to put back when the program continues after a
/// stop; on the heap for the reason ``restoreAttributes`` is.
nonisolated(unsafe) private let rawAttributes: UnsafeMutablePointer<termios> = {
  let attributes = UnsafeMutablePointer<termios>.allocate(capacity: 1)
  attributes.initialize(to: termios())
  return attributes
}()
/// Whether `SIGTSTP` suspends the program: false where job control is off
/// (the signal was ignored when full-screen mode began).
nonisolated(unsafe) private var suspendsOnStop = false
/// Set by the `SIGTSTP` handler: the session stops at its next read.
///
/// Atomic, like ``continuesSeen``: the handler runs on another thread than
/// the reader (see ``noteContinue``), so plain variables would race.
private let stopRequested = Atomic<Bool>(false)
/// How many `SIGCONT`s the handler has seen; written only by the handler.
private let continuesSeen = Atomic<Int32>(0)
/// How many of ``continuesSeen`` the thread that draws has answered by
/// taking the terminal back; read and written only by that thread.
nonisolated(unsafe) private var continuesAnswered: Int32 = 0
nonisolated(unsafe) private let previousActions: UnsafeMutablePointer<sigaction> = {
  let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: signalLimit)
  actions.initialize(repeating: sigaction(), count: signalLimit)
  return actions
}()
nonisolated(unsafe) private let installedActions: UnsafeMutablePointer<Bool> = {
  let installed = UnsafeMutablePointer<Bool>.allocate(capacity: signalLimit)
  installed.initialize(repeating: false, count: signalLimit)
  return installed
}()

/// A pipe that the `SIGWINCH` handler writes a byte to, so that a reader
/// waiting in `poll(2)` wakes up whichever thread the signal interrupted.
nonisolated(unsafe) private var resizePipeReader: Int32 = -1
nonisolated(unsafe) private var resizePipeWriter: Int32 = -1

/// One more than the highest signal number handled.
private let signalLimit = 65

/// Signals that end the program: the terminal is restored before the
/// previous disposition (usually: terminate, or the Swift runtime's crash
/// report) takes over.
private let restoredSignals: [Int32] = [
  SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGABRT, SIGILL, SIGTRAP, SIGSEGV, SIGBUS, SIGFPE,
]

private let restoreSequence: StaticString = "\u{1B}[0m\u{1B}[?25h\u{1B}[?1049l"
/// Enters the alternate screen, hides the cursor and clears the screen:
/// what ``POSIXTerminal/enterFullScreen()`` writes.
private let reenterSequence: StaticString = "\u{1B}[?1049h\u{1B}[?25l\u{1B}[H\u{1B}[2J"

/// Restores the saved terminal settings and leaves the alternate screen.
///
/// Async-signal-safe: only `write(2)` and `tcsetattr(3)`.
private func restoreTerminalNow() {
  guard restoreInput >= 0 else { return }
  _ = write(restoreOutput, restoreSequence.utf8Start, restoreSequence.utf8CodeUnitCount)
  _ = tcsetattr(restoreInput, TCSADRAIN, restoreAttributes)
}

/// Restores the terminal, puts the previous handler back and hands it the
/// signal.
///
/// A signal that ends the program is raised again. A fault (SIGILL, SIGSEGV,
/// …) is not: returning runs the faulting instruction again, which raises
/// the signal for the previous handler with the fault's own details, so the
/// Swift runtime's crash report shows where the fault was, not this handler.
private let restoreAndResignal:
  @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?) -> Void = {
    signal, info, _ in
    restoreTerminalNow()
    // Hand the signal to whoever had it before.
    _ = sigaction(signal, previousActions + Int(signal), nil)
    // No array lookups here: a signal handler must not call into the Swift
    // runtime.
    let isFault =
      signal == SIGILL || signal == SIGTRAP || signal == SIGSEGV || signal == SIGBUS
      || signal == SIGFPE
    // A fault sent by kill(2) (si_code <= 0) has no instruction to repeat.
    if !isFault || (info?.pointee.si_code ?? 0) <= 0 {
      _ = raise(signal)
    }
  }

/// Notes a `SIGTSTP` (job control, `kill -TSTP`) and wakes the reader.
///
/// The stop itself is made by the thread that reads and draws, at its next
/// read (``_takeStopRequest()``): a handler that restored the terminal on
/// another thread while that one drew could have a frame written after the
/// restore hide the cursor again under the shell.
///
/// Async-signal-safe: an atomic store and `write(2)`.
private let requestStop: @convention(c) (Int32) -> Void = { _ in
  stopRequested.store(true, ordering: .sequentiallyConsistent)
  wakeReader()
}

/// Counts a `SIGCONT` (`fg`, `kill -CONT`) and wakes the reader: the
/// terminal is taken back on the thread that draws, by
/// ``_suspendFullScreen()`` or else by ``_takeContinueRequest()``.
///
/// The handler does not take the terminal back itself: the kernel runs it on
/// any thread that lets `SIGCONT` through. The thread that draws runs on
/// libdispatch's workers, which block every signal, so the handler runs on
/// another thread, at the same time as the drawing thread goes on from its
/// stop. A reentry written by the handler could land after the redraw: the
/// screen went blank, then was drawn a second time.
///
/// Async-signal-safe: an atomic add and `write(2)`.
private let noteContinue: @convention(c) (Int32) -> Void = { _ in
  continuesSeen.wrappingAdd(1, ordering: .sequentiallyConsistent)
  wakeReader()
}

/// Raw mode again, the alternate screen, the cursor hidden and the screen
/// cleared: the whole screen must then be drawn again.
///
/// In the background, setting the terminal stops the program again
/// (`SIGTTOU`) until it is in the foreground; only then does it draw.
private func reenterFullScreenNow() {
  guard restoreInput >= 0 else { return }
  _ = tcsetattr(restoreInput, TCSADRAIN, rawAttributes)
  _ = write(restoreOutput, reenterSequence.utf8Start, reenterSequence.utf8CodeUnitCount)
}

private let noteResize: @convention(c) (Int32) -> Void = { _ in
  wakeReader()
}

/// Writes a byte to the pipe the reader waits on, from a signal handler.
///
/// Keeps `errno` as it was: the handler may have interrupted code between a
/// failed call and its look at `errno`. Async-signal-safe: only `write(2)`.
private func wakeReader() {
  let saved = errno
  var byte: UInt8 = 1
  _ = write(resizePipeWriter, &byte, 1)
  errno = saved
}

/// The descriptor that becomes readable when the window was resized, or -1
/// before the first ``_armTerminalRestore(input:output:attributes:)``.
var _resizeNotifications: Int32 { resizePipeReader }

/// Reads every pending resize notification.
func _drainResizeNotifications() {
  var buffer = [UInt8](repeating: 0, count: 64)
  while buffer.withUnsafeMutableBytes({ read(resizePipeReader, $0.baseAddress, $0.count) }) > 0 {}
}

private func install(
  _ handler: @convention(c) (Int32) -> Void, flags: Int32 = 0, for signal: Int32
) {
  var action = handlerAction(handler)
  install(&action, flags: flags, for: signal)
}

/// An action that runs `handler`; its mask and flags are left to set.
private func handlerAction(_ handler: @convention(c) (Int32) -> Void) -> sigaction {
  var action = sigaction()
  #if canImport(Darwin)
  action.__sigaction_u.__sa_handler = handler
  #else
  action.__sigaction_handler.sa_handler = handler
  #endif
  return action
}

private func install(
  _ handler:
    @convention(c) (Int32, UnsafeMutablePointer<siginfo_t>?, UnsafeMutableRawPointer?)
    -> Void,
  for signal: Int32
) {
  var action = sigaction()
  #if canImport(Darwin)
  action.__sigaction_u.__sa_sigaction = handler
  #else
  action.__sigaction_handler.sa_sigaction = handler
  #endif
  install(&action, flags: SA_SIGINFO, for: signal)
}

private func install(_ action: inout sigaction, flags: Int32, for signal: Int32) {
  sigemptyset(&action.sa_mask)
  action.sa_flags = flags
  installedActions[Int(signal)] = sigaction(signal, &action, previousActions + Int(signal)) == 0
}

/// Whether a signal is ignored now: it stays ignored.
///
/// A program started in the background ignores `SIGINT`. For the
/// package's own handlers, the sample app's included.
package func isIgnored(_ signal: Int32) -> Bool {
  var current = sigaction()
  guard sigaction(signal, nil, &current) == 0 else { return false }
  #if canImport(Darwin)
  let handler = unsafeBitCast(current.__sigaction_u.__sa_handler, to: Int.self)
  #else
  let handler = unsafeBitCast(current.__sigaction_handler.sa_handler, to: Int.self)
  #endif
  return handler == 1  // SIG_IGN
}

/// Installs the handlers that restore the terminal on a fatal signal, the
/// handlers that suspend and resume the program on `SIGTSTP` and `SIGCONT`,
/// and the handler that notes a resize.
///
/// - Parameters:
///   - input: The terminal's input descriptor, whose settings are restored.
///   - output: Where the sequences that leave full-screen mode are written.
///   - attributes: The settings to restore.
///   - raw: The raw-mode settings to put back after a stop.
func _armTerminalRestore(input: Int32, output: Int32, attributes: termios, raw: termios) {
  _disarmTerminalRestore()
  restoreAttributes.pointee = attributes
  rawAttributes.pointee = raw
  restoreInput = input
  restoreOutput = output
  stopRequested.store(false, ordering: .sequentiallyConsistent)
  continuesAnswered = continuesSeen.load(ordering: .sequentiallyConsistent)
  if resizePipeReader < 0 {
    var descriptors: [Int32] = [-1, -1]
    if pipe(&descriptors) == 0 {
      for descriptor in descriptors {
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
      }
      resizePipeReader = descriptors[0]
      resizePipeWriter = descriptors[1]
    }
  }
  _drainResizeNotifications()
  for signal in restoredSignals where !isIgnored(signal) {
    install(restoreAndResignal, for: signal)
  }
  install(noteResize, for: SIGWINCH)
  // A program started where job control is off has SIGTSTP ignored: it
  // stays so, and Ctrl-Z is an ordinary key.
  suspendsOnStop = !isIgnored(SIGTSTP)
  if suspendsOnStop {
    // Other threads' system calls (a store's save) go on after the stop.
    install(requestStop, flags: SA_RESTART, for: SIGTSTP)
    install(noteContinue, flags: SA_RESTART, for: SIGCONT)
  }
}

/// Stops the program as Ctrl-Z does where job control is on.
///
/// On the calling thread, the one that draws, it restores the terminal,
/// leaves the alternate screen and stops with `SIGTSTP`'s default action.
/// When the program continues, it takes the terminal back, on the same
/// thread, before it returns: the caller then draws the whole screen.
///
/// - Returns: Whether the program was suspended (and has continued since);
///   false where job control is off, or outside full-screen mode.
func _suspendFullScreen() -> Bool {
  guard restoreInput >= 0, suspendsOnStop else { return false }
  stopRequested.store(false, ordering: .sequentiallyConsistent)
  let expectedContinues = continuesSeen.load(ordering: .sequentiallyConsistent) &+ 1
  restoreTerminalNow()
  var stop = sigaction()
  sigemptyset(&stop.sa_mask)
  _ = sigaction(SIGTSTP, &stop, nil)  // SIG_DFL: stop
  // A worker thread (libdispatch's) blocks SIGTSTP: let it through here.
  var stops = sigset_t()
  sigemptyset(&stops)
  sigaddset(&stops, SIGTSTP)
  var mask = sigset_t()
  _ = pthread_sigmask(SIG_UNBLOCK, &stops, &mask)
  _ = raise(SIGTSTP)
  _ = pthread_sigmask(SIG_SETMASK, &mask, nil)
  // Continued, by a SIGCONT whose handler runs on another thread, before or
  // after this line: the reentry is made here, before the caller draws, and
  // counts as that handler's answer.
  continuesAnswered = expectedContinues
  reenterFullScreenNow()
  // The SIGTSTP handler goes back without touching `previousActions`,
  // which keep what to restore when full-screen mode ends.
  var again = handlerAction(requestStop)
  sigemptyset(&again.sa_mask)
  again.sa_flags = SA_RESTART
  _ = sigaction(SIGTSTP, &again, nil)
  return true
}

/// Whether a `SIGTSTP` came since the last call; the reader then suspends
/// with ``_suspendFullScreen()``.
func _takeStopRequest() -> Bool {
  stopRequested.exchange(false, ordering: .sequentiallyConsistent)
}

/// Takes the terminal back after a `SIGCONT` that ``_suspendFullScreen()``
/// did not answer.
///
/// Such a continue follows a stop from outside (`SIGSTOP`), and the shell
/// may have set the terminal for itself meanwhile. Called on the thread
/// that draws, which then draws the whole screen.
func _takeContinueRequest() {
  let seen = continuesSeen.load(ordering: .sequentiallyConsistent)
  guard seen != continuesAnswered else { return }
  continuesAnswered = seen
  reenterFullScreenNow()
}

/// Puts the previous signal handlers back and forgets the terminal.
func _disarmTerminalRestore() {
  for signal in restoredSignals + [SIGWINCH, SIGTSTP, SIGCONT]
  where installedActions[Int(signal)] {
    _ = sigaction(signal, previousActions + Int(signal), nil)
    installedActions[Int(signal)] = false
  }
  restoreInput = -1
  restoreOutput = -1
  suspendsOnStop = false
}

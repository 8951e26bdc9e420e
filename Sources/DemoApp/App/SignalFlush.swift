import Foundation
import TextUI

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The write end of the pipe that wakes the flushing thread; written only
/// before the handlers are installed.
nonisolated(unsafe) private var wakeWriter: Int32 = -1

/// The signal handler: async-signal-safe, it only writes the signal's
/// number to the pipe.
private let noteSignal: @convention(c) (Int32) -> Void = { signal in
  var byte = UInt8(truncatingIfNeeded: signal)
  _ = write(wakeWriter, &byte, 1)
}

/// Writes what must not be lost when `SIGINT`, `SIGTERM` or `SIGHUP` ends
/// the app — the to-do list's unsaved changes — then lets the signal end it
/// as it would have.
///
/// A signal handler may not run Swift code, so the handler only wakes a
/// thread of its own, which runs the registered flushes (each one callable
/// from any thread), puts the signal's default action back and raises the
/// signal again. In a full-screen session, the terminal's own handler runs
/// first, restores the terminal and hands the signal on to this one.
enum SignalFlush {
  private static let lock = NSLock()
  nonisolated(unsafe) private static var flushes: [ObjectIdentifier: @Sendable () -> Void] = [:]

  /// The signals that end the app with a flush.
  static let signals = [SIGINT, SIGTERM, SIGHUP]

  /// Adds a flush to run on a terminating signal, until its owner is
  /// unregistered.
  ///
  /// - Parameters:
  ///   - owner: What the flush belongs to.
  ///   - flush: The flush; it runs on a thread of its own.
  static func register(_ owner: AnyObject, flush: @escaping @Sendable () -> Void) {
    lock.withLock { flushes[ObjectIdentifier(owner)] = flush }
  }

  /// Removes an owner's flush.
  ///
  /// - Parameter owner: What the flush belongs to.
  static func unregister(_ owner: AnyObject) {
    let key = ObjectIdentifier(owner)
    _ = lock.withLock { flushes.removeValue(forKey: key) }
  }

  /// Installs the handlers, once; a signal the process ignores (as a
  /// program started in the background ignores `SIGINT`) stays ignored.
  static func install() {
    guard wakeWriter < 0 else { return }
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return }
    let reader = descriptors[0]
    wakeWriter = descriptors[1]
    Thread.detachNewThread {
      var byte: UInt8 = 0
      while read(reader, &byte, 1) < 0 && errno == EINTR {}
      let signal = Int32(byte)
      for flush in lock.withLock({ Array(flushes.values) }) {
        flush()
      }
      var action = sigaction()
      sigemptyset(&action.sa_mask)
      _ = sigaction(signal, &action, nil)  // SIG_DFL
      _ = kill(getpid(), signal)
    }
    for signal in signals where !isIgnored(signal) {
      var action = sigaction()
      #if canImport(Darwin)
      action.__sigaction_u.__sa_handler = noteSignal
      #else
      action.__sigaction_handler.sa_handler = noteSignal
      #endif
      sigemptyset(&action.sa_mask)
      // Reads of standard input go on, rather than fail, while the flush runs.
      action.sa_flags = SA_RESTART
      _ = sigaction(signal, &action, nil)
    }
  }
}

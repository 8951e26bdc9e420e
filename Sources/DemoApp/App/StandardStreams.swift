import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// Streams of their own on the standard descriptors: the C library's
// `stdout` and `stderr` are global variables that strict concurrency
// checking rejects. `exit(3)` flushes them like any other stream.
nonisolated(unsafe) private let outputStream = fdopen(STDOUT_FILENO, "w")
nonisolated(unsafe) private let errorStream = fdopen(STDERR_FILENO, "w")

/// The `errno` of the first write to standard output that failed; 0 while
/// none has.
private let outputFailure = Atomic<Int32>(0)

/// Writes a string's UTF-8 bytes, all of them: `fputs` would stop at a NUL.
///
/// - Returns: Whether the stream took them all.
@discardableResult
private func writeBytes(of string: String, to stream: UnsafeMutablePointer<FILE>?) -> Bool {
  var string = string
  return string.withUTF8 { bytes in
    fwrite(bytes.baseAddress, 1, bytes.count, stream) == bytes.count
  }
}

/// Notes the first failure to write standard output.
private func noteOutputFailure() {
  _ = outputFailure.compareExchange(
    expected: 0, desired: errno == 0 ? EIO : errno, ordering: .relaxed)
}

/// Standard output as a text stream.
public struct StandardOutput: TextOutputStream {
  // Not an empty struct: ThreadSanitizer crashes on an empty struct passed
  // `inout` across an `await` (the script runner takes these streams so).
  private let descriptor = STDOUT_FILENO

  /// Creates the stream.
  public init() {}

  /// Writes text to standard output (buffered).
  ///
  /// - Parameter string: The text.
  public mutating func write(_ string: String) {
    if !writeBytes(of: string, to: outputStream) {
      noteOutputFailure()
    }
  }

  /// The `errno` code of the first write to standard output that failed
  /// (`ENOSPC` on a full disk, `EPIPE` once the reader of a pipe has
  /// gone), or `nil` while every write succeeded.
  ///
  /// Standard output is buffered: a write fails when the buffer it fills
  /// cannot be written, and the last one only when it is flushed, by
  /// ``flush()``.
  public static var failure: Int32? {
    let code = outputFailure.load(ordering: .relaxed)
    return code == 0 ? nil : code
  }

  /// Writes what standard output holds in its buffer.
  ///
  /// - Returns: ``failure``, once the buffer is written (or not).
  @discardableResult
  public static func flush() -> Int32? {
    if fflush(outputStream) != 0 {
      noteOutputFailure()
    }
    return failure
  }
}

/// Standard error as a text stream.
///
/// It flushes standard output first, so that when both go to the same
/// place (`2>&1`) an error line shows after the screens before it.
public struct StandardError: TextOutputStream {
  // Not empty, for ThreadSanitizer; see `StandardOutput`.
  private let descriptor = STDERR_FILENO

  /// Creates the stream.
  public init() {}

  /// Writes text to standard error.
  ///
  /// - Parameter string: The text.
  public mutating func write(_ string: String) {
    fflush(outputStream)
    writeBytes(of: string, to: errorStream)
    fflush(errorStream)
  }
}

/// The lines of standard input, read as they come, without their line
/// feeds.
public struct StandardInputLines: Sequence, IteratorProtocol {
  /// Creates the sequence.
  public init() {}

  /// The next line, or `nil` at the end of the input.
  ///
  /// - Returns: The line.
  public mutating func next() -> String? {
    readLine(strippingNewline: true)
  }
}

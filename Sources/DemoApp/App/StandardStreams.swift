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

/// Writes a string's UTF-8 bytes, all of them: `fputs` would stop at a NUL.
private func writeBytes(of string: String, to stream: UnsafeMutablePointer<FILE>?) {
  var string = string
  string.withUTF8 { bytes in
    _ = fwrite(bytes.baseAddress, 1, bytes.count, stream)
  }
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
    writeBytes(of: string, to: outputStream)
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

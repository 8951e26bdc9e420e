#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON file that holds a store's elements, saved atomically.
///
/// A save writes the whole array to `.<name>.saving` beside the file,
/// flushes it to disk, then renames it over the file. The rename is atomic:
/// a reader, or a crash, sees either the old file or the new one, never a
/// half-written one. A failed save removes its temporary file and leaves the
/// old file as it was. (The temporary name is fixed: one store owns its file.)
struct _JSONFile<Element: Codable> {
  let url: URL

  var temporaryURL: URL {
    url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).saving")
  }

  /// The elements in the file; an empty array if there is no file.
  func load() throws(StoreError) -> [Element] {
    guard FileManager.default.fileExists(atPath: url.path) else { return [] }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw StoreError(.unreadable, path: url.path, reason: Self.describe(error))
    }
    do {
      return try JSONDecoder().decode([Element].self, from: data)
    } catch {
      throw StoreError(.corrupt, path: url.path, reason: Self.describe(error))
    }
  }

  /// Replaces the file's contents, atomically.
  func save(_ elements: [Element]) throws(StoreError) {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    let data: Data
    do {
      data = try encoder.encode(elements)
    } catch {
      throw StoreError(.unwritable, path: url.path, reason: Self.describe(error))
    }
    let temporary = temporaryURL.path
    do {
      try Self.writeFlushed(data, to: temporary)
      guard rename(temporary, url.path) == 0 else { throw Self.posixError("rename") }
    } catch {
      if !(error is _DirectoryInTheWay) {
        unlink(temporary)
      }
      throw StoreError(.unwritable, path: url.path, reason: Self.describe(error))
    }
  }

  /// Writes and flushes a file, failing rather than following a directory
  /// or anything else that is not a regular file.
  private static func writeFlushed(_ data: Data, to path: String) throws {
    var status = stat()
    if lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFDIR {
      throw _DirectoryInTheWay(path: path)
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard descriptor >= 0 else { throw posixError("open \(path)") }
    defer { close(descriptor) }
    try data.withUnsafeBytes { bytes in
      var offset = 0
      while offset < bytes.count {
        let written = write(
          descriptor, bytes.baseAddress?.advanced(by: offset), bytes.count - offset)
        guard written > 0 else { throw posixError("write \(path)") }
        offset += written
      }
    }
    guard fsync(descriptor) == 0 else { throw posixError("fsync \(path)") }
  }

  private static func posixError(_ operation: String) -> _POSIXFailure {
    _POSIXFailure(operation: operation, code: errno)
  }

  private static func describe(_ error: any Error) -> String {
    switch error {
    case let error as DecodingError:
      switch error {
      case .dataCorrupted(let context): context.debugDescription
      case .keyNotFound(let key, _): "missing the field '\(key.stringValue)'"
      case .typeMismatch(_, let context), .valueNotFound(_, let context):
        context.debugDescription
      @unknown default: "\(error)"
      }
    case let error as CocoaError:
      (error.userInfo["NSUnderlyingError"] as? POSIXError).map { "\($0.code)" } ?? "\(error.code)"
    default:
      "\(error)"
    }
  }
}

/// A directory where the temporary file should go.
struct _DirectoryInTheWay: Error, CustomStringConvertible {
  let path: String
  var description: String { "\(path) is a directory" }
}

/// A failed system call.
struct _POSIXFailure: Error, CustomStringConvertible {
  let operation: String
  let code: Int32
  var description: String { "\(operation) failed: \(String(cString: strerror(code)))" }
}

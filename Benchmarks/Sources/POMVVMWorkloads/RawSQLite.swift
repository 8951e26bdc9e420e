import CSQLiteBench

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A connection made through SQLite's C API and nothing else: what the store
/// rows compare the kit's database store with.
///
/// It does what a careful program without a wrapper does: statements
/// prepared once and reused, text bound without a copy, columns read
/// straight into Swift values. A failure ends the run with SQLite's message,
/// since the rows measure nothing without their files.
package final class RawDatabase {
  private let handle: OpaquePointer

  /// Opens (or creates) the database at `path`.
  package init(path: String) {
    var handle: OpaquePointer?
    let status = sqlite3_open_v2(
      path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
    guard status == SQLITE_OK, let handle else {
      let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
      sqlite3_close_v2(handle)
      storeBenchmarkFailure("cannot open \(path): \(message)")
    }
    self.handle = handle
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Runs statements that return no rows.
  package func execute(_ sql: String) {
    var message: UnsafeMutablePointer<CChar>?
    guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? "unknown error"
      sqlite3_free(message)
      storeBenchmarkFailure("\(sql): \(text)")
    }
  }

  /// A statement prepared once, to reuse.
  package func prepare(_ sql: String) -> RawStatement {
    var statement: OpaquePointer?
    guard
      sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        == SQLITE_OK, let statement
    else {
      storeBenchmarkFailure("\(sql): \(String(cString: sqlite3_errmsg(handle)))")
    }
    return RawStatement(statement, database: handle)
  }
}

/// A prepared statement of a ``RawDatabase``.
package final class RawStatement {
  fileprivate let statement: OpaquePointer
  private let database: OpaquePointer

  fileprivate init(_ statement: OpaquePointer, database: OpaquePointer) {
    self.statement = statement
    self.database = database
  }

  deinit {
    sqlite3_finalize(statement)
  }

  /// Steps once: `true` while there is a row.
  package func step() -> Bool {
    switch sqlite3_step(statement) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default: storeBenchmarkFailure(String(cString: sqlite3_errmsg(database)))
    }
  }

  /// Makes the statement ready to run again; its bindings stay.
  package func reset() {
    sqlite3_reset(statement)
  }

  package func bind(_ value: Int, at index: Int32) {
    sqlite3_bind_int64(statement, index, Int64(value))
  }

  package func bind(_ value: Double?, at index: Int32) {
    if let value {
      sqlite3_bind_double(statement, index, value)
    } else {
      sqlite3_bind_null(statement, index)
    }
  }

  /// Binds text for the steps that `body` makes, then resets the
  /// statement and unbinds the text, which is not copied.
  package func withText<Result>(
    _ value: String, at index: Int32, _ body: () -> Result
  ) -> Result {
    var value = value
    return value.withUTF8 { bytes in
      // SQLITE_STATIC (a nil destructor): SQLite reads the bytes in place.
      sqlite3_bind_text(
        statement, index, UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self),
        Int32(bytes.count), nil)
      let result = body()
      sqlite3_reset(statement)
      sqlite3_bind_null(statement, index)
      return result
    }
  }

  package func int(at column: Int32) -> Int {
    Int(sqlite3_column_int64(statement, column))
  }

  package func double(at column: Int32) -> Double? {
    sqlite3_column_type(statement, column) == SQLITE_NULL
      ? nil : sqlite3_column_double(statement, column)
  }

  package func text(at column: Int32) -> String {
    guard let bytes = sqlite3_column_text(statement, column) else { return "" }
    let count = Int(sqlite3_column_bytes(statement, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }
}

/// Ends the run: a store row cannot measure without its files.
package func storeBenchmarkFailure(_ message: String) -> Never {
  var line = "error: store rows: \(message)\n"
  line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
  exit(1)
}

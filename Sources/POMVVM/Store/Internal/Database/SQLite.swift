import CSQLite

/// A value of one SQLite column.
enum _SQLValue: Hashable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

/// A failed SQLite call: its result code and SQLite's message.
struct _SQLiteError: Error, CustomStringConvertible {
  /// The primary result code (`SQLITE_BUSY`, `SQLITE_FULL`, …).
  let code: Int32
  let message: String

  var description: String { message }

  /// Whether the database is not a database, or damaged.
  var isCorrupt: Bool { code == SQLITE_NOTADB || code == SQLITE_CORRUPT }
}

/// One connection to a SQLite database: the boundary where the C API is
/// called and its errors become Swift errors.
///
/// Statements are prepared once and kept (``cached(_:)``). Not
/// thread-safe: a store's connection is used by one thread at a time (the
/// main actor while the store opens, then its save thread).
final class _SQLiteConnection {
  private let handle: OpaquePointer
  private var statements: [String: _SQLiteStatement] = [:]

  /// Opens a database file, creating it if `creates`.
  init(path: String, creates: Bool) throws(_SQLiteError) {
    var handle: OpaquePointer?
    let flags =
      SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (creates ? SQLITE_OPEN_CREATE : 0)
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard let handle else {
      throw _SQLiteError(code: code, message: "cannot open it: out of memory")
    }
    guard code == SQLITE_OK else {
      let error = _SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)))
      sqlite3_close_v2(handle)
      throw error
    }
    self.handle = handle
    sqlite3_extended_result_codes(handle, 0)
  }

  private var isClosed = false

  deinit {
    close()
  }

  /// Finalizes the statements and closes the connection; nothing may use
  /// it afterwards.
  func close() {
    guard !isClosed else { return }
    isClosed = true
    statements.removeAll()
    sqlite3_close_v2(handle)
  }

  /// How long a statement waits for another connection's lock before it
  /// fails with `SQLITE_BUSY`.
  func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }

  /// Whether closing this connection, if it is the last, checkpoints the
  /// write-ahead log into the database file (and so writes to it).
  func setCheckpointOnClose(_ enabled: Bool) {
    _ = _csqlite_set_checkpoint_on_close(handle, enabled ? 1 : 0)
  }

  /// Whether the database was opened read-only (its file is not writable).
  var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// Runs one or more statements that return no rows.
  func execute(_ sql: String) throws(_SQLiteError) {
    let code = sqlite3_exec(handle, sql, nil, nil, nil)
    guard code == SQLITE_OK else { throw error(code) }
  }

  /// A statement prepared for this call only.
  func prepare(_ sql: String) throws(_SQLiteError) -> _SQLiteStatement {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
    guard code == SQLITE_OK, let statement else { throw error(code) }
    return _SQLiteStatement(statement, connection: self)
  }

  /// A statement prepared once and kept, reset for this use.
  func cached(_ sql: String) throws(_SQLiteError) -> _SQLiteStatement {
    if let statement = statements[sql] {
      statement.reset()
      return statement
    }
    let statement = try prepare(sql)
    statements[sql] = statement
    return statement
  }

  /// Forgets the kept statements (after the schema changed, for example).
  func clearCache() {
    statements.removeAll()
  }

  /// The number of rows the last statement changed.
  var changes: Int { Int(sqlite3_changes(handle)) }

  /// The error a result code stands for, with the connection's message.
  func error(_ code: Int32) -> _SQLiteError {
    _SQLiteError(code: code & 0xff, message: String(cString: sqlite3_errmsg(handle)))
  }

  /// The value of a pragma that returns one integer.
  func integerPragma(_ name: String) throws(_SQLiteError) -> Int64 {
    try cached("PRAGMA \(name)").firstRow { $0.int64(at: 0) } ?? 0
  }
}

/// A prepared statement; its columns are read between ``step()`` calls.
final class _SQLiteStatement {
  let handle: OpaquePointer
  private unowned let connection: _SQLiteConnection

  init(_ handle: OpaquePointer, connection: _SQLiteConnection) {
    self.handle = handle
    self.connection = connection
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Makes the statement ready to run again, and clears its bindings.
  func reset() {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
  }

  /// Binds values to the parameters, from the first.
  func bind(_ values: [_SQLValue]) throws(_SQLiteError) {
    for (index, value) in values.enumerated() {
      try bind(value, at: Int32(index + 1))
    }
  }

  /// Binds a value to a parameter (counted from 1).
  func bind(_ value: _SQLValue, at index: Int32) throws(_SQLiteError) {
    let code: Int32
    switch value {
    case .null:
      code = sqlite3_bind_null(handle, index)
    case .integer(let value):
      code = sqlite3_bind_int64(handle, index, value)
    case .real(let value):
      code = sqlite3_bind_double(handle, index, value)
    case .text(let value):
      // The UTF-8 length, not strlen: text may hold NUL characters.
      let length = Int32(value.utf8.count)
      code = value.withCString {
        sqlite3_bind_text(handle, index, $0, length, _csqlite_transient())
      }
    case .blob(let bytes):
      code = bytes.withUnsafeBytes { buffer in
        // A zero-length blob, not NULL, for an empty array.
        sqlite3_bind_blob(
          handle, index, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(buffer.count),
          _csqlite_transient())
      }
    }
    guard code == SQLITE_OK else { throw connection.error(code) }
  }

  /// Runs the statement to its next row.
  ///
  /// - Returns: Whether there is a row; `false` when it is done.
  @discardableResult
  func step() throws(_SQLiteError) -> Bool {
    let code = sqlite3_step(handle)
    switch code {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    default:
      let error = connection.error(code)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Runs the statement with these bindings and reads its first row, then
  /// resets it (so that it holds no lock); `nil` if there is no row.
  func firstRow<T>(_ values: [_SQLValue] = [], _ read: (_SQLiteStatement) -> T) throws(_SQLiteError)
    -> T?
  {
    try bind(values)
    defer { sqlite3_reset(handle) }
    guard try step() else { return nil }
    return read(self)
  }

  /// Runs a statement that returns no rows, with these bindings.
  func run(_ values: [_SQLValue] = []) throws(_SQLiteError) {
    try bind(values)
    try step()
    sqlite3_reset(handle)
  }

  var columnCount: Int32 { sqlite3_column_count(handle) }

  func columnName(at index: Int32) -> String {
    sqlite3_column_name(handle, index).map { String(cString: $0) } ?? ""
  }

  func isNull(at index: Int32) -> Bool {
    sqlite3_column_type(handle, index) == SQLITE_NULL
  }

  func int64(at index: Int32) -> Int64 {
    sqlite3_column_int64(handle, index)
  }

  func double(at index: Int32) -> Double {
    sqlite3_column_double(handle, index)
  }

  func text(at index: Int32) -> String {
    guard let bytes = sqlite3_column_text(handle, index) else { return "" }
    let count = Int(sqlite3_column_bytes(handle, index))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  func blob(at index: Int32) -> [UInt8] {
    let count = Int(sqlite3_column_bytes(handle, index))
    guard count > 0, let bytes = sqlite3_column_blob(handle, index) else { return [] }
    return Array(UnsafeRawBufferPointer(start: bytes, count: count))
  }

  /// A column's value, whatever its type.
  func value(at index: Int32) -> _SQLValue {
    switch sqlite3_column_type(handle, index) {
    case SQLITE_NULL: .null
    case SQLITE_INTEGER: .integer(int64(at: index))
    case SQLITE_FLOAT: .real(double(at: index))
    case SQLITE_BLOB: .blob(blob(at: index))
    default: .text(text(at: index))
    }
  }
}

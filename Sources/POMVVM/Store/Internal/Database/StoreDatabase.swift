import CSQLite

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

/// One step of a burst, in the order the array made it.
enum _RowOperation<ID> {
  /// The row enters between two neighbours (`nil`: an end): inserted, if
  /// `isNew`, with the burst's last value for it, or moved.
  case place(ID, after: ID?, before: ID?, isNew: Bool)
  case remove(ID)
  /// Every row, numbered afresh in this order (after a reload).
  case renumber([ID])
}

/// What a database store's burst of changes writes: the steps that change
/// the rows and their order, in order, and each changed element's last
/// value.
struct _DatabaseBurst<Element: Identifiable>: _SaveBurst {
  var operations: [_RowOperation<Element.ID>] = []
  var values: [Element.ID: Element] = [:]
  var nextSequenceNumber: Int?

  mutating func absorb(_ later: _DatabaseBurst) {
    operations += later.operations
    values.merge(later.values) { _, new in new }
    nextSequenceNumber = later.nextSequenceNumber ?? nextSequenceNumber
  }
}

/// What another process committed, read from the database: the rows it
/// changed or added, each with the id of the row before it, and the ids it
/// removed.
struct _RemoteChanges<Element: Identifiable> {
  var rows: [(element: Element, after: Element.ID?, version: Int64)] = []
  var removed: [(id: Element.ID, version: Int64)] = []
  /// The last commit read.
  var through: Int64
  var nextSequenceNumber: Int?
}

/// What the main actor has taken in of other processes' commits: a save
/// refuses to write over a row whose version is newer.
struct _SyncState<ID: Hashable> {
  /// Every commit up to this one is in the store's elements, except the
  /// rows of `stale`.
  var lastSynced: Int64
  /// Rows whose newer version the store did not take (it had unsaved
  /// changes of them), with the version it has.
  var stale: [ID: Int64] = [:]
}

/// A store's SQLite database: the schema, opening and checking it, writing
/// a burst in one transaction, and reading other processes' commits.
///
/// The schema (format 1): `pomvvm_elements` holds a row per element, its
/// id in `_pomvvm_id`, its place in `_pomvvm_major` and `_pomvvm_minor`
/// (``_PositionKey``), the commit that last wrote it in `_pomvvm_version`,
/// and a column per field of the element (``_RowEncoder``);
/// `pomvvm_removed` keeps the ids of removed rows and the commit that
/// removed them, so that other processes learn of removals;
/// `pomvvm_store` holds the format, the element type, the number of the
/// last commit and the sequence. The file's header has the application id
/// `POMV` and the format as its user version.
///
/// Not thread-safe: the main actor uses it while the store opens, then the
/// save thread only.
final class _StoreDatabase<Element: Identifiable & Codable>: @unchecked Sendable
where Element.ID: Codable {
  typealias ID = Element.ID

  /// The format this version writes and reads.
  static var format: Int64 { 1 }
  /// `POMV`: the header's application id of a store database.
  static var applicationID: Int64 { 0x504F_4D56 }
  static var reserved: Set<String> {
    ["_pomvvm_id", "_pomvvm_major", "_pomvvm_minor", "_pomvvm_version"]
  }
  /// How long a write waits for another process's transaction, in
  /// milliseconds, by default.
  static var defaultBusyTimeout: Int32 { 5_000 }

  let path: String
  let connection: _SQLiteConnection
  /// How long a write waits for another process's transaction, in
  /// milliseconds.
  private(set) var busyTimeout = defaultBusyTimeout
  /// The element columns of the table.
  private var columns: Set<String>
  /// The fields the element type reads or writes: an update sets those it
  /// does not write to NULL, and leaves the others (a newer version's) as
  /// they are.
  private var knownFields: Set<String>
  /// Every commit up to this one was read (or is this store's own).
  private var readCursor: Int64
  /// This store's commits that other processes' commits may precede.
  private var ownCommits: Set<Int64> = []
  private var dataVersion: Int64 = 0
  /// The largest change log this database keeps on the commit number's
  /// page (``_ChangeLog/limit(pageSize:)``).
  private var logLimit = _ChangeLog.limit(pageSize: 4_096)
  /// How many reads of other processes' commits read every row's version
  /// (the change log did not cover them): for tests.
  let fullReads = _Locked(0)
  /// What the main actor took in; it writes, a save reads.
  let sync: _Locked<_SyncState<ID>>

  private init(
    path: String, connection: _SQLiteConnection, columns: Set<String>, knownFields: Set<String>,
    commit: Int64
  ) {
    self.path = path
    self.connection = connection
    self.columns = columns
    self.knownFields = knownFields
    readCursor = commit
    sync = _Locked(_SyncState(lastSynced: commit))
  }

  // MARK: - Opening

  /// Opens (or creates) a store database and reads its elements.
  ///
  /// A file that is refused is left byte for byte as it was: nothing is
  /// written until it is known to be a store of these elements.
  static func open(path: String, busyTimeout: Int32 = defaultBusyTimeout) throws(StoreError) -> (
    database: _StoreDatabase, elements: [Element], nextSequenceNumber: Int?
  ) {
    var status = stat()
    let exists = stat(path, &status) == 0
    if exists && status.st_mode & S_IFMT != S_IFREG {
      let what = status.st_mode & S_IFMT == S_IFDIR ? "a directory" : "not a regular file"
      throw StoreError(.unreadable, path: path, reason: "it is \(what)")
    }
    let connection: _SQLiteConnection
    do {
      connection = try _SQLiteConnection(path: path, creates: !exists)
    } catch {
      throw StoreError(.unreadable, path: path, reason: error.message)
    }
    connection.setCheckpointOnClose(false)
    connection.setBusyTimeout(milliseconds: busyTimeout)
    do {
      let isNew = try check(connection, path: path)
      if isNew {
        try create(connection, path: path)
      }
      try setDurability(connection)
      let opened = try read(connection, path: path)
      connection.setCheckpointOnClose(true)
      let database = _StoreDatabase(
        path: path, connection: connection, columns: opened.columns,
        knownFields: opened.knownFields, commit: opened.commit)
      database.dataVersion = (try? connection.integerPragma("data_version")) ?? 0
      database.busyTimeout = busyTimeout
      if let pageSize = try? connection.integerPragma("page_size") {
        database.logLimit = _ChangeLog.limit(pageSize: Int(pageSize))
      }
      return (database, opened.elements, opened.nextSequenceNumber)
    } catch let error as StoreError {
      throw error
    } catch let error as _SQLiteError {
      throw storeError(error, path: path, opening: true, busyTimeout: busyTimeout)
    } catch {
      throw StoreError(.unreadable, path: path, reason: "\(error)")
    }
  }

  /// The store error for a SQLite error.
  static func storeError(
    _ error: _SQLiteError, path: String, opening: Bool, busyTimeout: Int32 = defaultBusyTimeout
  ) -> StoreError {
    switch error.code {
    case SQLITE_NOTADB:
      return StoreError(.corrupt, path: path, reason: "it is not a SQLite database")
    case SQLITE_CORRUPT:
      return StoreError(.corrupt, path: path, reason: "the database is damaged (\(error.message))")
    case SQLITE_BUSY, SQLITE_LOCKED:
      return StoreError(
        .inUse, path: path,
        reason: "another process kept the database locked for longer than this store waits "
          + "(\(busyTimeout) ms); the store tries again")
    case SQLITE_READONLY:
      return StoreError(.readOnly, path: path, reason: error.message)
    default:
      return StoreError(opening ? .unreadable : .unwritable, path: path, reason: error.message)
    }
  }

  /// Checks the header and the schema, reading only.
  ///
  /// - Returns: Whether the database is empty: a new file.
  private static func check(_ connection: _SQLiteConnection, path: String) throws -> Bool {
    let application = try connection.integerPragma("application_id")
    let format = try connection.integerPragma("user_version")
    let tables = try names(connection, "SELECT name FROM sqlite_schema WHERE type = 'table'")
    if application == 0 && format == 0 && tables.isEmpty { return true }
    guard application == applicationID else {
      let listed = tables.sorted().prefix(5).map { String(reflecting: $0) }.joined(separator: ", ")
      throw StoreError(
        .corrupt, path: path,
        reason: "it is another program's database, not a store's"
          + (tables.isEmpty ? "" : " (its tables: \(listed))"))
    }
    guard format <= Self.format else {
      throw StoreError(
        .corrupt, path: path,
        reason: "a newer version of the store wrote it (format \(format); this version reads "
          + "format \(Self.format) and older); open it with that version")
    }
    guard format >= 1, tables.isSuperset(of: ["pomvvm_store", "pomvvm_elements", "pomvvm_removed"])
    else {
      throw StoreError(.corrupt, path: path, reason: "it lacks the store's tables")
    }
    let type = try metadata(connection, "elementType")
    let expected = String(describing: Element.self)
    if case .text(let stored) = type, stored != expected {
      throw StoreError(
        .corrupt, path: path,
        reason: "it holds elements of another type (\(String(reflecting: stored)), not "
          + "\(String(reflecting: expected)))")
    }
    return false
  }

  /// Creates the schema, unless another process did since the check.
  private static func create(_ connection: _SQLiteConnection, path: String) throws {
    try connection.execute("BEGIN IMMEDIATE")
    do {
      guard try names(connection, "SELECT name FROM sqlite_schema").isEmpty else {
        try connection.execute("COMMIT")
        _ = try check(connection, path: path)
        return
      }
      try connection.execute(
        """
        PRAGMA application_id = \(applicationID);
        PRAGMA user_version = \(format);
        CREATE TABLE pomvvm_store (key TEXT PRIMARY KEY NOT NULL, value) WITHOUT ROWID;
        CREATE TABLE pomvvm_elements (
          _pomvvm_id UNIQUE NOT NULL, _pomvvm_major INTEGER NOT NULL,
          _pomvvm_minor BLOB NOT NULL, _pomvvm_version INTEGER NOT NULL);
        CREATE INDEX pomvvm_elements_order ON pomvvm_elements (_pomvvm_major, _pomvvm_minor);
        CREATE TABLE pomvvm_removed (
          _pomvvm_id PRIMARY KEY NOT NULL, _pomvvm_version INTEGER NOT NULL);
        CREATE INDEX pomvvm_removed_version ON pomvvm_removed (_pomvvm_version);
        INSERT INTO pomvvm_store (key, value) VALUES ('format', \(format)), ('commit', 0);
        """)
      try connection.cached("INSERT INTO pomvvm_store (key, value) VALUES ('elementType', ?)")
        .run([.text(String(describing: Element.self))])
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      throw error
    }
  }

  /// Write-ahead logging, and every commit flushed to disk before it
  /// returns: a burst survives a power cut once its save ended.
  private static func setDurability(_ connection: _SQLiteConnection) throws {
    if connection.isReadOnly { return }
    let statement = try connection.prepare("PRAGMA journal_mode = WAL")
    _ = try statement.step()
    try connection.execute("PRAGMA synchronous = FULL")
  }

  private static func names(_ connection: _SQLiteConnection, _ sql: String) throws -> Set<String> {
    let statement = try connection.prepare(sql)
    var names: Set<String> = []
    while try statement.step() {
      names.insert(statement.text(at: 0))
    }
    return names
  }

  private static func metadata(_ connection: _SQLiteConnection, _ key: String) throws -> _SQLValue {
    try connection.cached("SELECT value FROM pomvvm_store WHERE key = ?")
      .firstRow([.text(key)]) { $0.value(at: 0) } ?? .null
  }

  private struct Opened {
    var elements: [Element]
    var nextSequenceNumber: Int?
    var commit: Int64
    var columns: Set<String>
    var knownFields: Set<String>
  }

  /// Reads the elements, in order, in one read transaction.
  private static func read(_ connection: _SQLiteConnection, path: String) throws -> Opened {
    try connection.execute("BEGIN")
    defer { try? connection.execute("COMMIT") }
    guard case .integer(let commit) = try metadata(connection, "commit") else {
      throw StoreError(.corrupt, path: path, reason: "it has no commit number")
    }
    var nextSequenceNumber: Int?
    switch try metadata(connection, "nextSequenceNumber") {
    case .null: break
    case .integer(let number) where number >= 1: nextSequenceNumber = Int(number)
    case let value:
      throw StoreError(
        .corrupt, path: path,
        reason: "its nextSequenceNumber is \(value.kindName); it must be 1 or more")
    }
    let statement = try connection.prepare(
      "SELECT * FROM pomvvm_elements ORDER BY _pomvvm_major, _pomvvm_minor")
    let layout = _RowLayout(statement, reserved: reserved)
    let columns = Set(layout.columns.keys)
    let idColumn = try column("_pomvvm_id", of: statement)
    let decoder = _RowDecoder(layout: layout)
    var elements: [Element] = []
    while try statement.step() {
      elements.append(try decodeRow(decoder, idColumn: idColumn, path: path))
    }
    var knownFields = columns
    if !elements.isEmpty {
      knownFields = Set(layout.fieldColumns.filter { decoder.everRead($0.index) }.map(\.name))
    }
    return Opened(
      elements: elements, nextSequenceNumber: nextSequenceNumber, commit: commit,
      columns: columns, knownFields: knownFields)
  }

  private static func column(_ name: String, of statement: _SQLiteStatement) throws -> Int32 {
    for index in 0..<statement.columnCount where statement.columnName(at: index) == name {
      return index
    }
    throw _SQLiteError(code: SQLITE_CORRUPT, message: "the elements' table has no \(name)")
  }

  /// Decodes the element of a statement's current row, or throws naming
  /// its id and the field.
  ///
  /// The row's stored id is decoded only to name it in an error: an id
  /// that is an integer or text, as the element's `Int` or `String` id
  /// needs, is checked by its SQLite type alone.
  private static func decodeRow(_ decoder: _RowDecoder, idColumn: Int32, path: String)
    throws(StoreError) -> Element
  {
    let statement = decoder.layout.statement
    let idType = sqlite3_column_type(statement.handle, idColumn)
    let isPlainID =
      (ID.self == Int.self || ID.self == Int64.self)
      ? idType == SQLITE_INTEGER
      : ID.self == String.self ? idType == SQLITE_TEXT : false
    /// The row's id, decoded; throws if it is not an id of the element.
    func id() throws(StoreError) -> ID {
      let idValue = statement.value(at: idColumn)
      do {
        return try _ColumnValue.decode(ID.self, from: idValue, codingPath: [])
      } catch {
        throw StoreError(
          .corrupt, path: path,
          reason: "a row's id (\(describe(idValue))) is not an id of \(Element.self): "
            + describe(error))
      }
    }
    if !isPlainID {
      _ = try id()
    }
    do {
      let (element, unknown) = try decoder.decode(Element.self)
      if let unknown {
        throw StoreError(
          .corrupt, path: path,
          reason: "the element with id \(String(reflecting: try id())) has the field "
            + "\(String(reflecting: unknown)), which this version does not know, and saving "
            + "would drop it; open it with the version that wrote it")
      }
      return element
    } catch let error as StoreError {
      throw error
    } catch {
      throw StoreError(
        .corrupt, path: path,
        reason:
          "the element with id \(String(reflecting: try id())) does not decode: \(describe(error))")
    }
  }

  static func describe(_ value: _SQLValue) -> String {
    switch value {
    case .null: "NULL"
    case .integer(let value): "\(value)"
    case .real(let value): "\(value)"
    case .text(let text): String(reflecting: text)
    case .blob(let bytes): "a blob of \(bytes.count) bytes"
    }
  }

  /// A decoding error as a sentence that names the field.
  static func describe(_ error: any Error) -> String {
    guard let error = error as? DecodingError else { return "\(error)" }
    func field(_ path: [any CodingKey]) -> String {
      path.isEmpty
        ? "" : "the field \(String(reflecting: path.map(\.stringValue).joined(separator: "."))) "
    }
    switch error {
    case .keyNotFound(let key, let context):
      return
        "the field \(String(reflecting: (context.codingPath + [key]).map(\.stringValue).joined(separator: "."))) is missing"
    case .valueNotFound(_, let context), .typeMismatch(_, let context),
      .dataCorrupted(let context):
      return "\(field(context.codingPath))does not decode: \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }

  // MARK: - Writing a burst

  /// Writes a burst in one transaction: whole, or not at all.
  ///
  /// - Returns: The error if it failed; the database is then as it was.
  func commit(_ burst: _DatabaseBurst<Element>) -> StoreError? {
    var status = stat()
    if stat(path, &status) == 0, let permissions = _JSONFile.readOnlyPermissions(status, path: path)
    {
      return StoreError(.readOnly, path: path, reason: "permissions \(permissions)")
    }
    do {
      try connection.execute("BEGIN IMMEDIATE")
    } catch {
      return Self.storeError(error, path: path, opening: false, busyTimeout: busyTimeout)
    }
    let commit: Int64
    do {
      commit = try write(burst)
      try connection.execute("COMMIT")
    } catch {
      try? connection.execute("ROLLBACK")
      switch error {
      case let error as StoreError: return error
      case let error as _SQLiteError:
        return Self.storeError(error, path: path, opening: false, busyTimeout: busyTimeout)
      default: return StoreError(.unwritable, path: path, reason: Self.describe(error))
      }
    }
    // With no other process's commit in between, the store has seen
    // everything up to this commit.
    let isNext = commit == readCursor + 1
    if isNext {
      readCursor = commit
    }
    let hasSeenAll =
      isNext
      && sync.withLock { sync in
        guard sync.lastSynced == commit - 1 else { return false }
        sync.lastSynced = commit
        return true
      }
    if !hasSeenAll {
      ownCommits.insert(commit)
    }
    return nil
  }

  /// The rows a burst conflicts with, as it writes them.
  private struct Conflicts {
    var ids: [String] = []
    var reasons: Set<String> = []
  }

  /// Writes a burst's changes inside a transaction.
  ///
  /// - Returns: The number of the commit.
  private func write(_ burst: _DatabaseBurst<Element>) throws -> Int64 {
    let sync = self.sync.withLock { $0 }
    ownCommits = ownCommits.filter { $0 > sync.lastSynced }
    // The commit number and the change log, in one read.
    var last: Int64?
    var storedLog: [UInt8]?
    let head = try connection.cached(
      "SELECT key, value FROM pomvvm_store WHERE key IN ('commit', 'changes')")
    while try head.step() {
      switch (head.text(at: 0), head.value(at: 1)) {
      case ("commit", .integer(let number)): last = number
      case ("changes", .blob(let blob)): storedLog = blob
      default: break
      }
    }
    head.reset()
    guard let last else {
      throw StoreError(.corrupt, path: path, reason: "it has no commit number")
    }
    let commit = last + 1
    /// The rows this commit writes, for the change log: an id may be
    /// there twice, or be one this commit removed (a reader looks each up
    /// once, and finds no row).
    var written: [_SQLValue] = []
    var inserted: Set<ID> = []
    var removed: Set<ID> = []
    var conflicts = Conflicts()
    func conflict(_ id: ID, _ reason: String) {
      conflicts.ids.append(String(reflecting: id))
      conflicts.reasons.insert(reason)
    }
    /// Whether this store may write over a row: it has read the version on
    /// disk, or wrote it (in this burst, or an earlier one).
    func mayWrite(_ id: ID, version: Int64) -> Bool {
      version == commit || version <= (sync.stale[id] ?? sync.lastSynced)
        || ownCommits.contains(version)
    }
    for operation in burst.operations {
      switch operation {
      case .remove(let id):
        defer {
          removed.insert(id)
          inserted.remove(id)
        }
        guard let row = try row(id) else { continue }
        guard inserted.contains(id) || mayWrite(id, version: row.version) else {
          conflict(id, "changed")
          continue
        }
        try connection.cached("DELETE FROM pomvvm_elements WHERE _pomvvm_id = ?").run([
          row.idValue
        ])
        try connection.cached(
          "INSERT OR REPLACE INTO pomvvm_removed (_pomvvm_id, _pomvvm_version) VALUES (?, ?)"
        ).run([row.idValue, .integer(commit)])
      case .place(let id, let after, let before, let isNew):
        let row = try row(id)
        if isNew {
          if row != nil {
            conflict(id, "added an element with the same id")
            continue
          }
          guard let value = burst.values[id] else { continue }
          let key = try key(after: after, before: before)
          try insert(value, id: id, key: key, commit: commit)
          written.append(try _ColumnValue.encode(id))
          inserted.insert(id)
          removed.remove(id)
        } else {
          guard let row else {
            conflict(id, "removed")
            continue
          }
          guard inserted.contains(id) || mayWrite(id, version: row.version) else {
            conflict(id, "changed")
            continue
          }
          let key = try key(after: after, before: before)
          try setKey(key, of: row.idValue, commit: commit)
          written.append(row.idValue)
        }
      case .renumber(let ids):
        for (index, id) in ids.enumerated() {
          guard let row = try row(id) else { continue }
          try setKey(.numbered(index), of: row.idValue, commit: commit)
          written.append(row.idValue)
        }
      }
    }
    for (id, value) in burst.values where !inserted.contains(id) && !removed.contains(id) {
      guard let row = try row(id) else {
        conflict(id, "removed")
        continue
      }
      guard mayWrite(id, version: row.version) else {
        conflict(id, "changed")
        continue
      }
      try update(value, idValue: row.idValue, commit: commit)
      written.append(row.idValue)
    }
    if !conflicts.ids.isEmpty {
      let ids =
        conflicts.ids.count > 10
        ? conflicts.ids.prefix(10).joined(separator: ", ") + " and \(conflicts.ids.count - 10) more"
        : conflicts.ids.joined(separator: ", ")
      let what = conflicts.reasons.sorted().joined(separator: " or ")
      throw StoreError(
        .conflict, path: path,
        reason: "another process \(what) the element\(conflicts.ids.count == 1 ? "" : "s") with "
          + "id\(conflicts.ids.count == 1 ? "" : "s") \(ids) since this store read "
          + (conflicts.ids.count == 1 ? "it" : "them"))
    }
    try writeLog(commit: commit, ids: written, stored: storedLog)
    if let next = burst.nextSequenceNumber {
      try connection.cached(
        """
        INSERT INTO pomvvm_store (key, value) VALUES ('nextSequenceNumber', ?)
        ON CONFLICT (key) DO UPDATE SET value = max(value, excluded.value)
        """
      ).run([.integer(Int64(next))])
    }
    return commit
  }

  /// Writes the commit number and the change log (``_ChangeLog``) with
  /// the commit's rows added: one statement, when the log was there.
  private func writeLog(commit: Int64, ids: [_SQLValue], stored: [UInt8]?) throws {
    var log =
      stored.flatMap { _ChangeLog($0, checksGroups: false) }
      ?? _ChangeLog(since: commit - 1, through: commit - 1)
    log.append(commit: commit, ids: ids, limit: logLimit)
    if stored != nil {
      try connection.cached(
        """
        UPDATE pomvvm_store SET value = CASE key WHEN 'commit' THEN ? ELSE ? END
        WHERE key IN ('commit', 'changes')
        """
      ).run([.integer(commit), .blob(log.encoded)])
    } else {
      try connection.cached("UPDATE pomvvm_store SET value = ? WHERE key = 'commit'").run([
        .integer(commit)
      ])
      try connection.cached(
        """
        INSERT INTO pomvvm_store (key, value) VALUES ('changes', ?)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value
        """
      ).run([.blob(log.encoded)])
    }
  }

  /// A row's stored id, version and place; `nil` if there is no such row.
  private func row(_ id: ID) throws -> (
    idValue: _SQLValue, version: Int64, key: _PositionKey
  )? {
    let idValue = try _ColumnValue.encode(id)
    let statement = try connection.cached(
      """
      SELECT _pomvvm_version, _pomvvm_major, _pomvvm_minor FROM pomvvm_elements
      WHERE _pomvvm_id = ?
      """)
    return try statement.firstRow([idValue]) { row in
      (
        idValue, row.int64(at: 0),
        _PositionKey(major: row.int64(at: 1), minor: row.blob(at: 2))
      )
    }
  }

  /// The key of the row next to `key`: the one before it, or after it.
  private func neighbour(of key: _PositionKey, before: Bool) throws -> _PositionKey? {
    let statement = try connection.cached(
      before
        ? """
        SELECT _pomvvm_major, _pomvvm_minor FROM pomvvm_elements
        WHERE (_pomvvm_major, _pomvvm_minor) < (?, ?)
        ORDER BY _pomvvm_major DESC, _pomvvm_minor DESC LIMIT 1
        """
        : """
        SELECT _pomvvm_major, _pomvvm_minor FROM pomvvm_elements
        WHERE (_pomvvm_major, _pomvvm_minor) > (?, ?)
        ORDER BY _pomvvm_major, _pomvvm_minor LIMIT 1
        """)
    return try statement.firstRow([.integer(key.major), .blob(key.minor)]) { row in
      _PositionKey(major: row.int64(at: 0), minor: row.blob(at: 1))
    }
  }

  /// The key of the last row; `nil` if there is none.
  private func lastKey() throws -> _PositionKey? {
    let statement = try connection.cached(
      """
      SELECT _pomvvm_major, _pomvvm_minor FROM pomvvm_elements
      ORDER BY _pomvvm_major DESC, _pomvvm_minor DESC LIMIT 1
      """)
    return try statement.firstRow { row in
      _PositionKey(major: row.int64(at: 0), minor: row.blob(at: 1))
    }
  }

  /// A key for a row that enters after the row `after` and before the row
  /// `before` (`nil`: an end of the array).
  private func key(after: ID?, before: ID?) throws -> _PositionKey {
    let low = try after.flatMap { try row($0)?.key }
    let high = try before.flatMap { try row($0)?.key }
    if let low, let high, low < high {
      return .between(low, high)
    }
    if let low {
      return .between(low, try neighbour(of: low, before: false))
    }
    if let high {
      return .between(try neighbour(of: high, before: true), high)
    }
    // Neither neighbour is in the database (another process removed
    // them): at the end.
    return .between(try lastKey(), nil)
  }

  private func setKey(_ key: _PositionKey, of idValue: _SQLValue, commit: Int64) throws {
    try connection.cached(
      """
      UPDATE pomvvm_elements SET _pomvvm_major = ?, _pomvvm_minor = ?, _pomvvm_version = ?
      WHERE _pomvvm_id = ?
      """
    ).run([.integer(key.major), .blob(key.minor), .integer(commit), idValue])
  }

  /// The columns of an element, checked, with the table's columns added
  /// for new fields.
  private func fields(of element: Element) throws -> [(name: String, value: _SQLValue)] {
    let fields = try _RowEncoder.columns(of: element)
    if fields.contains(where: { !columns.contains($0.name) }) {
      // Another connection may have added the column since this one read the
      // schema: read it again, inside this write transaction, before adding.
      columns = try Self.names(
        connection, "SELECT name FROM pragma_table_info('pomvvm_elements')"
      ).subtracting(Self.reserved)
    }
    for (name, _) in fields where !columns.contains(name) {
      if Self.reserved.contains(name) {
        throw StoreError(
          .unwritable, path: path,
          reason: "the element's field \(String(reflecting: name)) has a name the store keeps "
            + "for itself")
      }
      try connection.execute("ALTER TABLE pomvvm_elements ADD COLUMN \(Self.quoted(name))")
      columns.insert(name)
      connection.clearCache()
    }
    for (name, _) in fields {
      knownFields.insert(name)
    }
    return fields
  }

  private func insert(_ element: Element, id: ID, key: _PositionKey, commit: Int64) throws {
    let fields = try fields(of: element)
    let names = fields.map { Self.quoted($0.name) }
    let sql =
      "INSERT INTO pomvvm_elements (_pomvvm_id, _pomvvm_major, _pomvvm_minor, _pomvvm_version"
      + names.map { ", " + $0 }.joined() + ") VALUES (?, ?, ?, ?"
      + String(repeating: ", ?", count: names.count) + ")"
    let idValue = try _ColumnValue.encode(id)
    try connection.cached(sql).run(
      [idValue, .integer(key.major), .blob(key.minor), .integer(commit)] + fields.map(\.value))
    try connection.cached("DELETE FROM pomvvm_removed WHERE _pomvvm_id = ?").run([idValue])
  }

  private func update(_ element: Element, idValue: _SQLValue, commit: Int64) throws {
    let fields = try fields(of: element)
    let written = Set(fields.map(\.name))
    let cleared = knownFields.subtracting(written).intersection(columns).sorted()
    let sql =
      "UPDATE pomvvm_elements SET "
      + (fields.map { Self.quoted($0.name) + " = ?, " }
      + cleared.map { Self.quoted($0) + " = NULL, " }).joined()
      + "_pomvvm_version = ? WHERE _pomvvm_id = ?"
    try connection.cached(sql).run(fields.map(\.value) + [.integer(commit), idValue])
  }

  static func quoted(_ name: String) -> String {
    "\"" + name.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\"\"")
      + "\""
  }

  // MARK: - Other processes' commits

  /// Reads what other processes committed since the last read: `nil` if
  /// nothing (SQLite's `data_version` says whether anyone else committed).
  func readChanges(force: Bool) -> _RemoteChanges<Element>? {
    do {
      let version = try connection.integerPragma("data_version")
      guard version != dataVersion || force else { return nil }
      dataVersion = version
      try connection.execute("BEGIN")
      defer { try? connection.execute("COMMIT") }
      guard case .integer(let commit) = try Self.metadata(connection, "commit"),
        commit > readCursor
      else { return nil }
      var changes = _RemoteChanges<Element>(through: commit)
      if case .integer(let next) = try Self.metadata(connection, "nextSequenceNumber") {
        changes.nextSequenceNumber = Int(next)
      }
      var rows: [(Element, _PositionKey, Int64)] = []
      if case .blob(let blob) = try Self.metadata(connection, "changes"),
        let ids = _ChangeLog(blob)?.ids(after: readCursor, through: commit, skipping: ownCommits)
      {
        rows = try loggedRows(ids)
      } else {
        rows = try changedRowsByScan()
        fullReads.withLock { $0 += 1 }
      }
      rows.sort { $0.1 < $1.1 }
      for (element, key, version) in rows {
        changes.rows.append((element, try id(before: key), version))
      }
      let removed = try connection.cached(
        "SELECT _pomvvm_id, _pomvvm_version FROM pomvvm_removed WHERE _pomvvm_version > ?")
      try removed.bind([.integer(readCursor)])
      defer { removed.reset() }
      while try removed.step() {
        let version = removed.int64(at: 1)
        guard !ownCommits.contains(version) else { continue }
        let id = try _ColumnValue.decode(ID.self, from: removed.value(at: 0), codingPath: [])
        changes.removed.append((id, version))
      }
      readCursor = commit
      return changes
    } catch {
      return nil
    }
  }

  /// The rows that other processes' commits after the read cursor wrote,
  /// with their keys and versions: read by reading every row's version.
  private func changedRowsByScan() throws -> [(Element, _PositionKey, Int64)] {
    let statement = try connection.cached(
      "SELECT * FROM pomvvm_elements WHERE _pomvvm_version > ?")
    try statement.bind([.integer(readCursor)])
    defer { statement.reset() }
    return try changedRows(of: statement, while: { try statement.step() })
  }

  /// The rows of `ids` (from the change log) that other processes' commits
  /// after the read cursor wrote, with their keys and versions: looked up
  /// by id, one by one.
  private func loggedRows(_ ids: [_SQLValue]) throws -> [(Element, _PositionKey, Int64)] {
    let statement = try connection.cached("SELECT * FROM pomvvm_elements WHERE _pomvvm_id = ?")
    defer { statement.reset() }
    var next = ids.makeIterator()
    return try changedRows(
      of: statement,
      while: {
        while let id = next.next() {
          statement.reset()
          try statement.bind([id])
          if try statement.step() { return true }
        }
        return false
      })
  }

  /// The rows a statement returns, each time `step` finds one, that other
  /// processes wrote after the read cursor, decoded.
  private func changedRows(of statement: _SQLiteStatement, while step: () throws -> Bool) throws
    -> [(Element, _PositionKey, Int64)]
  {
    let layout = _RowLayout(statement, reserved: Self.reserved)
    let decoder = _RowDecoder(layout: layout)
    let idColumn = try Self.column("_pomvvm_id", of: statement)
    let versionColumn = try Self.column("_pomvvm_version", of: statement)
    let majorColumn = try Self.column("_pomvvm_major", of: statement)
    let minorColumn = try Self.column("_pomvvm_minor", of: statement)
    var rows: [(Element, _PositionKey, Int64)] = []
    while try step() {
      let version = statement.int64(at: versionColumn)
      guard version > readCursor, !ownCommits.contains(version) else { continue }
      let element = try Self.decodeRow(decoder, idColumn: idColumn, path: path)
      let key = _PositionKey(
        major: statement.int64(at: majorColumn), minor: statement.blob(at: minorColumn))
      rows.append((element, key, version))
    }
    return rows
  }

  /// The id of the row before a key; `nil` at the start.
  private func id(before key: _PositionKey) throws -> ID? {
    let statement = try connection.cached(
      """
      SELECT _pomvvm_id FROM pomvvm_elements
      WHERE (_pomvvm_major, _pomvvm_minor) < (?, ?)
      ORDER BY _pomvvm_major DESC, _pomvvm_minor DESC LIMIT 1
      """)
    guard
      let value = try statement.firstRow(
        [.integer(key.major), .blob(key.minor)], { $0.value(at: 0) })
    else { return nil }
    return try _ColumnValue.decode(ID.self, from: value, codingPath: [])
  }

  // MARK: - Importing

  /// Creates a database holding `elements` and the sequence, written in
  /// one transaction to a temporary file that is then renamed into place:
  /// the database appears whole, or not at all.
  ///
  /// - Throws: ``StoreError`` if `path` exists, or the database cannot
  ///   be written.
  static func create(path: String, elements: [Element], nextSequenceNumber: Int?) throws(StoreError)
  {
    var status = stat()
    guard lstat(path, &status) != 0 else {
      throw StoreError(
        .unwritable, path: path,
        reason: "it exists already; a store imports a JSON file into a new database only")
    }
    let (directory, name) = _JSONFile.split(path)
    let temporary =
      "\(directory)/.\(name).\(getpid()).\(String(UInt32.random(in: 0...UInt32.max), radix: 16)).importing"
    defer {
      for suffix in ["", "-wal", "-shm", "-journal"] { unlink(temporary + suffix) }
    }
    do {
      let connection = try _SQLiteConnection(path: temporary, creates: true)
      try create(connection, path: temporary)
      let database = _StoreDatabase(
        path: temporary, connection: connection, columns: [], knownFields: [], commit: 0)
      var burst = _DatabaseBurst<Element>()
      burst.nextSequenceNumber = nextSequenceNumber
      try connection.execute("BEGIN IMMEDIATE")
      do {
        for (index, element) in elements.enumerated() {
          try database.insert(element, id: element.id, key: .numbered(index), commit: 1)
        }
        _ = try database.write(burst)
        // The rows above are in no log: readers of the new database read
        // every row's version until the next commit starts one.
        try connection.execute("DELETE FROM pomvvm_store WHERE key = 'changes'")
        try connection.execute("COMMIT")
      } catch {
        try? connection.execute("ROLLBACK")
        throw error
      }
      try connection.execute("PRAGMA journal_mode = WAL")
    } catch let error as StoreError {
      throw StoreError(error.kind, path: path, reason: error.reason)
    } catch let error as _SQLiteError {
      throw storeError(error, path: path, opening: false)
    } catch {
      throw StoreError(.unwritable, path: path, reason: describe(error))
    }
    // The temporary database is closed: its log is checkpointed and gone.
    guard link(temporary, path) == 0 else {
      let code = errno
      throw StoreError(
        .unwritable, path: path,
        reason: code == EEXIST
          ? "another process created it meanwhile" : String(cString: strerror(code)))
    }
    _JSONFile.syncDirectory(directory)
  }
}

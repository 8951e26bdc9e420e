import Dispatch

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

// MARK: - The database

extension Store where Element: Codable & Sendable, Element.ID: Codable {
  /// Creates a store kept in a SQLite database: opens (or creates) the
  /// database and reads its elements now, saves each burst of changes as
  /// what it changed, in one transaction, and takes in other processes'
  /// commits as they come.
  ///
  /// ```swift
  /// let store = try Store<ToDoItem>(database: url)
  /// store.items.append(ToDoItem(title: "Buy milk"))   // one row written, soon
  /// store.flush()                                    // durable now
  /// ```
  ///
  /// Each element is a row, and each of its top-level fields a column; see
  /// <doc:KeepingTheStoreInADatabase> for the format, the guarantees and
  /// when to choose it over a JSON file.
  ///
  /// - Parameters:
  ///   - database: The database file; if it does not exist, it is created,
  ///     empty.
  ///   - fileID: The culprit's file in the reports of failed saves, and
  ///     where the store's cells were made for ``BindingGraph``; by
  ///     default, the caller's.
  ///   - line: The culprit's line in the reports of failed saves, and where
  ///     the store's cells were made; by default, the caller's.
  /// - Throws: ``StoreError`` if the file is not a SQLite database, is
  ///   damaged, is another program's database, holds elements of another
  ///   type, was written by a newer version of the store, or holds a row
  ///   that does not decode as an element or a field the element type does
  ///   not know; the file is left byte for byte as it was.
  public convenience init(
    database: URL, fileID: StaticString = #fileID, line: UInt = #line
  ) throws(StoreError) {
    try self.init(
      database: database, saveDelay: Self.saveDelay, pollInterval: Self.pollInterval,
      fileID: fileID, line: line)
  }

  /// Creates a store kept in a SQLite database, taking its elements from a
  /// JSON store file the first time: if the database does not exist yet,
  /// it is created holding the elements and the sequence of the JSON file
  /// (``init(contentsOf:fileID:line:)``'s format), and the JSON file is
  /// left as it is; once it exists, the database is opened as
  /// ``init(database:fileID:line:)`` does, and the JSON file is not read.
  ///
  /// ```swift
  /// // The first run moves the old file into the database; later runs open it.
  /// let store = try Store<ToDoItem>(database: databaseURL, importing: jsonURL)
  /// ```
  ///
  /// The database is written to a temporary file and then put in place,
  /// so a crash leaves either no database (and the next run imports again)
  /// or the whole one. A missing JSON file imports nothing: the database
  /// starts empty.
  ///
  /// - Parameters:
  ///   - database: The database file.
  ///   - jsonFile: The JSON store file to import.
  ///   - fileID: The culprit's file in the reports of failed saves; by
  ///     default, the caller's.
  ///   - line: The culprit's line in the reports of failed saves; by
  ///     default, the caller's.
  /// - Throws: ``StoreError`` if the JSON file cannot be read as a store
  ///   file (as ``init(contentsOf:fileID:line:)`` throws), or the database
  ///   cannot be created or opened.
  public convenience init(
    database: URL, importing jsonFile: URL, fileID: StaticString = #fileID, line: UInt = #line
  ) throws(StoreError) {
    var status = stat()
    if lstat(database.path, &status) != 0 {
      let file = _JSONFile(path: jsonFile.path)
      let (elements, nextSequenceNumber) = try Self.decode(file.load(), path: file.path)
      file.unlock()
      do throws(StoreError) {
        try _StoreDatabase<Element>.create(
          path: database.path, elements: elements, nextSequenceNumber: nextSequenceNumber)
      } catch {
        // Another process imported it meanwhile: open that one.
        guard error.kind == .unwritable, lstat(database.path, &status) == 0 else { throw error }
      }
    }
    try self.init(database: database, fileID: fileID, line: line)
  }

  /// Creates a store kept in a SQLite database, with its own delays (for
  /// tests).
  convenience init(
    database: URL, saveDelay: DispatchTimeInterval, pollInterval: DispatchTimeInterval,
    busyTimeout: Int32 = _StoreDatabase<Element>.defaultBusyTimeout, fileID: StaticString,
    line: UInt
  ) throws(StoreError) {
    let (database_, elements, nextSequenceNumber) = try _StoreDatabase<Element>.open(
      path: database.path, busyTimeout: busyTimeout)
    let writer = _DatabaseWriter(
      database: database_, delay: saveDelay, pollInterval: pollInterval)
    self.init(
      elements, fileURL: database, writer: writer, nextSequenceNumber: nextSequenceNumber,
      fileID: fileID, line: line)
    let session = _DatabaseSession(writer: writer, store: self)
    self.session = session
    writer.onOutcome(reportOutcome)
    writer.onArrival { [weak session] in
      Task { @MainActor in session?.takeArrivals() }
    }
    persistChanges { [weak self, weak session] change in
      // Another process's commit is on disk already.
      guard let self, let session, !session.isApplying else { return }
      let (generation, nextSequenceNumber) = numberChange()
      let burst = session.burst(
        for: change, generation: generation, nextSequenceNumber: nextSequenceNumber)
      writer.submit(burst, generation: generation)
    }
  }

  /// How often a database store looks for other processes' commits.
  static var pollInterval: DispatchTimeInterval { .milliseconds(100) }
}

extension Store {
  /// Takes in what other processes committed to the store's database since
  /// it last looked, and returns once their changes are in ``items``.
  ///
  /// A database store looks by itself every tenth of a second; call this
  /// where you want another process's change at once (a widget that was
  /// just told to reload, a test). Other processes' changes arrive as
  /// ordinary changes of ``items`` — one change per commit read, holding
  /// only the elements that changed — so element cells, queries, list
  /// adapters and undo histories follow them. An element that this store
  /// changed and has not saved yet keeps its value: the other process's
  /// value waits until this store's is saved, and if that save is refused
  /// as a ``StoreError/Kind-swift.enum/conflict``, both stay as they are.
  ///
  /// A store without a database returns at once.
  public func refresh() async {
    await session?.refresh()
  }
}

import POMVVM

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Store where Element == ToDoItem {
  /// Opens a to-do list's store file, refusing one that holds more items
  /// than the list may (``ToDoListViewModel/limit``).
  ///
  /// Such a file was not written by the list; rather than show more items
  /// than it allows, or open it read-only, the list refuses it like any
  /// other file that is not a valid to-do store, and leaves it untouched.
  ///
  /// - Parameter url: The file; if it does not exist, the store starts
  ///   empty.
  /// - Returns: The store.
  /// - Throws: ``POMVVM/StoreError`` as ``POMVVM/Store/init(contentsOf:fileID:line:)``
  ///   does, and a ``POMVVM/StoreError/Kind-swift.enum/corrupt`` one for a
  ///   file of more than ``ToDoListViewModel/limit`` items.
  public static func toDoList(contentsOf url: URL) throws(StoreError) -> Store<ToDoItem> {
    try checkingLimit(Store(contentsOf: url), path: url.path)
  }

  /// Opens a to-do list's database, moving a JSON store file into it the
  /// first time, and refusing one that holds more items than the list may
  /// (``ToDoListViewModel/limit``).
  ///
  /// If the database does not exist yet and `jsonFile` names a store file
  /// (``toDoList(contentsOf:)``'s format), the database is created holding
  /// its items; the JSON file is left as it is, and later runs open the
  /// database alone. A JSON file of more items than the list holds is
  /// refused, naming it, and leaves no database behind. Several processes may keep the same database open:
  /// each one's changes reach the others' lists.
  ///
  /// - Parameters:
  ///   - database: The database file; if it does not exist, it is created.
  ///   - jsonFile: A JSON store file to move into a new database, if any.
  /// - Returns: The store.
  /// - Throws: ``POMVVM/StoreError`` as
  ///   ``POMVVM/Store/init(database:importing:fileID:line:)`` does, and a
  ///   ``POMVVM/StoreError/Kind-swift.enum/corrupt`` one for a list of more
  ///   than ``ToDoListViewModel/limit`` items.
  public static func toDoList(
    database: URL, importing jsonFile: URL? = nil
  ) throws(StoreError) -> Store<ToDoItem> {
    guard let jsonFile else {
      return try checkingLimit(Store(database: database), path: database.path)
    }
    let existed = FileManager.default.fileExists(atPath: database.path)
    do throws(StoreError) {
      return try checkingLimit(Store(database: database, importing: jsonFile), path: database.path)
    } catch  where !existed && error.kind == .corrupt {
      // The database was just made of a JSON file the list cannot have
      // written: it goes, so that the refusal leaves things as they were.
      for suffix in ["", "-wal", "-shm"] {
        try? FileManager.default.removeItem(atPath: database.path + suffix)
      }
      throw StoreError(.corrupt, path: jsonFile.path, reason: error.reason)
    }
  }

  private static func checkingLimit(
    _ store: Store<ToDoItem>, path: String
  ) throws(StoreError) -> Store<ToDoItem> {
    let limit = ToDoListViewModel.limit
    guard store.items.count <= limit else {
      throw StoreError(
        .corrupt, path: path,
        reason: "it holds \(store.items.count) items; a to-do list holds at most \(limit)")
    }
    return store
  }
}

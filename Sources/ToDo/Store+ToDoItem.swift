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
    let store = try Store(contentsOf: url)
    let limit = ToDoListViewModel.limit
    guard store.items.count <= limit else {
      throw StoreError(
        .corrupt, path: url.path,
        reason: "it holds \(store.items.count) items; a to-do list holds at most \(limit)")
    }
    return store
  }
}

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A model that lives outside any view model: an ``ObservableArray`` that
/// several view models observe at once, optionally kept in a JSON file.
///
/// A list view model and an editor view model share a store; every change
/// either makes reaches the other through the array's change sets — no
/// delegate passes edits back and forth:
///
/// ```swift
/// let store = try Store<ToDoItem>(contentsOf: fileURL)   // missing file: empty
/// store.items.append(ToDoItem(title: "ToDo Item 1"))    // saved at once
/// ```
///
/// ## Persistence
///
/// A persistent store loads its file when it is created and saves the whole
/// array after every change, atomically: it writes a temporary file and
/// renames it over the old one, so a crash or a failed write never leaves a
/// half-written file. A file that cannot be read — not JSON, not the right
/// shape, not a file — makes the initializer throw a ``StoreError`` naming
/// it, and is never overwritten. A failed save is published in
/// ``saveError`` and reported to ``Diagnostics``; the next successful save
/// clears it.
@MainActor
public final class Store<Element: Identifiable> {
  /// The store's elements; every change to them is published to their
  /// observers, and saved if the store has a file.
  public let items: ObservableArray<Element>

  /// The store's file, if it has one.
  public let fileURL: URL?

  /// The error of the last save, or `nil` if it succeeded (or the store has
  /// no file).
  public let saveError = Observable<StoreError?>(nil)

  private var persisting: Subscription?

  /// Creates a store kept in memory.
  ///
  /// - Parameter elements: The initial elements; their ids must be unique.
  public init(_ elements: [Element] = []) {
    items = ObservableArray(elements)
    fileURL = nil
  }

  /// Creates a store kept in a JSON file: loads the file now, and saves
  /// after every change.
  ///
  /// - Parameter fileURL: The file; if it does not exist, the store starts
  ///   empty and creates it on the first change.
  /// - Throws: ``StoreError`` if the file exists but cannot be read or is not
  ///   a valid store file; the file is left untouched.
  public init(contentsOf fileURL: URL) throws(StoreError) where Element: Codable {
    let file = _JSONFile<Element>(url: fileURL)
    items = ObservableArray(try file.load())
    self.fileURL = fileURL
    persisting = items.observe { [saveError] change in
      do throws(StoreError) {
        try file.save(change.newElements)
        saveError.value = nil
      } catch {
        saveError.value = error
        Diagnostics.report(error.description)
      }
    }
  }
}

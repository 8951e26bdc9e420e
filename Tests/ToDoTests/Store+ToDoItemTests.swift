import Foundation
import POMVVM
import Testing
import ToDo

@MainActor
@Suite("To-do store file")
struct ToDoStoreFileTests {
  /// A file of `count` items in a fresh directory; the caller removes the
  /// directory.
  private func file(of count: Int) throws -> (directory: URL, file: URL, text: String) {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-todo-store-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent("todo.json")
    let text =
      "[" + (1...count).map { #"{"id":\#($0),"title":"\#($0)"}"# }.joined(separator: ",") + "]"
    try Data(text.utf8).write(to: url)
    return (directory, url, text)
  }

  @Test func aFileOfAtMostTenItemsOpens() throws {
    let (directory, url, _) = try file(of: 10)
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(try Store.toDoList(contentsOf: url).items.map(\.id) == Array(1...10))
  }

  @Test(arguments: [11, 600])
  func aFileOfMoreItemsThanTheListHoldsIsRefusedAndLeftUntouched(count: Int) throws {
    let (directory, url, text) = try file(of: count)
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(
      throws: StoreError(
        .corrupt, path: url.path,
        reason: "it holds \(count) items; a to-do list holds at most 10")
    ) { _ = try Store.toDoList(contentsOf: url) }
    #expect(try String(contentsOf: url, encoding: .utf8) == text)
    #expect(
      try Store<ToDoItem>(contentsOf: url).items.count == count,
      "the refused store released the file")
  }
}

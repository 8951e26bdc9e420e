import Foundation
import Testing
import ToDo

@Suite("To-do item")
struct ToDoItemTests {
  private func json(_ item: ToDoItem) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    return String(decoding: try encoder.encode(item), as: UTF8.self)
  }

  @Test func anItemNotCompletedIsWrittenAsBefore() throws {
    #expect(try json(ToDoItem(id: 1, title: "milk")) == #"{"id":1,"title":"milk"}"#)
  }

  @Test func aCompletedItemIsWrittenWithTheField() throws {
    #expect(
      try json(ToDoItem(id: 1, title: "milk", isCompleted: true))
        == #"{"id":1,"isCompleted":true,"title":"milk"}"#)
  }

  @Test func aFileWrittenBeforeItemsCouldBeCompletedReadsAsNotCompleted() throws {
    let items = try JSONDecoder().decode(
      [ToDoItem].self,
      from: Data(#"[{"id":1,"title":"milk"},{"id":2,"title":"eggs","isCompleted":true}]"#.utf8))
    #expect(items.map(\.isCompleted) == [false, true])
  }

  @Test func anItemWithoutATitleIsRefused() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(ToDoItem.self, from: Data(#"{"id":1}"#.utf8))
    }
  }
}

import Foundation
import Testing

@testable import POMVVM

/// A database store's unhappy paths: files it refuses (left byte for byte
/// as they were), rows that do not decode, and saves that fail and are
/// tried again.
@MainActor
@Suite("Store database file")
struct StoreDatabaseFileTests {
  typealias Item = StoreDatabaseTests.Item
  typealias Directory = StoreTests.Directory

  struct Other: Identifiable, Codable, Sendable {
    var id: String
    var name: String
  }

  /// A database of three items, closed.
  static func database(in directory: Directory) throws -> URL {
    let url = directory.file("items.sqlite")
    let store = try Store<Item>(database: url)
    store.items.append(contentsOf: StoreDatabaseTests.items(1...3))
    store.flush()
    return url
  }

  /// Runs SQL on a database, as another program would.
  static func execute(_ sql: String, on url: URL) throws {
    let connection = try _SQLiteConnection(path: url.path, creates: true)
    try connection.execute(sql)
  }

  /// Opens a store on a file that must be refused; returns the error and
  /// checks that the file is byte for byte as it was.
  static func refusal(
    _ url: URL, sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> StoreError? {
    let before = try Data(contentsOf: url)
    defer {
      #expect(
        (try? Data(contentsOf: url)) == before, "the file changed", sourceLocation: sourceLocation)
    }
    do {
      _ = try Store<Item>(database: url)
      Issue.record("the store opened it", sourceLocation: sourceLocation)
      return nil
    } catch {
      return error
    }
  }

  @Test func aFileThatIsNotADatabaseIsRefusedAndLeftAsItWas() throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    try Data("[{\"id\": 1, \"title\": \"a JSON store, not a database\"}]".utf8).write(to: url)
    let error = try #require(try Self.refusal(url))
    #expect(error.kind == .corrupt)
    #expect(error.reason == "it is not a SQLite database")
    #expect(error.description.contains(url.path))
  }

  @Test func aDamagedDatabaseIsRefusedAndLeftAsItWas() throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    do {
      let store = try Store<Item>(database: url)
      store.items.append(
        contentsOf: (1...400).map { Item(id: $0, title: String(repeating: "x", count: 200)) })
      store.flush()
    }
    var bytes = try Data(contentsOf: url)
    #expect(bytes.count > 8 * 4_096)
    // Garbage over every page after the schema's.
    for offset in stride(from: 2 * 4_096, to: bytes.count, by: 4_096) {
      bytes.replaceSubrange(offset..<offset + 64, with: repeatElement(UInt8(0xA5), count: 64))
    }
    try bytes.write(to: url)
    let error = try #require(try Self.refusal(url))
    #expect(error.kind == .corrupt)
    #expect(error.reason.contains("damaged"))
  }

  @Test func anotherProgramsDatabaseIsRefusedAndLeftAsItWas() throws {
    let directory = try Directory()
    let url = directory.file("other.sqlite")
    try Self.execute(
      "CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')", on: url)
    let error = try #require(try Self.refusal(url))
    #expect(error.kind == .corrupt)
    #expect(
      error.reason == "it is another program's database, not a store's (its tables: \"contacts\")")
  }

  @Test func aDatabaseOfANewerFormatIsRefusedAndLeftAsItWas() throws {
    let directory = try Directory()
    let url = try Self.database(in: directory)
    try Self.execute("PRAGMA user_version = 2", on: url)
    let error = try #require(try Self.refusal(url))
    #expect(error.kind == .corrupt)
    #expect(error.reason.hasPrefix("a newer version of the store wrote it (format 2;"))
  }

  @Test func aDatabaseOfAnotherElementTypeIsRefusedAndLeftAsItWas() throws {
    let directory = try Directory()
    let url = directory.file("others.sqlite")
    do {
      let store = try Store<Other>(database: url)
      store.items.append(Other(id: "a", name: "Ada"))
      store.flush()
    }
    let error = try #require(try Self.refusal(url))
    #expect(error.kind == .corrupt)
    #expect(error.reason == "it holds elements of another type (\"Other\", not \"Item\")")
  }

  @Test func aRowThatDoesNotDecodeIsRefusedNamingItsIdAndField() throws {
    let directory = try Directory()
    let url = try Self.database(in: directory)
    try Self.execute("UPDATE pomvvm_elements SET title = 42 WHERE _pomvvm_id = 2", on: url)
    let error = try #require(try Self.refusal(url))
    #expect(error.kind == .corrupt)
    #expect(
      error.reason
        == "the element with id 2 does not decode: the field \"title\" does not decode: it "
        + "holds an integer, not text")
  }

  @Test func aMissingFieldIsRefusedNamingItsIdAndField() throws {
    let directory = try Directory()
    let url = try Self.database(in: directory)
    try Self.execute("UPDATE pomvvm_elements SET done = NULL WHERE _pomvvm_id = 3", on: url)
    let error = try #require(try Self.refusal(url))
    #expect(error.reason.hasPrefix("the element with id 3 does not decode: the field \"done\""))
  }

  /// A field that a newer version of the app added would be lost by the
  /// next save of the row: the store refuses the database instead.
  @Test func aFieldTheElementDoesNotKnowIsRefused() throws {
    let directory = try Directory()
    let url = try Self.database(in: directory)
    try Self.execute(
      "ALTER TABLE pomvvm_elements ADD COLUMN priority; "
        + "UPDATE pomvvm_elements SET priority = 'high' WHERE _pomvvm_id = 2", on: url)
    let error = try #require(try Self.refusal(url))
    #expect(
      error.reason
        == "the element with id 2 has the field \"priority\", which this version does not know, "
        + "and saving would drop it; open it with the version that wrote it")
  }

  /// An element with nested values, stored as JSON in their columns.
  struct Noted: Identifiable, Codable, Equatable, Sendable {
    struct Label: Codable, Equatable, Sendable {
      var color: String
      var shade: Int?
    }
    var id: Int
    var label: Label
    var history: [Label] = []
  }

  /// A field that a newer version added inside a nested value would be
  /// lost by the next save of the row, as a top-level one would: the
  /// store refuses the database, naming the id and the field's path.
  @Test func aNestedFieldTheElementDoesNotKnowIsRefused() throws {
    let directory = try Directory()
    let url = directory.file("noted.sqlite")
    do {
      let store = try Store<Noted>(database: url)
      store.items.append(Noted(id: 1, label: .init(color: "red")))
      store.items.append(Noted(id: 2, label: .init(color: "blue"), history: [.init(color: "red")]))
      store.flush()
    }
    func refusal() throws -> String? {
      let before = try Data(contentsOf: url)
      defer { #expect((try? Data(contentsOf: url)) == before, "the file changed") }
      do {
        _ = try Store<Noted>(database: url)
        return nil
      } catch {
        #expect(error.kind == .corrupt)
        return error.reason
      }
    }
    // Known fields only, a nested optional left out, or set to null: no
    // field is lost.
    try Self.execute(
      #"UPDATE pomvvm_elements SET label = '{"color":"red","shade":null}' WHERE _pomvvm_id = 1"#,
      on: url)
    #expect(try refusal() == nil)
    try Self.execute(
      #"UPDATE pomvvm_elements SET label = '{"color":"red","size":3}' WHERE _pomvvm_id = 1"#,
      on: url)
    #expect(
      try refusal()
        == "the element with id 1 has the field \"label.size\", which this version does not "
        + "know, and saving would drop it; open it with the version that wrote it")
    try Self.execute(
      #"UPDATE pomvvm_elements SET label = '{"color":"red"}' WHERE _pomvvm_id = 1; "#
        + #"UPDATE pomvvm_elements SET history = '[{"color":"red","tint":{"a":1}}]' "#
        + "WHERE _pomvvm_id = 2", on: url)
    #expect(
      try refusal()
        == "the element with id 2 has the field \"history[0].tint\", which this version does "
        + "not know, and saving would drop it; open it with the version that wrote it")
  }

  /// A column that only holds NULL loses nothing, and a field set to `nil`
  /// is saved as NULL, not left with its old value.
  @Test func anOptionalFieldSetToNilIsSavedAsNil() throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let store = try Store<Item>(database: url)
    store.items.append(Item(id: 1, title: "a", due: Date(timeIntervalSince1970: 10)))
    store.flush()
    store.items.update(Item(id: 1, title: "a", due: nil))
    store.flush()
    #expect(try StoreDatabaseTests.reopened(url) == [Item(id: 1, title: "a")])
  }

  @Test func aDirectoryIsRefused() throws {
    let directory = try Directory()
    #expect(throws: StoreError(.unreadable, path: directory.url.path, reason: "it is a directory"))
    {
      _ = try Store<Item>(database: directory.url)
    }
  }

  /// A read-only file fails the save, keeps the change, and the next save
  /// after the file is writable again writes it.
  @Test func aReadOnlyDatabaseFailsTheSaveAndKeepsTheChangeForTheNext() throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let store = try Store<Item>(database: url)
    store.items.append(contentsOf: StoreDatabaseTests.items(1...3))
    store.flush()
    try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: url.path)
    let captured = Diagnostics.capturing {
      store.items.move(from: 0, to: 2)
      store.flush()
    }
    #expect(store.saveError.value?.kind == .readOnly)
    #expect(captured.count == 1)
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: url.path)
    store.flush()
    #expect(store.saveError.value == nil)
    #expect(try StoreDatabaseTests.reopened(url) == store.items.elements)
    #expect(store.items.map(\.id) == [2, 3, 1])
  }

  /// Another process holding the database's write lock makes a save wait,
  /// on the save thread, for the store's time limit, then fail with
  /// `inUse`; the change is written once the lock is free.
  @Test func aWriterHoldingTheDatabaseMakesTheSaveWaitThenReportAndRetry() throws {
    let directory = try Directory()
    let url = try Self.database(in: directory)
    let store = try Store<Item>(
      database: url, saveDelay: .milliseconds(1), pollInterval: .never, busyTimeout: 50,
      fileID: #fileID, line: #line)
    let other = try _SQLiteConnection(path: url.path, creates: false)
    try other.execute("BEGIN IMMEDIATE")
    _ = Diagnostics.capturing {
      store.items.remove(at: 0)
      store.flush()
    }
    #expect(store.saveError.value?.kind == .inUse)
    #expect(store.saveError.value?.reason.contains("50 ms") == true)
    try other.execute("COMMIT")
    store.flush()
    #expect(store.saveError.value == nil)
    #expect(try StoreDatabaseTests.reopened(url).map(\.id) == [2, 3])
  }

  // MARK: - Importing a JSON store

  @Test func importingAJSONStoreCreatesTheDatabaseAndLeavesTheFileAsItWas() throws {
    let directory = try Directory()
    let json = directory.file("items.json")
    let url = directory.file("items.sqlite")
    do {
      let store = try Store<Item>(contentsOf: json)
      store.items.append(contentsOf: StoreDatabaseTests.items(1...5))
      _ = store.takeSequenceNumber(atLeast: 40)
      store.flush()
    }
    let before = try Data(contentsOf: json)
    do {
      let store = try Store<Item>(database: url, importing: json)
      #expect(store.items.elements == StoreDatabaseTests.items(1...5))
      #expect(store.takeSequenceNumber() == 41)
      store.items.remove(at: 0)
      store.flush()
    }
    #expect(try Data(contentsOf: json) == before)
    // Once it exists, the database is opened and the file not read.
    let reopened = try Store<Item>(database: url, importing: json)
    #expect(reopened.items.elements == StoreDatabaseTests.items(2...5))
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.url.path)
    #expect(!left.contains { $0.hasSuffix(".importing") })
  }

  @Test func aJSONFileThatCannotBeImportedCreatesNoDatabase() throws {
    let directory = try Directory()
    let json = directory.file("items.json")
    let url = directory.file("items.sqlite")
    try Data("not json".utf8).write(to: json)
    #expect(throws: StoreError.self) {
      _ = try Store<Item>(database: url, importing: json)
    }
    #expect(!FileManager.default.fileExists(atPath: url.path))
  }
}

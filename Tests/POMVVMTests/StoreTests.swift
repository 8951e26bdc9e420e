import Foundation
import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Store")
struct StoreTests {
  struct Note: Identifiable, Codable, Equatable {
    var id: Int
    var title: String
  }

  /// A fresh directory for one test, removed afterwards.
  final class Directory {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-store-\(UInt64.random(in: 0...UInt64.max))")

    init() throws {
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
      try? FileManager.default.removeItem(at: url)
    }

    func file(_ name: String = "notes.json") -> URL { url.appendingPathComponent(name) }
  }

  // MARK: - Sequence

  @Test func theSequenceOnlyGrowsAndJumpsToTheMinimum() {
    let store = Store<Note>()
    #expect(store.nextSequenceNumber == 1)
    #expect(store.takeSequenceNumber() == 1)
    #expect(store.takeSequenceNumber(atLeast: 10) == 10)
    #expect(store.takeSequenceNumber(atLeast: 3) == 11, "never back")
    #expect(store.nextSequenceNumber == 12)
  }

  @Test func theSequenceIsSavedWithTheElementsAndLoadedAgain() throws {
    let directory = try Directory()
    let url = directory.file()
    do {
      let store = try Store<Note>(contentsOf: url)
      for _ in 0..<3 {
        let id = try #require(store.takeSequenceNumber())
        store.items.append(Note(id: id, title: "n\(id)"))
      }
      store.items.removeAll()
      store.flush()
    }
    #expect(
      try String(contentsOf: url, encoding: .utf8)
        == "{\n  \"elements\" : [\n\n  ],\n  \"nextSequenceNumber\" : 4\n}")
    let reopened = try Store<Note>(contentsOf: url)
    #expect(reopened.items.isEmpty)
    #expect(reopened.takeSequenceNumber() == 4)
  }

  @Test func aNumberTakenAloneIsSavedByFlushOnly() throws {
    let directory = try Directory()
    let url = directory.file()
    try Data("[{\"id\": 5, \"title\": \"old\"}]".utf8).write(to: url)
    do {
      let store = try Store<Note>(contentsOf: url)
      #expect(store.nextSequenceNumber == 1, "an array of elements has no sequence yet")
      #expect(store.takeSequenceNumber(atLeast: 6) == 6)
      #expect(!store.isSaving, "taking a number writes nothing by itself")
      store.flush()
    }
    let reopened = try Store<Note>(contentsOf: url)
    #expect(reopened.items.map(\.title) == ["old"])
    #expect(reopened.nextSequenceNumber == 7)
  }

  @Test(arguments: [
    (
      #"{"elements": [], "nextSequenceNumber": 3, "owner": "x"}"#,
      "the file has the field 'owner', which this version does not know, and saving would "
        + "drop it; open it with the version that wrote it"
    ),
    (
      #"{"elements": [], "nextSequenceNumber": 0}"#, "nextSequenceNumber is 0; it must be 1 or more"
    ),
    (
      #"{"elements": [{"id": 1, "title": "a", "color": "red"}], "nextSequenceNumber": 2}"#,
      "element 1 (id 1) has the field 'color', which this version does not know, and saving "
        + "would drop it; open it with the version that wrote it"
    ),
  ])
  func aSequencedFileWithWhatThisVersionCannotKeepIsRefused(text: String, reason: String) throws {
    let directory = try Directory()
    let url = directory.file()
    try Data(text.utf8).write(to: url)
    #expect(throws: StoreError(.corrupt, path: url.path, reason: reason)) {
      try Store<Note>(contentsOf: url)
    }
    #expect(try String(contentsOf: url, encoding: .utf8) == text, "left untouched")
  }

  @Test func publishesAChangeSetForEveryMutationAndEditsAreUpdates() {
    let store = Store([Note(id: 1, title: "a")])
    let changes = Recorder<String>()
    let subscription = store.items.observeChanges { changes.record($0.changeSet.description) }
    store.items.append(Note(id: 2, title: "b"))
    store.items.update(Note(id: 1, title: "a, edited"))
    store.items.remove(id: 2)
    store.items.replaceAll(with: [Note(id: 7, title: "x"), Note(id: 8, title: "y")])
    #expect(changes.events == ["insert [1]", "update [0]", "remove [1]", "reload 2"])
    withExtendedLifetime(subscription) {}
  }

  @Test func severalViewModelsStayInStepWithoutDelegates() throws {
    @MainActor
    final class ListViewModel {
      private(set) var titles: [String] = []
      var subscription: Subscription?
      init(_ store: Store<Note>) {
        titles = store.items.map(\.title)
        subscription = store.items.observeChanges { [unowned self] in
          titles = $0.newElements.map(\.title)
        }
      }
    }
    let store = Store([Note(id: 1, title: "a"), Note(id: 2, title: "b")])
    let list = ListViewModel(store)
    let editor = try #require(store.items.cell(for: 2, \.title))
    editor.value = "b, edited in the editor"
    store.items.remove(id: 1)
    #expect(list.titles == ["b, edited in the editor"])
  }

  @Test func aMissingFileStartsEmptyAndTheFirstChangeCreatesIt() throws {
    let directory = try Directory()
    let store = try Store<Note>(contentsOf: directory.file())
    #expect(store.items.isEmpty)
    #expect(!FileManager.default.fileExists(atPath: directory.file().path))
    store.items.append(Note(id: 1, title: "first"))
    store.flush()
    #expect(FileManager.default.fileExists(atPath: directory.file().path))
  }

  @Test func theContentsSurviveARestart() throws {
    let directory = try Directory()
    do {
      let store = try Store<Note>(contentsOf: directory.file())
      store.items.append(Note(id: 1, title: "first"))
      store.items.append(Note(id: 2, title: "second"))
      store.items.update(Note(id: 1, title: "first, edited"))
      store.items.remove(id: 2)
    }
    let reopened = try Store<Note>(contentsOf: directory.file())
    #expect(reopened.items.elements == [Note(id: 1, title: "first, edited")])
    #expect(reopened.saveError.value == nil)
  }

  @Test func aFailedSaveLeavesTheOldFileIntactAndIsReported() throws {
    let directory = try Directory()
    let store = try Store<Note>(contentsOf: directory.file())
    store.items.append(Note(id: 1, title: "saved"))
    store.flush()
    let saved = try Data(contentsOf: directory.file())
    // Make the next save fail: the directory is gone.
    let moved = directory.url.appendingPathExtension("moved")
    try FileManager.default.moveItem(at: directory.url, to: moved)
    defer { try? FileManager.default.removeItem(at: moved) }
    let reports = Diagnostics.capturing {
      store.items.append(Note(id: 2, title: "not saved"))
      store.flush()
    }
    let error = try #require(store.saveError.value)
    #expect(
      error
        == StoreError(
          .unwritable, path: directory.file().path,
          reason: "cannot create a temporary file in \(directory.url.path): "
            + "No such file or directory"))
    #expect(reports == [error.description])
    #expect(error.description.hasSuffix("the file on disk was not changed"))
    #expect(try Data(contentsOf: moved.appendingPathComponent("notes.json")) == saved)
    try FileManager.default.moveItem(at: moved, to: directory.url)
    store.items.append(Note(id: 3, title: "saved again"))
    store.flush()
    #expect(store.saveError.value == nil)
    #expect(try contents(of: directory.file()) == [1, 2, 3])
  }

  @Test func aFileWhoseElementsRepeatAnIdIsCorruptAndLeftUntouched() throws {
    let directory = try Directory()
    let text = #"[{"id":1,"title":"a"},{"id":1,"title":"b"}]"#
    try Data(text.utf8).write(to: directory.file())
    #expect(
      throws: StoreError(
        .corrupt, path: directory.file().path, reason: "more than one element has the id 1")
    ) {
      _ = try Store<Note>(contentsOf: directory.file())
    }
    #expect(try String(contentsOf: directory.file(), encoding: .utf8) == text)
  }

  @Test func aCorruptFileIsRefusedWithItsPathAndNeverOverwritten() throws {
    let directory = try Directory()
    let garbage = Data("{ this is not json".utf8)
    try garbage.write(to: directory.file())
    #expect {
      _ = try Store<Note>(contentsOf: directory.file())
    } throws: { error in
      guard let error = error as? StoreError else { return false }
      return error.kind == .corrupt && error.path == directory.file().path
        && error.description.contains(directory.file().path)
    }
    #expect(try Data(contentsOf: directory.file()) == garbage)
  }

  @Test func aFileOfTheWrongShapeIsCorruptAndSaysWhy() throws {
    let directory = try Directory()
    try Data(#"[{"id": 1}]"#.utf8).write(to: directory.file())
    #expect {
      _ = try Store<Note>(contentsOf: directory.file())
    } throws: { error in
      (error as? StoreError)?.description.contains("missing the field 'title'") == true
    }
  }

  /// A field the element type does not know — written by a newer version
  /// of the app, say — would be dropped by the next save: the file is
  /// refused, naming the field, and left untouched.
  @Test(arguments: [
    (#"[{"id":1,"title":"a"},{"id":2,"title":"b","done":true}]"#, 2, 2, "done"),
    (#"[{"id":5,"title":"a","meta":{"color":"red"}}]"#, 1, 5, "meta"),
  ])
  func aFileWithAFieldTheElementsDoNotKnowIsRefusedAndNamesIt(
    contents: String, element: Int, id: Int, field: String
  ) throws {
    let directory = try Directory()
    try Data(contents.utf8).write(to: directory.file())
    let error = StoreError(
      .corrupt, path: directory.file().path,
      reason: "element \(element) (id \(id)) has the field '\(field)', which this version does "
        + "not know, and saving would drop it; open it with the version that wrote it")
    #expect(throws: error) { _ = try Store<Note>(contentsOf: directory.file()) }
    #expect(try String(decoding: Data(contentsOf: directory.file()), as: UTF8.self) == contents)
  }

  /// A nested field the element type does not know is named by its path.
  @Test func aNestedFieldTheElementsDoNotKnowIsNamedByItsPath() throws {
    struct Tagged: Identifiable, Codable {
      struct Meta: Codable { var color: String }
      var id: Int
      var meta: Meta
    }
    let directory = try Directory()
    try Data(#"[{"id":1,"meta":{"color":"red","size":3}}]"#.utf8).write(to: directory.file())
    #expect {
      _ = try Store<Tagged>(contentsOf: directory.file())
    } throws: { error in
      (error as? StoreError)?.reason.hasPrefix("element 1 (id 1) has the field 'meta.size'") == true
    }
  }

  /// A field whose value is `null` holds nothing a save could lose.
  @Test func aNullFieldTheElementsDoNotKnowIsNoLoss() throws {
    let directory = try Directory()
    try Data(#"[{"id":1,"title":"a","note":null}]"#.utf8).write(to: directory.file())
    #expect(try Store<Note>(contentsOf: directory.file()).items.map(\.title) == ["a"])
  }

  @Test func aFileThatCannotBeReadIsUnreadable() throws {
    let directory = try Directory()
    try FileManager.default.createDirectory(
      at: directory.file(), withIntermediateDirectories: false)
    #expect {
      _ = try Store<Note>(contentsOf: directory.file())
    } throws: { error in
      (error as? StoreError)?.kind == .unreadable
    }
  }

  /// The ids in a store file, read without a store (a store would be
  /// refused while another has the file).
  func contents(of url: URL) throws -> [Int] {
    try JSONDecoder().decode([Note].self, from: Data(contentsOf: url)).map(\.id)
  }
}

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

  @Test func publishesAChangeSetForEveryMutationAndEditsAreUpdates() {
    let store = Store([Note(id: 1, title: "a")])
    let changes = Recorder<String>()
    let subscription = store.items.observe { changes.record($0.changeSet.description) }
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
        subscription = store.items.observe { [unowned self] in titles = $0.newElements.map(\.title)
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
    let saved = try Data(contentsOf: directory.file())
    // Make the next save fail: a directory where the temporary file goes.
    let obstacle = directory.url.appendingPathComponent(".notes.json.saving")
    try FileManager.default.createDirectory(at: obstacle, withIntermediateDirectories: false)
    let reports = Diagnostics.capturing {
      store.items.append(Note(id: 2, title: "not saved"))
    }
    #expect(try Data(contentsOf: directory.file()) == saved)
    let error = try #require(store.saveError.value)
    #expect(error.kind == .unwritable)
    #expect(reports == [error.description])
    #expect(error.description.contains(directory.file().path))
    #expect(error.description.hasSuffix("the file on disk was not changed"))
    try FileManager.default.removeItem(at: obstacle)
    store.items.append(Note(id: 3, title: "saved again"))
    #expect(store.saveError.value == nil)
    #expect(try Store<Note>(contentsOf: directory.file()).items.map(\.id) == [1, 2, 3])
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
}

import Foundation
import POMVVM
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The store's file on disk: permissions and owner, symbolic links, the
/// lock against a second store, read-only files, and the temporary files
/// of saves.
@MainActor
@Suite("Store file")
struct StoreFileTests {
  typealias Note = StoreTests.Note
  typealias Directory = StoreTests.Directory

  private func status(_ url: URL) throws -> stat {
    var status = stat()
    guard lstat(url.path, &status) == 0 else { throw POSIXError(.ENOENT) }
    return status
  }

  private func names(in directory: Directory) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.url.path).sorted()
  }

  @Test func aSaveKeepsTheFilesPermissions() throws {
    let directory = try Directory()
    let url = directory.file()
    try Data("[]".utf8).write(to: url)
    chmod(url.path, 0o640)
    let store = try Store<Note>(contentsOf: url)
    store.items.append(Note(id: 1, title: "a"))
    store.flush()
    #expect(store.saveError.value == nil)
    #expect(try status(url).st_mode & 0o7777 == 0o640)
    #expect(try names(in: directory) == ["notes.json"], "no temporary file is left")
  }

  @Test(.enabled(if: geteuid() == 0, "only the superuser may give a file away"))
  func aSaveKeepsTheFilesOwner() throws {
    let directory = try Directory()
    let url = directory.file()
    try Data("[]".utf8).write(to: url)
    chown(url.path, 4321, 8765)
    chmod(url.path, 0o660)
    let store = try Store<Note>(contentsOf: url)
    store.items.append(Note(id: 1, title: "a"))
    store.flush()
    let saved = try status(url)
    #expect(store.saveError.value == nil)
    #expect([saved.st_uid, saved.st_gid] == [4321, 8765])
    #expect(saved.st_mode & 0o7777 == 0o660)
  }

  @Test func aReadOnlyFileIsNeverReplacedAndTheNextSaveAfterMakingItWritableWritesAll() throws {
    let directory = try Directory()
    let url = directory.file()
    let original = #"[{"id":1,"title":"a"}]"#
    try Data(original.utf8).write(to: url)
    chmod(url.path, 0o444)
    let store = try Store<Note>(contentsOf: url)
    let reports = Diagnostics.capturing {
      store.items.append(Note(id: 2, title: "b"))
      store.flush()
    }
    let error = StoreError(.readOnly, path: url.path, reason: "permissions r--r--r--")
    #expect(store.saveError.value == error)
    #expect(
      error.description
        == "cannot save \(url.path): the file is read-only (permissions r--r--r--); "
        + "the file on disk was not changed")
    #expect(reports == [error.description])
    #expect(try String(contentsOf: url, encoding: .utf8) == original)
    #expect(try status(url).st_mode & 0o7777 == 0o444)
    chmod(url.path, 0o644)
    store.items.append(Note(id: 3, title: "c"))
    store.flush()
    #expect(store.saveError.value == nil)
    #expect(try StoreTests().contents(of: url) == [1, 2, 3])
  }

  @Test func aSymbolicLinkIsSavedThroughAndStaysALink() throws {
    let directory = try Directory()
    let elsewhere = try Directory()
    let target = elsewhere.file("real.json")
    try Data(#"[{"id":1,"title":"a"}]"#.utf8).write(to: target)
    let link = directory.file()
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    do {
      let store = try Store<Note>(contentsOf: link)
      store.items.append(Note(id: 2, title: "b"))
      store.flush()
      #expect(store.saveError.value == nil)
    }
    #expect(try status(link).st_mode & S_IFMT == S_IFLNK)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path)
    #expect(try StoreTests().contents(of: target) == [1, 2])
    #expect(try names(in: directory) == ["notes.json"])
    #expect(try names(in: elsewhere) == ["real.json"])
  }

  @Test func aRelativeLinkToAFileNotThereYetCreatesTheTarget() throws {
    let directory = try Directory()
    try FileManager.default.createDirectory(
      at: directory.url.appendingPathComponent("data"), withIntermediateDirectories: false)
    let link = directory.file()
    try FileManager.default.createSymbolicLink(
      atPath: link.path, withDestinationPath: "data/real.json")
    do {
      let store = try Store<Note>(contentsOf: link)
      #expect(store.items.isEmpty)
      store.items.append(Note(id: 1, title: "a"))
      store.flush()
      #expect(store.saveError.value == nil)
    }
    #expect(try status(link).st_mode & S_IFMT == S_IFLNK)
    #expect(
      try StoreTests().contents(of: directory.url.appendingPathComponent("data/real.json")) == [1])
  }

  @Test func aSecondStoreOnTheSameFileIsRefusedUntilTheFirstIsReleased() throws {
    let directory = try Directory()
    let url = directory.file()
    let link = directory.file("link.json")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: url)
    try Data("[]".utf8).write(to: url)
    var first: Store<Note>? = try Store<Note>(contentsOf: url)
    first?.items.append(Note(id: 1, title: "a"))
    first?.flush()
    for path in [url, link] {
      #expect(
        throws: StoreError(
          .inUse, path: path.path,
          reason: "another store has it open, in this process or another; close that one first")
      ) { _ = try Store<Note>(contentsOf: path) }
    }
    // The lock follows the file from save to save.
    first?.items.append(Note(id: 2, title: "b"))
    first?.flush()
    #expect(throws: StoreError.self) { _ = try Store<Note>(contentsOf: url) }
    first = nil
    #expect(try Store<Note>(contentsOf: url).items.map(\.id) == [1, 2])
  }

  @Test func twoStoresThatFoundNoFileDoNotOverwriteEachOther() throws {
    let directory = try Directory()
    let url = directory.file()
    let first = try Store<Note>(contentsOf: url)
    let second = try Store<Note>(contentsOf: url)
    first.items.append(Note(id: 1, title: "first"))
    first.flush()
    let reports = Diagnostics.capturing {
      second.items.append(Note(id: 2, title: "second"))
      second.flush()
    }
    let error = StoreError(
      .inUse, path: url.path, reason: "another process created it after this store found none")
    #expect(first.saveError.value == nil)
    #expect(second.saveError.value == error)
    #expect(reports == [error.description])
    #expect(try StoreTests().contents(of: url) == [1])
  }

  @Test func openingAStoreRemovesTheTemporaryFilesOfSavesWhoseProcessIsGone() throws {
    let directory = try Directory()
    try Data("[]".utf8).write(to: directory.file())
    let hour = Date(timeIntervalSinceNow: -3600)
    let files: [(name: String, date: Date?)] = [
      (".notes.json.\(Int32.max).1a2b.saving", nil),  // no such process
      (".notes.json.\(getpid()).3c4d.saving", hour),  // alive, but an hour old
      (".notes.json.\(getpid()).5e6f.saving", nil),  // alive and recent: a save under way
      (".notes.json.saving", nil),  // not a name this store uses
      (".other.json.\(Int32.max).1a2b.saving", nil),  // another store's
      (".notes.json.\(Int32.max).1a2b.saving.txt", nil),
    ]
    for file in files {
      let url = directory.file(file.name)
      try Data("[".utf8).write(to: url)
      if let date = file.date {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: url.path)
      }
    }
    _ = try Store<Note>(contentsOf: directory.file())
    #expect(
      try Set(names(in: directory)) == [
        ".notes.json.\(getpid()).5e6f.saving", ".notes.json.\(Int32.max).1a2b.saving.txt",
        ".notes.json.saving", ".other.json.\(Int32.max).1a2b.saving", "notes.json",
      ])
  }

  /// Writes `text` into a file in place, as `echo … > file` does: the same
  /// inode, truncated and rewritten.
  private func rewriteInPlace(_ url: URL, with text: String) throws {
    let descriptor = open(url.path, O_WRONLY | O_TRUNC)
    guard descriptor >= 0 else { throw POSIXError(.EIO) }
    defer { close(descriptor) }
    let written = text.utf8CString.withUnsafeBytes {
      write(descriptor, $0.baseAddress, $0.count - 1)
    }
    guard written == text.utf8.count else { throw POSIXError(.EIO) }
  }

  private func text(of url: URL) throws -> String {
    try String(decoding: Data(contentsOf: url), as: UTF8.self)
  }

  /// Another size, and the same size right after the store's save: the
  /// file's times cannot tell that one, its hash does.
  @Test(arguments: [false, true])
  func aFileRewrittenInPlaceByAnotherProgramIsNeverOverwritten(keepingItsSize: Bool) throws {
    let directory = try Directory()
    let url = directory.file()
    try Data(#"[{"id":1,"title":"a"}]"#.utf8).write(to: url)
    let store = try Store<Note>(contentsOf: url)
    store.items.append(Note(id: 2, title: "b"))
    store.flush()
    #expect(store.saveError.value == nil)
    let external = #"[{"id":7,"title":"EXTERNAL-INPLACE"}]"#
    let saved = try text(of: url)
    let written =
      keepingItsSize
      ? external + String(repeating: " ", count: saved.utf8.count - external.utf8.count)
      : external
    try rewriteInPlace(url, with: written)

    let reports = Diagnostics.capturing {
      store.items.append(Note(id: 3, title: "c"))
      store.flush()
    }
    let error = StoreError(
      .changedOnDisk, path: url.path,
      reason: "another program changed its contents after this store saved it")
    #expect(store.saveError.value == error)
    #expect(reports == [error.description])
    #expect(try text(of: url) == written, "the other program's contents stay")
    #expect(store.items.map(\.id) == [1, 2, 3], "the store's changes stay in memory")
    // Every later save is refused too, until the file is dealt with.
    let later = Diagnostics.capturing {
      store.items.append(Note(id: 4, title: "d"))
      store.flush()
    }
    #expect(later == [error.description])
    #expect(store.saveError.value == error)
    #expect(try text(of: url) == written)
  }

  @Test func aFileOnlyTouchedByAnotherProgramStillTakesTheSave() throws {
    let directory = try Directory()
    let url = directory.file()
    try Data(#"[{"id":1,"title":"a"}]"#.utf8).write(to: url)
    let store = try Store<Note>(contentsOf: url)
    let contents = try text(of: url)
    try rewriteInPlace(url, with: contents)  // same contents, new times
    store.items.append(Note(id: 2, title: "b"))
    store.flush()
    #expect(store.saveError.value == nil)
    #expect(try StoreTests().contents(of: url) == [1, 2])
  }

  @Test func aFileReplacedByRenameIsNeverOverwrittenAndTheErrorSaysSo() throws {
    let directory = try Directory()
    let url = directory.file()
    try Data(#"[{"id":1,"title":"a"}]"#.utf8).write(to: url)
    let store = try Store<Note>(contentsOf: url)
    let other = directory.file("other.json")
    try Data(#"[{"id":7,"title":"EXTERNAL-RENAME"}]"#.utf8).write(to: other)
    #expect(rename(other.path, url.path) == 0)
    let reports = Diagnostics.capturing {
      store.items.append(Note(id: 2, title: "b"))
      store.flush()
    }
    let error = StoreError(
      .changedOnDisk, path: url.path,
      reason: "another program replaced it with a new file after this store loaded it")
    #expect(store.saveError.value == error)
    #expect(reports == [error.description])
    #expect(try StoreTests().contents(of: url) == [7])
  }

  @Test func aFileWithMoreThanOneNameIsRefusedAtOpenAndAtSave() throws {
    let directory = try Directory()
    let url = directory.file()
    try Data(#"[{"id":1,"title":"a"}]"#.utf8).write(to: url)
    let alias = directory.file("alias.json")
    #expect(link(url.path, alias.path) == 0)
    let error = StoreError(
      .hardLinked, path: url.path,
      reason: "it has 2 hard links, and a save replaces the file by renaming a new one over "
        + "this name only, which would split it from the others; give it a single name")
    #expect(throws: error) { _ = try Store<Note>(contentsOf: url) }

    unlink(alias.path)
    let store = try Store<Note>(contentsOf: url)
    #expect(link(url.path, alias.path) == 0)
    let reports = Diagnostics.capturing {
      store.items.append(Note(id: 2, title: "b"))
      store.flush()
    }
    #expect(store.saveError.value == error)
    #expect(reports == [error.description])
    #expect(try StoreTests().contents(of: alias) == [1], "both names keep the same file")
    #expect(try status(url).st_ino == status(alias).st_ino)
  }
}

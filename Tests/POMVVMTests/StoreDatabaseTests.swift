import Foundation
import TestSupport
import Testing

@testable import POMVVM

/// A store kept in a SQLite database: every kind of change saved as what it
/// changed and read back equal, the order kept through random moves, and
/// the sequence.
@MainActor
@Suite("Store database")
struct StoreDatabaseTests {
  typealias Directory = StoreTests.Directory

  /// A to-do element with a field of each kind: an integer id, text, a
  /// flag, an optional date and a nested array (stored as JSON).
  struct Item: Identifiable, Codable, Equatable, Sendable {
    var id: Int
    var title: String
    var done = false
    var due: Date?
    var tags: [String] = []
  }

  static func items(_ ids: ClosedRange<Int>) -> [Item] {
    ids.map { Item(id: $0, title: "item \($0)") }
  }

  /// Opens the database again, in a new store, and returns its elements.
  static func reopened(_ url: URL) throws -> [Item] {
    try Store<Item>(database: url).items.elements
  }

  /// The README's example, line for line.
  @Test func theReadmeExample() async throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let store = try Store<Item>(database: url)  // created empty if missing
    store.items.append(Item(id: 1, title: "milk"))  // one row, written soon
    store.flush()  // durable now
    let other = try Store<Item>(database: url)  // another process's, say
    other.items.cell(for: 1, \.title)?.value = "oat milk"
    other.flush()
    await store.refresh()  // at once; by itself within a tenth of a second
    #expect(store.items[id: 1]?.title == "oat milk")
  }

  @Test func aNewDatabaseStartsEmptyAndKeepsWhatIsAppended() throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let store = try Store<Item>(database: url)
    #expect(store.items.isEmpty)
    #expect(store.fileURL == url)
    let due = Date(timeIntervalSinceReferenceDate: 800_000_000.25)
    store.items.append(Item(id: 1, title: "milk", due: due, tags: ["shop", "a\u{0}b"]))
    store.items.append(Item(id: 2, title: "bread", done: true))
    store.flush()
    #expect(store.saveError.value == nil)
    #expect(!store.isSaving)
    #expect(
      try Self.reopened(url) == [
        Item(id: 1, title: "milk", due: due, tags: ["shop", "a\u{0}b"]),
        Item(id: 2, title: "bread", done: true),
      ])
  }

  @Test(arguments: [
    "append", "insert", "remove", "move", "cell", "replaceAll", "offsets", "moveOffsets",
  ])
  func everyKindOfChangeIsReadBackEqual(kind: String) throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let store = try Store<Item>(database: url)
    store.items.append(contentsOf: Self.items(1...10))
    store.flush()
    switch kind {
    case "append": store.items.append(Item(id: 11, title: "new"))
    case "insert": store.items.insert(Item(id: 11, title: "new"), at: 3)
    case "remove": store.items.remove(at: 4)
    case "move": store.items.move(from: 8, to: 1)
    case "cell":
      let title = try #require(store.items.cell(for: 5, \.title))
      title.value = "edited"
      let done = try #require(store.items.cell(for: 5, \.done))
      done.value = true
    case "replaceAll":
      store.items.replaceAll(
        with: [Item(id: 12, title: "twelve")] + Self.items(3...7).reversed()
          + [Item(id: 1, title: "one, edited")])
    case "offsets": store.items.remove(atOffsets: [0, 4, 9])
    case "moveOffsets": store.items.move(fromOffsets: [0, 2, 9], toOffset: 5)
    default: Issue.record("unknown kind \(kind)")
    }
    store.flush()
    #expect(store.saveError.value == nil)
    #expect(try Self.reopened(url) == store.items.elements)
  }

  @Test func undoAndRedoAreSavedLikeAnyChange() throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let store = try Store<Item>(database: url)
    store.items.append(contentsOf: Self.items(1...5))
    let history = UndoHistory()
    history.track(store.items)
    var states = [store.items.elements]
    store.items.insert(Item(id: 6, title: "six"), at: 1)
    history.stopMerging()
    states.append(store.items.elements)
    store.items.move(from: 0, to: 4)
    history.stopMerging()
    states.append(store.items.elements)
    store.items.remove(at: 2)
    states.append(store.items.elements)
    for state in states.reversed().dropFirst() {
      #expect(history.undo())
      store.flush()
      #expect(try Self.reopened(url) == state)
    }
    for state in states.dropFirst() {
      #expect(history.redo())
      store.flush()
      #expect(try Self.reopened(url) == state)
    }
  }

  @Test func theSequenceIsSavedAndNeverGoesBack() throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    do {
      let store = try Store<Item>(database: url)
      for _ in 0..<3 {
        let id = try #require(store.takeSequenceNumber())
        store.items.append(Item(id: id, title: "n\(id)"))
      }
      store.items.removeAll()
      #expect(store.takeSequenceNumber(atLeast: 10) == 10)
      store.flush()
    }
    let reopened = try Store<Item>(database: url)
    #expect(reopened.items.isEmpty)
    #expect(reopened.takeSequenceNumber() == 11)
  }

  /// A thousand random moves, insertions and removals on two thousand
  /// elements, saved in bursts of various sizes: the database reads back
  /// the same elements in the same order.
  @Test func randomMovesInsertionsAndRemovalsAreReadBackInOrder() throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    let store = try Store<Item>(database: url)
    store.items.append(contentsOf: Self.items(1...2_000))
    store.flush()
    var nextID = 2_001
    for step in 0..<1_000 {
      let count = store.items.count
      switch Int.random(in: 0..<3, using: &random) {
      case 0 where count > 1:
        store.items.move(
          from: Int.random(in: 0..<count, using: &random),
          to: Int.random(in: 0..<count, using: &random))
      case 1:
        store.items.insert(
          Item(id: nextID, title: "new \(nextID)"), at: Int.random(in: 0...count, using: &random))
        nextID += 1
      default:
        if count > 0 { store.items.remove(at: Int.random(in: 0..<count, using: &random)) }
      }
      if Int.random(in: 0..<20, using: &random) == 0 || step == 999 {
        store.flush()
      }
    }
    #expect(store.saveError.value == nil, "seed \(seed)")
    #expect(try Self.reopened(url) == store.items.elements, "seed \(seed)")
  }

  /// Inserting again and again at the same spot, at the start and at the
  /// end, keeps the order (the keys grow only where rows crowd).
  @Test func insertingAtTheSameSpotManyTimesKeepsTheOrder() throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let store = try Store<Item>(database: url)
    store.items.append(contentsOf: Self.items(1...2))
    for id in 3..<300 {
      store.items.insert(Item(id: id, title: "\(id)"), at: 1)
      store.items.insert(Item(id: id + 1_000, title: "\(id)"), at: 0)
      store.items.append(Item(id: id + 2_000, title: "\(id)"))
      if id % 37 == 0 { store.flush() }
    }
    store.flush()
    #expect(try Self.reopened(url) == store.items.elements)
  }

  @Test func positionKeysAreOrderedBetweenTheirNeighbours() {
    var random = SplitMix64(seed: 7)
    var keys: [_PositionKey] = [.numbered(0), .numbered(1)]
    for _ in 0..<2_000 {
      let index = Int.random(in: 0...keys.count, using: &random)
      let low = index > 0 ? keys[index - 1] : nil
      let high = index < keys.count ? keys[index] : nil
      let key = _PositionKey.between(low, high)
      if let low { #expect(low < key) }
      if let high { #expect(key < high) }
      #expect(key.minor.last != 0)
      keys.insert(key, at: index)
    }
    #expect(keys == keys.sorted())
  }

  // MARK: - The change log

  /// The log keeps the ids of the last commits, within its size, and says
  /// when it does not cover a reader's commits.
  @Test func theChangeLogKeepsTheLastCommitsWithinItsSize() throws {
    let ids: [_SQLValue] = [
      .integer(7), .integer(-3), .integer(.min), .text("a\u{0}é"), .real(1.5), .blob([0, 255]),
    ]
    var log = _ChangeLog(since: 0, through: 0)
    log.append(commit: 1, ids: ids, limit: 900)
    log.append(commit: 2, ids: [.integer(7), .integer(8)], limit: 900)
    let read = try #require(_ChangeLog(log.encoded))
    #expect(read == log)
    #expect(read.ids(after: 0, through: 2, skipping: []) == ids + [.integer(8)])
    #expect(read.ids(after: 1, through: 2, skipping: []) == [.integer(7), .integer(8)])
    #expect(read.ids(after: 0, through: 2, skipping: [1]) == [.integer(7), .integer(8)])
    #expect(read.ids(after: 0, through: 3, skipping: []) == nil, "a commit it lacks")
    // Within 40 bytes: the oldest commits go, and readers before them
    // read every row.
    for commit in Int64(3)...30 {
      log.append(commit: commit, ids: [.integer(commit)], limit: 40)
      #expect(log.encoded.count <= 40)
    }
    #expect(log.ids(after: 29, through: 30, skipping: []) == [.integer(30)])
    #expect(log.ids(after: 2, through: 30, skipping: []) == nil)
    // A commit after a gap (a writer without the log) starts it again; one
    // too large for it leaves it covering nothing before it.
    log.append(commit: 32, ids: [.integer(1)], limit: 40)
    #expect(log.ids(after: 30, through: 32, skipping: []) == nil)
    #expect(log.ids(after: 31, through: 32, skipping: []) == [.integer(1)])
    log.append(commit: 33, ids: (0..<100).map { .integer($0) }, limit: 40)
    #expect(log.ids(after: 32, through: 33, skipping: []) == nil)
    #expect(log.ids(after: 33, through: 33, skipping: []) == [])
    // Bytes that are not a log are not read as one; a writer that meets a
    // group that does not read starts the log again.
    for blob: [UInt8] in [[], [2, 0, 0], [1, 0], [1, 0, 1, 1, 5, 0], [1, 0, 1, 1, 1, 1, 9, 0]] {
      #expect(_ChangeLog(blob) == nil)
    }
    var damaged = try #require(_ChangeLog([1, 0, 1, 1, 1, 1, 9, 0], checksGroups: false))
    #expect(damaged.ids(after: 0, through: 1, skipping: []) == nil)
    damaged.append(commit: 2, ids: [.integer(5)], limit: 10)
    #expect(damaged.ids(after: 1, through: 2, skipping: []) == nil)
    #expect(damaged.ids(after: 2, through: 2, skipping: []) == [])
    #expect(damaged.encoded.count <= 10)
  }
}

import Foundation
import TestSupport
import Testing

@testable import POMVVM

/// Two stores on one database, as two processes would have it (each store
/// has its own SQLite connection): each one's commits reach the other as
/// ordinary changes, and a conflicting edit is refused, never saved over.
@MainActor
@Suite("Store database sharing")
struct StoreDatabaseSharingTests {
  typealias Item = StoreDatabaseTests.Item
  typealias Directory = StoreTests.Directory

  /// Two stores on a new database of five items.
  static func pair(in directory: Directory) throws -> (Store<Item>, Store<Item>) {
    let url = directory.file("items.sqlite")
    let first = try Store<Item>(database: url)
    first.items.append(contentsOf: StoreDatabaseTests.items(1...5))
    first.flush()
    let second = try Store<Item>(
      database: url, saveDelay: .milliseconds(20), pollInterval: .never, fileID: #fileID,
      line: #line)
    return (first, second)
  }

  @Test func anEditArrivesAsAnUpdateOfThatElementOnly() async throws {
    let directory = try Directory()
    let (first, second) = try Self.pair(in: directory)
    #expect(second.items.elements == first.items.elements)
    let seen = Recorder<String>()
    let subscription = second.items.observeChanges { seen.record($0.changeSet.description) }
    let title = try #require(second.items.cell(for: 3, \.title))
    first.items.cell(for: 3, \.title)?.value = "edited"
    first.flush()
    await second.refresh()
    #expect(title.value == "edited")
    #expect(second.items.elements == first.items.elements)
    #expect(seen.events.count == 1)
    #expect(seen.events.first?.contains("update") == true)
    _ = subscription
  }

  @Test func insertionsMovesAndRemovalsArriveInOrderAsOneChange() async throws {
    let directory = try Directory()
    let (first, second) = try Self.pair(in: directory)
    var changes = 0
    let subscription = second.items.observeChanges { _ in changes += 1 }
    first.items.insert(Item(id: 6, title: "six"), at: 2)
    first.items.move(from: 0, to: 4)
    first.items.remove(at: 1)
    first.items.append(Item(id: 7, title: "seven"))
    first.flush()
    await second.refresh()
    #expect(second.items.elements == first.items.elements)
    #expect(changes == 1)
    _ = subscription
  }

  /// How many of a store's reads of other processes' commits read every
  /// row's version (the change log did not cover them).
  static func fullReads(_ store: Store<Item>) -> Int {
    (store.session as? _DatabaseSession<Item>)?.writer.database.fullReads.withLock { $0 } ?? -1
  }

  /// A commit of several rows arrives as one change of exactly those rows,
  /// found through the change log (no row's version read) and applied as
  /// updates in place, an insertion at its place, a removal and a move:
  /// element cells stay bound, and the change set replays.
  @Test func aCommitOfSeveralRowsArrivesAsAChangeOfExactlyThoseRows() async throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let first = try Store<Item>(database: url)
    first.items.append(contentsOf: StoreDatabaseTests.items(1...20))
    first.flush()
    let second = try Store<Item>(
      database: url, saveDelay: .milliseconds(20), pollInterval: .never, fileID: #fileID,
      line: #line)
    let before = second.items.elements
    let moved = try #require(second.items.cell(for: 1))
    let edited = try #require(second.items.cell(for: 3, \.title))
    var changes: [ArrayChange<Item>] = []
    let subscription = second.items.observeChanges { changes.append($0) }
    let reads = Self.fullReads(second)
    first.items.cell(for: 3, \.title)?.value = "three"
    first.items.cell(for: 17, \.done)?.value = true
    first.items.insert(Item(id: 21, title: "new"), at: 10)
    _ = first.items.remove(id: 12)
    first.items.move(from: 0, to: 5)
    first.flush()
    await second.refresh()
    #expect(second.items.elements == first.items.elements)
    #expect(Self.fullReads(second) == reads, "the change log named the rows")
    #expect(changes.count == 1)
    let changeSet = try #require(changes.first?.changeSet)
    #expect(changeSet.reload == nil)
    #expect(changeSet.updates.map(\.newElement.id) == [3, 17])
    #expect(changeSet.insertions.map(\.element.id) == [21])
    #expect(changeSet.removals.map(\.element.id) == [12])
    #expect(changeSet.moves.map { before[$0.from].id } == [1])
    #expect(try changeSet.applied(to: before) == second.items.elements)
    #expect(edited.value == "three")
    #expect(!moved.isDetached)
    _ = subscription
  }

  /// Random commits of several changes each, applied to a second store:
  /// the same elements, in the same order, each change replaying.
  @Test func randomCommitsArriveInOrder() async throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let first = try Store<Item>(database: url)
    first.items.append(contentsOf: StoreDatabaseTests.items(1...30))
    first.flush()
    let second = try Store<Item>(
      database: url, saveDelay: .milliseconds(20), pollInterval: .never, fileID: #fileID,
      line: #line)
    var random = SplitMix64(seed: 50)
    var nextID = 31
    var last = second.items.elements
    var replayed = true
    let subscription = second.items.observeChanges { change in
      replayed = replayed && (try? change.changeSet.applied(to: last)) == change.newElements
      last = change.newElements
    }
    for round in 0..<40 {
      for _ in 0..<Int.random(in: 1...6, using: &random) {
        let count = first.items.count
        switch Int.random(in: 0..<4, using: &random) {
        case 0 where count > 0:
          let id = first.items[Int.random(in: 0..<count, using: &random)].id
          first.items.cell(for: id, \.title)?.value = "edit \(round)"
        case 1:
          first.items.insert(
            Item(id: nextID, title: "new"), at: Int.random(in: 0...count, using: &random))
          nextID += 1
        case 2 where count > 1:
          first.items.move(
            from: Int.random(in: 0..<count, using: &random),
            to: Int.random(in: 0..<count, using: &random))
        case 3 where count > 5:
          first.items.remove(at: Int.random(in: 0..<count, using: &random))
        default:
          break
        }
      }
      first.flush()
      await second.refresh()
      #expect(second.items.elements == first.items.elements, "round \(round)")
    }
    #expect(replayed)
    _ = subscription
  }

  /// A commit of thousands of rows in a row (another process's import or
  /// paste) arrives whole: each row follows the one before it, a chain the
  /// store walks without recursion.
  @Test func aCommitOfThousandsOfRowsInARowArrives() async throws {
    let directory = try Directory()
    let (first, second) = try Self.pair(in: directory)
    first.items.batch {
      $0.insert(contentsOf: (100..<10_100).map { Item(id: $0, title: "row \($0)") }, at: 2)
    }
    first.items.cell(for: 5, \.title)?.value = "five"
    first.flush()
    await second.refresh()
    #expect(second.items.elements == first.items.elements)
  }

  /// A store that fell behind the change log (more commits than it keeps)
  /// reads every row's version instead, and misses nothing.
  @Test func aStoreThatFellBehindTheChangeLogReadsEveryRow() async throws {
    let directory = try Directory()
    let (first, second) = try Self.pair(in: directory)
    let reads = Self.fullReads(second)
    for edit in 0..<300 {
      first.items.cell(for: edit % 5 + 1, \.title)?.value = "edit \(edit)"
      if edit == 100 { first.items.append(Item(id: 6, title: "six")) }
      first.flush()
    }
    await second.refresh()
    #expect(second.items.elements == first.items.elements)
    #expect(Self.fullReads(second) == reads + 1)
    // Caught up, the next commit is in the log again.
    first.items.cell(for: 2, \.title)?.value = "after"
    first.flush()
    await second.refresh()
    #expect(second.items[id: 2]?.title == "after")
    #expect(Self.fullReads(second) == reads + 1)
  }

  /// A database of the format before the change log opens and shares.
  ///
  /// Without the `changes` key, it opens and shares as before; its first
  /// commit starts the log, with its own rows. A writer
  /// that does not keep the log (an older version) is noticed: its commit
  /// is found by reading every row.
  @Test func aDatabaseWithoutTheChangeLogAndAWriterThatDoesNotKeepIt() async throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    do {
      let store = try Store<Item>(database: url)
      store.items.append(contentsOf: StoreDatabaseTests.items(1...5))
      store.flush()
    }
    try StoreDatabaseFileTests.execute("DELETE FROM pomvvm_store WHERE key = 'changes'", on: url)
    let first = try Store<Item>(database: url)
    let second = try Store<Item>(
      database: url, saveDelay: .milliseconds(20), pollInterval: .never, fileID: #fileID,
      line: #line)
    let reads = Self.fullReads(second)
    first.items.cell(for: 2, \.title)?.value = "two"
    first.items.append(Item(id: 6, title: "six"))
    first.flush()
    await second.refresh()
    #expect(second.items.elements == first.items.elements)
    #expect(Self.fullReads(second) == reads, "the commit started the log with its rows")
    first.items.cell(for: 3, \.title)?.value = "three"
    first.flush()
    await second.refresh()
    #expect(second.items[id: 3]?.title == "three")
    #expect(Self.fullReads(second) == reads)
    // An older version's commit: a row and the commit number, no log.
    try StoreDatabaseFileTests.execute(
      """
      UPDATE pomvvm_elements SET title = 'by an older version',
        _pomvvm_version = (SELECT value + 1 FROM pomvvm_store WHERE key = 'commit')
        WHERE _pomvvm_id = 4;
      UPDATE pomvvm_store SET value = value + 1 WHERE key = 'commit';
      """, on: url)
    await second.refresh()
    #expect(second.items[id: 4]?.title == "by an older version")
    #expect(Self.fullReads(second) == reads + 1, "the log ends before that commit")
    // The next commit of this version starts the log again.
    first.items.cell(for: 5, \.title)?.value = "five"
    first.flush()
    await second.refresh()
    #expect(second.items[id: 5]?.title == "five")
    #expect(Self.fullReads(second) == reads + 1)
  }

  /// Without `refresh()`, a store looks by itself: the change arrives.
  @Test
  func aCommitArrivesByItself() async throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let first = try Store<Item>(database: url)
    let second = try Store<Item>(
      database: url, saveDelay: .milliseconds(20), pollInterval: .milliseconds(10),
      fileID: #fileID, line: #line)
    first.items.append(Item(id: 1, title: "one"))
    first.flush()
    var subscription: Subscription?
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      subscription = second.items.observeChanges { _ in
        continuation.resume()
      }
    }
    subscription?.cancel()
    #expect(second.items.elements == [Item(id: 1, title: "one")])
  }

  @Test func bothStoresEditingDifferentElementsLoseNothing() async throws {
    let directory = try Directory()
    let (first, second) = try Self.pair(in: directory)
    first.items.cell(for: 1, \.title)?.value = "first's"
    second.items.cell(for: 2, \.title)?.value = "second's"
    second.items.append(Item(id: 9, title: "added by second"))
    first.flush()
    second.flush()
    #expect(first.saveError.value == nil)
    #expect(second.saveError.value == nil)
    await first.refresh()
    await second.refresh()
    #expect(first.items.elements == second.items.elements)
    #expect(first.items[id: 1]?.title == "first's")
    #expect(first.items[id: 2]?.title == "second's")
    #expect(first.items[id: 9] != nil)
    let reopened = try StoreDatabaseTests.reopened(directory.file("items.sqlite"))
    #expect(reopened == first.items.elements)
  }

  /// The same element edited by both: the later save is refused as a
  /// conflict naming it; the database keeps the first value, the second
  /// store its own, and the first store's other changes are not lost.
  @Test func aConflictingEditIsRefusedAndNeitherValueIsLost() async throws {
    let directory = try Directory()
    let (first, second) = try Self.pair(in: directory)
    first.items.cell(for: 3, \.title)?.value = "first's"
    first.flush()
    let captured = Diagnostics.capturing {
      second.items.cell(for: 3, \.title)?.value = "second's"
      second.items.cell(for: 4, \.title)?.value = "second's four"
      second.flush()
    }
    let error = try #require(second.saveError.value)
    #expect(error.kind == .conflict)
    #expect(
      error.reason == "another process changed the element with id 3 since this store read it")
    #expect(captured.count == 1)
    // Writing the kept burst again fails the same way: reported once.
    let again = Diagnostics.capturing { second.flush() }
    #expect(again.isEmpty)
    #expect(second.saveError.value?.kind == .conflict)
    #expect(second.items[id: 3]?.title == "second's")
    let reopened = try StoreDatabaseTests.reopened(directory.file("items.sqlite"))
    #expect(reopened.first { $0.id == 3 }?.title == "first's")
    #expect(reopened.first { $0.id == 4 }?.title == "item 4", "the burst is refused whole")
    // The other process's value waits while this store's is unsaved.
    await second.refresh()
    #expect(second.items[id: 3]?.title == "second's")
  }

  @Test func removingAnElementAnotherStoreEditedIsAConflict() async throws {
    let directory = try Directory()
    let (first, second) = try Self.pair(in: directory)
    first.items.cell(for: 2, \.done)?.value = true
    first.flush()
    _ = Diagnostics.capturing {
      second.items.remove(at: 1)
      second.flush()
    }
    #expect(second.saveError.value?.kind == .conflict)
    #expect(try StoreDatabaseTests.reopened(directory.file("items.sqlite")).count == 5)
  }

  @Test func editingAnElementAnotherStoreRemovedIsAConflict() async throws {
    let directory = try Directory()
    let (first, second) = try Self.pair(in: directory)
    first.items.remove(at: 1)
    first.flush()
    _ = Diagnostics.capturing {
      second.items.cell(for: 2, \.title)?.value = "edited"
      second.flush()
    }
    let error = try #require(second.saveError.value)
    #expect(error.kind == .conflict)
    #expect(
      error.reason == "another process removed the element with id 2 since this store read it")
  }

  /// A removal arrives as a removal; the sequence that another store
  /// advanced is taken in.
  @Test func removalsAndTheSequenceArrive() async throws {
    let directory = try Directory()
    let (first, second) = try Self.pair(in: directory)
    first.items.remove(at: 4)
    _ = first.takeSequenceNumber(atLeast: 100)
    first.flush()
    await second.refresh()
    #expect(second.items.map(\.id) == [1, 2, 3, 4])
    #expect(second.takeSequenceNumber() == 101)
  }

  /// Undo in the store that receives a change undoes it like any other.
  @Test func anArrivedChangeIsUndoneLikeAnyOther() async throws {
    let directory = try Directory()
    let (first, second) = try Self.pair(in: directory)
    let history = UndoHistory()
    history.track(second.items)
    first.items.cell(for: 1, \.title)?.value = "from first"
    first.flush()
    await second.refresh()
    #expect(second.items[id: 1]?.title == "from first")
    #expect(history.undo())
    #expect(second.items[id: 1]?.title == "item 1")
    second.flush()
    #expect(second.saveError.value == nil)
    await first.refresh()
    #expect(first.items[id: 1]?.title == "item 1")
  }

  /// Two stores that open a new database before either wrote: the second
  /// one's first save finds the columns the first one added, and adds none
  /// twice.
  @Test func twoStoresOpeningANewDatabaseBothSaveTheirFirstElements() async throws {
    let directory = try Directory()
    let url = directory.file("items.sqlite")
    let first = try Store<Item>(
      database: url, saveDelay: .milliseconds(20), pollInterval: .never, fileID: #fileID,
      line: #line)
    let second = try Store<Item>(
      database: url, saveDelay: .milliseconds(20), pollInterval: .never, fileID: #fileID,
      line: #line)
    first.items.append(contentsOf: StoreDatabaseTests.items(1...2))
    first.flush()
    #expect(first.saveError.value == nil)
    second.items.append(contentsOf: StoreDatabaseTests.items(3...4))
    second.flush()
    #expect(second.saveError.value == nil)
    let reopened = try Store<Item>(database: url)
    #expect(Set(reopened.items.elements.map(\.id)) == [1, 2, 3, 4])
  }
}

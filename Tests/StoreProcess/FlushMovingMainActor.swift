import CSQLite
import Foundation
import POMVVM
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `pomvvm-store-process flush-moving-main-actor file|database PATH`: a
/// number taken alone and flushed from main-actor code is saved, and the
/// outcome published, when `flush()` returns, whichever thread runs the
/// main actor (issue 53).
///
/// On Linux this process's main thread is parked in `dispatch_main()`
/// (its main is async), so the main actor runs on whichever thread drains
/// the main queue. Each round moves it to another thread on purpose
/// (`MainActorMove.resumeOnAnotherThread(than:)`), takes a number with
/// `takeSequenceNumber(atLeast: 100)`, flushes, and checks that the store
/// is not saving, holds no error, and that the file or database holds the
/// next number. Nothing else runs on the main actor here, so the main
/// queue goes idle whenever the round suspends and the main actor moves
/// nearly every round; in `swift test`'s own process other tests keep it
/// busy and it rarely does.
///
/// Rounds go on until the main actor has moved 20 times, at most 400. The
/// process writes one line per failed check, `failure ROUND MESSAGE`, then
/// one line `moves M rounds R failures F`, and exits with 1 if a check
/// failed or the main actor never moved, 2 on bad arguments.
@MainActor
enum FlushMovingMainActor {
  static let wantedMoves = 20
  static let roundLimit = 400

  static func run(_ arguments: [String]) async -> Int32 {
    guard arguments.count == 2, ["file", "database"].contains(arguments[0]) else {
      FileHandle.standardError.write(
        Data("usage: pomvvm-store-process flush-moving-main-actor file|database PATH\n".utf8))
      return 2
    }
    let isDatabase = arguments[0] == "database"
    let url = URL(fileURLWithPath: arguments[1])
    var failures = 0
    func fail(_ round: Int, _ message: String) {
      failures += 1
      answer("failure \(round) \(message)")
    }
    var moves = 0
    var rounds = 0
    do {
      // The store is released before the process exits, so that a leak
      // check at exit finds none of its objects.
      let store =
        isDatabase
        ? try Store<ProcessItem>(database: url) : try Store<ProcessItem>(contentsOf: url)
      store.items.append(ProcessItem(id: 1, title: "a"))
      store.flush()
      while moves < wantedMoves && rounds < roundLimit {
        rounds += 1
        let before = pthread_self()
        await MainActorMove.resumeOnAnotherThread(than: before)
        let moved = pthread_equal(before, pthread_self()) == 0
        if moved { moves += 1 }
        let on = moved ? "after a move" : "on the same thread"
        guard let number = store.takeSequenceNumber(atLeast: 100) else {
          fail(rounds, "no number left")
          break
        }
        store.flush()
        if store.isSaving { fail(rounds, "\(on): still saving when flush() returned") }
        if let error = store.saveError.value { fail(rounds, "\(on): \(error)") }
        let saved = isDatabase ? savedNumber(database: url) : savedNumber(file: url)
        if saved != number + 1 {
          fail(
            rounds,
            "\(on): next number on disk \(saved.map(String.init) ?? "none"), not \(number + 1)")
        }
      }
    } catch {
      fail(rounds, "\(error)")
    }
    answer("moves \(moves) rounds \(rounds) failures \(failures)")
    return failures == 0 && moves > 0 ? 0 : 1
  }

  /// The next number of the sequence saved in a JSON store file.
  static func savedNumber(file url: URL) -> Int? {
    struct Saved: Decodable { var nextSequenceNumber: Int }
    guard let data = try? Data(contentsOf: url) else { return nil }
    return try? JSONDecoder().decode(Saved.self, from: data).nextSequenceNumber
  }

  /// The next number of the sequence saved in a store database, read with
  /// a connection of its own.
  static func savedNumber(database url: URL) -> Int? {
    var database: OpaquePointer?
    defer { sqlite3_close_v2(database) }
    guard sqlite3_open_v2(url.path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else {
      return nil
    }
    var statement: OpaquePointer?
    defer { sqlite3_finalize(statement) }
    guard
      sqlite3_prepare_v2(
        database, "SELECT value FROM pomvvm_store WHERE key = 'nextSequenceNumber'", -1,
        &statement, nil) == SQLITE_OK,
      sqlite3_step(statement) == SQLITE_ROW,
      sqlite3_column_type(statement, 0) == SQLITE_INTEGER
    else { return nil }
    return Int(sqlite3_column_int64(statement, 0))
  }
}

import CSQLite
import Foundation
import POMVVM

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The to-do element: five fields.
struct BenchItem: Identifiable, Codable, Equatable, Sendable {
  var id: Int
  var title: String
  var notes: String
  var done: Bool
  var due: Date?
}

/// The figures of the database store beside raw SQLite and the JSON store.
///
/// `pomvvm-store-process --bench` measures opening, one edit and
/// `flush()`, and the bytes written per edit, at 1,000, 10,000 and 100,000
/// elements. Build it in release.
@MainActor
enum Bench {
  static func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
  }

  static func cpu() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
  }

  static func size(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
  }

  static func items(_ count: Int) -> [BenchItem] {
    (0..<count).map { index in
      let due: Date? =
        index % 2 == 0 ? Date(timeIntervalSince1970: 1_700_000_000 + Double(index)) : nil
      return BenchItem(
        id: index, title: "To-do item number \(index)",
        notes: "Some notes about item \(index), a line long.", done: index % 3 == 0, due: due)
    }
  }

  /// Reads every row with the C API, decoded by hand.
  static func rawSelect(_ path: String) -> [BenchItem] {
    var db: OpaquePointer?
    sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, nil)
    defer { sqlite3_close_v2(db) }
    var statement: OpaquePointer?
    sqlite3_prepare_v2(
      db,
      "SELECT id, title, notes, done, due FROM pomvvm_elements ORDER BY _pomvvm_major, _pomvvm_minor",
      -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    var result: [BenchItem] = []
    func text(_ index: Int32) -> String {
      String(cString: sqlite3_column_text(statement, index))
    }
    while sqlite3_step(statement) == SQLITE_ROW {
      result.append(
        BenchItem(
          id: Int(sqlite3_column_int64(statement, 0)), title: text(1), notes: text(2),
          done: sqlite3_column_int64(statement, 3) != 0,
          due: sqlite3_column_type(statement, 4) == SQLITE_NULL
            ? nil : Date(timeIntervalSinceReferenceDate: sqlite3_column_double(statement, 4))))
    }
    return result
  }

  /// One row's UPDATE committed alone, with the store's durability.
  static func rawUpdate(_ path: String, edits: Int) -> Double {
    var db: OpaquePointer?
    sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, nil)
    defer { sqlite3_close_v2(db) }
    sqlite3_exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL", nil, nil, nil)
    var statement: OpaquePointer?
    sqlite3_prepare_v2(
      db, "UPDATE pomvvm_elements SET title = ? WHERE _pomvvm_id = ?", -1, &statement, nil)
    defer { sqlite3_finalize(statement) }
    return seconds {
      for edit in 0..<edits {
        sqlite3_bind_text(statement, 1, "raw \(edit)", -1, nil)
        sqlite3_bind_int64(statement, 2, 7)
        sqlite3_step(statement)
        sqlite3_reset(statement)
      }
    } / Double(edits)
  }

  static func run() throws {
    print(
      "| n | store | open | raw SELECT | one edit + flush | raw UPDATE | CPU per edit | written per edit |"
    )
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for count in [1_000, 10_000, 100_000] {
      let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("pomvvm-bench-\(UInt64.random(in: 0...UInt64.max))")
      try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: directory) }
      let elements = items(count)
      let edits = 20

      let database = directory.appendingPathComponent("items.sqlite")
      do {
        let store = try Store<BenchItem>(database: database)
        store.items.append(contentsOf: elements)
        store.flush()
      }
      var store: Store<BenchItem>?
      let open = try seconds { store = try Store<BenchItem>(database: database) }
      let raw = seconds { precondition(rawSelect(database.path).count == count) }
      let wal = size(database.path + "-wal")
      let cpuStart = cpu()
      let edit =
        seconds {
          for index in 0..<edits {
            store?.items.cell(for: count / 2, \.title)?.value = "edited \(index)"
            store?.flush()
          }
        } / Double(edits)
      let cpuPerEdit = (cpu() - cpuStart) / Double(edits)
      let written = (size(database.path + "-wal") - wal) / edits
      precondition(store?.saveError.value == nil)
      store = nil
      let rawUpdate = rawUpdate(database.path, edits: edits)
      print(
        "| \(count) | database | \(ms(open)) | \(ms(raw)) | \(ms(edit)) | \(ms(rawUpdate)) | \(ms(cpuPerEdit)) | \(written / 1024) KB |"
      )

      let json = directory.appendingPathComponent("items.json")
      do {
        let store = try Store<BenchItem>(contentsOf: json)
        store.items.append(contentsOf: elements)
        store.flush()
      }
      var jsonStore: Store<BenchItem>?
      let jsonOpen = try seconds { jsonStore = try Store<BenchItem>(contentsOf: json) }
      let jsonCPU = cpu()
      let jsonEdit =
        seconds {
          for index in 0..<edits {
            jsonStore?.items.cell(for: count / 2, \.title)?.value = "edited \(index)"
            jsonStore?.flush()
          }
        } / Double(edits)
      let jsonCPUPerEdit = (cpu() - jsonCPU) / Double(edits)
      print(
        "| \(count) | JSON | \(ms(jsonOpen)) | | \(ms(jsonEdit)) | | \(ms(jsonCPUPerEdit)) | \(size(json.path) / 1024) KB |"
      )
      jsonStore = nil
    }
  }

  static func ms(_ seconds: Double) -> String {
    String(format: "%.2f ms", seconds * 1_000)
  }
}

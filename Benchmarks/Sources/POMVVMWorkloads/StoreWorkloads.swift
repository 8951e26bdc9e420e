import POMVVM

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The element of the store rows: a to-do of five fields, about 100 bytes.
package struct ToDoRecord: Identifiable, Codable, Hashable, Sendable {
  package var id: Int
  package var title: String
  package var notes: String
  package var isDone: Bool
  package var due: Date?

  package init(id: Int, title: String, notes: String, isDone: Bool, due: Date?) {
    self.id = id
    self.title = title
    self.notes = notes
    self.isDone = isDone
    self.due = due
  }

  /// The `index`th to-do: every third done, every other one with a date.
  init(_ index: Int) {
    self.init(
      id: index, title: "To-do \(index): call the plumber",
      notes: "Ask about the leak under the sink and the bill of \(index % 28 + 1) March.",
      isDone: index % 3 == 0,
      due: index % 2 == 0 ? Date(timeIntervalSinceReferenceDate: 8e8 + Double(index) * 3600) : nil)
  }

  /// The edit every store row makes: a title no edit has written before,
  /// so that no write is a no-op (SQLite writes nothing for a row
  /// overwritten with the bytes it holds, and an array publishes no change
  /// for an equal element).
  func retitled(_ edit: Int) -> ToDoRecord {
    var copy = self
    copy.title = "To-do \(id): call the plumber, take \(edit)"
    return copy
  }
}

/// The store rows at the sizes given.
///
/// `[1_000, 10_000, 100_000]` measures the sizes, a smoke run small
/// ones. The targets hold at 100,000 elements (the bytes an edit writes, at
/// every size); 100 edits each flushed are measured at sizes from 10,000.
@MainActor
package func storeComparisons(sizes: [Int]) -> [StoreComparison] {
  let largest = sizes.max() ?? 0
  var rows: [StoreComparison] = []
  for size in sizes {
    let atLargest = size == 100_000
    let n = "n = \(grouped(size))"
    rows.append(
      StoreComparison(
        "store/open, \(n)",
        figures: [(.wallTime, atLargest ? .ratioAtMost(5) : .none), (.cpuTime, .none)],
        baselineName: rawSelect, elements: size, maxBatch: 100,
        kit: { StoreOpen(size: size, kind: .database) }, baseline: { RawOpen(size: size) }))
    rows.append(
      StoreComparison(
        "store/one edit + flush(), \(n)",
        figures: [
          (.wallTime, atLargest ? .ratioAtMost(3) : .none), (.cpuTime, .none),
          (.bytesWritten, .bytesAtMost(16_384)),
        ],
        baselineName: rawUpdate, elements: size,
        kit: { StoreEdits(size: size, kind: .database, perIteration: 1) },
        baseline: { RawEdits(size: size, perIteration: 1) }))
    rows.append(
      StoreComparison(
        "store/open, JSON store, \(n)",
        figures: [(.wallTime, .none), (.cpuTime, .none)], baselineName: rawSelect,
        elements: size, maxBatch: 100,
        kit: { StoreOpen(size: size, kind: .json) }, baseline: { RawOpen(size: size) }))
    rows.append(
      StoreComparison(
        "store/one edit + flush(), JSON store, \(n)",
        figures: [(.wallTime, .none), (.cpuTime, .none), (.bytesWritten, .none)],
        baselineName: rawUpdate, elements: size,
        kit: { StoreEdits(size: size, kind: .json, perIteration: 1) },
        baseline: { RawEdits(size: size, perIteration: 1) }))
  }
  let n = "n = \(grouped(largest))"
  if largest >= 10_000 {
    rows.append(
      StoreComparison(
        "store/100 edits, each flushed, \(n)",
        figures: [
          (.wallTime, largest == 100_000 ? .ratioAtMost(3) : .none), (.cpuTime, .none),
          (.bytesWritten, .bytesAtMost(1_638_400)),
        ],
        baselineName: "100 × " + rawUpdate, elements: largest, maxBatch: 1_000,
        kit: { StoreEdits(size: largest, kind: .database, perIteration: 100) },
        baseline: { RawEdits(size: largest, perIteration: 100) }))
  }
  rows.append(
    StoreComparison(
      "store/memory of an open store, \(n)",
      figures: [(.heapPerElement, .none)], baselineName: "[ToDoRecord] read by " + rawSelect,
      elements: largest, maxBatch: 1,
      kit: { StoreKept(size: largest, kind: .database) }, baseline: { RawKept(size: largest) }))
  rows.append(
    StoreComparison(
      "store/memory of an open store, JSON store, \(n)",
      figures: [(.heapPerElement, .none)], baselineName: "[ToDoRecord] read by " + rawSelect,
      elements: largest, maxBatch: 1,
      kit: { StoreKept(size: largest, kind: .json) }, baseline: { RawKept(size: largest) }))
  return rows
}

/// The database store against the JSON store, from the store rows of the
/// same run: the CPU an edit costs each (the "100× less"), its wall
/// time and what it writes, and the time to open.
@MainActor
package func storeRatios(sizes: [Int]) -> [StoreRatio] {
  var ratios: [StoreRatio] = []
  for size in sizes {
    let n = "n = \(grouped(size))"
    let edit = "store/one edit + flush(), \(n)"
    let jsonEdit = "store/one edit + flush(), JSON store, \(n)"
    for (figure, target) in [
      (StoreComparison.Figure.cpuTime, size == 100_000 ? Comparison.Target.kitFaster(100) : .none),
      (.wallTime, .none), (.bytesWritten, .none),
    ] {
      ratios.append(
        StoreRatio(
          path: "store/one edit + flush(), vs the JSON store, \(n)", figure: figure,
          target: target, kitRow: edit, baselineRow: jsonEdit,
          baselineName: "the JSON store's row, Store(contentsOf:)"))
    }
    for figure in [StoreComparison.Figure.wallTime, .cpuTime] {
      ratios.append(
        StoreRatio(
          path: "store/open, vs the JSON store, \(n)", figure: figure, target: .none,
          kitRow: "store/open, \(n)", baselineRow: "store/open, JSON store, \(n)",
          baselineName: "the JSON store's row, Store(contentsOf:)"))
    }
  }
  return ratios
}

private let rawSelect = "sqlite3 C API: open, SELECT every row, decode by hand"
private let rawUpdate =
  "sqlite3 C API: one UPDATE of the row, autocommit, WAL + synchronous=FULL"

/// Which store a fixture keeps.
enum StoreKind {
  /// `Store(database:)`, a SQLite database.
  case database
  /// `Store(contentsOf:)`, today's JSON file.
  case json
}

// MARK: - Files

/// The files of the store rows, made once per size and kind in a directory
/// of the run's own, and removed when the run ends.
@MainActor
enum StoreFiles {
  private static var directory: String?
  private static var made: Set<String> = []

  /// The run's directory, made on first use.
  static var root: String {
    if let directory { return directory }
    let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    var template = Array("\(base)/pomvvm-store-rows.XXXXXX".utf8CString)
    guard let made = mkdtemp(&template) else {
      storeBenchmarkFailure("cannot make a directory in \(base)")
    }
    let path = String(cString: made)
    directory = path
    return path
  }

  /// The raw database of `size` to-dos, in a table of the baseline's own.
  static func raw(_ size: Int) -> String {
    let path = "\(root)/raw-\(size).sqlite"
    if made.insert(path).inserted {
      let database = RawDatabase(path: path)
      database.execute(
        """
        PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;
        CREATE TABLE todo(id INTEGER PRIMARY KEY, title TEXT NOT NULL, notes TEXT NOT NULL,
          isDone INTEGER NOT NULL, due REAL);
        BEGIN;
        """)
      let insert = database.prepare(
        "INSERT INTO todo(id, title, notes, isDone, due) VALUES (?1, ?2, ?3, ?4, ?5)")
      for index in 0..<size {
        let record = ToDoRecord(index)
        insert.bind(record.id, at: 1)
        insert.bind(record.isDone ? 1 : 0, at: 4)
        insert.bind(record.due?.timeIntervalSinceReferenceDate, at: 5)
        insert.withText(record.title, at: 2) {
          insert.withText(record.notes, at: 3) { _ = insert.step() }
        }
      }
      database.execute("COMMIT")
    }
    return path
  }

  /// The store file of `size` to-dos, written by the kit.
  static func store(_ size: Int, _ kind: StoreKind) -> URL {
    let url: URL
    switch kind {
    case .database: url = URL(fileURLWithPath: "\(root)/store-\(size).sqlite")
    case .json: url = URL(fileURLWithPath: "\(root)/store-\(size).json")
    }
    if made.insert(url.path).inserted {
      let store = openStore(url, kind)
      store.items.replaceAll(with: (0..<size).map(ToDoRecord.init))
      store.flush()
      if let error = store.saveError.value { storeBenchmarkFailure("\(error)") }
    }
    return url
  }

  /// Removes the run's files.
  static func removeAll() {
    guard let directory else { return }
    try? FileManager.default.removeItem(atPath: directory)
    self.directory = nil
    made = []
  }
}

/// Removes the files the store rows made; `pomvvm-benchmarks` calls it
/// before it exits.
@MainActor
package func removeStoreFiles() {
  StoreFiles.removeAll()
}

@MainActor
private func openStore(_ url: URL, _ kind: StoreKind) -> Store<ToDoRecord> {
  do {
    switch kind {
    case .database: return try Store<ToDoRecord>(database: url)
    case .json: return try Store<ToDoRecord>(contentsOf: url)
    }
  } catch {
    storeBenchmarkFailure("\(error)")
  }
}

// MARK: - Opening

/// Opens the store and reads every element, then closes it, per iteration.
@MainActor
final class StoreOpen: Fixture {
  private let url: URL
  private let kind: StoreKind

  init(size: Int, kind: StoreKind) {
    url = StoreFiles.store(size, kind)
    self.kind = kind
  }

  func run(_ iterations: Int) {
    for _ in 0..<iterations {
      let store = openStore(url, kind)
      sharedSink.total &+= store.items.count
    }
  }
}

/// Opens the raw database and reads every row into a `ToDoRecord`, then
/// closes it, per iteration.
@MainActor
final class RawOpen: Fixture {
  private let path: String

  init(size: Int) {
    path = StoreFiles.raw(size)
  }

  func run(_ iterations: Int) {
    for _ in 0..<iterations {
      sharedSink.total &+= readAll(path).count
    }
  }
}

/// Every row of the raw database at `path`, decoded by hand.
private func readAll(_ path: String) -> [ToDoRecord] {
  let database = RawDatabase(path: path)
  let select = database.prepare("SELECT id, title, notes, isDone, due FROM todo")
  var records: [ToDoRecord] = []
  while select.step() {
    records.append(
      ToDoRecord(
        id: select.int(at: 0), title: select.text(at: 1), notes: select.text(at: 2),
        isDone: select.int(at: 3) != 0,
        due: select.double(at: 4).map(Date.init(timeIntervalSinceReferenceDate:))))
  }
  return records
}

// MARK: - Editing

/// Where the `edit`th edit of `size` elements lands: spread over the file.
private func editedIndex(_ edit: Int, size: Int) -> Int {
  edit &* 7_919 % size
}

/// The number of the next edit of any row: the rows share their files, so
/// every edit of the run is numbered once, and each writes a new title.
@MainActor
private var editCount = 0

@MainActor
private func nextEdit() -> Int {
  editCount += 1
  return editCount
}

/// Edits one element and flushes, `perIteration` times per iteration.
@MainActor
final class StoreEdits: Fixture {
  private let store: Store<ToDoRecord>
  private let size: Int
  private let perIteration: Int

  init(size: Int, kind: StoreKind, perIteration: Int) {
    store = openStore(StoreFiles.store(size, kind), kind)
    self.size = size
    self.perIteration = perIteration
  }

  func run(_ iterations: Int) {
    for _ in 0..<iterations * perIteration {
      let edit = nextEdit()
      let edited = store.items[editedIndex(edit, size: size)].retitled(edit)
      store.items.update(edited)
      store.flush()
    }
    if let error = store.saveError.value { storeBenchmarkFailure("\(error)") }
  }
}

/// Updates one row, committed on its own, `perIteration` times per
/// iteration.
@MainActor
final class RawEdits: Fixture {
  private let database: RawDatabase
  private let update: RawStatement
  private let records: [ToDoRecord]
  private let perIteration: Int

  init(size: Int, perIteration: Int) {
    let path = StoreFiles.raw(size)
    records = readAll(path)
    database = RawDatabase(path: path)
    database.execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL")
    update = database.prepare(
      "UPDATE todo SET title = ?2, notes = ?3, isDone = ?4, due = ?5 WHERE id = ?1")
    self.perIteration = perIteration
  }

  func run(_ iterations: Int) {
    for _ in 0..<iterations * perIteration {
      let edit = nextEdit()
      let edited = records[editedIndex(edit, size: records.count)].retitled(edit)
      update.bind(edited.id, at: 1)
      update.bind(edited.isDone ? 1 : 0, at: 4)
      update.bind(edited.due?.timeIntervalSinceReferenceDate, at: 5)
      update.withText(edited.title, at: 2) {
        update.withText(edited.notes, at: 3) { _ = update.step() }
      }
    }
  }
}

// MARK: - Memory

/// Opens the store in the measured run and keeps it until the batch ends.
@MainActor
final class StoreKept: Fixture {
  private let url: URL
  private let kind: StoreKind
  private var kept: Store<ToDoRecord>?

  init(size: Int, kind: StoreKind) {
    url = StoreFiles.store(size, kind)
    self.kind = kind
  }

  func run(_ iterations: Int) {
    kept = openStore(url, kind)
  }

  func finish() {
    kept = nil
  }
}

/// Reads the raw database into an array in the measured run and keeps the
/// array until the batch ends.
@MainActor
final class RawKept: Fixture {
  private let path: String
  private var kept: [ToDoRecord] = []

  init(size: Int) {
    path = StoreFiles.raw(size)
  }

  func run(_ iterations: Int) {
    kept = readAll(path)
  }

  func finish() {
    kept = []
  }
}

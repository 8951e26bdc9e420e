import Foundation
import POMVVM
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Database stores in processes of their own (`pomvvm-store-process`):
/// two editing at once, writers killed at random moments, and a full disk.
///
/// Each test does its blocking work (waiting for a child's answers) on a
/// thread of its own, and reads the database in a store on the main actor
/// afterwards.
@Suite("Store database across processes")
struct StoreDatabaseProcessTests {
  /// The built `pomvvm-store-process`, beside the test bundle.
  static let executable: URL? = {
    var directory = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
    for _ in 0..<5 {
      directory.deleteLastPathComponent()
      let candidate = directory.appendingPathComponent("pomvvm-store-process")
      if FileManager.default.isExecutableFile(atPath: candidate.path) {
        return candidate
      }
    }
    return nil
  }()

  /// A child process keeping a store of the database, driven line by line.
  final class Child: @unchecked Sendable {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private var buffer = Data()

    init(database: URL) throws {
      let executable = try #require(StoreDatabaseProcessTests.executable, "build the package first")
      process.executableURL = executable
      process.arguments = [database.path]
      process.standardInput = input
      process.standardOutput = output
      process.standardError = FileHandle.nullDevice
      try process.run()
    }

    deinit {
      if process.isRunning {
        kill(process.processIdentifier, SIGKILL)
      }
      process.waitUntilExit()
    }

    func send(_ line: String) {
      input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// The next line the child writes; `nil` once it has exited.
    func readLine() -> String? {
      while true {
        if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
          let line = String(decoding: buffer[..<newline], as: UTF8.self)
          buffer.removeSubrange(...newline)
          return line
        }
        let chunk = output.fileHandleForReading.availableData
        if chunk.isEmpty { return nil }
        buffer.append(chunk)
      }
    }

    /// Sends a command and returns the child's answer.
    func ask(_ line: String) -> String? {
      send(line)
      return readLine()
    }

    func quit() {
      send("quit")
      process.waitUntilExit()
    }
  }

  /// Runs blocking work on a thread of its own.
  static func blocking<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result)
    async throws -> Result
  {
    try await withCheckedThrowingContinuation { continuation in
      Thread { continuation.resume(with: Swift.Result { try body() }) }.start()
    }
  }

  static func directory() throws -> URL {
    let url = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-db-process-\(UInt64.random(in: 0...UInt64.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @MainActor
  static func create(_ url: URL, _ items: [ProcessItem]) throws {
    let store = try Store<ProcessItem>(database: url)
    store.items.append(contentsOf: items)
    store.flush()
  }

  @MainActor
  static func read(_ url: URL) throws -> [ProcessItem] {
    try Store<ProcessItem>(database: url).items.elements
  }

  /// Two processes edit different elements at once, each saving after
  /// every edit, and lose no edit.
  ///
  /// Then both edit the same element: the
  /// second save is refused as a conflict, and the first value stays. And
  /// a commit reaches the other process by itself, without `refresh()`.
  @Test
  func twoProcessesEditingAtOnceLoseNoEditAndReportConflicts() async throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("items.sqlite")
    try await MainActor.run {
      try Self.create(url, (1...20).map { ProcessItem(id: $0, title: "item \($0)") })
    }
    let answers = try await Self.blocking { () -> [String] in
      let first = try Child(database: url)
      let second = try Child(database: url)
      var answers: [String] = []
      for round in 1...30 {
        // Both children work at once: each has a command to run before
        // either answers is read.
        first.send("edit \(round % 10 * 2 + 1) first-\(round)")
        second.send("edit \(round % 10 * 2 + 2) second-\(round)")
        first.send("flush")
        second.send("flush")
        answers.append(first.readLine() ?? "exited")
        answers.append(second.readLine() ?? "exited")
      }
      answers.append(first.ask("refresh") ?? "exited")
      answers.append(second.ask("refresh") ?? "exited")
      // The same element, edited by both: the second save conflicts.
      first.send("edit 5 first-final")
      answers.append("first: " + (first.ask("flush") ?? "exited"))
      second.send("edit 5 second-final")
      answers.append("second: " + (second.ask("flush") ?? "exited"))
      // A commit arrives by itself in a process that waits for it.
      second.send("wait 2 arrived")
      first.send("edit 2 arrived")
      answers.append("first: " + (first.ask("flush") ?? "exited"))
      answers.append("second waited: " + (second.readLine() ?? "exited"))
      first.quit()
      second.quit()
      return answers
    }
    #expect(answers.prefix(62).allSatisfy { $0 == "saved" || $0 == "ok" }, "\(answers)")
    #expect(
      Array(answers.dropFirst(62)) == [
        "first: saved", "second: conflict", "first: saved", "second waited: ok",
      ])
    let items = try await MainActor.run { try Self.read(url) }
    let titles = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0.title) })
    for round in 21...30 {
      #expect(
        titles[round % 10 * 2 + 2] == (round % 10 * 2 + 2 == 2 ? "arrived" : "second-\(round)"))
      if round % 10 * 2 + 1 != 5 {
        #expect(titles[round % 10 * 2 + 1] == "first-\(round)")
      }
    }
    #expect(titles[5] == "first-final")
  }

  /// A writer killed (`SIGKILL`) at random moments leaves a database that
  /// is one of the states its changes went through, at least as new as the
  /// last one it had flushed: a committed prefix, never part of a burst.
  @Test
  func aWriterKilledAtRandomMomentsLeavesACommittedPrefix() async throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("items.sqlite")
    var current = (1...50).map { ProcessItem(id: $0, title: "item \($0)") }
    try await MainActor.run { [current] in try Self.create(url, current) }
    let base = UInt64.random(in: 0...UInt64.max / 2)
    var random = SplitMix64(seed: base)
    var kills = 0
    for round in 1...12 {
      let seed = base &+ UInt64(round)
      let pause = UInt32.random(in: 0...40_000, using: &random)
      let (lastStep, killed) = try await Self.blocking { () -> (Int, Bool) in
        let child = try Child(database: url)
        child.send("script \(seed) 600")
        var last = 0
        if let line = child.readLine(), line.hasPrefix("step ") {
          last = Int(line.dropFirst(5)) ?? 0
        }
        usleep(pause)
        let killed = child.process.isRunning
        kill(child.process.processIdentifier, SIGKILL)
        child.process.waitUntilExit()
        while let line = child.readLine() {
          if line.hasPrefix("step ") { last = Int(line.dropFirst(5)) ?? last }
        }
        return (last, killed)
      }
      if killed { kills += 1 }
      // Every state the script went through, from this round's start.
      var script = StoreScript(seed: seed, firstID: 1_000_000 * Int(seed % 1_000 + 1))
      var states = [current]
      for _ in 0..<600 {
        let step = script.next(for: states[states.count - 1])
        states.append(step.applied(to: states[states.count - 1]))
      }
      let reopened = try await MainActor.run { try Self.read(url) }
      let context = Comment(rawValue: "round \(round), seed \(seed), flushed step \(lastStep)")
      let index = states.lastIndex(of: reopened)
      #expect(index != nil, "not a state the writer went through; \(context)")
      if let index {
        #expect(index >= lastStep, "older than the last flushed step; \(context)")
      }
      current = reopened
    }
    #expect(kills > 0, "no writer was killed mid-run: the scripts are too short")
  }

  /// A file-size limit (`RLIMIT_FSIZE`, what a full disk looks like to a
  /// process) fails the save; the changes stay, and once the limit is
  /// lifted the next save writes them all.
  @Test(
    .disabled(
      if: ProcessInfo.processInfo.environment["POMVVM_SANITIZER"] == "thread",
      "ThreadSanitizer's runtime itself faults (SIGBUS) under a file-size limit"))
  func aFullDiskFailsTheSaveAndTheChangesAreWrittenOnceThereIsRoom() async throws {
    let directory = try Self.directory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("items.sqlite")
    let padding = String(repeating: "y", count: 1_000)
    let answers = try await Self.blocking { () -> [String] in
      let child = try Child(database: url)
      var answers: [String] = []
      child.send("append 1 first")
      answers.append(child.ask("flush") ?? "exited")
      child.send("limit 40000")
      for id in 2...101 {
        child.send("append \(id) \(padding)")
      }
      answers.append(child.ask("flush") ?? "exited")
      child.send("unlimit")
      answers.append(child.ask("flush") ?? "exited")
      child.quit()
      return answers
    }
    #expect(answers == ["saved", "unwritable", "saved"])
    let items = try await MainActor.run { try Self.read(url) }
    #expect(items.map(\.id) == Array(1...101))
  }
}

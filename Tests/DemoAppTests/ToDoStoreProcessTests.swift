import Foundation
import POMVVM
import TestSupport
import Testing
import ToDo

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The version a title carries: `v<number> …`.
private func version(of title: String) -> Int? {
  guard title.hasPrefix("v") else { return nil }
  return Int(title.dropFirst().prefix { $0 != " " })
}

/// The items of a to-do store file, in either of its shapes: the array of
/// items, or the object that keeps the id sequence beside them.
private func decodeItems(_ data: Data) throws -> [ToDoItem] {
  struct Sequenced: Decodable {
    var elements: [ToDoItem]
    var nextSequenceNumber: Int
  }
  if let sequenced = try? JSONDecoder().decode(Sequenced.self, from: data) {
    return sequenced.elements
  }
  return try JSONDecoder().decode([ToDoItem].self, from: data)
}

/// `pomvvm-demo` editing a store file in script mode, in a process of its
/// own: killed at random moments, and holding the file against a second
/// store.
@Suite("To-do store across processes")
struct ToDoStoreProcessTests {
  /// A child process that saves the store after every command, killed at
  /// random moments after its first save, never leaves a torn store.
  ///
  /// The kill is `SIGKILL`, which no handler sees. The file is always a complete store — the one before the child started, or a newer
  /// one — never torn, empty or missing, and killed saves leave no
  /// temporary files behind once a store opens the file again.
  @Test func aStoreEditedByAProcessKilledAtRandomMomentsIsAlwaysComplete() async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-kill-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    let padding = String(repeating: "x", count: 3_000)
    // Ten items of about 3 kB each: a save writes some 30 kB.
    let initial = (1...10).map { ToDoItem(id: $0, title: "v0 \(padding)") }
    try JSONEncoder().encode(initial).write(to: url)

    var newest = 0
    var previous = try Data(contentsOf: url)
    var kills = 0
    for round in 1...24 {
      // Every title names its version; versions grow through the run.
      var script = ""
      for step in 0..<200 {
        let version = round * 1_000 + step
        let length = Int.random(in: 0...padding.count, using: &random)
        script += "open \(step % 10 + 1)\ntitle v\(version) \(padding.prefix(length))\nback\n"
      }
      let scriptFile = directory.appendingPathComponent("script-\(round).txt")
      try script.write(to: scriptFile, atomically: false, encoding: .utf8)

      let pause = UInt32.random(in: 0...120_000, using: &random)
      let before = previous
      let killed = try await blocking {
        let child = Process()
        child.executableURL = executable
        child.arguments = ["todo", "--script", "--quiet", "--store", url.path]
        child.standardInput = try FileHandle(forReadingFrom: scriptFile)
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        // The moment is counted from the child's first save of the round:
        // how long it takes to start and save depends on the machine's
        // load (under a sanitizer on a busy machine, longer than the
        // longest pause), and a kill before it tests nothing.
        let started = Date()
        while child.isRunning, (try? Data(contentsOf: url)) == before,
          Date().timeIntervalSince(started) < 60
        {
          usleep(500)
        }
        usleep(pause)
        let isRunning = child.isRunning
        if isRunning {
          kill(child.processIdentifier, SIGKILL)
        }
        child.waitUntilExit()
        return isRunning
      }
      if killed {
        kills += 1
      }

      let context = Comment(rawValue: "round \(round), seed \(seed)")
      let data = try Data(contentsOf: url)
      let items = try #require(
        try? decodeItems(data),
        "not a complete store file (\(data.count) bytes); \(context)")
      #expect(items.map(\.id) == Array(1...10), context)
      let versions = items.compactMap { version(of: $0.title) }
      #expect(versions.count == 10, context)
      let latest = versions.max() ?? 0
      #expect(
        latest > newest || (latest == newest && data == previous),
        "older than the store before this round; \(context)")
      newest = latest
      previous = data
    }
    #expect(kills > 0, "no child was killed mid-run: the rounds are too short")
    #expect(newest > 0, "no child saved anything: the kills came too early")

    // A store that opens the file removes what the killed saves left.
    _ = try await MainActor.run { try Store.toDoList(contentsOf: url).items.count }
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { !$0.hasPrefix("script-") }
    #expect(left == ["todo.json"])
  }

  /// A second `pomvvm-demo` on the same file would overwrite the first
  /// one's changes; the store refuses it while the first has it open.
  @Test func aStoreFileOpenInAnotherProcessIsRefused() async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-lock-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")

    let input = Pipe()
    let child = Process()
    child.executableURL = executable
    child.arguments = ["todo", "--script", "--quiet", "--store", url.path]
    child.standardInput = input
    child.standardOutput = FileHandle.nullDevice
    child.standardError = FileHandle.nullDevice
    try child.run()
    defer {
      if child.isRunning { kill(child.processIdentifier, SIGKILL) }
      child.waitUntilExit()
    }
    // The child creates the file with its two sample items, locked before
    // it is in place; then it waits for commands.
    let deadline = ContinuousClock.now + .seconds(20)
    while !FileManager.default.fileExists(atPath: url.path) && child.isRunning
      && ContinuousClock.now < deadline
    {
      try await Task.sleep(for: .milliseconds(5))
    }
    try #require(FileManager.default.fileExists(atPath: url.path), "the child made no file")
    _ = await MainActor.run {
      #expect(
        throws: StoreError(
          .inUse, path: url.path,
          reason: "another store has it open, in this process or another; close that one first")
      ) { _ = try Store<ToDoItem>(contentsOf: url) }
    }
    input.fileHandleForWriting.write(Data("add\nquit\n".utf8))
    try input.fileHandleForWriting.close()
    try await blocking { child.waitUntilExit() }
    #expect(child.terminationStatus == 0)
    let count = try await MainActor.run { try Store<ToDoItem>(contentsOf: url).items.count }
    #expect(count == 3)
  }

  /// `SIGTERM` ends an interactive `pomvvm-demo` with a change whose
  /// background save has not run yet; the app writes it before it dies.
  ///
  /// The app runs on a pseudo-terminal; the signal follows as soon as the
  /// screen shows the new item, well inside the save's delay.
  @Test(arguments: [SIGTERM, SIGINT])
  func aTerminatingSignalWritesTheChangesNotSavedYet(signal: Int32) async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-signal-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")

    let (master, terminalPath) = try #require(openPseudoTerminal())
    defer { close(master) }
    let terminal = try #require(FileHandle(forUpdatingAtPath: terminalPath))
    let child = Process()
    child.executableURL = executable
    child.arguments = ["todo", "--store", url.path]
    child.standardInput = terminal
    child.standardOutput = terminal
    child.standardError = FileHandle.nullDevice
    try child.run()
    try terminal.close()
    defer {
      if child.isRunning { kill(child.processIdentifier, SIGKILL) }
      child.waitUntilExit()
    }

    try #require(await blocking { readScreen(of: master, until: "To-do (2 of 10") })
    _ = write(master, "a", 1)
    try #require(await blocking { readScreen(of: master, until: "To-do (3 of 10") })
    kill(child.processIdentifier, signal)
    try await blocking { child.waitUntilExit() }
    #expect(child.terminationReason == .uncaughtSignal)
    #expect(child.terminationStatus == signal)
    let items = try decodeItems(Data(contentsOf: url))
    #expect(items.map(\.title) == ["ToDo Item 1", "ToDo Item 2", "ToDo Item 3"])
  }

  /// A file that another program rewrites in place (as `echo … > file`
  /// does) while `pomvvm-demo` has it open is never saved over: the command
  /// whose save is refused fails with an `error:` line, and the other
  /// program's contents stay.
  @Test func aStoreFileRewrittenInPlaceByAnotherProgramIsNotOverwritten() async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-inplace-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    try Data(#"[{"id":1,"title":"mine"}]"#.utf8).write(to: url)

    let input = Pipe()
    let errors = Pipe()
    let child = Process()
    child.executableURL = executable
    child.arguments = ["todo", "--script", "--quiet", "--store", url.path]
    child.standardInput = input
    child.standardOutput = FileHandle.nullDevice
    child.standardError = errors
    try child.run()
    defer {
      if child.isRunning { kill(child.processIdentifier, SIGKILL) }
      child.waitUntilExit()
    }
    input.fileHandleForWriting.write(Data("add one\n".utf8))
    let deadline = ContinuousClock.now + .seconds(20)
    while !(try String(decoding: Data(contentsOf: url), as: UTF8.self)).contains("one")
      && ContinuousClock.now < deadline
    {
      try await Task.sleep(for: .milliseconds(5))
    }
    let external = #"[{"id":7,"title":"EXTERNAL-INPLACE"}]"#
    let handle = try FileHandle(forUpdating: url)
    try handle.truncate(atOffset: 0)
    try handle.write(contentsOf: Data(external.utf8))
    try handle.close()

    input.fileHandleForWriting.write(Data("add two\n".utf8))
    try input.fileHandleForWriting.close()
    let message = try await blocking { () -> Data in
      let message = errors.fileHandleForReading.readDataToEndOfFile()
      child.waitUntilExit()
      return message
    }
    #expect(child.terminationStatus == 1)
    #expect(
      String(decoding: message, as: UTF8.self)
        == "error: the change was made but not saved: cannot save \(url.path): another program "
        + "changed its contents after this store saved it; neither its contents nor this store's "
        + "changes were lost: the file was left as it is, and the changes stay in memory\n")
    #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self) == external)
  }

  /// A field that this version does not know (a newer version wrote it)
  /// would be lost by the next save: `pomvvm-demo` refuses the file and
  /// names the field.
  @Test func aStoreFileWithAFieldThisVersionDoesNotKnowIsRefused() async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-fields-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let contents = #"[{"id":1,"title":"a","done":true}]"#
    try Data(contents.utf8).write(to: url)

    let run = try await runDemoProcess(
      executable, arguments: ["todo", "--script", "--store", url.path], input: Data("add z\n".utf8))
    #expect(run.status == 1)
    #expect(
      String(decoding: run.error, as: UTF8.self)
        == "error: cannot read \(url.path): it is not a valid store file (element 1 (id 1) has the "
        + "field 'done', which this version does not know, and saving would drop it; open it "
        + "with the version that wrote it); the file was left untouched\n")
    #expect(run.output.isEmpty)
    #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self) == contents)
  }

  /// Past a file-size limit, a save fails like one on a full disk: the
  /// file untouched, no temporary file left, the change kept in memory and
  /// the save's error shown — rather than `SIGXFSZ` killing the app.
  @Test(
    .disabled(
      if: ProcessInfo.processInfo.environment["POMVVM_SANITIZER"] == "thread",
      "ThreadSanitizer's runtime itself faults (SIGBUS) under a file-size limit"))
  func aSavePastTheFileSizeLimitFailsLikeAFullDisk() async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-fsize-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let contents = #"[{"id":1,"title":"a"}]"#
    try Data(contents.utf8).write(to: url)

    // `ulimit -f 1` allows 512 or 1,024 bytes, depending on the shell.
    let title = String(repeating: "x", count: 3_000)
    let run = try await runDemoProcess(
      URL(fileURLWithPath: "/bin/sh"),
      arguments: [
        "-c", #"ulimit -f 1 && exec "$0" todo --script --quiet --store "$1""#, executable.path,
        url.path,
      ],
      input: Data("add \(title)\nrender\n".utf8))
    #expect(run.status == 1)
    #expect(
      String(decoding: run.error, as: UTF8.self)
        == "error: the change was made but not saved: cannot save \(url.path): writing it "
        + "failed: File too large; the file on disk was not changed\n")
    #expect(String(decoding: run.output, as: UTF8.self).contains("2. \(title.prefix(40))"))
    #expect(String(decoding: try Data(contentsOf: url), as: UTF8.self) == contents)
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["todo.json"])
  }

  /// A store file with a second name (a hard link) is refused: a save would
  /// replace one name only, and a second `pomvvm-demo` opened through the
  /// other would not be refused.
  @Test func aStoreFileWithTwoHardLinksIsRefused() async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-links-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let contents = #"[{"id":1,"title":"a"}]"#
    try Data(contents.utf8).write(to: url)
    let other = directory.appendingPathComponent("other.json")
    #expect(link(url.path, other.path) == 0)

    for path in [url.path, other.path] {
      let run = try await runDemoProcess(
        executable, arguments: ["todo", "--script", "--store", path], input: Data("add b\n".utf8))
      #expect(run.status == 1)
      #expect(
        String(decoding: run.error, as: UTF8.self)
          == "error: cannot use \(path): it has 2 hard links, and a save replaces the file by "
          + "renaming a new one over this name only, which would split it from the others; give "
          + "it a single name; the file was left untouched\n")
    }
    #expect(String(decoding: try Data(contentsOf: other), as: UTF8.self) == contents)
  }
}

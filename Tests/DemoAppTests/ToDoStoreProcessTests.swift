import DemoApp
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

/// The items of the to-do list that `--store url` keeps, read from its
/// database by a store of this process.
@MainActor
private func savedItems(_ url: URL) throws -> [ToDoItem] {
  Array(try Store<ToDoItem>(database: ToDoFeature.storeFiles(for: url).database).items)
}

/// The size and modification time of a file and its write-ahead log: they
/// change when a commit is written.
private func fingerprint(_ database: URL) -> [Int] {
  [database.path, database.path + "-wal"].flatMap { path -> [Int] in
    var status = stat()
    guard stat(path, &status) == 0 else { return [-1] }
    return [Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec)]
  }
}

/// `pomvvm-demo` keeping its list in a database, in a process of its own:
/// killed at random moments, sharing the database with another process,
/// and moving a JSON store file into it.
@Suite("To-do store across processes")
struct ToDoStoreProcessTests {
  /// A child process that saves the store after every command, killed at
  /// random moments after its first save, never leaves a torn store.
  ///
  /// The kill is `SIGKILL`, which no handler sees. The first child moves
  /// a JSON store file into the database; the database is then always a
  /// complete list — the one before the child started, or a newer one —
  /// never torn or older, and the JSON file stays as it was.
  @Test func aStoreEditedByAProcessKilledAtRandomMomentsIsAlwaysComplete() async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-kill-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.json")
    let database = ToDoFeature.storeFiles(for: url).database
    let seed = UInt64.random(in: 0...UInt64.max)
    var random = SplitMix64(seed: seed)
    let padding = String(repeating: "x", count: 3_000)
    // Ten items of about 3 kB each.
    let initial = (1...10).map { ToDoItem(id: $0, title: "v0 \(padding)") }
    let json = try JSONEncoder().encode(initial)
    try json.write(to: url)

    var newest = 0
    var previous = initial
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
      let before = fingerprint(database)
      let killed = try await blocking {
        let child = Process()
        child.executableURL = executable
        child.arguments = ["todo", "--script", "--quiet", "--store", url.path]
        child.standardInput = try FileHandle(forReadingFrom: scriptFile)
        child.standardOutput = FileHandle.nullDevice
        child.standardError = FileHandle.nullDevice
        try child.run()
        // The moment is counted from the child's first commit of the
        // round: how long it takes to start depends on the machine's load,
        // and a kill before it tests nothing.
        let started = Date()
        while child.isRunning, fingerprint(database) == before,
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
      let items = try await MainActor.run { try savedItems(url) }
      #expect(items.map(\.id) == Array(1...10), context)
      let versions = items.compactMap { version(of: $0.title) }
      #expect(versions.count == 10, context)
      let latest = versions.max() ?? 0
      #expect(
        latest > newest || (latest == newest && items == previous),
        "older than the store before this round; \(context)")
      newest = latest
      previous = items
    }
    #expect(kills > 0, "no child was killed mid-run: the rounds are too short")
    #expect(newest > 0, "no child saved anything: the kills came too early")
    #expect(try Data(contentsOf: url) == json, "the JSON file was moved, not changed")
  }

  /// Two processes keep the same database open: what one saves reaches
  /// the other's list, both ways — here `pomvvm-demo` in script mode, where
  /// every command takes in what other processes saved (`refresh` alone
  /// does just that), and a store of this process.
  @Test func twoProcessesOnOneDatabaseSeeEachOthersChanges() async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-shared-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.sqlite")
    // The database exists before the child starts, so that the two do not
    // make it at once.
    let store = try await MainActor.run {
      let store = try Store<ToDoItem>(database: url)
      store.items.append(contentsOf: [ToDoItem(id: 1, title: "one"), ToDoItem(id: 2, title: "two")])
      store.flush()
      return store
    }

    let input = Pipe()
    let output = Pipe()
    let child = Process()
    child.executableURL = executable
    child.arguments = ["todo", "--script", "--quiet", "--store", url.path]
    child.standardInput = input
    child.standardOutput = output
    child.standardError = FileHandle.nullDevice
    try child.run()
    defer {
      if child.isRunning { kill(child.processIdentifier, SIGKILL) }
      child.waitUntilExit()
    }
    // The child adds an item; this process's store sees it arrive.
    input.fileHandleForWriting.write(Data("add from the child\n".utf8))
    let deadline = ContinuousClock.now + .seconds(20)
    while await MainActor.run(body: { store.items.count < 3 }) && ContinuousClock.now < deadline {
      await store.refresh()
    }
    let titles = await MainActor.run { store.items.map(\.title) }
    #expect(titles == ["one", "two", "from the child"])
    await MainActor.run {
      store.items.append(ToDoItem(id: 100, title: "from the test"))
      store.items.remove(at: 0)
      store.flush()
      #expect(store.saveError.value == nil)
    }

    input.fileHandleForWriting.write(Data("refresh\nrender\nadd after both\nquit\n".utf8))
    try input.fileHandleForWriting.close()
    let reading = output.fileHandleForReading.fileDescriptor
    let second = try await blocking { () -> String in
      let text = readOutput(of: reading, until: "\u{0}")
      child.waitUntilExit()
      return text
    }
    #expect(child.terminationStatus == 0)
    #expect(
      second == """
        To-do (3 of 10, add: enabled)
          1. two
          2. from the child
          3. from the test
        Last change: remove [0], insert [2]

        """)
    await store.refresh()
    let after = await MainActor.run { store.items.map(\.title) }
    #expect(after == ["two", "from the child", "from the test", "after both"])
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
    let items = try await MainActor.run { try savedItems(url) }
    #expect(items.map(\.title) == ["ToDo Item 1", "ToDo Item 2", "ToDo Item 3"])
  }

  /// An item that another process changed since this one last read it is
  /// never saved over: the command whose save is refused fails with the
  /// store's conflict error, and the other process's value stays.
  ///
  /// The child reads its commands from a pipe, so it takes in other
  /// processes' commits between commands only: the test's change to item
  /// 1 lands after `open 1` and before `title ours`.
  @Test func anItemAnotherProcessChangedIsNotSavedOver() async throws {
    let executable = try #require(demoExecutable, "build pomvvm-demo first")
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-conflict-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let url = directory.appendingPathComponent("todo.sqlite")
    let store = try await MainActor.run {
      let store = try Store<ToDoItem>(database: url)
      store.items.append(ToDoItem(id: 1, title: "mine"))
      store.flush()
      return store
    }

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
    // An unknown command's error line says when `open 1` is done.
    input.fileHandleForWriting.write(Data("open 1\nsync\n".utf8))
    let reading = errors.fileHandleForReading.fileDescriptor
    let refused = try await blocking { readOutput(of: reading, until: "\n") }
    try #require(refused.hasPrefix("error: unknown command 'sync'"), "\(refused)")
    await MainActor.run {
      store.items.update(ToDoItem(id: 1, title: "theirs"))
      store.flush()
    }

    input.fileHandleForWriting.write(Data("title ours\n".utf8))
    try input.fileHandleForWriting.close()
    let text = try await blocking { () -> String in
      let text = readOutput(of: reading, until: "\u{0}")
      child.waitUntilExit()
      return text
    }
    #expect(child.terminationStatus == 1)
    let conflict = StoreError(.conflict, path: url.path, reason: "")
    #expect(text.hasPrefix("error: the change was made but not saved: cannot save \(url.path): "))
    #expect(text.hasSuffix(conflict.description.components(separatedBy: "; ").last! + "\n"))
    #expect(try await MainActor.run { try savedItems(url).map(\.title) } == ["theirs"])
  }

  /// A field that this version does not know (a newer version wrote it)
  /// would be lost: `pomvvm-demo` refuses to move the JSON file into a
  /// database, names the field, and makes no database.
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
    #expect(
      try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["todo.json"],
      "no database was made of it")
  }

  /// Past a file-size limit, a save fails like one on a full disk: the
  /// database keeps what it held, the change is kept in memory and the
  /// save's error shown — rather than `SIGXFSZ` killing the app.
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
    let url = directory.appendingPathComponent("todo.sqlite")
    try await MainActor.run {
      let store = try Store<ToDoItem>(database: url)
      store.items.append(ToDoItem(id: 1, title: "a"))
      store.flush()
    }

    // `ulimit -f 256` allows 128 or 256 kB, depending on the shell: room
    // for the database and its shared-memory index, not for this title.
    let title = String(repeating: "x", count: 600_000)
    let run = try await runDemoProcess(
      URL(fileURLWithPath: "/bin/sh"),
      arguments: [
        "-c", #"ulimit -f 256 && exec "$0" todo --script --quiet --store "$1""#, executable.path,
        url.path,
      ],
      input: Data("add \(title)\nrender\n".utf8))
    #expect(run.status == 1)
    let error = String(decoding: run.error, as: UTF8.self)
    #expect(
      error.hasPrefix("error: the change was made but not saved: cannot save \(url.path): ")
        && error.hasSuffix("; the file on disk was not changed\n"), "\(error)")
    #expect(String(decoding: run.output, as: UTF8.self).contains("2. \(title.prefix(40))"))
    #expect(try await MainActor.run { try savedItems(url).map(\.title) } == ["a"])
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

// A process that keeps a database store, for the store's process tests: it
// reads commands from standard input, one a line, and answers each on
// standard output.
//
//   pomvvm-store-process DATABASE
//   pomvvm-store-process --bench      (figures of the store; build in release)
//   pomvvm-store-process flush-moving-main-actor file|database PATH
//                                     (flush() while the main actor changes
//                                     threads: FlushMovingMainActor.swift)
//
// Commands:
//   edit ID TITLE          sets the title of the item with that id
//   append ID TITLE        appends an item
//   remove ID              removes the item with that id
//   flush                  saves; answers "saved" or the error's kind
//   refresh                takes in other processes' commits; answers "ok"
//   wait ID TITLE          waits until the item has that title (by itself,
//                          without refresh); answers "ok"
//   limit BYTES            limits the size of files it writes (RLIMIT_FSIZE)
//   unlimit                lifts that limit
//   script SEED STEPS      makes STEPS random changes (StoreScript), and
//                          after each one that is followed by a flush,
//                          answers "step N"
//   dump                   answers the items, as id=title,…
//   quit
import Foundation
import POMVVM
import TestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

signal(SIGXFSZ, SIG_IGN)

/// Writes a line to standard output at once (unbuffered).
func answer(_ text: String) {
  FileHandle.standardOutput.write(Data((text + "\n").utf8))
}

if CommandLine.arguments.dropFirst().first == "--bench" {
  try Bench.run()
  exit(0)
}
if CommandLine.arguments.dropFirst().first == "flush-moving-main-actor" {
  exit(await FlushMovingMainActor.run(Array(CommandLine.arguments.dropFirst(2))))
}
guard CommandLine.arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: pomvvm-store-process DATABASE\n".utf8))
  exit(2)
}
let store: Store<ProcessItem>
do {
  store = try Store<ProcessItem>(database: URL(fileURLWithPath: CommandLine.arguments[1]))
} catch {
  answer("error \(error)")
  exit(1)
}

func setLimit(_ bytes: rlim_t) {
  var limit = rlimit()
  getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
  limit.rlim_cur = min(bytes, limit.rlim_max)
  setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit)
}

while let line = readLine() {
  let words = line.split(separator: " ", maxSplits: 2).map(String.init)
  guard let command = words.first else { continue }
  switch command {
  case "edit" where words.count == 3:
    if let id = Int(words[1]) { store.items.cell(for: id, \.title)?.value = words[2] }
  case "append" where words.count == 3:
    if let id = Int(words[1]) { store.items.append(ProcessItem(id: id, title: words[2])) }
  case "remove" where words.count == 2:
    if let id = Int(words[1]) { _ = store.items.remove(id: id) }
  case "flush":
    store.flush()
    answer(store.saveError.value.map { "\($0.kind)" } ?? "saved")
  case "refresh":
    await store.refresh()
    answer("ok")
  case "wait" where words.count == 3:
    if let id = Int(words[1]) {
      let title = words[2]
      if store.items[id: id]?.title != title {
        var subscription: Subscription?
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          var isWaiting = true
          subscription = store.items.observeChanges { _ in
            if isWaiting && store.items[id: id]?.title == title {
              isWaiting = false
              continuation.resume()
            }
          }
        }
        subscription?.cancel()
      }
      answer("ok")
    }
  case "limit" where words.count == 2:
    setLimit(rlim_t(words[1]) ?? 0)
  case "unlimit":
    setLimit(rlim_t.max)
  case "script" where words.count == 3:
    guard let seed = UInt64(words[1]), let steps = Int(words[2]) else { break }
    var script = StoreScript(seed: seed, firstID: 1_000_000 * Int(seed % 1_000 + 1))
    for step in 1...max(steps, 1) {
      switch script.next(for: store.items.elements) {
      case .insert(let item, let index): store.items.insert(item, at: index)
      case .remove(let index): store.items.remove(at: index)
      case .move(let from, let to): store.items.move(from: from, to: to)
      case .edit(let index, let title):
        store.items.cell(for: store.items[index].id, \.title)?.value = title
      }
      if step % 3 == 0 {
        store.flush()
        answer("step \(step)")
      }
    }
  case "dump":
    answer(store.items.map { "\($0.id)=\($0.title)" }.joined(separator: ","))
  case "thread":
    answer(Thread.isMainThread ? "main" : "other")
  case "quit":
    store.flush()
    exit(0)
  default:
    answer("unknown command: \(line)")
  }
}
store.flush()

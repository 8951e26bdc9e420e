import DemoApp
import Foundation
import POMVVM
import POMVVMTesting
import Testing
import ToDo

@MainActor
@Suite("Save status")
struct SaveStatusViewTests {
  /// Each mutation makes the store's file read-only, or writable again, and
  /// then adds an item and waits for its save: the save fails or succeeds
  /// in turn, so the view's line comes and goes.
  @Test func theSaveStatusViewRebindsCleanly() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("pomvvm-save-status-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    var stores = 0
    checkBindableView(
      SaveStatusView.init,
      viewModels: {
        stores += 1
        let url = directory.appendingPathComponent("\(stores).json")
        do {
          try Data("[]".utf8).write(to: url)
          return ToDoListViewModel(store: try Store(contentsOf: url))
        } catch {
          fatalError("test fixture: \(error)")
        }
      },
      rendering: { $0.lines },
      expected: { list in list.store.saveError.value.map { ["Save failed: \($0)"] } ?? [] },
      mutate: { list in
        guard let url = list.store.fileURL else { return }
        let permissions = list.store.saveError.value == nil ? 0o444 : 0o644
        try? FileManager.default.setAttributes(
          [.posixPermissions: permissions], ofItemAtPath: url.path)
        _ = Diagnostics.capturing {
          _ = try? list.add()
          list.store.flush()
        }
      },
      releasing: { [$0, $0.store, $0.store.items, $0.store.saveError] })
  }

  @Test func theLineShowsOnlyWhileSavesFail() {
    let view = SaveStatusView()
    let list = ToDoListViewModel(store: Store())
    view.bind(to: list)
    #expect(view.lines == [])
    list.store.saveError.value = StoreError(.unwritable, path: "/x/todo.json", reason: "disk full")
    #expect(
      view.lines == [
        "Save failed: cannot save /x/todo.json: disk full; the file on disk was not changed"
      ])
    list.store.saveError.value = nil
    #expect(view.lines == [])
  }
}

import DemoApp
import Foundation
import POMVVM
import POMVVMTesting
import Testing
import ToDo

@MainActor
@Suite("Save status")
struct SaveStatusViewTests {
  /// Each mutation puts a directory in the way of the store's next save, or
  /// takes it away, and then adds an item: the save fails or succeeds in
  /// turn, so the view's line comes and goes.
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
          return ToDoListViewModel(store: try Store(contentsOf: url))
        } catch {
          fatalError("test fixture: \(error)")
        }
      },
      rendering: { $0.lines },
      expected: { list in list.store.saveError.value.map { ["Save failed: \($0)"] } ?? [] },
      mutate: { list in
        guard let url = list.store.fileURL else { return }
        let inTheWay = url.deletingLastPathComponent()
          .appendingPathComponent(".\(url.lastPathComponent).saving")
        if FileManager.default.fileExists(atPath: inTheWay.path) {
          try? FileManager.default.removeItem(at: inTheWay)
        } else {
          try? FileManager.default.createDirectory(at: inTheWay, withIntermediateDirectories: false)
        }
        _ = Diagnostics.capturing { _ = try? list.add() }
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

import Foundation
import POMVVM
import Testing

@MainActor
@Suite("StackPath routes")
struct StackPathRoutesTests {
  struct Item: Identifiable, Equatable {
    var id: Int
    var text: String
  }

  enum Route: Codable, Equatable {
    case detail(itemID: Int)
    case history(itemID: Int)
  }

  enum Screen {
    case detail(ElementCell<Item>)
    case history(ElementCell<Item>)
    case transient

    @MainActor var route: Route? {
      switch self {
      case .detail(let cell): .detail(itemID: cell.id)
      case .history(let cell): .history(itemID: cell.id)
      case .transient: nil
      }
    }
  }

  private func screen(for route: Route, in items: ObservableArray<Item>) -> Screen? {
    switch route {
    case .detail(let id): items.cell(for: id).map(Screen.detail)
    case .history(let id): items.cell(for: id).map(Screen.history)
    }
  }

  @Test func aStackSavedAsRoutesIsRebuilt() throws {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 42, text: "b")])
    let path = StackPath<Screen>()
    path.push(.detail(items.cell(for: 42)!))
    path.push(.history(items.cell(for: 42)!))
    path.push(.transient)
    let saved = try JSONEncoder().encode(path.routes(\.route))

    let restored = StackPath<Screen>()
    let routes = try JSONDecoder().decode([Route].self, from: saved)
    #expect(routes == [.detail(itemID: 42), .history(itemID: 42)])
    let dropped = restored.restore(routes) { screen(for: $0, in: items) }
    #expect(dropped.isEmpty)
    #expect(restored.routes(\.route) == routes)
  }

  @Test func aRouteWhoseElementIsGoneIsDroppedAndTheRestKept() {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 3, text: "c")])
    let path = StackPath<Screen>([.transient])
    var told = 0
    let subscription = path.observeChanges { _ in told += 1 }
    var dropped: [Route] = []
    let reports = Diagnostics.capturingReports {
      dropped = path.restore([.detail(itemID: 1), .detail(itemID: 2), .history(itemID: 3)]) {
        screen(for: $0, in: items)
      }
    }
    #expect(dropped == [.detail(itemID: 2)])
    #expect(path.routes(\.route) == [.detail(itemID: 1), .history(itemID: 3)])
    #expect(told == 1)
    #expect(reports.count == 1)
    #expect(reports.first?.message.contains("detail(itemID: 2)") == true)
    #expect(reports.first?.fileID.hasSuffix("StackPath+RoutesTests.swift") == true)
    withExtendedLifetime(subscription) {}
  }
}

import POMVVM
import POMVVMTesting
import Testing

@MainActor
@Suite("StackPath tied to an element")
struct StackPathElementTests {
  struct Item: Identifiable, Equatable, Codable {
    var id: Int
    var text: String
  }

  final class Detail: ViewModel, Dismissible {
    let item: ElementCell<Item>
    init(item: ElementCell<Item>) { self.item = item }
  }

  enum Screen {
    case list
    case detail(Detail)
  }

  @discardableResult
  private func open(_ id: Int, in items: ObservableArray<Item>, on path: StackPath<Screen>)
    -> StackPath<Screen>.ID?
  {
    guard let cell = items.cell(for: id) else { return nil }
    return path.push(.detail(Detail(item: cell)), tiedTo: cell)
  }

  /// The README's example.
  @Test func readmeExample() {
    let items = ObservableArray([Item(id: 1, text: "milk"), Item(id: 2, text: "eggs")])
    let path = StackPath<Screen>()
    let navigation = HeadlessNavigationStack(path)  // stands in for UINavigationController
    for id in [1, 2] {
      let item = items.cell(for: id)!
      path.push(.detail(Detail(item: item)), tiedTo: item)
    }
    navigation.userPop()  // the user taps Back
    #expect(path.count == 1)
    items.remove(id: 1)  // deleted elsewhere: its detail leaves
    #expect(path.isEmpty && navigation.shown == path.ids)
  }

  @Test func removedByAnotherScreenTheDetailLeaves() {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 2, text: "b")])
    let path = StackPath<Screen>([.list])
    let navigation = HeadlessNavigationStack(path)
    weak var detail: Detail?
    if let id = open(1, in: items, on: path), case .detail(let shown) = path[id: id] {
      detail = shown
    }
    #expect(path.count == 2 && detail != nil)
    items.remove(id: 1)
    #expect(path.count == 1)
    #expect(detail == nil, "the popped detail is released")
    #expect(navigation.shown == path.ids && navigation.violations.isEmpty)
  }

  @Test func removedByReplaceAllTheDetailAndWhatIsAboveLeave() {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 2, text: "b")])
    let path = StackPath<Screen>([.list])
    open(1, in: items, on: path)
    open(2, in: items, on: path)
    items.replaceAll(with: [Item(id: 2, text: "b"), Item(id: 3, text: "c")])
    #expect(path.count == 1, "detail 2 was above detail 1")
  }

  @Test func aScreenHoldingOnlyTheIdStillFollowsItsElement() {
    let items = ObservableArray([Item(id: 1, text: "a")])
    let path = StackPath<Int>()
    path.push(1, tiedTo: items.cell(for: 1)!)
    items.remove(id: 1)
    #expect(path.isEmpty)
  }

  @Test func anUnrelatedChangeKeepsTheDetail() {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 2, text: "b")])
    let path = StackPath<Screen>()
    open(1, in: items, on: path)
    items.remove(id: 2)
    items.replaceAll(with: [Item(id: 1, text: "edited")])
    #expect(path.count == 1)
  }

  @Test func removedByUndoThenRedoDoesNotResurrectTheDetail() {
    let items = ObservableArray<Item>([])
    let history = UndoHistory(clock: ManualClock())
    history.track(items)
    items.append(Item(id: 7, text: "new"))
    let path = StackPath<Screen>()
    let id = open(7, in: items, on: path)
    #expect(id != nil && path.count == 1)
    #expect(history.undo())
    #expect(items.isEmpty)
    #expect(path.isEmpty, "the undo removed the element: its detail left")
    #expect(history.redo())
    #expect(items.count == 1)
    #expect(path.isEmpty, "the redo put the element back, not the screen")
    #expect(open(7, in: items, on: path) != nil, "the app can open the new element")
  }

  @Test func keptShownAsDeletedStaysAndSaysSo() {
    let items = ObservableArray([Item(id: 1, text: "a")])
    let path = StackPath<Screen>()
    let cell = items.cell(for: 1)!
    let id = path.push(.detail(Detail(item: cell)), tiedTo: cell, whenRemoved: .keepShownAsDeleted)!
    var told = 0
    let subscription = path.observeChanges { _ in told += 1 }
    #expect(path.isShownAsDeleted(id) == false)
    items.remove(id: 1)
    #expect(path.count == 1)
    #expect(path.isShownAsDeleted(id))
    #expect(told == 1, "observers are told so the screen can show it")
    _ = Diagnostics.capturing { #expect(cell.set(Item(id: 1, text: "ghost")) == false) }
    path.pop()
    #expect(path.isShownAsDeleted(id) == false)
    withExtendedLifetime(subscription) {}
  }

  @Test func pushingTiedToARemovedElementIsRefusedAndReported() {
    let items = ObservableArray([Item(id: 1, text: "a")])
    let cell = items.cell(for: 1)!
    items.remove(id: 1)
    let path = StackPath<Screen>()
    var id: StackPath<Screen>.ID?
    let reports = Diagnostics.capturing {
      id = path.push(.detail(Detail(item: cell)), tiedTo: cell)
    }
    #expect(id == nil && path.isEmpty)
    #expect(reports.count == 1)
    #expect(reports.first?.contains("push refused") == true)
  }

  @Test func aDetailPoppedFirstIsNotPoppedAgainByItsElement() {
    let items = ObservableArray([Item(id: 1, text: "a")])
    let path = StackPath<Screen>()
    let first = open(1, in: items, on: path)!
    path.pop()
    path.push(.list)
    var told = 0
    let subscription = path.observeChanges { _ in told += 1 }
    items.remove(id: 1)
    #expect(told == 0 && path.count == 1)
    #expect(path[id: first] == nil)
    withExtendedLifetime(subscription) {}
  }

  @Test func theDetailDismissesItselfWhenTheUserDeletesFromIt() {
    let items = ObservableArray([Item(id: 1, text: "a")])
    let path = StackPath<Screen>([.list])
    let id = open(1, in: items, on: path)!
    guard case .detail(let detail) = path[id: id] else {
      Issue.record("no detail")
      return
    }
    // The detail deletes its own element: the tie pops it; a dismiss()
    // after that finds nothing to close and says so.
    items.remove(id: detail.item.id)
    #expect(path.count == 1)
    let reports = Diagnostics.capturing { #expect(detail.dismiss() == false) }
    #expect(reports.count == 1)
  }
  // MARK: - A tie made while the element is being removed (issue 49, item 2)

  @Test(arguments: [ElementRemovalPolicy.pop, .keepShownAsDeleted])
  func anObserverThatRemovesTheElementDuringThePushIsFollowed(policy: ElementRemovalPolicy) {
    let items = ObservableArray([Item(id: 1, text: "read"), Item(id: 2, text: "b")])
    let path = StackPath<Screen>([.list])
    let navigation = HeadlessNavigationStack(path)
    // "Hide read items": an observer of the stack removes the element of
    // the screen just pushed.
    let hideRead = path.observeChanges { entries in
      guard case .detail(let detail)? = entries.last?.screen, detail.item.value.text == "read"
      else { return }
      items.remove(id: detail.item.id)
    }
    let cell = items.cell(for: 1)!
    let id = path.push(.detail(Detail(item: cell)), tiedTo: cell, whenRemoved: policy)
    #expect(id != nil && items[id: 1] == nil)
    switch policy {
    case .pop:
      #expect(path.count == 1, "the screen of the removed element left")
    case .keepShownAsDeleted:
      #expect(path.count == 2)
      #expect(path.isShownAsDeleted(id!), "the screen says it shows a deleted element")
    }
    #expect(navigation.shown == path.ids && navigation.violations.isEmpty)
    withExtendedLifetime(hideRead) {}
  }

  @Test func aScreenPoppedByAnObserverDuringItsPushIsNotTiedAfterwards() {
    let items = ObservableArray([Item(id: 1, text: "a")])
    let path = StackPath<Int>()
    let popper = path.observeChanges { entries in
      if entries.last?.screen == 7 { path.pop() }
    }
    let id = path.push(7, tiedTo: items.cell(for: 1)!)
    #expect(id != nil && path.isEmpty)
    path.push(8)
    items.remove(id: 1)
    #expect(path.screens == [8], "the popped screen's tie ended with it")
    withExtendedLifetime(popper) {}
  }

  // MARK: - Restoration ties (issue 49, item 5)

  @Test func aRestoredDetailTiedToItsElementLeavesWhenItIsDeleted() {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 2, text: "b")])
    let path = StackPath<Screen>()
    let navigation = HeadlessNavigationStack(path)
    let dropped = path.restore([1, 2]) { id -> StackPath<Screen>.Push? in
      items.cell(for: id).map { .init(.detail(Detail(item: $0)), tiedTo: $0) }
    }
    #expect(dropped.isEmpty && path.count == 2)
    items.remove(id: 2)
    #expect(path.count == 1, "the restored detail left, as a pushed one does")
    items.remove(id: 1)
    #expect(path.isEmpty)
    #expect(navigation.shown == path.ids && navigation.violations.isEmpty)
  }

  @Test func aDeepLinkTiesItsScreensAndKeepsThoseShownAsDeleted() {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 2, text: "b")])
    let path = StackPath<Screen>([.detail(Detail(item: items.cell(for: 2)!))])
    let first = items.cell(for: 1)!
    let second = items.cell(for: 2)!
    #expect(
      path.replace(with: [
        .init(.list),
        .init(.detail(Detail(item: first)), tiedTo: first, whenRemoved: .keepShownAsDeleted),
        .init(.detail(Detail(item: second)), tiedTo: second),
      ]))
    let ids = path.ids
    items.remove(id: 2)
    #expect(path.ids == Array(ids.prefix(2)))
    items.remove(id: 1)
    #expect(path.ids == Array(ids.prefix(2)))
    #expect(path.isShownAsDeleted(ids[1]))
  }

  @Test func aPushOfARemovedElementIsLeftOutOfADeepLinkAndReported() {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 2, text: "b")])
    let gone = items.cell(for: 2)!
    items.remove(id: 2)
    let path = StackPath<Screen>()
    var complete = true
    let reports = Diagnostics.capturing {
      complete = path.replace(with: [
        .init(.list), .init(.detail(Detail(item: gone)), tiedTo: gone),
      ])
    }
    #expect(!complete)
    #expect(path.count == 1)
    #expect(reports.count == 1 && reports.first?.contains("left out a screen") == true)
  }

  @Test func aRestoredRouteWhoseElementIsGoneIsDroppedInItsOrder() {
    let items = ObservableArray([Item(id: 1, text: "a"), Item(id: 2, text: "b")])
    let gone = items.cell(for: 2)!
    items.remove(id: 2)
    let path = StackPath<Screen>()
    var dropped: [Int] = []
    let reports = Diagnostics.capturing {
      dropped = path.restore([3, 2, 1]) { id -> StackPath<Screen>.Push? in
        if id == 2 { return .init(.detail(Detail(item: gone)), tiedTo: gone) }
        return items.cell(for: id).map { .init(.detail(Detail(item: $0)), tiedTo: $0) }
      }
    }
    #expect(dropped == [3, 2])
    #expect(path.count == 1)
    #expect(reports.count == 2)
  }

  @Test func anObserverThatRemovesTheElementDuringARestoreIsFollowed() {
    let items = ObservableArray([Item(id: 1, text: "read"), Item(id: 2, text: "b")])
    let path = StackPath<Screen>()
    let hideRead = path.observeChanges { _ in
      if items[id: 1] != nil { items.remove(id: 1) }
    }
    path.restore([2, 1]) { id -> StackPath<Screen>.Push? in
      items.cell(for: id).map { .init(.detail(Detail(item: $0)), tiedTo: $0) }
    }
    #expect(path.count == 1)
    withExtendedLifetime(hideRead) {}
  }
}

import POMVVM
import TestSupport
import Testing

/// Owner-scoped observation: the subscription lives in the owner's bag
/// while it can still deliver, and leaves it when it ends first.
@MainActor
@Suite("SubscriptionOwner")
struct SubscriptionOwnerTests {
  @MainActor
  final class Owner: SubscriptionOwner {
    let subscriptions = SubscriptionBag()
    var seen: [String] = []
  }

  @Test func subscriptionsOfStreamsThatDiedLeaveTheBag() {
    let owner = Owner()
    weak var lastStream: EventStream<Void>?
    for _ in 0..<1000 {
      let stream = EventStream<Void>()
      stream.observe(owner) { _, _ in }
      lastStream = stream
    }
    #expect(lastStream == nil)
    #expect(owner.subscriptions.count == 0)
  }

  @Test func subscriptionsOfCellsAndArraysThatDiedLeaveTheBag() {
    let owner = Owner()
    weak var lastCell: Observable<Int>?
    weak var lastArray: ObservableArray<TestItem>?
    for index in 0..<100 {
      let cell = Observable(index)
      cell.observe(owner) { owner, value in owner.seen.append("cell \(value)") }
      cell.observeChanges(owner) { _, _ in }
      let array = ObservableArray([TestItem(index)])
      array.observeChanges(owner) { _, _ in }
      lastCell = cell
      lastArray = array
    }
    #expect(lastCell == nil)
    #expect(lastArray == nil)
    #expect(owner.subscriptions.count == 0)
    #expect(owner.seen.count == 100)
  }

  @Test func theSubscriptionsOfLiveObjectsStayAndKeepDelivering() {
    let owner = Owner()
    let kept = Observable("a")
    let stream = EventStream<String>()
    kept.observeChanges(owner) { owner, value in owner.seen.append(value) }
    stream.observe(owner) { owner, value in owner.seen.append(value) }
    for _ in 0..<10 {
      EventStream<String>().observe(owner) { _, _ in }
    }
    #expect(owner.subscriptions.count == 2)
    kept.value = "b"
    stream.send("c")
    #expect(owner.seen == ["b", "c"])
  }

  @Test func aCancelledSubscriptionLeavesTheBag() {
    let owner = Owner()
    let cell = Observable(0)
    let first = cell.observeChanges(owner) { owner, _ in owner.seen.append("first") }
    cell.observeChanges(owner) { owner, _ in owner.seen.append("second") }
    #expect(owner.subscriptions.count == 2)
    first.cancel()
    #expect(owner.subscriptions.count == 1)
    cell.value = 1
    #expect(owner.seen == ["second"])
  }

  @Test func aSubscriptionThatEndsDuringCancelAllIsCancelledOnce() {
    let owner = Owner()
    let cell = Observable(0)
    var streams: [EventStream<Int>] = (0..<3).map { _ in EventStream<Int>() }
    for stream in streams {
      stream.observe(owner) { owner, _ in owner.seen.append("stream") }
    }
    cell.observeChanges(owner) { owner, _ in owner.seen.append("cell") }
    streams.removeFirst()
    #expect(owner.subscriptions.count == 3)
    owner.subscriptions.cancelAll()
    #expect(owner.subscriptions.isEmpty)
    cell.value = 1
    streams[0].send(1)
    #expect(owner.seen == [])
    #expect(cell.observerCount == 0)
  }

  @Test func theOwnerIsNotKeptAliveAndItsSubscriptionsEndWithIt() {
    let cell = Observable(0)
    weak var weakOwner: Owner?
    do {
      let owner = Owner()
      weakOwner = owner
      cell.observeChanges(owner) { owner, value in owner.seen.append("\(value)") }
    }
    #expect(weakOwner == nil)
    #expect(cell.observerCount == 0)
  }
}

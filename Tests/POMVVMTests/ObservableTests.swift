import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Observable")
struct ObservableTests {
  @Test func readsBackWhatWasSet() {
    let cell = Observable(1)
    cell.value = 2
    #expect(cell.value == 2)
    #expect(cell.set(3))
    #expect(cell.value == 3)
  }

  @Test func observeDeliversTheCurrentValueThenEveryChange() {
    let cell = Observable(1)
    let recorder = Recorder<Int>()
    let subscription = cell.observe(recorder.handler)
    cell.value = 2
    cell.value = 3
    #expect(recorder.events == [1, 2, 3])
    withExtendedLifetime(subscription) {}
  }

  @Test func observeChangesSkipsTheCurrentValue() {
    let cell = Observable("a")
    let recorder = Recorder<String>()
    let subscription = cell.observeChanges(recorder.handler)
    cell.value = "b"
    #expect(recorder.events == ["b"])
    withExtendedLifetime(subscription) {}
  }

  @Test func equalSetsNotifyNoOne() {
    let cell = Observable(1)
    let recorder = Recorder<Int>()
    let subscription = cell.observeChanges(recorder.handler)
    cell.value = 1
    cell.value = 2
    cell.value = 2
    cell.value = 1
    #expect(recorder.events == [2, 1])
    withExtendedLifetime(subscription) {}
  }

  @Test func nonEquatableValuesNotifyOnEverySet() {
    let cell = Observable(Opaque(number: 1))
    let recorder = Recorder<Int>()
    let subscription = cell.observeChanges { recorder.record($0.number) }
    cell.value = Opaque(number: 1)
    cell.value = Opaque(number: 1)
    #expect(recorder.events == [1, 1])
    withExtendedLifetime(subscription) {}
  }

  @Test func equatableValuesInGenericCodeAreStillDeduplicated() {
    func makeCell<T>(_ value: T) -> Observable<T> { Observable(value) }
    let cell = makeCell(5)
    let recorder = Recorder<Int>()
    let subscription = cell.observeChanges(recorder.handler)
    cell.value = 5
    cell.value = 6
    cell.value = 6
    #expect(recorder.events == [6])
    withExtendedLifetime(subscription) {}
  }

  @Test func anExplicitDuplicatePolicyWins() {
    let always = Observable(1, isDuplicate: nil)
    let byParity = Observable(1, isDuplicate: { $0 % 2 == $1 % 2 })
    let recorder = Recorder<String>()
    let subscriptions = [
      always.observeChanges { recorder.record("always \($0)") },
      byParity.observeChanges { recorder.record("parity \($0)") },
    ]
    always.value = 1
    byParity.value = 3
    #expect(byParity.value == 1, "a set the policy drops is not stored")
    byParity.value = 4
    #expect(recorder.events == ["always 1", "parity 4"])
    withExtendedLifetime(subscriptions) {}
  }

  @Test func observersRunInSubscriptionOrder() {
    let cell = Observable(0)
    let recorder = Recorder<Seen>()
    let subscriptions = ["a", "b", "c"].map { name in
      cell.observeChanges { recorder.record(Seen(name, $0)) }
    }
    cell.value = 1
    cell.value = 2
    #expect(
      recorder.events == [
        Seen("a", 1), Seen("b", 1), Seen("c", 1), Seen("a", 2), Seen("b", 2), Seen("c", 2),
      ])
    withExtendedLifetime(subscriptions) {}
  }

  @Test func cancelEndsDeliveryAndIsIdempotent() {
    let cell = Observable(0)
    let recorder = Recorder<Int>()
    let subscription = cell.observeChanges(recorder.handler)
    cell.value = 1
    #expect(subscription.isActive)
    subscription.cancel()
    subscription.cancel()
    #expect(!subscription.isActive)
    cell.value = 2
    #expect(recorder.events == [1])
    #expect(cell.observerCount == 0)
  }

  @Test func releasingTheSubscriptionEndsDelivery() {
    let cell = Observable(0)
    let recorder = Recorder<Int>()
    var subscription: Subscription? = cell.observeChanges(recorder.handler)
    cell.value = 1
    subscription = nil
    cell.value = 2
    #expect(recorder.events == [1])
    #expect(subscription == nil)
    #expect(cell.observerCount == 0)
  }

  @Test func cancellingReleasesTheHandlerAndWhatItCaptured() {
    let cell = Observable(0)
    weak var weakProbe: Probe?
    let subscription: Subscription
    do {
      let probe = Probe()
      weakProbe = probe
      subscription = cell.observeChanges { probe.count += $0 }
    }
    cell.value = 3
    #expect(weakProbe?.count == 3)
    subscription.cancel()
    #expect(weakProbe == nil)
  }

  @Test func aSubscriptionDoesNotKeepItsCellAlive() {
    weak var weakCell: Observable<Int>?
    let subscription: Subscription
    weak var weakProbe: Probe?
    do {
      let cell = Observable(0)
      let probe = Probe()
      weakCell = cell
      weakProbe = probe
      subscription = cell.observe { _ in probe.count += 1 }
    }
    #expect(weakCell == nil)
    #expect(weakProbe == nil, "the cell released its handlers when it went away")
    #expect(!subscription.isActive)
    subscription.cancel()  // after the cell is gone: no effect, no crash
  }

  @Test func cancellingInTheMiddleKeepsTheOthersInOrder() {
    let cell = Observable(0)
    let recorder = Recorder<Seen>()
    var subscriptions = (0..<5).map { index in
      cell.observeChanges { recorder.record(Seen("o\(index)", $0)) }
    }
    subscriptions[1].cancel()
    subscriptions[3].cancel()
    cell.value = 1
    subscriptions.append(cell.observeChanges { recorder.record(Seen("o5", $0)) })
    cell.value = 2
    #expect(
      recorder.events == [
        Seen("o0", 1), Seen("o2", 1), Seen("o4", 1),
        Seen("o0", 2), Seen("o2", 2), Seen("o4", 2), Seen("o5", 2),
      ])
    #expect(cell.observerCount == 4)
  }

  /// Subscribes and cancels at random against a model of who should hear a
  /// set, exercising tombstones and compaction.
  @Test(arguments: [1, 2, 3, 4, 5])
  func randomSubscribeAndCancelMatchesAModel(seed: UInt64) {
    var random = SplitMix64(seed: seed)
    let cell = Observable(0)
    let recorder = Recorder<Seen>()
    var live: [(name: Int, subscription: Subscription)] = []
    var next = 0
    for step in 1...2_000 {
      switch random.next() % 3 {
      case 0, 1:
        let name = next
        next += 1
        live.append((name, cell.observeChanges { recorder.record(Seen("\(name)", $0)) }))
      default:
        if !live.isEmpty {
          let index = Int(random.next() % UInt64(live.count))
          live.remove(at: index).subscription.cancel()
        }
      }
      recorder.clear()
      cell.value = step
      #expect(recorder.events == live.map { Seen("\($0.name)", step) })
      #expect(cell.observerCount == live.count)
    }
  }

  // MARK: - Re-entrancy

  @Test func aSetFromInsideAnObserverSupersedesTheOuterPass() {
    let cell = Observable(0)
    let recorder = Recorder<Seen>()
    let subscriptions = [
      cell.observeChanges { recorder.record(Seen("a", $0)) },
      cell.observeChanges { value in
        recorder.record(Seen("clamp", value))
        if value > 10 { cell.value = 10 }
      },
      cell.observeChanges { recorder.record(Seen("c", $0)) },
    ]
    cell.value = 50
    #expect(
      recorder.events == [
        Seen("a", 50), Seen("clamp", 50),
        Seen("a", 10), Seen("clamp", 10), Seen("c", 10),
      ])
    #expect(cell.value == 10)
    withExtendedLifetime(subscriptions) {}
  }

  @Test func everyObserverEndsWithTheFinalValueAfterNestedSets() {
    let cell = Observable(0)
    var lastSeen = [Int](repeating: -1, count: 4)
    let subscriptions = (0..<4).map { index in
      cell.observe { value in
        lastSeen[index] = value
        // Observer 1 counts down to zero through nested sets.
        if index == 1 && value > 0 { cell.value = value - 1 }
      }
    }
    cell.value = 5
    #expect(cell.value == 0)
    #expect(lastSeen == [0, 0, 0, 0])
    withExtendedLifetime(subscriptions) {}
  }

  @Test func aNonEquatableCellSetFromItsObserverTerminates() {
    let cell = Observable(Opaque(number: 0))
    let recorder = Recorder<Int>()
    let subscription = cell.observeChanges { value in
      recorder.record(value.number)
      if value.number < 3 { cell.value = Opaque(number: value.number + 1) }
    }
    cell.value = Opaque(number: 1)
    #expect(recorder.events == [1, 2, 3])
    withExtendedLifetime(subscription) {}
  }

  @Test func anObserverCancellingItselfIsNotCalledAgain() {
    let cell = Observable(0)
    let recorder = Recorder<Seen>()
    var selfCancelling: Subscription?
    selfCancelling = cell.observeChanges { value in
      recorder.record(Seen("once", value))
      selfCancelling?.cancel()
    }
    let other = cell.observeChanges { recorder.record(Seen("other", $0)) }
    cell.value = 1
    cell.value = 2
    #expect(recorder.events == [Seen("once", 1), Seen("other", 1), Seen("other", 2)])
    withExtendedLifetime(other) {}
  }

  @Test func anObserverCancellingALaterOneStopsItInTheSamePass() {
    let cell = Observable(0)
    let recorder = Recorder<Seen>()
    var victim: Subscription?
    let killer = cell.observeChanges { value in
      recorder.record(Seen("killer", value))
      victim?.cancel()
    }
    victim = cell.observeChanges { recorder.record(Seen("victim", $0)) }
    let survivor = cell.observeChanges { recorder.record(Seen("survivor", $0)) }
    cell.value = 1
    cell.value = 2
    #expect(
      recorder.events == [
        Seen("killer", 1), Seen("survivor", 1), Seen("killer", 2), Seen("survivor", 2),
      ])
    withExtendedLifetime((killer, survivor)) {}
  }

  @Test func anObserverReleasingAnEarlierOneDuringAPass() {
    let cell = Observable(0)
    let recorder = Recorder<Seen>()
    var early: Subscription? = cell.observeChanges { recorder.record(Seen("early", $0)) }
    let late = cell.observeChanges { value in
      recorder.record(Seen("late", value))
      early = nil
    }
    cell.value = 1
    cell.value = 2
    #expect(recorder.events == [Seen("early", 1), Seen("late", 1), Seen("late", 2)])
    #expect(early == nil)
    #expect(cell.observerCount == 1)
    withExtendedLifetime(late) {}
  }

  @Test func anObserverSubscribedDuringAPassGetsTheCurrentValueOnceThenChanges() {
    let cell = Observable(0)
    let recorder = Recorder<Seen>()
    var added: [Subscription] = []
    let spawner = cell.observeChanges { value in
      recorder.record(Seen("spawner", value))
      if value == 1 {
        added.append(cell.observe { recorder.record(Seen("spawned", $0)) })
      }
    }
    let trailing = cell.observeChanges { recorder.record(Seen("trailing", $0)) }
    cell.value = 1
    cell.value = 2
    #expect(
      recorder.events == [
        Seen("spawner", 1), Seen("spawned", 1), Seen("trailing", 1),
        Seen("spawner", 2), Seen("trailing", 2), Seen("spawned", 2),
      ])
    withExtendedLifetime((spawner, trailing, added)) {}
  }

  @Test func anObserverThatSetsTheCellWhenSubscribedConvergesToo() {
    let cell = Observable(100)
    let recorder = Recorder<Int>()
    let subscription = cell.observe { value in
      recorder.record(value)
      if value > 10 { cell.value = 10 }
    }
    #expect(recorder.events == [100, 10])
    #expect(cell.value == 10)
    withExtendedLifetime(subscription) {}
  }

  // MARK: - Owner-scoped observation

  @Test func anOwnerScopedObservationEndsWithItsOwner() {
    final class Owner: SubscriptionOwner {
      let subscriptions = SubscriptionBag()
      var seen: [Int] = []
    }
    let cell = Observable(1)
    weak var weakOwner: Owner?
    var owner: Owner? = Owner()
    weakOwner = owner
    if let owner {
      cell.observe(owner) { owner, value in owner.seen.append(value) }
    }
    cell.value = 2
    #expect(owner?.seen == [1, 2])
    #expect(cell.observerCount == 1)
    owner = nil
    #expect(weakOwner == nil, "the handler does not keep its owner alive")
    #expect(cell.observerCount == 0)
    cell.value = 3
  }
}

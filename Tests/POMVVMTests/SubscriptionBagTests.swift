import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("SubscriptionBag")
struct SubscriptionBagTests {
  @Test func cancelAllEndsEveryTokenAndEmptiesTheBag() {
    let a = Observable(0)
    let b = Observable(0)
    let mirror = Observable(0)
    let recorder = Recorder<Int>()
    let bag = SubscriptionBag()
    a.observeChanges(recorder.handler).store(in: bag)
    b.observeChanges(recorder.handler).store(in: bag)
    let binding = a.bind(to: mirror)
    binding.store(in: bag)
    #expect(bag.count == 3)
    a.value = 1
    bag.cancelAll()
    #expect(bag.isEmpty)
    #expect(!binding.isActive)
    a.value = 2
    b.value = 2
    #expect(recorder.events == [1])
    #expect(mirror.value == 1)
  }

  @Test func releasingTheBagCancelsItsTokensIncludingBindings() {
    let source = Observable(0)
    let target = Observable(0)
    var bag: SubscriptionBag? = SubscriptionBag()
    if let bag {
      source.bind(to: target).store(in: bag)
    }
    source.value = 1
    #expect(target.value == 1)
    bag = nil
    source.value = 2
    #expect(target.value == 1)
    #expect(source.observerCount == 0)
    #expect(target.observerCount == 0)
  }

  @Test func aTokenAddedWhileCancellingIsKept() {
    /// Runs an action when released, as a handler's captures are when the
    /// handler's subscription is cancelled.
    @MainActor
    final class OnRelease {
      let action: @MainActor () -> Void
      init(_ action: @escaping @MainActor () -> Void) { self.action = action }
      isolated deinit { action() }
    }
    let cell = Observable(0)
    let bag = SubscriptionBag()
    do {
      let onRelease = OnRelease { bag.insert(cell.observeChanges { _ in }) }
      cell.observeChanges { _ in withExtendedLifetime(onRelease) {} }.store(in: bag)
    }
    bag.cancelAll()
    #expect(bag.count == 1, "the token inserted while cancelling stays in the bag")
    #expect(cell.observerCount == 1)
  }
}

@MainActor
@Suite("TeardownToken")
struct TeardownTokenTests {
  @Test func runsItsActionOnceWhenCancelledNotWhenReleased() {
    var runs = 0
    do {
      _ = TeardownToken { runs += 1 }
    }
    #expect(runs == 0, "releasing does not run the action")
    let token = TeardownToken { runs += 1 }
    #expect(token.isActive)
    token.cancel()
    token.cancel()
    #expect(runs == 1)
    #expect(!token.isActive)
  }

  @Test func aBagRunsItWithTheOtherTokens() {
    var torn = false
    var bag: SubscriptionBag? = SubscriptionBag()
    bag?.insert(TeardownToken { torn = true })
    bag = nil
    #expect(torn)
  }
}

extension TeardownTokenTests {
  /// An owner whose bag holds a teardown that refers back to it.
  @MainActor
  final class Owner {
    let bags = SubscriptionBag()
    var tornDownWhileAlive = false

    init() {
      bags.insert(TeardownToken { [weak self] in self?.tornDownWhileAlive = true })
    }
  }

  @Test func aWeakTeardownRunsSafelyWhenItsOwnerIsDeallocated() {
    weak var weakOwner: Owner?
    do {
      let owner = Owner()
      weakOwner = owner
    }
    #expect(weakOwner == nil)
  }
}

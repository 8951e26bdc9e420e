import POMVVM
import POMVVMTesting
import TestSupport
import Testing

@MainActor
@Suite("Time operators on cells")
struct ObservableCellTimeTests {
  @Test func aDebouncedCellStartsWithTheSourcesValue() {
    let query = Observable("dune")
    let settled = query.debounced(for: .milliseconds(300), clock: ManualClock())
    #expect(settled.value == "dune")
  }

  @Test func aBurstWithinTheWindowGivesOneValueTheLast() async {
    let clock = ManualClock()
    let query = Observable("")
    let settled = query.debounced(for: .milliseconds(300), clock: clock)
    let seen = Recorder<String>()
    let subscription = settled.observeChanges(seen.handler)
    for text in ["d", "du", "dun", "dune", "dunes"] {
      query.value = text
      await clock.advance(by: .milliseconds(100))
    }
    #expect(seen.events == [])
    await clock.advance(by: .milliseconds(199))
    #expect(seen.events == [], "299 ms after the last keystroke")
    await clock.advance(by: .milliseconds(1))
    #expect(seen.events == ["dunes"])
    #expect(clock.sleeperCount == 0)
    withExtendedLifetime(subscription) {}
  }

  @Test func valuesSpacedWiderThanTheWindowEachGoThrough() async {
    let clock = ManualClock()
    let query = Observable(0)
    let settled = query.debounced(for: .milliseconds(300), clock: clock)
    let seen = Recorder<Int>()
    let subscription = settled.observeChanges(seen.handler)
    for value in 1...3 {
      query.value = value
      await clock.advance(by: .milliseconds(400))
    }
    #expect(seen.events == [1, 2, 3])
    withExtendedLifetime(subscription) {}
  }

  @Test func aDebounceKeepsOneSleepingTaskHoweverManyKeystrokes() async {
    let clock = ManualClock()
    let query = Observable("")
    let settled = query.debounced(for: .milliseconds(300), clock: clock)
    for index in 0..<50 {
      query.value = "\(index)"
      await clock.advance(by: .milliseconds(10))
      #expect(clock.sleeperCount == 1)
    }
    extendLifetime(settled)
  }

  @Test func releasingADebouncedCellMidWindowLeavesNoSleeper() async {
    let clock = ManualClock()
    let query = Observable("")
    weak var released: Derived<String>?
    do {
      let settled = query.debounced(for: .milliseconds(300), clock: clock)
      released = settled
      query.value = "dune"
      await clock.advance(by: .milliseconds(100))
      #expect(clock.sleeperCount == 1)
    }
    #expect(released == nil)
    #expect(clock.sleeperCount == 0)
    await clock.run()
    #expect(query.observerCount == 0)
  }

  @Test func derivedCellsDownstreamRecomputeOnceWhenTheDebounceFires() async {
    let clock = ManualClock()
    let query = Observable("")
    let settled = query.debounced(for: .milliseconds(300), clock: clock)
    var computations = 0
    let both = combine(query, settled) { typed, asked in
      computations += 1
      return "\(typed)|\(asked)"
    }
    let seen = Recorder<String>()
    let subscription = both.observeChanges(seen.handler)
    computations = 0
    query.value = "dune"
    await clock.advance(by: .milliseconds(300))
    #expect(seen.events == ["dune|", "dune|dune"])
    #expect(computations == 2, "once per change of a source, never with a mix")
    withExtendedLifetime(subscription) {}
  }

  @Test func aDebouncedCellIsALabelledNodeOfTheGraph() {
    let query = Observable("", line: 1).labelled("query")
    let settled = query.debounced(for: .milliseconds(300), clock: ManualClock(), line: 2)
    #expect(
      BindingGraph(reachableFrom: query).text == """
        cell<String> "query" =  @POMVVMTests/ObservableCell+TimeTests.swift:1
          derivation → derived<String> "debounced 300ms" =  @POMVVMTests/ObservableCell+TimeTests.swift:2
        """)
    extendLifetime(settled)
  }

  @Test func aThrottleTakesTheFirstChangeAtOnceAndTheLatestAtTheWindowsEnd() async {
    let clock = ManualClock()
    let saves = Observable(0)
    let mark = saves.throttled(for: .seconds(1), clock: clock, latest: true)
    let seen = Recorder<Int>()
    let subscription = mark.observeChanges(seen.handler)
    saves.value = 1
    #expect(seen.events == [1], "the first change goes through at once")
    await clock.advance(by: .milliseconds(200))
    saves.value = 2
    saves.value = 3
    await clock.advance(by: .milliseconds(800))
    #expect(seen.events == [1, 3])
    await clock.advance(by: .seconds(1))
    #expect(seen.events == [1, 3], "a window with no change closes quietly")
    saves.value = 4
    #expect(seen.events == [1, 3, 4])
    await clock.run()
    #expect(clock.sleeperCount == 0)
    withExtendedLifetime(subscription) {}
  }

  @Test func aThrottleWithoutLatestTakesTheFirstChangeOfEachWindow() async {
    let clock = ManualClock()
    let saves = Observable(0)
    let mark = saves.throttled(for: .seconds(1), clock: clock, latest: false)
    let seen = Recorder<Int>()
    let subscription = mark.observeChanges(seen.handler)
    saves.value = 1
    saves.value = 2
    saves.value = 3
    await clock.advance(by: .seconds(1))
    #expect(seen.events == [1, 2])
    saves.value = 4
    saves.value = 5
    await clock.advance(by: .seconds(1))
    #expect(seen.events == [1, 2, 4])
    withExtendedLifetime(subscription) {}
  }

  @Test func aDelayedCellTakesEveryChangeAfterTheDelay() async {
    let clock = ManualClock()
    let message = Observable("")
    let banner = message.delayed(by: .seconds(1), clock: clock)
    let seen = Recorder<String>()
    let subscription = banner.observeChanges(seen.handler)
    message.value = "saved"
    await clock.advance(by: .milliseconds(500))
    message.value = "synced"
    await clock.advance(by: .milliseconds(500))
    #expect(seen.events == ["saved"])
    #expect(banner.value == "saved")
    await clock.advance(by: .milliseconds(500))
    #expect(seen.events == ["saved", "synced"])
    #expect(clock.sleeperCount == 0)
    withExtendedLifetime(subscription) {}
  }

  @Test func anObservedOperatorLivesAsLongAsItsSubscription() async {
    let clock = ManualClock()
    let query = Observable("")
    let seen = Recorder<String>()
    var subscription: Subscription? = query.debounced(for: .seconds(1), clock: clock)
      .observeChanges(seen.handler)
    query.value = "a"
    await clock.advance(by: .seconds(1))
    #expect(seen.events == ["a"])
    query.value = "b"
    await clock.advance()
    subscription = nil
    #expect(clock.sleeperCount == 0)
    await clock.run()
    #expect(seen.events == ["a"])
    _ = subscription
  }

  @Test func flushDeliversThePendingValueNowAndNothingWaits() async {
    let clock = ManualClock()
    let query = Observable("")
    let settled = query.debounced(for: .milliseconds(300), clock: clock)
    let seen = Recorder<String>()
    let subscription = settled.observeChanges(seen.handler)
    query.value = "dune"
    settled.flush()
    #expect(seen.events == ["dune"])
    #expect(settled.value == "dune")
    await clock.advance(by: .seconds(1))
    #expect(seen.events == ["dune"], "the debounce does not fire again")
    #expect(clock.sleeperCount == 0)
    subscription.cancel()
  }

  @Test func cancelDropsThePendingValueAndNothingWaits() async {
    let clock = ManualClock()
    let query = Observable("")
    let settled = query.debounced(for: .milliseconds(300), clock: clock)
    let seen = Recorder<String>()
    let subscription = settled.observeChanges(seen.handler)
    query.value = "dune"
    settled.cancel()
    await clock.advance(by: .seconds(1))
    #expect(seen.events == [])
    #expect(settled.value == "")
    #expect(clock.sleeperCount == 0)
    query.value = "dunes"
    await clock.advance(by: .milliseconds(300))
    #expect(seen.events == ["dunes"], "a later change is debounced as usual")
    subscription.cancel()
  }

  @Test func flushOfADelayDeliversEveryQueuedValueInOrder() async {
    let clock = ManualClock()
    let source = Observable(0)
    let delayed = source.delayed(by: .seconds(1), clock: clock)
    let seen = Recorder<Int>()
    let subscription = delayed.observeChanges(seen.handler)
    source.value = 1
    source.value = 2
    delayed.flush()
    #expect(seen.events == [1, 2])
    await clock.advance(by: .seconds(2))
    #expect(seen.events == [1, 2])
    subscription.cancel()
  }

  @Test func flushOfAThrottleTakesTheHeldValueAndClosesTheWindow() async {
    let clock = ManualClock()
    let source = Observable(0)
    let throttled = source.throttled(for: .seconds(1), clock: clock)
    let seen = Recorder<Int>()
    let subscription = throttled.observeChanges(seen.handler)
    source.value = 1
    source.value = 2
    throttled.flush()
    source.value = 3
    #expect(seen.events == [1, 2, 3])
    subscription.cancel()
  }

  @Test func flushOfACellThatIsNoTimeOperatorIsReported() {
    let source = Observable(1)
    let doubled = source.map { $0 * 2 }
    let reports = Diagnostics.capturing {
      doubled.flush()
      doubled.cancel()
    }
    #expect(
      reports == [
        "flush() does nothing: this cell is not a time operator (debounced, throttled or delayed)",
        "cancel() does nothing: this cell is not a time operator (debounced, throttled or delayed)",
      ])
  }

  @Test func aHugeDurationIsClampedVisiblyInsteadOfTrapping() async {
    let clock = ManualClock()
    let query = Observable("")
    var settled: Derived<String>?
    let reports = Diagnostics.capturing {
      settled = query.debounced(for: .seconds(10_000_000_000_000), clock: clock)
    }
    #expect(reports.count == 1)
    #expect(reports.first?.contains("longer than the longest wait") == true)
    query.value = "dune"
    await clock.advance(by: .seconds(1_000_000_000))
    #expect(settled?.value == "dune")
  }
}

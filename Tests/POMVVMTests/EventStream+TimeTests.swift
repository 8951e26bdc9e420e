import POMVVM
import POMVVMTesting
import TestSupport
import Testing

@MainActor
@Suite("Time operators on event streams")
struct EventStreamTimeTests {
  @Test func aDebouncedStreamSendsTheLastEventOfABurst() async {
    let clock = ManualClock()
    let edits = EventStream<String>()
    let settled = edits.debounced(for: .milliseconds(300), clock: clock)
    let seen = Recorder<String>()
    let subscription = settled.observe(seen.handler)
    for text in ["a", "b", "c", "d", "e"] {
      edits.send(text)
      await clock.advance(by: .milliseconds(50))
    }
    await clock.advance(by: .milliseconds(300))
    #expect(seen.events == ["e"])
    edits.send("f")
    await clock.advance(by: .milliseconds(300))
    edits.send("f")
    await clock.advance(by: .milliseconds(300))
    #expect(seen.events == ["e", "f", "f"], "events are not deduplicated")
    withExtendedLifetime(subscription) {}
  }

  @Test func aThrottledStreamWithAndWithoutLatest() async {
    let clock = ManualClock()
    let taps = EventStream<Int>()
    let latest = taps.throttled(for: .seconds(1), clock: clock, latest: true)
    let first = taps.throttled(for: .seconds(1), clock: clock, latest: false)
    let seenLatest = Recorder<Int>()
    let seenFirst = Recorder<Int>()
    let subscriptions = [latest.observe(seenLatest.handler), first.observe(seenFirst.handler)]
    for tap in 1...4 { taps.send(tap) }
    await clock.advance(by: .seconds(1))
    await clock.advance(by: .seconds(1))
    #expect(seenLatest.events == [1, 4])
    #expect(seenFirst.events == [1, 2])
    withExtendedLifetime(subscriptions) {}
  }

  @Test func aDelayedStreamSendsEachEventAfterTheDelayInOrder() async {
    let clock = ManualClock()
    let taps = EventStream<Int>()
    let later = taps.delayed(by: .seconds(1), clock: clock)
    let seen = Recorder<Int>()
    let subscription = later.observe(seen.handler)
    taps.send(1)
    taps.send(2)
    await clock.advance(by: .milliseconds(500))
    taps.send(3)
    await clock.advance(by: .milliseconds(500))
    #expect(seen.events == [1, 2])
    await clock.advance(by: .milliseconds(500))
    #expect(seen.events == [1, 2, 3])
    withExtendedLifetime(subscription) {}
  }

  @Test func releasingADebouncedStreamMidWindowLeavesNoSleeper() async {
    let clock = ManualClock()
    let edits = EventStream<String>()
    weak var released: EventStream<String>?
    do {
      let settled = edits.debounced(for: .milliseconds(300), clock: clock)
      released = settled
      edits.send("a")
      await clock.advance(by: .milliseconds(100))
      #expect(clock.sleeperCount == 1)
    }
    #expect(released == nil)
    #expect(clock.sleeperCount == 0)
    #expect(edits.observerCount == 0)
  }

  @Test func aDebouncedStreamIsALabelledNodeDerivedFromItsSource() {
    let edits = EventStream<String>(line: 1).labelled("edits")
    let settled = edits.debounced(for: .seconds(1), clock: ManualClock(), line: 2)
    #expect(
      BindingGraph(reachableFrom: edits).text == """
        events<String> "edits" @POMVVMTests/EventStream+TimeTests.swift:1
          derivation → events<String> "debounced 1s" @POMVVMTests/EventStream+TimeTests.swift:2
        """)
    extendLifetime(settled)
  }

  @Test func aDebouncedStreamObservedButNotStoredStillFires() async {
    let clock = ManualClock()
    let taps = EventStream<Int>()
    var seen: [Int] = []
    // Only the subscription is kept, as in `taps.debounced(…).observe { … }`.
    let subscription = taps.debounced(for: .milliseconds(300), clock: clock).observe {
      seen.append($0)
    }
    taps.send(1)
    taps.send(2)
    await clock.advance(by: .milliseconds(300))
    #expect(seen == [2])
    subscription.cancel()
  }

  @Test func aStreamOperatorEndsWithItsLastSubscription() async {
    let clock = ManualClock()
    let taps = EventStream<Int>()
    weak var weakOutput: EventStream<Int>?
    var subscription: Subscription?
    do {
      let output = taps.debounced(for: .milliseconds(300), clock: clock)
      weakOutput = output
      subscription = output.observe { _ in }
    }
    #expect(weakOutput != nil, "kept by its subscription")
    taps.send(1)
    subscription = nil
    #expect(weakOutput == nil, "released with its last subscription")
    await clock.advance(by: .milliseconds(300))
    #expect(clock.sleeperCount == 0)
    _ = subscription
  }

  @Test func flushAndCancelOfAStreamOperator() async {
    let clock = ManualClock()
    let taps = EventStream<Int>()
    let settled = taps.debounced(for: .milliseconds(300), clock: clock)
    var seen: [Int] = []
    let subscription = settled.observe { seen.append($0) }
    taps.send(1)
    settled.flush()
    #expect(seen == [1])
    taps.send(2)
    settled.cancel()
    await clock.advance(by: .seconds(1))
    #expect(seen == [1])
    #expect(clock.sleeperCount == 0)
    subscription.cancel()
  }
}

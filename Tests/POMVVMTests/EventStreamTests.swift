import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("EventStream")
struct EventStreamTests {
  @Test func deliversEveryEventWithoutDeduplication() {
    let edits = EventStream<String>()
    let recorder = Recorder<String>()
    let subscription = edits.observe(recorder.handler)
    edits.send("a")
    edits.send("a")
    edits.send("ab")
    #expect(recorder.events == ["a", "a", "ab"])
    withExtendedLifetime(subscription) {}
  }

  @Test func hasNoCurrentValueForNewObservers() {
    let taps = EventStream<Void>()
    taps.send()
    var count = 0
    let subscription = taps.observe { count += 1 }
    #expect(count == 0)
    taps.send()
    taps.send()
    #expect(count == 2)
    withExtendedLifetime(subscription) {}
  }

  @Test func anEventSentFromAnObserverIsQueuedBehindTheCurrentOne() {
    let stream = EventStream<Int>()
    let recorder = Recorder<Seen>()
    let subscriptions = [
      stream.observe { value in
        recorder.record(Seen("first", value))
        if value == 1 { stream.send(2) }
      },
      stream.observe { recorder.record(Seen("second", $0)) },
    ]
    stream.send(1)
    #expect(
      recorder.events == [
        Seen("first", 1), Seen("second", 1), Seen("first", 2), Seen("second", 2),
      ])
    withExtendedLifetime(subscriptions) {}
  }

  @Test func cancelDuringDeliveryStopsAtOnce() {
    let stream = EventStream<Int>()
    let recorder = Recorder<Seen>()
    var second: Subscription?
    let first = stream.observe { value in
      recorder.record(Seen("first", value))
      second?.cancel()
    }
    second = stream.observe { recorder.record(Seen("second", $0)) }
    stream.send(1)
    stream.send(2)
    #expect(recorder.events == [Seen("first", 1), Seen("first", 2)])
    #expect(stream.observerCount == 1)
    withExtendedLifetime(first) {}
  }

  @Test func anObserverAddedDuringDeliveryGetsTheNextEvent() {
    let stream = EventStream<Int>()
    let recorder = Recorder<Seen>()
    var added: [Subscription] = []
    let spawner = stream.observe { value in
      recorder.record(Seen("spawner", value))
      if value == 1 {
        added.append(stream.observe { recorder.record(Seen("spawned", $0)) })
      }
    }
    stream.send(1)
    stream.send(2)
    #expect(recorder.events == [Seen("spawner", 1), Seen("spawner", 2), Seen("spawned", 2)])
    withExtendedLifetime((spawner, added)) {}
  }

  @Test func releasingTheStreamEndsItsObservations() {
    weak var weakProbe: Probe?
    let subscription: Subscription
    do {
      let stream = EventStream<Int>()
      let probe = Probe()
      weakProbe = probe
      subscription = stream.observe { probe.count += $0 }
      stream.send(1)
      #expect(probe.count == 1)
    }
    #expect(weakProbe == nil)
    #expect(!subscription.isActive)
  }

  @Test func anEventStreamBindsToACell() {
    let edits = EventStream<String>()
    let username = Observable("")
    edits.bind(to: username)
    edits.send("alice")
    edits.send("alice_w")
    #expect(username.value == "alice_w")
  }

  @Test func anOwnerScopedObservationOfEventsEndsWithTheOwner() {
    final class ViewModel: SubscriptionOwner {
      let subscriptions = SubscriptionBag()
      var taps = 0
    }
    let taps = EventStream<Void>()
    var model: ViewModel? = ViewModel()
    weak let weakModel = model
    if let model {
      taps.observe(model) { model, _ in model.taps += 1 }
    }
    taps.send()
    #expect(model?.taps == 1)
    model = nil
    #expect(weakModel == nil)
    #expect(taps.observerCount == 0)
  }
}

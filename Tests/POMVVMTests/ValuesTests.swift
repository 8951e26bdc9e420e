import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Async values")
struct ValuesTests {
  @Test func yieldsTheCurrentValueThenChanges() async {
    let cell = Observable(1)
    var iterator = cell.values.makeAsyncIterator()
    #expect(await iterator.next() == 1)
    cell.value = 2
    #expect(await iterator.next() == 2)
    cell.value = 3
    cell.value = 4
    #expect(await iterator.next() == 4, "only the newest value is buffered")
  }

  @Test func finishesWhenTheCellIsDeallocated() async {
    var cell: Observable<Int>? = Observable(1)
    let values = cell?.values
    var iterator = values?.makeAsyncIterator()
    #expect(await iterator?.next() == 1)
    cell = nil
    #expect(await iterator?.next() == nil)
  }

  @Test func cancellingTheConsumerEndsTheObservation() async {
    let cell = Observable(0)
    let started = EventStream<Void>()
    let consumer = Task { @MainActor in
      var seen: [Int] = []
      for await value in cell.values {
        seen.append(value)
        started.send()
      }
      return seen
    }
    // Wait for the consumer to subscribe, without sleeping.
    for await _ in started.values { break }
    #expect(cell.observerCount == 1)
    consumer.cancel()
    _ = await consumer.value
    for _ in 0..<1_000 where cell.observerCount != 0 {
      await Task.yield()
    }
    #expect(cell.observerCount == 0)
  }

  @Test func eventsAreBufferedWithoutLoss() async {
    let stream = EventStream<Int>()
    var iterator = stream.values.makeAsyncIterator()
    stream.send(1)
    stream.send(2)
    stream.send(3)
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == 2)
    #expect(await iterator.next() == 3)
  }
}

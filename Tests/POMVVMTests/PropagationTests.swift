import POMVVM
import TestSupport
import Testing

/// The propagation core's contracts: glitch-free derivation, recomputation
/// counts, and reads in the middle of a propagation.
@MainActor
@Suite("Propagation")
struct PropagationTests {
  @Test func aDiamondReportsOnlyTheFinalSum() {
    let a = Observable(1)
    let sum = combine(.every, a.map { $0 * 2 }, a.map { $0 * 3 }, initial: 0) { $0 + $1 }
    let seen = Recorder<Int>()
    let subscription = sum.observeChanges(seen.handler)
    a.value = 2
    a.value = 3
    #expect(seen.events == [10, 15])
    #expect(sum.value == 15)
    subscription.cancel()
  }

  @Test func aCombinerOfTheSameCellTwiceComputesOncePerSet() {
    let a = Observable(1)
    var runs = 0
    let pair = combine(.every, a, a, initial: 0) { left, right in
      runs += 1
      return left + right
    }
    a.value = 2
    a.value = 5
    #expect(runs == 2)
    #expect(pair.value == 10)
  }

  @Test func everyDerivedCellRecomputesOnceAfterAllItsSources() {
    // a → b = a+1 → c = b*10; d = combine(a, b, c): heights 0, 1, 2, 3.
    let a = Observable(1)
    var computed: [String] = []
    let b = a.map { value -> Int in
      computed.append("b")
      return value + 1
    }
    let c = b.map { value -> Int in
      computed.append("c")
      return value * 10
    }
    let d = combine(.every, c, a, b, initial: 0) { c, a, b -> Int in
      computed.append("d")
      return a + b + c
    }
    let seen = Recorder<Int>()
    let subscription = d.observeChanges(seen.handler)
    computed.removeAll()
    a.value = 2
    #expect(computed == ["b", "c", "d"])
    #expect(seen.events == [2 + 3 + 30])
    subscription.cancel()
  }

  @Test func aSetThatQueuesManyCellsComputesEachOnceLowestHeightFirst() {
    // 60 chains of one to three maps of one source: 120 cells queued by
    // one set, more than the scheduler's queue holds at first, and a cell
    // marked later at a lower height must still go first.
    let a = Observable(0)
    var computed: [Int] = []  // the height of each cell computed, in order
    var ends: [any ObservableCell<Int>] = []
    for chain in 0..<60 {
      var end: any ObservableCell<Int> = a
      for height in 1...(1 + chain % 3) {
        end = end.map { value -> Int in
          computed.append(height)
          return value + 1
        }
      }
      ends.append(end)
    }
    let seen = Recorder<Int>()
    let subscriptions = ends.map { $0.observeChanges(seen.handler) }
    for round in 1...3 {
      computed.removeAll()
      let before = seen.events.count
      a.value = round
      #expect(computed.count == 120)
      #expect(computed == computed.sorted())
      let told = seen.events[before...].sorted()
      #expect(told == (0..<60).map { round + 1 + $0 % 3 }.sorted())
    }
    for subscription in subscriptions { subscription.cancel() }
  }

  @Test(arguments: [1, 2, 3])
  func queuedCellsAreFreedOnceFlushedAloneOrQueuedTogether(count: Int) {
    // One queued cell waits alone, outside the queue; a second moves it
    // into the queue. Each is held from its marking to its flush, and
    // not after: the cells go with their last holder, here their
    // subscriptions, let go of from inside a delivery while the cells wait.
    // A cell's computation holds a token: the token goes when the cell's
    // node does.
    final class Token {}
    let a = Observable(0)
    var seen: [Int] = []
    var tokens: [Weak<Token>] = []
    var subscriptions: [Subscription] = (0..<count).map { offset in
      let token = Token()
      tokens.append(Weak(token))
      let cell = a.map { value in
        withExtendedLifetime(token) { value + offset }
      }
      return cell.observeChanges { seen.append($0) }
    }
    a.value = 10
    #expect(seen == Array(10..<(10 + count)))
    let canceller = a.observeChanges { _ in
      for subscription in subscriptions { subscription.cancel() }
      subscriptions.removeAll()
    }
    #expect(tokens.allSatisfy { $0.object != nil })
    a.value = 20
    canceller.cancel()
    #expect(tokens.allSatisfy { $0.object == nil })
    #expect(seen == Array(10..<(10 + count)))
  }

  @Test func anObserverOfTheSourceReadsCurrentDerivedValues() {
    let a = Observable(1)
    let doubled = a.map { $0 * 2 }
    let sum = combine(.every, doubled, a.map { $0 * 3 }, initial: 0) { $0 + $1 }
    var reads: [[Int]] = []
    // Subscribed before the derived cells are marked: it still reads their
    // new values, computed on demand.
    let subscription = a.observeChanges { _ in reads.append([doubled.value, sum.value]) }
    a.value = 2
    #expect(reads == [[4, 10]])
    subscription.cancel()
  }

  @Test func aDerivedCellWhoseSourceDidNotChangeIsNotRecomputed() {
    let a = Observable(1)
    var parityRuns = 0
    let isOdd = a.map { $0 % 2 == 1 }
    let label = isOdd.map { odd -> String in
      parityRuns += 1
      return odd ? "odd" : "even"
    }
    let seen = Recorder<String>()
    let subscription = label.observeChanges(seen.handler)
    parityRuns = 0
    a.value = 3  // still odd: isOdd does not change, label is not recomputed
    a.value = 4
    #expect(parityRuns == 1)
    #expect(seen.events == ["even"])
    subscription.cancel()
  }

  @Test func aSetInsideADerivedObserverIsDeliveredBeforeItReturns() {
    let a = Observable(1)
    let b = Observable(0)
    let doubledB = b.map { $0 * 2 }
    var seenInside: [Int] = []
    let outer = a.map { $0 + 1 }.observeChanges { value in
      b.value = value
      seenInside.append(doubledB.value)
    }
    let inner = Recorder<Int>()
    let innerSubscription = doubledB.observeChanges(inner.handler)
    a.value = 5
    #expect(seenInside == [12])
    #expect(inner.events == [12])
    outer.cancel()
    innerSubscription.cancel()
  }

  @Test func observersOfDerivedCellsRunAfterObserversOfTheStoredCell() {
    let a = Observable(1)
    let doubled = a.map { $0 * 2 }
    let order = Recorder<String>()
    let derivedFirst = doubled.observeChanges { order.record("doubled \($0)") }
    let storedLater = a.observeChanges { order.record("a \($0)") }
    a.value = 2
    #expect(order.events == ["a 2", "doubled 4"])
    derivedFirst.cancel()
    storedLater.cancel()
  }

  @Test(arguments: [CombineStrategy.first, .all, .every])
  func strategiesCountChangesOfEachSourceInADiamond(_ strategy: CombineStrategy) {
    let a = Observable(1)
    let b = Observable(10)
    let sum = combine(strategy, a.map { $0 * 2 }, a.map { $0 * 3 }, b, initial: 0) {
      $0 + $1 + $2
    }
    let seen = Recorder<Int>()
    let subscription = sum.observeChanges(seen.handler)
    a.value = 2  // both maps change: one firing at most
    b.value = 20
    a.value = 3
    switch strategy {
    case .first: #expect(seen.events == [20])
    case .all: #expect(seen.events == [30, 35])
    case .every: #expect(seen.events == [20, 30, 35])
    }
    subscription.cancel()
  }

  @Test func aReleasedDerivedCellLeavesItsSourceAndIsNotComputed() {
    let a = Observable(1)
    var runs = 0
    weak var weakDerived: Derived<Int>?
    do {
      let derived = a.map { value -> Int in
        runs += 1
        return value
      }
      weakDerived = derived
      a.value = 2
    }
    #expect(weakDerived == nil)
    a.value = 3
    #expect(runs == 2)
  }
}

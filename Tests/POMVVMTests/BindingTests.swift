import POMVVM
import TestSupport
import Testing

@MainActor
@Suite("Binding")
struct BindingTests {
  @Test func oneWayBindingCopiesTheSourceNowAndOnEveryChange() {
    let source = Observable("a")
    let target = Observable("")
    let recorder = Recorder<String>()
    let subscription = target.observeChanges(recorder.handler)
    source.bind(to: target)
    source.value = "b"
    target.value = "local"  // one-way: the source does not follow
    source.value = "c"
    #expect(recorder.events == ["a", "b", "local", "c"])
    #expect(source.value == "c")
    withExtendedLifetime(subscription) {}
  }

  @Test func twoWayBindingTakesTheReceiversValueThenFollowsBothWays() {
    let a = Observable(1)
    let b = Observable(2)
    let token = a.bidirectionalBind(to: b)
    #expect((a.value, b.value) == (1, 1))
    b.value = 5
    #expect((a.value, b.value) == (5, 5))
    a.value = 7
    #expect((a.value, b.value) == (7, 7))
    withExtendedLifetime(token) {}
  }

  @Test func twoWayBindingNotifiesEachSideOncePerChange() {
    let a = Observable(0)
    let b = Observable(0)
    a.bidirectionalBind(to: b)
    let recorder = Recorder<Seen>()
    let subscriptions = [
      a.observeChanges { recorder.record(Seen("a", $0)) },
      b.observeChanges { recorder.record(Seen("b", $0)) },
    ]
    a.value = 1
    b.value = 2
    #expect(recorder.events == [Seen("b", 1), Seen("a", 1), Seen("a", 2), Seen("b", 2)])
    withExtendedLifetime(subscriptions) {}
  }

  @Test func twoWayBindingOfNonEquatableValuesDoesNotLoop() {
    let a = Observable(Opaque(number: 0))
    let b = Observable(Opaque(number: 0))
    a.bidirectionalBind(to: b)
    let recorder = Recorder<Seen>()
    let subscriptions = [
      a.observeChanges { recorder.record(Seen("a", $0.number)) },
      b.observeChanges { recorder.record(Seen("b", $0.number)) },
    ]
    a.value = Opaque(number: 1)
    b.value = Opaque(number: 2)
    #expect(recorder.events == [Seen("b", 1), Seen("a", 1), Seen("a", 2), Seen("b", 2)])
    withExtendedLifetime(subscriptions) {}
  }

  @Test(arguments: [3, 4, 7])
  func aRingOfTwoWayBindingsStopsAfterOneLap(size: Int) {
    let cells = (0..<size).map { _ in Observable(0) }
    for index in cells.indices {
      cells[index].bidirectionalBind(to: cells[(index + 1) % size])
    }
    let recorder = Recorder<Seen>()
    let subscriptions = cells.indices.map { index in
      cells[index].observeChanges { recorder.record(Seen("c\(index)", $0)) }
    }
    cells[0].value = 9
    #expect(cells.map(\.value) == Array(repeating: 9, count: size))
    #expect(recorder.events.count == size, "one notification per cell: \(recorder.events)")
    withExtendedLifetime(subscriptions) {}
  }

  @Test(arguments: [3, 4, 7])
  func aRingOfNonEquatableBindingsStopsAfterOneLap(size: Int) {
    let cells = (0..<size).map { _ in Observable(Opaque(number: 0)) }
    // Observers subscribed before the bindings run before them; the lap
    // does not write the value back into the cell where it started.
    let recorder = Recorder<Seen>()
    let subscriptions = cells.indices.map { index in
      cells[index].observeChanges { recorder.record(Seen("c\(index)", $0.number)) }
    }
    for index in cells.indices {
      cells[index].bidirectionalBind(to: cells[(index + 1) % size])
    }
    recorder.clear()
    cells[0].value = Opaque(number: 9)
    #expect(cells.map(\.value.number) == Array(repeating: 9, count: size))
    let perCell = Dictionary(grouping: recorder.events, by: \.observer).mapValues(\.count)
    let expected = Dictionary(uniqueKeysWithValues: cells.indices.map { ("c\($0)", 1) })
    #expect(perCell == expected)
    withExtendedLifetime(subscriptions) {}
  }

  @Test func aChangeMadeInReactionToTheBindingsWriteIsPropagatedBack() {
    let a = Observable(0)
    let b = Observable(0)
    a.bidirectionalBind(to: b)
    // b accepts at most 100.
    let clamp = b.observeChanges { if $0 > 100 { b.value = 100 } }
    a.value = 150
    #expect((a.value, b.value) == (100, 100))
    b.value = 300
    #expect((a.value, b.value) == (100, 100))
    withExtendedLifetime(clamp) {}
  }

  @Test func aOneWayTargetReactingOnTheSourceIsFollowed() {
    let source = Observable(0)
    let target = Observable(0)
    source.bind(to: target)
    // When the target sees 1, something moves the source on to 2.
    let reaction = target.observeChanges { if $0 == 1 { source.value = 2 } }
    source.value = 1
    #expect((source.value, target.value) == (2, 2))
    withExtendedLifetime(reaction) {}
  }

  @Test func observersThatNeverAgreeAreReportedNotLoopedForever() {
    let a = Observable(0)
    let b = Observable(0)
    a.bidirectionalBind(to: b)
    // a wants even numbers, b wants odd ones: each fix undoes the other's.
    let even = a.observeChanges { if $0 % 2 != 0 { a.value = $0 + 1 } }
    let odd = b.observeChanges { if $0 % 2 == 0 { b.value = $0 + 1 } }
    let reports = Diagnostics.capturing { a.value = 2 }
    #expect(reports.count == 1)
    #expect(reports.first?.contains("did not settle") == true)
    withExtendedLifetime((even, odd)) {}
  }

  @Test func aTwoWayBindingThatDoesNotSettleNamesTheLineThatMadeIt() {
    let a = Observable(0)
    let b = Observable(0)
    let line: UInt = #line + 1
    a.bidirectionalBind(to: b)
    // a wants even numbers, b wants odd ones: each fix undoes the other's.
    let even = a.observeChanges { if $0 % 2 != 0 { a.value = $0 + 1 } }
    let odd = b.observeChanges { if $0 % 2 == 0 { b.value = $0 + 1 } }
    let reports = Diagnostics.capturingReports { a.set(2) }
    #expect(reports.map(\.fileID) == [#fileID])
    #expect(reports.map(\.line) == [line], "the line of the binding, not of the write")
    withExtendedLifetime((even, odd)) {}
  }

  @Test func aOneWayBindingThatDoesNotSettleNamesTheLineThatMadeIt() {
    let source = Observable(0)
    let target = Observable(0)
    let line: UInt = #line + 1
    source.bind(to: target)
    // Whatever the target takes, its observer moves the source on.
    let reaction = target.observeChanges { source.value = $0 + 1 }
    let reports = Diagnostics.capturingReports { source.set(1) }
    #expect(reports.count == 1)
    #expect(reports.first?.message.contains("did not settle") == true)
    #expect(reports.map(\.fileID) == [#fileID])
    #expect(reports.map(\.line) == [line])
    withExtendedLifetime(reaction) {}
  }

  @Test func aWriteABindingMakesIntoARemovedElementNamesTheLineThatMadeTheBinding() throws {
    let array = ObservableArray([TestItem(1)])
    let source = Observable("draft")
    let line: UInt = #line + 1
    let token = source.bind(to: try #require(array.cell(for: 1, \.text)))
    array.remove(id: 1)
    let reports = Diagnostics.capturingReports { source.set("later") }
    #expect(reports.map(\.fileID) == [#fileID])
    #expect(reports.map(\.line) == [line])
    withExtendedLifetime(token) {}
  }

  @Test func aDiscardedTokenDoesNotEndTheBinding() {
    let source = Observable(0)
    let target = Observable(0)
    source.bind(to: target)
    source.bidirectionalBind(to: Observable(0))  // its other side is gone at once
    source.value = 4
    #expect(target.value == 4)
    #expect(source.observerCount == 1, "the binding to the released cell ended by itself")
  }

  @Test func cancellingEndsBothDirectionsAndReleasesEverything() {
    let a = Observable(0)
    let b = Observable(0)
    weak var weakToken: BindingToken?
    do {
      let token = a.bidirectionalBind(to: b)
      weakToken = token
      #expect(a.observerCount == 1 && b.observerCount == 1)
      token.cancel()
      #expect(!token.isActive)
    }
    #expect(weakToken == nil)
    #expect(a.observerCount == 0 && b.observerCount == 0)
    a.value = 1
    #expect(b.value == 0)
    b.value = 2
    #expect(a.value == 1)
  }

  @Test(arguments: [false, true])
  func aBindingEndsWhenEitherCellIsDeallocated(releaseSource: Bool) {
    var source: Observable<Int>? = Observable(1)
    var target: Observable<Int>? = Observable(0)
    weak let weakSource = source
    weak let weakTarget = target
    weak var weakToken: BindingToken?
    do {
      let token = source?.bidirectionalBind(to: target ?? Observable(0))
      weakToken = token
    }
    #expect(weakToken != nil, "the binding keeps its token while both cells live")
    if releaseSource {
      source = nil
      #expect(weakSource == nil)
      #expect(target?.observerCount == 0)
    } else {
      target = nil
      #expect(weakTarget == nil)
      #expect(source?.observerCount == 0)
    }
    #expect(weakToken == nil)
  }

  @Test func aBindingFromADerivedCellKeepsTheDerivedCellAlive() {
    let name = Observable("Ada")
    var length: Observable<Int>? = Observable(0)
    weak var weakMap: Derived<Int>?
    if let length {
      let map = name.map(\.count)
      weakMap = map
      map.bind(to: length)
    }
    name.value = "Grace"
    #expect(length?.value == 5)
    #expect(weakMap != nil, "the binding keeps the map alive")
    length = nil
    #expect(weakMap == nil, "the map went away with the binding's target")
    name.value = "Ada"
  }
}

@MainActor
@Suite("Binding feedback")
struct BindingFeedbackTests {
  /// An observer of `b` clamps what it receives; the clamp must flow back to
  /// `a`, whether or not the values can be compared.
  @Test func aClampByAnObserverFlowsBackForOpaqueValues() {
    let a = Observable(Opaque(number: 0))
    let b = Observable(Opaque(number: 0))
    let clamp = b.observeChanges { value in
      if value.number > 10 { b.value = Opaque(number: 10) }
    }
    a.bidirectionalBind(to: b)
    a.value = Opaque(number: 50)
    #expect(b.value.number == 10)
    #expect(a.value.number == 10, "the clamp reached the first side")
    b.value = Opaque(number: 70)
    #expect(a.value.number == 10)
    #expect(b.value.number == 10)
    clamp.cancel()
  }

  @Test func aClampFlowsBackForEquatableValuesToo() {
    let a = Observable(0)
    let b = Observable(0)
    let clamp = b.observeChanges { value in
      if value > 10 { b.value = 10 }
    }
    a.bidirectionalBind(to: b)
    a.value = 50
    #expect([a.value, b.value] == [10, 10])
    clamp.cancel()
  }
}

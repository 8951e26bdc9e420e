import Observation
import OpenCombine
import POMVVM

/// Sets a cell with one observer: the unit every binding row is compared with.
@MainActor
func kitSet(observers: Int = 1) -> any Fixture {
  let cell = POMVVM.Observable(0)
  let subscriptions = (0..<observers).map { _ in cell.observeChanges(makeObserver()) }
  var counter = 0
  return Loop(keeping: (cell, subscriptions)) { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      cell.value = counter
    }
  }
}

/// Calls `observers` plain closures, the floor for a cell's notification.
@MainActor
func closureCall(observers: Int = 1) -> any Fixture {
  let closures = (0..<observers).map { _ in makeObserver() }
  var counter = 0
  return Loop { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      for closure in closures { closure(counter) }
    }
  }
}

/// Sets `a`, which a binding carries to `b`, which has one observer.
@MainActor
func kitBinding(bidirectional: Bool) -> any Fixture {
  let a = POMVVM.Observable(0)
  let b = POMVVM.Observable(0)
  let token = bidirectional ? a.bidirectionalBind(to: b) : a.bind(to: b)
  let subscription = b.observeChanges(makeObserver())
  var counter = 0
  return Loop(keeping: (a, b, token, subscription)) { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      a.value = counter
    }
  }
}

/// OpenCombine's one-way binding: a subject whose sink sends to another.
@MainActor
func combineBinding() -> any Fixture {
  let a = CurrentValueSubject<Int, Never>(0)
  let b = CurrentValueSubject<Int, Never>(0)
  let forward = a.sink { b.send($0) }
  let subscription = b.sink(receiveValue: makeObserver())
  var counter = 0
  return Loop(keeping: (a, b, forward, subscription)) { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      a.send(counter)
    }
  }
}

/// `combine(.every, …)` of three cells, one of them set, one observer.
@MainActor
func kitCombineThree() -> any Fixture {
  let a = POMVVM.Observable(0)
  let b = POMVVM.Observable(1)
  let c = POMVVM.Observable(2)
  let sum = combine(.every, a, b, c, initial: 0) { $0 &+ $1 &+ $2 }
  let subscription = sum.observeChanges(makeObserver())
  var counter = 0
  return Loop(keeping: (a, b, c, sum, subscription)) { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      a.value = counter
    }
  }
}

/// A diamond: two maps of one cell combined again; glitch-free, the
/// observer sees each final sum once.
@MainActor
func kitDiamond() -> any Fixture {
  let a = POMVVM.Observable(0)
  let sum = combine(.every, a.map { $0 &* 2 }, a.map { $0 &* 3 }, initial: 0) { $0 &+ $1 }
  let subscription = sum.observeChanges(makeObserver())
  var counter = 0
  return Loop(keeping: (a, sum, subscription)) { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      a.value = counter
    }
    precondition(sum.value == counter &* 5, "the diamond's sum is stale")
  }
}

/// OpenCombine's cell: a subject that drops duplicates, with `observers` sinks.
@MainActor
func combineSet(observers: Int = 1) -> any Fixture {
  let subject = CurrentValueSubject<Int, Never>(0)
  let subscriptions = (0..<observers).map { _ in
    subject.removeDuplicates().sink(receiveValue: makeObserver())
  }
  var counter = 0
  return Loop(keeping: (subject, subscriptions)) { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      subject.value = counter
    }
  }
}

@Observable
final class ObservedModel {
  var value = 0
}

/// Sets a value that a tracker reads, re-registering `withObservationTracking`
/// after every change, the way a view keeps observing its model.
@MainActor
final class RetrackedSet: Fixture {
  private let read: @MainActor () -> Void
  private let write: @MainActor (Int) -> Void
  private let keep: Any
  private let observer = makeObserver()
  private var counter = 0

  init(
    keeping keep: Any, read: @escaping @MainActor () -> Void,
    write: @escaping @MainActor (Int) -> Void
  ) {
    self.keep = keep
    self.read = read
    self.write = write
    track()
  }

  private func track() {
    withObservationTracking {
      read()
    } onChange: { [self] in
      MainActor.assumeIsolated {
        observer(1)
        track()
      }
    }
  }

  func run(_ iterations: Int) {
    for _ in 0..<iterations {
      counter &+= 1
      write(counter)
    }
  }
}

/// A hand-written `@Observable` model's property, tracked.
@MainActor
func trackedObservableModel() -> any Fixture {
  let model = ObservedModel()
  return RetrackedSet(keeping: model, read: { _ = model.value }, write: { model.value = $0 })
}

/// A kit cell's value, tracked.
@MainActor
func trackedKitCell() -> any Fixture {
  let cell = POMVVM.Observable(0)
  return RetrackedSet(keeping: cell, read: { _ = cell.value }, write: { cell.value = $0 })
}

/// Subscribes and cancels at once, with `present` observers already there.
@MainActor
func kitChurn(present: Int) -> any Fixture {
  let cell = POMVVM.Observable(0)
  let subscriptions = (0..<present).map { _ in cell.observeChanges(makeObserver()) }
  return Loop(keeping: (cell, subscriptions)) { iterations in
    for _ in 0..<iterations {
      let subscription = cell.observeChanges(makeObserver())
      subscription.cancel()
    }
  }
}

@MainActor
func combineChurn(present: Int) -> any Fixture {
  let subject = CurrentValueSubject<Int, Never>(0)
  let subscriptions = (0..<present).map { _ in
    subject.removeDuplicates().sink(receiveValue: makeObserver())
  }
  return Loop(keeping: (subject, subscriptions)) { iterations in
    for _ in 0..<iterations {
      let subscription = subject.removeDuplicates().sink(receiveValue: makeObserver())
      subscription.cancel()
    }
  }
}

/// Sets a property of a hand-written `@Observable` class that nobody tracks.
@MainActor
func observableModelSet() -> any Fixture {
  let model = ObservedModel()
  var counter = 0
  return Loop(keeping: model) { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      model.value = counter
    }
  }
}

/// Sets a kit cell with one observer whose value has been read through its
/// getter, so it has made its Observation registrar, but no tracker is
/// installed.
@MainActor
func kitSetAfterARead() -> any Fixture {
  let cell = POMVVM.Observable(0)
  _ = cell.value
  let subscription = cell.observeChanges(makeObserver())
  var counter = 0
  return Loop(keeping: (cell, subscription)) { iterations in
    for _ in 0..<iterations {
      counter &+= 1
      cell.value = counter
    }
  }
}

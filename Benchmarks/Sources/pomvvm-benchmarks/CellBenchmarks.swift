import Observation
import OpenCombine
import POMVVM

/// What every observer does with a value: enough work that it cannot be
/// optimized away, little enough that the delivery cost dominates.
final class Sink {
  var total = 0
}

@Observable
final class ObservedModel {
  var value = 0
}

/// Re-registers `withObservationTracking` after every change, the way a view
/// keeps observing an `@Observable` model.
@MainActor
final class ObservationTracker {
  let model = ObservedModel()
  let sink: Sink

  init(sink: Sink) {
    self.sink = sink
  }

  func track() {
    withObservationTracking {
      _ = model.value
    } onChange: { [self] in
      MainActor.assumeIsolated {
        sink.total &+= 1
        track()
      }
    }
  }
}

/// The observer every variant calls: the same closure body, built out of line
/// so that no variant can inline it, each with its own context.
@MainActor
@inline(never)
func makeObserver(_ sink: Sink) -> @MainActor (Int) -> Void {
  { sink.total &+= $0 }
}

@MainActor
func makeClosures(_ count: Int, _ sink: Sink) -> [@MainActor (Int) -> Void] {
  (0..<count).map { _ in makeObserver(sink) }
}

@MainActor
func runCellBenchmarks(_ settings: Settings, _ report: inout Report) {
  let sink = Sink()
  let n = settings.iterations(5_000_000)

  // set -> 1 observer, four ways.
  let floorClosures = makeClosures(1, sink)
  let floor1 = measure(n) { n in
    for i in 0..<n {
      for closure in floorClosures { closure(i) }
    }
  }
  let cell = POMVVM.Observable(0)
  let cellSubscription = cell.observeChanges(makeObserver(sink))
  let kit1 = measure(n) { n in
    for i in 0..<n { cell.value = i }
  }
  let subject = CurrentValueSubject<Int, Never>(0)
  let combineSubscription = subject.removeDuplicates().sink(receiveValue: makeObserver(sink))
  let combine1 = measure(settings.iterations(500_000)) { n in
    for i in 0..<n { subject.value = i }
  }
  let tracker = ObservationTracker(sink: sink)
  tracker.track()
  let observation1 = measure(settings.iterations(500_000)) { n in
    for i in 0..<n { tracker.model.value = i }
  }
  report.add("set -> 1 observer: closure-array floor", floor1, unit: "ns")
  report.add(
    "set -> 1 observer: POMVVM Observable", kit1, unit: "ns",
    ratios: [("floor", floor1), ("OpenCombine", combine1)])
  report.add(
    "set -> 1 observer: OpenCombine CurrentValueSubject+removeDuplicates+sink", combine1,
    unit: "ns", ratios: [("floor", floor1)])
  report.add(
    "set -> 1 observer: @Observable + withObservationTracking", observation1, unit: "ns",
    ratios: [("floor", floor1)])

  // Fan-out to 100 observers.
  let fanOut = settings.iterations(200_000)
  let floorHundred = makeClosures(100, sink)
  let floor100 = measure(fanOut) { n in
    for i in 0..<n {
      for closure in floorHundred { closure(i) }
    }
  }
  let wide = POMVVM.Observable(0)
  let wideSubscriptions = (0..<100).map { _ in wide.observeChanges(makeObserver(sink)) }
  let kit100 = measure(fanOut) { n in
    for i in 0..<n { wide.value = i }
  }
  let wideSubject = CurrentValueSubject<Int, Never>(0)
  let wideCombine = (0..<100).map { _ in
    wideSubject.removeDuplicates().sink(receiveValue: makeObserver(sink))
  }
  let combine100 = measure(settings.iterations(20_000)) { n in
    for i in 0..<n { wideSubject.value = i }
  }
  report.add("fan-out 100: closure-array floor", floor100, unit: "ns")
  report.add(
    "fan-out 100: POMVVM Observable", kit100, unit: "ns",
    ratios: [("floor", floor100), ("OpenCombine", combine100)])
  report.add("fan-out 100: OpenCombine", combine100, unit: "ns", ratios: [("floor", floor100)])

  // Subscribe + cancel, with 1 and with 100 observers already present.
  let churn = settings.iterations(2_000_000)
  let quiet = POMVVM.Observable(0)
  let quietSubscription = quiet.observeChanges(makeObserver(sink))
  let churn1 = measure(churn) { n in
    for _ in 0..<n {
      let subscription = quiet.observeChanges(makeObserver(sink))
      subscription.cancel()
    }
  }
  let churn100 = measure(churn) { n in
    for _ in 0..<n {
      let subscription = wide.observeChanges(makeObserver(sink))
      subscription.cancel()
    }
  }
  let combineChurn = measure(settings.iterations(200_000)) { n in
    for _ in 0..<n {
      let subscription = wideSubject.removeDuplicates().sink(receiveValue: makeObserver(sink))
      subscription.cancel()
    }
  }
  report.add("subscribe+cancel, 1 present: POMVVM", churn1, unit: "ns")
  report.add(
    "subscribe+cancel, 100 present: POMVVM", churn100, unit: "ns",
    ratios: [("1 present", churn1)])
  report.add(
    "subscribe+cancel, 100 present: OpenCombine", combineChurn, unit: "ns",
    ratios: [("POMVVM", churn100)])

  // Memory per cell with one observer, for the usual shapes of observer.
  let count = settings.iterations(200_000)
  let kitOne = bytesPerObject(count) { keep in
    let cell = POMVVM.Observable(0)
    keep.append(cell)
    keep.append(cell.observeChanges { sink.total &+= $0 })
  }
  let kitWeak = bytesPerObject(count) { keep in
    let cell = POMVVM.Observable(0)
    keep.append(cell)
    keep.append(cell.observeChanges { [weak sink] in sink?.total &+= $0 })
  }
  let kitTwo = bytesPerObject(count) { keep in
    let cell = POMVVM.Observable(0)
    let offset = keep.count
    keep.append(cell)
    keep.append(cell.observeChanges { sink.total &+= $0 &+ offset })
  }
  let combineOne = bytesPerObject(count) { keep in
    let subject = CurrentValueSubject<Int, Never>(0)
    keep.append(subject)
    keep.append(subject.removeDuplicates().sink { sink.total &+= $0 })
  }
  let observationBytes = bytesPerObject(count) { keep in
    keep.append(ObservedModel())
  }
  report.add(
    "memory: cell + observer capturing one object: POMVVM", kitOne, unit: "B",
    ratios: [("OpenCombine", combineOne)])
  report.add("memory: cell + observer capturing one object: OpenCombine", combineOne, unit: "B")
  report.add("memory: cell + observer capturing [weak owner]: POMVVM", kitWeak, unit: "B")
  report.add("memory: cell + observer capturing two values: POMVVM", kitTwo, unit: "B")
  report.add("memory: @Observable model, no observer", observationBytes, unit: "B")

  blackHole(
    (
      cellSubscription, combineSubscription, wideSubscriptions, wideCombine, quietSubscription,
      sink.total
    ))
}

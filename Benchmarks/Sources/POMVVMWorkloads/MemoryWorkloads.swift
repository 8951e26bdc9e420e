import OpenCombine
import POMVVM

/// Makes one object per iteration and keeps them all until the batch ends,
/// so that a harness reads the heap's growth per object.
@MainActor
package final class Allocations: Fixture {
  private var kept: [Any] = []
  private let make: (Int) -> Any

  /// Calls `make(i)` for iteration `i` and keeps its result.
  init(_ make: @escaping (Int) -> Any) {
    self.make = make
  }

  package func prepare(_ iterations: Int) {
    kept = []
    kept.reserveCapacity(iterations)
  }

  package func run(_ iterations: Int) {
    for index in 0..<iterations {
      kept.append(make(index))
    }
  }

  package func finish() {
    blackHole(kept)
    kept = []
  }
}

/// An array of `count` rows kept for the batch; `prepare` asks for one row
/// per iteration, so the heap's growth divided by the iterations is the cost
/// of one element.
@MainActor
final class ArrayAllocation: Fixture {
  private var kept: Any = ()
  private var size = 0
  private let make: ([Row]) -> Any

  init(_ make: @escaping ([Row]) -> Any) {
    self.make = make
  }

  func prepare(_ iterations: Int) {
    kept = ()
    size = iterations
  }

  func run(_ iterations: Int) {
    // The rows are built in the measurement by both variants alike.
    kept = make((0..<size).map { Row(id: $0, title: "row \($0)", on: $0 % 3 == 0) })
  }

  func finish() {
    blackHole(kept)
    kept = ()
  }
}

/// One element cell per row of a prepared array.
@MainActor
final class CellAllocation: Fixture {
  private let items: ObservableArray<Row>
  private var cells: [ElementCell<Row>] = []
  private var projections: [Any] = []
  private let projecting: Bool
  private let reading: Bool

  /// An array of `size` rows, whose cells a batch makes.
  ///
  /// - Parameters:
  ///   - size: The rows of the array.
  ///   - projecting: Measure one `\.on` projection per (already
  ///     made) cell instead of the cells.
  ///   - reading: Read each new cell's `value` once, outside any
  ///     Observation tracking, as view code or a test does.
  init(size: Int, projecting: Bool, reading: Bool = false) {
    items = ObservableArray(makeRows(size))
    self.projecting = projecting
    self.reading = reading
  }

  func prepare(_ iterations: Int) {
    precondition(iterations <= items.count, "more cells than rows")
    projections = []
    projections.reserveCapacity(iterations)
    if projecting {
      cells = (0..<iterations).compactMap { items.cell(for: $0) }
    } else {
      cells = []
      cells.reserveCapacity(iterations)
    }
  }

  func run(_ iterations: Int) {
    if projecting {
      for cell in cells {
        let projection = cell.projection(\.on)
        if reading { blackHole(projection.value) }
        projections.append(projection)
      }
    } else {
      for id in 0..<iterations {
        guard let cell = items.cell(for: id) else { continue }
        if reading { blackHole(cell.value) }
        cells.append(cell)
      }
    }
  }

  func finish() {
    blackHole((cells, projections))
    projections = []
    cells = []
  }
}

@MainActor
func kitCellWithObserver(_ shape: Int) -> any Fixture {
  let sink = sharedSink
  return Allocations { index in
    let cell = POMVVM.Observable(0)
    switch shape {
    case 0: return (cell, cell.observeChanges { sink.total &+= $0 })
    case 1: return (cell, cell.observeChanges { [weak sink] in sink?.total &+= $0 })
    default: return (cell, cell.observeChanges { sink.total &+= $0 &+ index })
    }
  }
}

@MainActor
func combineCellWithObserver() -> any Fixture {
  let sink = sharedSink
  return Allocations { _ in
    let subject = CurrentValueSubject<Int, Never>(0)
    return (subject, subject.removeDuplicates().sink { sink.total &+= $0 })
  }
}

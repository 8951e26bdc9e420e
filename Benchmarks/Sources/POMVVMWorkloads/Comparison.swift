/// One workload's state, built once and then run in timed batches.
///
/// A harness calls ``prepare(_:)`` before each batch and ``finish()`` after
/// it, both outside the measurement, and times ``run(_:)`` alone.
@MainActor
package protocol Fixture: AnyObject {
  /// Gets ready for a batch of `iterations`, untimed: a fixture whose work
  /// grows its state puts it back here.
  func prepare(_ iterations: Int)

  /// Does the measured work `iterations` times.
  func run(_ iterations: Int)

  /// Ends a batch, untimed: a memory fixture releases what it kept here.
  func finish()
}

// MARK: - Default implementations

extension Fixture {
  package func prepare(_ iterations: Int) {}
  package func finish() {}
}

/// A fixture made of a closure, for workloads with no state to reset.
@MainActor
package final class Loop: Fixture {
  private let body: (Int) -> Void
  private let keep: Any

  /// Runs `body(iterations)` per batch and keeps `keep` alive meanwhile.
  package init(keeping keep: Any = (), _ body: @escaping (Int) -> Void) {
    self.keep = keep
    self.body = body
  }

  package func run(_ iterations: Int) { body(iterations) }
}

/// A store workload and its baseline, run side by side and read in several
/// figures: wall time and the process's CPU time (a store saves on a thread
/// of its own), the bytes written to files, or the heap an open store keeps.
///
/// Stores wait for the disk, so these rows are timed, not counted in
/// instructions: `pomvvm-benchmarks` runs them after the catalog, and
/// `scripts/count-instructions` and the package-benchmark suite leave them
/// out.
package struct StoreComparison: Sendable {
  /// One figure of a row, one line of the table.
  package enum Figure: String, Sendable {
    /// Wall time per iteration.
    case wallTime = "wall time"
    /// The process's CPU time per iteration, every thread's.
    case cpuTime = "CPU time"
    /// Bytes handed to the system to write per iteration, every thread's.
    case bytesWritten = "bytes written"
    /// Heap kept per element while one iteration's store is open.
    case heapPerElement = "heap per element"
  }

  /// The row's name, `store/…`.
  package var path: String
  /// The figures shown, in order, each with its goal.
  package var figures: [(Figure, Comparison.Target)]
  /// What the baseline is, in a few words.
  package var baselineName: String
  /// Elements in the store: the divisor of ``Figure/heapPerElement``.
  package var elements: Int
  /// The most iterations one batch may run.
  package var maxBatch: Int
  package var kit: @MainActor @Sendable () -> any Fixture
  package var baseline: @MainActor @Sendable () -> any Fixture

  package init(
    _ path: String, figures: [(Figure, Comparison.Target)], baselineName: String,
    elements: Int, maxBatch: Int = 1 << 20,
    kit: @escaping @MainActor @Sendable () -> any Fixture,
    baseline: @escaping @MainActor @Sendable () -> any Fixture
  ) {
    self.path = path
    self.figures = figures
    self.baselineName = baselineName
    self.elements = elements
    self.maxBatch = maxBatch
    self.kit = kit
    self.baseline = baseline
  }
}

/// A row made of two store rows of the same run: the kit figure of one
/// against the kit figure of the other (the database store against the JSON
/// store), so that neither is measured twice.
package struct StoreRatio: Sendable {
  package var path: String
  package var figure: StoreComparison.Figure
  package var target: Comparison.Target
  /// The row whose kit figure is this row's kit figure.
  package var kitRow: String
  /// The row whose kit figure is this row's baseline.
  package var baselineRow: String
  package var baselineName: String
}

/// A kit workload and the baseline it is compared with, run side by side.
package struct Comparison: Sendable {
  /// What one iteration is measured in.
  package enum Measure: Sendable {
    /// Wall time per iteration.
    case time
    /// Heap bytes kept per iteration (one iteration makes one object).
    case bytes
  }

  /// The goal the kit's figure is checked against.
  package enum Target: Sendable {
    /// kit / baseline at most this.
    case ratioAtMost(Double)
    /// baseline / kit at least this: the kit is this many times faster.
    case kitFaster(Double)
    /// kit bytes per iteration at most this.
    case bytesAtMost(Double)
    /// Shown for context, no goal.
    case none
  }

  /// The row's name: a slash-separated path, group first.
  package var path: String
  package var measure: Measure
  package var target: Target
  /// What the baseline is, in a few words.
  package var baselineName: String
  /// The most iterations one batch may run (a fixture whose state grows
  /// with each iteration bounds it).
  package var maxBatch: Int
  /// Iterations per sample in the package-benchmark suite: 1, 1,000 or
  /// 1,000,000 (its scaling factors), so that a sample is neither
  /// dominated by the clock nor seconds long.
  package var perSample: Int
  package var kit: @MainActor @Sendable () -> any Fixture
  package var baseline: (@MainActor @Sendable () -> any Fixture)?

  package init(
    _ path: String,
    measure: Measure = .time,
    target: Target,
    baselineName: String,
    maxBatch: Int = 1 << 24,
    perSample: Int = 1_000,
    kit: @escaping @MainActor @Sendable () -> any Fixture,
    baseline: (@MainActor @Sendable () -> any Fixture)?
  ) {
    self.path = path
    self.measure = measure
    self.target = target
    self.baselineName = baselineName
    self.maxBatch = maxBatch
    self.perSample = perSample
    self.kit = kit
    self.baseline = baseline
  }
}

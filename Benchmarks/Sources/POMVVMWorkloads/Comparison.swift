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

import CHeapStats
import POMVVMWorkloads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func now() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// One untimed prepare, a timed run, an untimed finish: nanoseconds per
/// iteration.
@MainActor
func timeBatch(_ fixture: any Fixture, _ iterations: Int) -> Double {
  fixture.prepare(iterations)
  let start = now()
  fixture.run(iterations)
  let elapsed = now() - start
  fixture.finish()
  return Double(elapsed) / Double(iterations)
}

/// The iterations per batch that take at least `nanoseconds`, at most
/// `limit`; the trial batches warm the fixture up.
@MainActor
func calibrate(_ fixture: any Fixture, nanoseconds: Double, limit: Int) -> Int {
  var iterations = 1
  while true {
    let perIteration = timeBatch(fixture, iterations)
    let total = perIteration * Double(iterations)
    if total >= nanoseconds || iterations >= limit { return iterations }
    let wanted = Double(iterations) * nanoseconds / max(total, 1) * 1.2
    iterations = min(limit, max(iterations * 2, Int(min(wanted, 1e12))))
  }
}

/// Runs one variant of each matching time row `iterations` times, untimed,
/// after one warm-up iteration: what a run with N iterations costs beyond
/// one with 0 is N iterations' work, setup excluded.
@MainActor
func runFixed(_ iterations: Int, _ settings: Settings) {
  for comparison in catalog where comparison.measure == .time && settings.wants(comparison.path) {
    let made: (any Fixture)? =
      switch settings.variant {
      case .kit: comparison.kit()
      case .baseline: comparison.baseline?()
      }
    guard let fixture = made else { continue }
    for count in [1, iterations] where count > 0 {
      fixture.prepare(count)
      fixture.run(count)
      fixture.finish()
    }
  }
}

/// Times the kit and the baseline in alternating batches (neither always
/// runs first) and keeps each one's best batch.
@MainActor
func measureTime(_ comparison: Comparison, _ settings: Settings) -> (Double, Double?) {
  let kit = comparison.kit()
  let baseline = comparison.baseline?()
  let kitIterations = calibrate(
    kit, nanoseconds: settings.batchNanoseconds, limit: comparison.maxBatch)
  let baselineIterations = baseline.map {
    calibrate($0, nanoseconds: settings.batchNanoseconds, limit: comparison.maxBatch)
  }
  var bestKit = Double.infinity
  var bestBaseline = Double.infinity
  for round in 0..<settings.rounds {
    if round % 2 == 0 {
      bestKit = min(bestKit, timeBatch(kit, kitIterations))
    }
    if let baseline, let baselineIterations {
      bestBaseline = min(bestBaseline, timeBatch(baseline, baselineIterations))
    }
    if round % 2 == 1 {
      bestKit = min(bestKit, timeBatch(kit, kitIterations))
    }
  }
  return (bestKit, baseline == nil ? nil : bestBaseline)
}

/// Bytes in use on the heap, chunk overhead included.
func heapInUse() -> Int {
  Int(cheapstats_heap_in_use())
}

/// The heap's growth per iteration while a fresh fixture runs one batch.
@MainActor
func bytesPerIteration(_ fixture: any Fixture, _ iterations: Int) -> Double {
  fixture.prepare(iterations)
  let before = heapInUse()
  fixture.run(iterations)
  let after = heapInUse()
  fixture.finish()
  return Double(after - before) / Double(iterations)
}

@MainActor
func measureBytes(_ comparison: Comparison) -> (Double, Double?) {
  let kit = bytesPerIteration(comparison.kit(), comparison.maxBatch)
  let baseline = comparison.baseline.map { bytesPerIteration($0(), comparison.maxBatch) }
  return (kit, baseline)
}

/// Times an awaited row: the kit and the baseline in alternating batches of
/// a fixed size, keeping each one's best.
@MainActor
func measureAsync(_ comparison: AsyncComparison, _ settings: Settings) async -> (Double, Double) {
  let iterations = 2_000
  await comparison.kit(iterations)
  await comparison.baseline(iterations)
  var bestKit = Double.infinity
  var bestBaseline = Double.infinity
  for round in 0..<max(2, settings.rounds) {
    for runsKit in round % 2 == 0 ? [true, false] : [false, true] {
      let start = now()
      if runsKit {
        await comparison.kit(iterations)
      } else {
        await comparison.baseline(iterations)
      }
      let perIteration = Double(now() - start) / Double(iterations)
      if runsKit {
        bestKit = min(bestKit, perIteration)
      } else {
        bestBaseline = min(bestBaseline, perIteration)
      }
    }
  }
  return (bestKit, bestBaseline)
}

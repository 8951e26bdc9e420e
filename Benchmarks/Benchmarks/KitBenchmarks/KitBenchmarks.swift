import Benchmark
import POMVVMWorkloads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The package-benchmark suite: every comparison of the ratio table, its kit
// variant and its baseline as two benchmarks, `<path>.kit` and
// `<path>.baseline`, so that baselines and thresholds track each on its own.
// Names are the table's paths made file-name safe (`cell/set -> 1 observer`
// is `cell.set-1-observer`): the thresholds files are named after them.
//
// POMVVM_BENCHMARK_QUICK=1 shortens every benchmark to a few samples, for CI.
let benchmarks: @Sendable () -> Void = {
  let quick = getenv("POMVVM_BENCHMARK_QUICK") != nil
  for comparison in catalog {
    register(comparison, "kit", quick: quick, comparison.kit)
    if let baseline = comparison.baseline {
      register(comparison, "baseline", quick: quick, baseline)
    }
  }
}

private func register(
  _ comparison: Comparison, _ side: String, quick: Bool,
  _ make: @escaping @MainActor @Sendable () -> any Fixture
) {
  let name = "\(fileNameSafe(comparison.path)).\(side)"
  let metrics: [BenchmarkMetric] =
    switch comparison.measure {
    case .time: [.wallClock, .instructions, .mallocCountTotal, .throughput]
    case .bytes: [.memoryLeakedBytes, .mallocBytesCount, .mallocCountTotal]
    }
  let configuration = Benchmark.Configuration(
    metrics: metrics,
    warmupIterations: quick ? 1 : 3,
    scalingFactor: comparison.measure == .bytes ? .kilo : scalingFactor(comparison.perSample),
    maxDuration: quick ? .milliseconds(100) : .seconds(1),
    maxIterations: quick ? 5 : 10_000,
    thresholds: thresholds(comparison.measure))
  Benchmark(name, configuration: configuration) { benchmark in
    let handle = Handle(benchmark: benchmark)
    await MainActor.run { sample(name, handle, make) }
  } teardown: {
    await MainActor.run { fixtures[name] = nil }
  }
}

/// `array/toggle, n = 1,000` as `array.toggle-n-1-000`.
private func fileNameSafe(_ path: String) -> String {
  var result = ""
  for character in path.lowercased() {
    if character == "/" {
      result.append(".")
    } else if character.isASCII && (character.isLetter || character.isNumber) {
      result.append(character)
    } else if let last = result.last, last != "-", last != "." {
      result.append("-")
    }
  }
  while result.last == "-" { result.removeLast() }
  return result
}

private func scalingFactor(_ perSample: Int) -> BenchmarkScalingFactor {
  switch perSample {
  case ..<1_000: .one
  case ..<1_000_000: .kilo
  default: .mega
  }
}

/// What `baseline check` and `thresholds check` tolerate before they fail:
/// time varies with the machine; allocations vary only by an occasional
/// buffer growth inside a sample.
private func thresholds(
  _ measure: Comparison.Measure
) -> [BenchmarkMetric: BenchmarkThresholds] {
  let time = BenchmarkThresholds(relative: [.p50: 25], absolute: [:])
  let exact = BenchmarkThresholds(relative: [:], absolute: [.p50: 2])
  return switch measure {
  case .time: [.wallClock: time, .instructions: time, .mallocCountTotal: exact]
  case .bytes: [.memoryLeakedBytes: exact, .mallocCountTotal: exact]
  }
}

/// The benchmark, handed to the main actor while the runner waits for it.
private struct Handle: @unchecked Sendable {
  let benchmark: Benchmark
}

/// Each benchmark's fixture, built by its first sample and kept for the
/// others (a 100,000-row array is not rebuilt for every sample).
@MainActor
private var fixtures: [String: any Fixture] = [:]

@MainActor
private func sample(
  _ name: String, _ handle: Handle, _ make: @MainActor () -> any Fixture
) {
  let fixture = fixtures[name] ?? make()
  fixtures[name] = fixture
  let benchmark = handle.benchmark
  let iterations = benchmark.scaledIterations.count
  fixture.prepare(iterations)
  benchmark.startMeasurement()
  fixture.run(iterations)
  benchmark.stopMeasurement()
  fixture.finish()
  POMVVMWorkloads.blackHole(sharedSink.total)
}

import POMVVMWorkloads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the process has used so far: the wall clock, its CPU time (every
/// thread's, so a store's save thread counts) and the bytes it has written.
struct Usage {
  var wall: UInt64
  var cpu: UInt64
  var written: UInt64?

  static func current() -> Usage {
    var spec = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &spec)
    let cpu = UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    return Usage(wall: now(), cpu: cpu, written: bytesWritten())
  }
}

/// The bytes the process has handed to `write(2)` and its kin so far.
///
/// Every thread's (`wchar` of `/proc/self/io`), or `nil` where there is no
/// `/proc`. Reading the file counts as reading, not writing.
func bytesWritten() -> UInt64? {
  #if os(Linux)
  let descriptor = open("/proc/self/io", O_RDONLY)
  guard descriptor >= 0 else { return nil }
  defer { close(descriptor) }
  var buffer = [UInt8](repeating: 0, count: 512)
  let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
  guard count > 0 else { return nil }
  let text = String(decoding: buffer[..<count], as: UTF8.self)
  for line in text.split(separator: "\n") where line.hasPrefix("wchar:") {
    return UInt64(line.dropFirst("wchar:".count).drop { $0 == " " })
  }
  return nil
  #else
  return nil
  #endif
}

/// One batch's figures per iteration.
struct StoreSample {
  var iterations: Int
  var wall: Double
  var cpu: Double
  var written: Double?
}

/// One untimed prepare, a measured run, an untimed finish.
@MainActor
func storeBatch(_ fixture: any Fixture, _ iterations: Int) -> StoreSample {
  fixture.prepare(iterations)
  let start = Usage.current()
  fixture.run(iterations)
  let end = Usage.current()
  fixture.finish()
  let count = Double(iterations)
  var written: Double?
  if let before = start.written, let after = end.written {
    written = Double(after - before) / count
  }
  return StoreSample(
    iterations: iterations, wall: Double(end.wall - start.wall) / count,
    cpu: Double(end.cpu - start.cpu) / count, written: written)
}

/// A store row's figures for one variant: the best and the median batch in
/// time, and the bytes written over every batch (a checkpoint of the
/// write-ahead log lands in some batches only).
struct StoreFigures {
  var best: [StoreComparison.Figure: Double] = [:]
  var median: [StoreComparison.Figure: Double] = [:]

  init(_ samples: [StoreSample]) {
    func middle(_ values: [Double]) -> Double {
      let sorted = values.sorted()
      return sorted[sorted.count / 2]
    }
    best[.wallTime] = samples.map(\.wall).min()
    best[.cpuTime] = samples.map(\.cpu).min()
    median[.wallTime] = middle(samples.map(\.wall))
    median[.cpuTime] = middle(samples.map(\.cpu))
    if samples.allSatisfy({ $0.written != nil }) {
      let bytes = samples.reduce(0) { $0 + ($1.written ?? 0) * Double($1.iterations) }
      let iterations = samples.reduce(0) { $0 + $1.iterations }
      best[.bytesWritten] = bytes / Double(iterations)
      median[.bytesWritten] = best[.bytesWritten]
    }
  }

  init(heapPerElement: Double) {
    best[.heapPerElement] = heapPerElement
    median[.heapPerElement] = heapPerElement
  }
}

/// Measures a store row: the kit and the baseline in alternating batches,
/// each batch at least the settings' length, or the heap one open store
/// keeps.
@MainActor
func measureStore(
  _ comparison: StoreComparison, _ settings: Settings
) -> (kit: StoreFigures, baseline: StoreFigures) {
  if comparison.figures.contains(where: { $0.0 == .heapPerElement }) {
    let elements = Double(max(1, comparison.elements))
    return (
      StoreFigures(heapPerElement: bytesPerIteration(comparison.kit(), 1) / elements),
      StoreFigures(heapPerElement: bytesPerIteration(comparison.baseline(), 1) / elements)
    )
  }
  let kit = comparison.kit()
  let baseline = comparison.baseline()
  let kitIterations = calibrate(
    kit, nanoseconds: settings.batchNanoseconds, limit: comparison.maxBatch)
  let baselineIterations = calibrate(
    baseline, nanoseconds: settings.batchNanoseconds, limit: comparison.maxBatch)
  var kitSamples: [StoreSample] = []
  var baselineSamples: [StoreSample] = []
  for round in 0..<settings.rounds {
    if round % 2 == 0 { kitSamples.append(storeBatch(kit, kitIterations)) }
    baselineSamples.append(storeBatch(baseline, baselineIterations))
    if round % 2 == 1 { kitSamples.append(storeBatch(kit, kitIterations)) }
  }
  return (StoreFigures(kitSamples), StoreFigures(baselineSamples))
}

/// Runs the store rows that the settings select, adds their lines to the
/// table, and returns their medians, printed after it.
@MainActor
func runStoreRows(_ settings: Settings, into table: inout RatioTable) -> [String] {
  let comparisons = storeComparisons(sizes: settings.storeSizes).filter {
    settings.wants($0.path)
  }
  guard !comparisons.isEmpty else { return [] }
  var medians: [String] = []
  var kitFigures: [String: StoreFigures] = [:]
  for comparison in comparisons {
    let (kit, baseline) = measureStore(comparison, settings)
    kitFigures[comparison.path] = kit
    table.addBaseline(comparison.baselineName, for: comparison.path)
    for (shown, target) in comparison.figures {
      guard let best = kit.best[shown] else { continue }
      let unit = unit(of: shown)
      let path = "\(comparison.path): \(shown.rawValue)"
      table.add(
        path, unit: unit, target: target, baselineName: "", kit: best,
        baseline: baseline.best[shown])
      if shown == .wallTime || shown == .cpuTime, let kitMedian = kit.median[shown],
        let baselineMedian = baseline.median[shown]
      {
        medians.append(
          "  \(path): \(figure(kitMedian, unit)) vs \(figure(baselineMedian, unit)), "
            + "\(format(kitMedian / baselineMedian))×")
      }
    }
  }
  for ratio in storeRatios(sizes: settings.storeSizes) where settings.wants(ratio.path) {
    guard let kit = kitFigures[ratio.kitRow], let baseline = kitFigures[ratio.baselineRow],
      let kitBest = kit.best[ratio.figure]
    else { continue }
    let unit = unit(of: ratio.figure)
    let path = "\(ratio.path): \(ratio.figure.rawValue)"
    table.add(
      path, unit: unit, target: ratio.target, baselineName: ratio.baselineName, kit: kitBest,
      baseline: baseline.best[ratio.figure])
    if let kitMedian = kit.median[ratio.figure], let baselineMedian = baseline.median[ratio.figure]
    {
      medians.append(
        "  \(path): \(figure(kitMedian, unit)) vs \(figure(baselineMedian, unit)), "
          + "\(format(kitMedian / baselineMedian))×")
    }
  }
  removeStoreFiles()
  return medians
}

private func unit(of figure: StoreComparison.Figure) -> RatioTable.Unit {
  switch figure {
  case .wallTime, .cpuTime: .time
  case .bytesWritten: .writtenBytes
  case .heapPerElement: .heapBytes
  }
}

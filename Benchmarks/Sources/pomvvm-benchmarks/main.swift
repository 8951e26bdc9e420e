import POMVVMWorkloads

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// Top-level code runs on the main actor; it awaits the rows whose work
// needs the main actor to run tasks.
let settings = Settings.parse(CommandLine.arguments)
if let iterations = settings.fixedIterations {
  runFixed(iterations, settings)
  exit(0)
}
var table = RatioTable()
for comparison in catalog where settings.wants(comparison.path) {
  let (kit, baseline) =
    switch comparison.measure {
    case .time: measureTime(comparison, settings)
    case .bytes: measureBytes(comparison)
    }
  table.add(comparison, kit: kit, baseline: baseline)
}
for comparison in asyncTimeComparisons where settings.wants(comparison.path) {
  let (kit, baseline) = await measureAsync(comparison, settings)
  table.add(
    Comparison(
      comparison.path, target: .none, baselineName: comparison.baselineName,
      kit: { Loop { _ in } }, baseline: nil),
    kit: kit, baseline: baseline)
}
let storeMedians = runStoreRows(settings, into: &table)
table.print()
if !storeMedians.isEmpty {
  print("\nStore rows, medians of \(settings.rounds) batches (kit vs baseline):")
  for line in storeMedians { print(line) }
}
blackHole(sharedSink.total)
if settings.check && !table.misses.isEmpty {
  print("\nMissed targets: \(table.misses.joined(separator: "; "))")
  exit(1)
}

import CHeapStats

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long to run each measurement; `--smoke` makes every count tiny, for CI.
struct Settings {
  var scale = 1.0
  var filter: String?

  static func parse(_ arguments: [String]) -> Settings {
    var settings = Settings()
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
      switch argument {
      case "--smoke": settings.scale = 0.001
      case "--scale":
        guard let text = rest.popFirst(), let value = Double(text), value > 0 else {
          usage("--scale takes a positive number")
        }
        settings.scale = value
      case "--filter":
        guard let text = rest.popFirst() else { usage("--filter takes a word") }
        settings.filter = text
      case "-h", "--help": usage(nil)
      default: usage("unknown argument \(argument)")
      }
    }
    return settings
  }

  func iterations(_ base: Int) -> Int { max(1, Int(Double(base) * scale)) }

  func wants(_ group: String) -> Bool { filter.map { group.contains($0) } ?? true }
}

func usage(_ problem: String?) -> Never {
  if let problem { print("error: \(problem)") }
  print("usage: pomvvm-benchmarks [--smoke] [--scale X] [--filter WORD]")
  exit(problem == nil ? 0 : 2)
}

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Hides a value's origin from the optimizer.
@inline(never)
func opaque<T>(_ value: T) -> T { value }

func now() -> UInt64 {
  var spec = timespec()
  clock_gettime(CLOCK_MONOTONIC, &spec)
  return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Runs `body(iterations)` several times and returns the best time per
/// iteration in nanoseconds (the best run is the one least disturbed).
@MainActor
func measure(_ iterations: Int, repeats: Int = 7, _ body: (Int) -> Void) -> Double {
  body(max(1, iterations / 10))  // warm up
  var best = Double.infinity
  for _ in 0..<repeats {
    let start = now()
    body(iterations)
    let elapsed = Double(now() - start) / Double(iterations)
    best = min(best, elapsed)
  }
  return best
}

/// Bytes in use on the heap, chunk overhead included.
func heapInUse() -> Int {
  Int(cheapstats_heap_in_use())
}

/// Heap bytes per object that `make` allocates, over `count` objects kept alive.
@MainActor
func bytesPerObject(_ count: Int, _ make: (inout [AnyObject]) -> Void) -> Double {
  var keep: [AnyObject] = []
  keep.reserveCapacity(count * 4)
  let before = heapInUse()
  for _ in 0..<count {
    make(&keep)
  }
  let after = heapInUse()
  blackHole(keep)
  return Double(after - before) / Double(count)
}

/// A table row: a figure and its ratios to the baselines measured in the same run.
struct Report {
  private var rows: [(String, String, String)] = []

  mutating func add(_ name: String, _ value: Double, unit: String, ratios: [(String, Double)] = [])
  {
    let figure = value >= 100 ? String(Int(value.rounded())) : format(value, 2)
    let ratioText = ratios.map { name, baseline in
      baseline > 0 ? "\(format(value / baseline, 2))x \(name)" : "(no \(name) figure)"
    }.joined(separator: ", ")
    rows.append((name, "\(figure) \(unit)", ratioText))
  }

  func print() {
    let nameWidth = rows.map(\.0.count).max() ?? 0
    let valueWidth = rows.map(\.1.count).max() ?? 0
    for (name, value, ratios) in rows {
      let line =
        name + String(repeating: " ", count: nameWidth - name.count + 2)
        + String(repeating: " ", count: valueWidth - value.count) + value
        + (ratios.isEmpty ? "" : "   " + ratios)
      Swift.print(line)
    }
  }
}

func format(_ value: Double, _ digits: Int) -> String {
  guard value.isFinite else { return "\(value)" }
  var scaled = (value * pow(10, Double(digits))).rounded()
  if scaled == 0 { scaled = 0 }
  let text = String(Int(scaled))
  let padded = String(repeating: "0", count: max(0, digits + 1 - text.count)) + text
  return padded.dropLast(digits) + "." + padded.suffix(digits)
}

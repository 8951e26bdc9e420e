#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How long to measure, and which rows.
struct Settings {
  /// The shortest timed batch, in nanoseconds; calibration picks the
  /// iterations per batch to reach it.
  var batchNanoseconds = 20_000_000.0
  /// Timed batches per variant; the best one is reported.
  var rounds = 7
  /// The sizes of the store rows: the issue's, or small ones for a smoke
  /// run, whose store rows then take a few seconds.
  var storeSizes = [1_000, 10_000, 100_000]
  var filter: String?
  /// Exit with status 1 if a row misses its target.
  var check = false
  /// Run each matching time row's variant this many times, untimed, and
  /// print nothing: for instruction counts under callgrind
  /// (`scripts/count-instructions`).
  var fixedIterations: Int?
  /// Which variant a fixed run runs.
  var variant = Variant.kit

  enum Variant: String {
    case kit
    case baseline
  }

  static func parse(_ arguments: [String]) -> Settings {
    var settings = Settings()
    var rest = arguments.dropFirst()
    while let argument = rest.popFirst() {
      switch argument {
      case "--smoke":
        settings.batchNanoseconds = 1_000_000
        settings.rounds = 3
        settings.storeSizes = [100, 1_000]
      case "--rounds":
        guard let text = rest.popFirst(), let value = Int(text), value > 0 else {
          usage("--rounds takes a positive whole number")
        }
        settings.rounds = value
      case "--batch-ms":
        guard let text = rest.popFirst(), let value = Double(text), value > 0 else {
          usage("--batch-ms takes a positive number")
        }
        settings.batchNanoseconds = value * 1e6
      case "--filter":
        guard let text = rest.popFirst() else { usage("--filter takes a word") }
        settings.filter = text
      case "--check": settings.check = true
      case "--iterations":
        guard let text = rest.popFirst(), let value = Int(text), value >= 0 else {
          usage("--iterations takes a whole number")
        }
        settings.fixedIterations = value
      case "--variant":
        guard let text = rest.popFirst(), let value = Variant(rawValue: text) else {
          usage("--variant takes kit or baseline")
        }
        settings.variant = value
      case "-h", "--help": usage(nil)
      default: usage("unknown argument \(argument)")
      }
    }
    return settings
  }

  /// Whether a row is selected: its path contains the filter, or, for a
  /// filter that starts with `=`, is the rest of it.
  func wants(_ path: String) -> Bool {
    guard let filter else { return true }
    return filter.first == "=" ? path == filter.dropFirst() : path.contains(filter)
  }
}

func usage(_ problem: String?) -> Never {
  if let problem { print("error: \(problem)") }
  print(
    """
    usage: pomvvm-benchmarks [--smoke] [--rounds N] [--batch-ms MS] [--filter WORD] [--check]
           pomvvm-benchmarks --iterations N [--variant kit|baseline] [--filter WORD]

      --smoke        1 ms batches, 3 rounds, store rows at n = 100 and 1,000:
                     the whole table in seconds (CI)
      --rounds N     timed batches per variant, best kept (default 7)
      --batch-ms MS  shortest timed batch (default 20)
      --filter WORD  only the rows whose path contains WORD (=PATH: exactly PATH)
      --check        exit 1 if a row misses its target
      --iterations N run each matching time row's variant N times, untimed, and
                     print nothing (instruction counts: scripts/count-instructions)
      --variant V    the variant --iterations runs: kit (default) or baseline
    """)
  exit(problem == nil ? 0 : 2)
}

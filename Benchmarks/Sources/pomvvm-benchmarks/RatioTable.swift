import POMVVMWorkloads

/// The side-by-side table: each row's kit figure, its baseline's from the
/// same run, their ratio and the target.
struct RatioTable {
  private var rows: [[String]] = []
  private var baselines: [(String, String)] = []
  private(set) var misses: [String] = []

  /// What a row's figures count.
  enum Unit {
    /// Nanoseconds.
    case time
    /// Bytes of heap.
    case heapBytes
    /// Bytes written to files.
    case writtenBytes
  }

  mutating func add(_ comparison: Comparison, kit: Double, baseline: Double?) {
    add(
      comparison.path, unit: comparison.measure == .time ? .time : .heapBytes,
      target: comparison.target, baselineName: comparison.baselineName, kit: kit,
      baseline: baseline)
  }

  mutating func add(
    _ path: String, unit: Unit, target: Comparison.Target, baselineName: String, kit: Double,
    baseline: Double?
  ) {
    let ratio = baseline.map { $0 > 0 ? kit / $0 : .infinity }
    var ratioText = ratio.map { format($0) + "×" } ?? "—"
    if let ratio, ratio > 0, ratio < 0.5 {
      ratioText += " (\(format(1 / ratio))× \(unit == .time ? "faster" : "smaller"))"
    }
    let (targetText, met) = Self.judge(target, unit: unit, kit: kit, ratio: ratio)
    if met == false { misses.append(path) }
    rows.append([
      path, figure(kit, unit), baseline.map { figure($0, unit) } ?? "—", ratioText,
      targetText, met.map { $0 ? "ok" : "MISS" } ?? "",
    ])
    if !baselineName.isEmpty {
      baselines.append((path, baselineName))
    }
  }

  /// Names a baseline once for several lines: the store rows' figures.
  mutating func addBaseline(_ name: String, for path: String) {
    baselines.append((path, name))
  }

  private static func judge(
    _ target: Comparison.Target, unit: Unit, kit: Double, ratio: Double?
  ) -> (String, Bool?) {
    switch target {
    case .ratioAtMost(let limit): ("≤ \(limit.formatted)×", ratio.map { $0 <= limit })
    case .kitFaster(let factor):
      ("≥ \(factor.formatted)× faster", ratio.map { $0 > 0 && 1 / $0 >= factor })
    case .bytesAtMost(let limit):
      (unit == .writtenBytes ? "≤ \(figure(limit, unit))" : "≤ \(limit.formatted) B", kit <= limit)
    case .none: ("—", nil)
    }
  }

  func print() {
    let header = ["path", "kit", "baseline", "ratio", "target", ""]
    let all = [header] + rows
    let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
    for (index, row) in all.enumerated() {
      let cells = row.indices.map { column -> String in
        let padding = String(repeating: " ", count: widths[column] - row[column].count)
        // Figures are right-aligned, names left-aligned.
        return (1...3).contains(column) ? padding + row[column] : row[column] + padding
      }
      Swift.print(cells.joined(separator: " | "))
      if index == 0 {
        Swift.print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-"))
      }
    }
    Swift.print("\nBaselines:")
    for (path, name) in baselines {
      Swift.print("  \(path): \(name)")
    }
  }
}

func figure(_ value: Double, _ unit: RatioTable.Unit) -> String {
  switch unit {
  case .heapBytes: return "\(format(value)) B"
  case .writtenBytes:
    if value >= 1_048_576 { return "\(format(value / 1_048_576)) MB" }
    if value >= 1_024 { return "\(format(value / 1_024)) KB" }
    return "\(format(value)) B"
  case .time:
    if value >= 1e6 { return "\(format(value / 1e6)) ms" }
    if value >= 1e3 { return "\(format(value / 1e3)) µs" }
    return "\(format(value)) ns"
  }
}

/// Three significant figures, whole numbers from 100 on: `0.0123`, `1.23`,
/// `45.6`, `789`, `1,234`.
func format(_ value: Double) -> String {
  guard value.isFinite else { return "\(value)" }
  guard value >= 0 else { return "-" + format(-value) }
  var digits = 0
  var limit = 100.0
  while value < limit && digits < 6 {
    digits += 1
    limit /= 10
  }
  var scale = 1
  for _ in 0..<digits { scale *= 10 }
  let scaled = Int((value * Double(scale)).rounded())
  guard digits > 0 else { return grouped(scaled) }
  let fraction = String(scaled % scale)
  return "\(scaled / scale)." + String(repeating: "0", count: digits - fraction.count) + fraction
}

extension Double {
  /// The shortest decimal text: `10`, `1.3`.
  fileprivate var formatted: String {
    self == rounded() ? String(Int(self)) : "\(self)"
  }
}

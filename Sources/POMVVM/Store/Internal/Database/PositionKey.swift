/// Where a row stands in the store's order: rows are read sorted by
/// `(major, minor)`, the major as an integer and the minor as bytes
/// compared one by one (a shorter key before the longer ones it begins).
///
/// Rows are numbered with gaps (``gap`` apart) when a database is created
/// or reloaded, and a row that is inserted or moved takes a key between
/// its new neighbours' keys: the middle of the gap while there is one, and
/// then a fraction in the minor (bytes read as the digits of a number
/// between 0 and 1, in base 256, never ending in 0, so that there is
/// always room between two keys). So an insertion or a move writes that
/// row only, never a renumbering of the others. Keys grow only where rows
/// keep being inserted at the same spot: about one byte per eight there,
/// after the twenty halvings of the gap.
struct _PositionKey: Comparable, Hashable {
  var major: Int64
  var minor: [UInt8]

  /// The distance between the rows of a database created or reloaded.
  static let gap: Int64 = 1 << 20

  /// The key of the row at `index` in a database numbered afresh.
  static func numbered(_ index: Int) -> _PositionKey {
    _PositionKey(major: Int64(index) &* gap, minor: [])
  }

  static func < (lhs: _PositionKey, rhs: _PositionKey) -> Bool {
    if lhs.major != rhs.major { return lhs.major < rhs.major }
    return lhs.minor.lexicographicallyPrecedes(rhs.minor)
  }

  /// A key after `low` and before `high`; `nil` is the start or the end.
  ///
  /// - Precondition: `low < high`, when both are given; a caller whose
  ///   neighbours are out of order (another process moved them) passes
  ///   only one.
  static func between(_ low: _PositionKey?, _ high: _PositionKey?) -> _PositionKey {
    switch (low, high) {
    case (nil, nil):
      return numbered(0)
    case (let low?, nil):
      if low.major <= Int64.max - gap { return _PositionKey(major: low.major + gap, minor: []) }
      return _PositionKey(major: low.major, minor: midpoint(low.minor, nil))
    case (nil, let high?):
      if high.major >= Int64.min + gap { return _PositionKey(major: high.major - gap, minor: []) }
      if !high.minor.isEmpty {
        return _PositionKey(major: high.major, minor: midpoint([], high.minor))
      }
      return _PositionKey(major: high.major - 1, minor: [])
    case (let low?, let high?):
      let distance = UInt64(bitPattern: high.major) &- UInt64(bitPattern: low.major)
      if high.major > low.major && distance >= 2 {
        return _PositionKey(major: low.major &+ Int64(distance / 2), minor: [])
      }
      if low.major == high.major {
        return _PositionKey(major: low.major, minor: midpoint(low.minor, high.minor))
      }
      // Adjacent majors: after `low`, within its major.
      return _PositionKey(major: low.major, minor: midpoint(low.minor, nil))
    }
  }

  /// Digits strictly between `low` and `high` (`nil`: 1), as base-256
  /// fractions; neither ends in a 0 digit, and `low < high`.
  static func midpoint(_ low: [UInt8], _ high: [UInt8]?) -> [UInt8] {
    var result: [UInt8] = []
    var low = low[...]
    var high = high?[...]
    while true {
      if let upper = high {
        // The digits they share.
        var shared = 0
        while shared < upper.count,
          (shared < low.count ? low[low.startIndex + shared] : 0)
            == upper[upper.startIndex + shared]
        {
          shared += 1
        }
        if shared > 0 {
          result += upper.prefix(shared)
          low = low.dropFirst(shared)
          high = upper.dropFirst(shared)
          continue
        }
      }
      let lowDigit = Int(low.first ?? 0)
      let highDigit = high.flatMap { $0.first.map(Int.init) } ?? 256
      if highDigit - lowDigit > 1 {
        result.append(UInt8((lowDigit + highDigit) / 2))
        return result
      }
      if let upper = high, upper.count > 1 {
        result.append(upper[upper.startIndex])
        return result
      }
      result.append(UInt8(lowDigit))
      low = low.dropFirst()
      high = nil
    }
  }
}

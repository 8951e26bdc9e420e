/// Everything a check observes, in order, so that whole histories are
/// compared at once.
@MainActor
final class History<Entry> {
  private(set) var entries: [Entry] = []

  func record(_ entry: Entry) {
    entries.append(entry)
  }

  func clear() {
    entries.removeAll()
  }
}

/// Whether two histories hold equivalent values, in the same order.
func equivalent<Value>(
  _ seen: [Value], _ expected: [Value], by areEquivalent: (Value, Value) -> Bool
) -> Bool {
  seen.count == expected.count && zip(seen, expected).allSatisfy { areEquivalent($0, $1) }
}

/// A value told to a named observer, for checks of the order in which
/// observers are told.
struct Told<Value>: CustomStringConvertible {
  var observer: String
  var value: Value

  var description: String { "\(observer): \(describe(value))" }
}

/// Whether two histories of named observers match.
func equivalent<Value>(
  _ seen: [Told<Value>], _ expected: [Told<Value>], by areEquivalent: (Value, Value) -> Bool
) -> Bool {
  seen.count == expected.count
    && zip(seen, expected).allSatisfy {
      $0.observer == $1.observer && areEquivalent($0.value, $1.value)
    }
}

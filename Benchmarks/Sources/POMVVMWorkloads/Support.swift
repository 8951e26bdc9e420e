/// What every observer does with a value: enough work that it cannot be
/// optimized away, little enough that the delivery cost dominates.
@MainActor
package final class Sink {
  package var total = 0

  package init() {}
}

/// The sink every observer of every workload adds to; read once at the end.
@MainActor
package let sharedSink = Sink()

/// Keeps a value alive and opaque to the optimizer.
@inline(never)
package func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}

/// Hides a value's origin from the optimizer.
@inline(never)
package func opaque<T>(_ value: T) -> T { value }

/// The observer every variant calls: the same closure body, built out of line
/// so that no variant can inline it, each with its own context.
@MainActor
@inline(never)
package func makeObserver(_ sink: Sink = sharedSink) -> @MainActor (Int) -> Void {
  { sink.total &+= $0 }
}

/// The element of every array workload: a row of a list.
package struct Row: Identifiable, Hashable, Sendable {
  package var id: Int
  package var title: String
  package var on: Bool

  package init(id: Int, title: String, on: Bool) {
    self.id = id
    self.title = title
    self.on = on
  }
}

/// `count` rows with ids `0..<count`, every third one on.
package func makeRows(_ count: Int) -> [Row] {
  (0..<count).map { Row(id: $0, title: "row \($0)", on: $0 % 3 == 0) }
}

/// `100000` as `100,000`.
package func grouped(_ value: Int) -> String {
  let digits = String(value)
  var result = ""
  for (offset, digit) in digits.enumerated() {
    if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
    result.append(digit)
  }
  return result
}

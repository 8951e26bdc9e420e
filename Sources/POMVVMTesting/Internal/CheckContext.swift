/// The state of one call to a check: where to report, and the trace of
/// nested steps that failure messages show.
///
/// A check pushes a label for itself and one for every nested step, the way
/// swift-collections' `TestContext` does, so that a failure deep inside a
/// layered check (a Switchable check running the Observable laws on its
/// `on` cell, say) says which layer and which step it came from.
@MainActor
final class CheckContext {
  /// How many failures one check reports before it goes quiet; a broken type
  /// fails the same law at every step of a long run.
  static let failureLimit = 20

  let location: CallerLocation
  private var trace: [String]
  private(set) var failureCount = 0

  init(_ label: String, at location: CallerLocation) {
    self.location = location
    trace = [label]
  }

  /// Runs `body` with `label` pushed on the trace.
  func step<Result>(_ label: String, _ body: () throws -> Result) rethrows -> Result {
    trace.append(label)
    defer { trace.removeLast() }
    return try body()
  }

  /// Reports a failure with the current trace.
  func fail(_ headline: String) {
    failureCount += 1
    guard failureCount <= Self.failureLimit else { return }
    var message = headline + "\nTrace:"
    for label in trace {
      message += "\n  - \(label)"
    }
    if failureCount == Self.failureLimit {
      message += "\n(\(Self.failureLimit) failures: this check reports no more)"
    }
    recordFailure(message, at: location)
  }

  /// The laws of `family` about `subject`, reporting into this context.
  func laws(_ family: String, for subject: String) -> Laws {
    Laws(context: self, family: family, subject: subject)
  }
}

/// One family of laws about one subject, such as the Switchable laws of
/// `DateCellViewModel`: it words every failure the same way,
/// `<family> law '<law>' failed for <subject>: <details>`.
@MainActor
struct Laws {
  let context: CheckContext
  let family: String
  let subject: String

  /// Reports that `law` does not hold.
  func fail(_ law: String, _ details: String) {
    context.fail("\(family) law '\(law)' failed for \(subject): \(details)")
  }

  /// Reports that the check cannot run as called.
  func misuse(_ problem: String) {
    context.fail("\(family) check of \(subject) cannot run: \(problem)")
  }

  /// Checks that `law` holds; `details` says what was seen when it does not.
  @discardableResult
  func expect(_ law: String, _ holds: Bool, _ details: @autoclosure () -> String) -> Bool {
    if !holds {
      fail(law, details())
    }
    return holds
  }

  /// Checks that what was seen equals what `law` expects.
  @discardableResult
  func expectEqual<Value: Equatable>(
    _ law: String, _ seen: Value, _ expected: Value, _ what: String = ""
  ) -> Bool {
    let prefix = what.isEmpty ? "" : "\(what): "
    return expect(
      law, seen == expected, "\(prefix)expected \(describe(expected)), saw \(describe(seen))")
  }
}

/// A value as failure messages show it: strings in quotes, as they are in
/// arrays, and long descriptions, such as those of large arrays, cut short.
func describe<Value>(_ value: Value) -> String {
  let description = value is String ? String(reflecting: value) : String(describing: value)
  let limit = 600
  guard description.count > limit else { return description }
  return description.prefix(limit) + "… (\(description.count) characters)"
}

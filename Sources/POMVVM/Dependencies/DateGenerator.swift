#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Gives the current date: the dependency ``DependencyValues/date``.
///
/// ```swift
/// @Dependency(\.date) var date
/// let item = Item(date: date.now)   // or date()
/// ```
///
/// The app's value reads the system clock; a test sets a fixed one
/// (POMVVMTesting's `DateGenerator.constant(_:)`) or its own.
public struct DateGenerator: Sendable {
  private let generate: @Sendable () -> Date

  /// Creates a generator that calls `generate` for each date.
  ///
  /// - Parameter generate: Returns the current date.
  public init(_ generate: @escaping @Sendable () -> Date) {
    self.generate = generate
  }

  /// The current date.
  public var now: Date { generate() }

  /// The current date, as `date()`.
  ///
  /// - Returns: The current date.
  public func callAsFunction() -> Date { generate() }
}

extension DependencyValues {
  /// The current date: `Date()` in the app; in a test, set a fixed one.
  ///
  /// Its test value, which a test gets (after a failure) when it did not set
  /// one, always gives 2001-01-01 00:00:00 UTC (the reference date).
  public var date: DateGenerator {
    get { self[DateKey.self] }
    set { self[DateKey.self] = newValue }
  }
}

/// The key of ``DependencyValues/date``.
private enum DateKey: DependencyKey, _NamedDependencyKey {
  static var liveValue: DateGenerator { DateGenerator { Date() } }
  static var testValue: DateGenerator {
    DateGenerator { Date(timeIntervalSinceReferenceDate: 0) }
  }
  static var name: String { "date" }
}

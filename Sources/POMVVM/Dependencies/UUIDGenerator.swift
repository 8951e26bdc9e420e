#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Gives new ids: the dependency ``DependencyValues/uuid``.
///
/// ```swift
/// @Dependency(\.uuid) var uuid
/// let item = Item(id: uuid())
/// ```
///
/// The app's value makes random ids (`UUID()`); a test sets a predictable
/// one (POMVVMTesting's `UUIDGenerator.incrementing`) or its own.
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  /// Creates a generator that calls `generate` for each id.
  ///
  /// - Parameter generate: Returns the next id.
  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  /// The next id.
  ///
  /// - Returns: A new id.
  public func callAsFunction() -> UUID { generate() }
}

extension DependencyValues {
  /// Makes new ids: random ones (`UUID()`) in the app; in a test, set
  /// predictable ones.
  ///
  /// Its test value, which a test gets (after a failure) when it did not
  /// set one, always gives `00000000-0000-0000-0000-000000000000`.
  public var uuid: UUIDGenerator {
    get { self[UUIDKey.self] }
    set { self[UUIDKey.self] = newValue }
  }
}

/// The key of ``DependencyValues/uuid``.
private enum UUIDKey: DependencyKey, _NamedDependencyKey {
  static var liveValue: UUIDGenerator { UUIDGenerator { UUID() } }
  static var testValue: UUIDGenerator {
    UUIDGenerator { UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)) }
  }
  static var name: String { "uuid" }
}

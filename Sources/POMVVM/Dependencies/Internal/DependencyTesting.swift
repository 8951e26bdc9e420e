/// Where a dependency was read from, for the failure of a read in a test
/// that did not override it.
///
/// Not API: POMVVMTesting reports the failure at this location.
package struct _DependencyReader: Sendable {
  /// `@Dependency` or `withDependencies`: what read the value.
  package var kind: String
  package var fileID: StaticString
  package var filePath: StaticString
  package var line: UInt
  package var column: UInt
}

/// What POMVVMTesting gives the kit for dependencies: whether this process
/// runs tests, and a way to fail the running test.
///
/// Not API. The kit does not import Testing or XCTest. POMVVMTesting makes
/// ``_DependencyTestingHook`` conform to this protocol, and the kit looks the
/// conformance up at run time (a dynamic cast, which sees the conformances
/// of every module linked into the process): in an app that does not link
/// POMVVMTesting there is none, and every dependency has its live value.
package protocol _DependencyTesting: Sendable {
  /// Whether the process runs tests (an XCTest bundle, a Swift Testing run).
  static var isTesting: Bool { get }

  /// Fails the running test: a dependency that no override set was read.
  ///
  /// - Parameters:
  ///   - message: What was read, by whom, and how to override it.
  ///   - reader: Where it was read from, when known.
  static func reportUnimplemented(_ message: String, by reader: _DependencyReader?)
}

/// The type that POMVVMTesting makes conform to ``_DependencyTesting``.
///
/// Not API.
package enum _DependencyTestingHook {}

/// POMVVMTesting's conformance, looked up once; `nil` where it is not linked.
let _dependencyTesting: (any _DependencyTesting.Type)? =
  _DependencyTestingHook.self as Any.Type as? any _DependencyTesting.Type

/// A built-in dependency key that knows the name of its property on
/// `DependencyValues`, for failure messages: a computed property's key path
/// does not keep its name.
protocol _NamedDependencyKey {
  /// The property's name: `uuid`.
  static var name: String { get }
}

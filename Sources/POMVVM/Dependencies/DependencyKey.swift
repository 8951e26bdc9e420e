/// A key for one dependency in ``DependencyValues``: the value the app uses,
/// and the value a test that did not override it gets.
///
/// An app adds its own dependency with a key and a computed property on
/// ``DependencyValues`` that reads and writes through the key:
///
/// ```swift
/// struct SpeechClient: Sendable {
///   var transcribe: @Sendable (URL) async throws -> String
/// }
///
/// enum SpeechClientKey: DependencyKey {
///   static let liveValue = SpeechClient { url in try await recognize(url) }
///   static let testValue = SpeechClient { _ in "" }
/// }
///
/// extension DependencyValues {
///   var speech: SpeechClient {
///     get { self[SpeechClientKey.self] }
///     set { self[SpeechClientKey.self] = newValue }
///   }
/// }
/// ```
///
/// A view model then reads it with `@Dependency(\.speech) var speech`, and a
/// test sets it with `withDependencies { $0.speech = … } operation: { … }`.
///
/// ## Which value a dependency has
///
/// A dependency that no ``withDependencies(_:operation:fileID:filePath:line:column:)``
/// in scope has set has its ``liveValue``, except in a test: in a process
/// that runs tests and links POMVVMTesting, it has its ``testValue``, and
/// reading it fails the running test. ``testValue`` is what the code goes on
/// with after that failure, so make it harmless: a client whose calls return
/// empty results, not the live one.
///
/// Or make its endpoints fail when they are called instead, with
/// ``unimplemented(_:placeholder:fileID:filePath:line:column:)``: a test
/// value made that way is not failed when read, so a test sets only the
/// endpoints its code calls (`$0.speech.authorizationStatus = { .denied }`).
/// A read in a `withDependencies` update that then sets the dependency is
/// not a use either: it reads the value to change it.
public protocol DependencyKey {
  /// The type of the dependency's value; it crosses tasks, so it is
  /// `Sendable`.
  associatedtype Value: Sendable

  /// The value the app uses: the real clock, the real API client.
  static var liveValue: Value { get }

  /// The value a test that did not override the dependency gets, after the
  /// read has failed that test.
  static var testValue: Value { get }
}

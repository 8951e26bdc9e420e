/// The dependencies in effect: what ``Dependency`` reads and
/// ``withDependencies(_:operation:fileID:filePath:line:column:)`` overrides.
///
/// Each dependency is a computed property that reads and writes through its
/// ``DependencyKey``. The kit has three: ``clock``, ``date`` and ``uuid``;
/// an app adds its own (see ``DependencyKey``).
///
/// The values are held in a task-local value, so a task inherits the
/// dependencies of the code that started it. Every task the kit starts —
/// ``Effects`` operations, ``Load`` requests, ``StateMachine`` feedbacks,
/// time operators — is a `Task`, never a detached one, so it sees the
/// overrides in scope where it was started.
public struct DependencyValues: Sendable {
  /// The values set by overrides, by key; a key that is absent has its
  /// default value.
  private var overrides: [ObjectIdentifier: any Sendable] = [:]

  /// Who reads, for the failure of a read that no override answers: the
  /// `@Dependency` or the `withDependencies` call that the read came from.
  var reader: _DependencyReader?

  init() {}

  /// The dependencies of the current task.
  @TaskLocal static var current = DependencyValues()

  /// The value of the dependency `key`: the value an override set, or else
  /// its default, ``DependencyKey/liveValue`` (or, in a test,
  /// ``DependencyKey/testValue`` after failing the test).
  ///
  /// Use it in the computed property that names a dependency:
  /// `get { self[SpeechClientKey.self] }`, `set { self[SpeechClientKey.self] = newValue }`.
  ///
  /// - Parameter key: The dependency's key.
  public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
    get {
      if let value = overrides[ObjectIdentifier(key)] as? Key.Value {
        return value
      }
      guard let testing = _dependencyTesting, testing.isTesting else {
        return Key.liveValue
      }
      testing.reportUnimplemented(unimplementedMessage(for: key), by: reader)
      return Key.testValue
    }
    set {
      overrides[ObjectIdentifier(key)] = newValue
    }
  }

  /// These values with `newer`'s overrides on top.
  func merging(_ newer: DependencyValues) -> DependencyValues {
    var merged = self
    merged.overrides.merge(newer.overrides) { _, new in new }
    return merged
  }

  /// Why a read of `key` in a test fails, and how to fix it.
  private func unimplementedMessage<Key: DependencyKey>(for key: Key.Type) -> String {
    let name = (key as? any _NamedDependencyKey.Type)?.name
    let shown = name.map { "\\.\($0)" } ?? "\(key)"
    let setter = name.map { "$0.\($0)" } ?? "$0[\(key).self]"
    var message = "Unimplemented dependency \(shown) (\(Key.Value.self))"
    if let reader {
      message += " read by \(reader.kind) at \(reader.fileID):\(reader.line)"
    }
    return message
      + " in a test that did not override it; it has its test value. Override it: "
      + "withDependencies { \(setter) = … } operation: { … }"
  }
}

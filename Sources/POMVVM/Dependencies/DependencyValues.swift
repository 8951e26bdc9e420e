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

  /// While a `withDependencies` update runs: the dependencies it read that
  /// no override answers, which fail only if the update does not set them.
  var updateReads: _UpdateReads?

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
      // Made first: a test value built with `unimplemented` endpoints says
      // so while it is made.
      let value = Key.testValue
      if _UnimplementedEndpoints.reportsItsCalls(key) { return value }
      if let updateReads {
        // Read to be changed (`$0.speech.status = { … }`): a use only if
        // the update does not set it.
        updateReads.read(ObjectIdentifier(key), unimplementedMessage(for: key))
      } else {
        testing.reportUnimplemented(unimplementedMessage(for: key), by: reader)
      }
      return value
    }
    set {
      overrides[ObjectIdentifier(key)] = newValue
      updateReads?.set(ObjectIdentifier(key))
    }
  }

  /// Whether no dependency is overridden.
  var isEmpty: Bool { overrides.isEmpty }

  /// These values with `newer`'s overrides on top.
  func merging(_ newer: DependencyValues) -> DependencyValues {
    if newer.overrides.isEmpty { return self }
    var merged = self
    if merged.overrides.isEmpty {
      merged.overrides = newer.overrides
    } else {
      merged.overrides.merge(newer.overrides) { _, new in new }
    }
    return merged
  }

  /// Runs `body` with these values in effect, under the overrides of the
  /// current task, which win: what a kit object captured where it was made
  /// reaches the tasks it starts later, outside that scope.
  func whileCurrent<Result>(_ body: () throws -> Result) rethrows -> Result {
    if overrides.isEmpty { return try body() }
    return try Self.$current.withValue(merging(Self.current), operation: body)
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

/// The reads of a `withDependencies` update that no override answered and
/// that the update has not set since.
///
/// Not API. A class, so that the getter of a value passed `inout` can
/// record into it; it lives only while the update runs.
final class _UpdateReads: Sendable {
  private let unanswered = _Locked<[(key: ObjectIdentifier, message: String)]>([])

  func read(_ key: ObjectIdentifier, _ message: String) {
    unanswered.withLock { reads in
      if !reads.contains(where: { $0.key == key }) { reads.append((key, message)) }
    }
  }

  func set(_ key: ObjectIdentifier) {
    unanswered.withLock { reads in reads.removeAll { $0.key == key } }
  }

  /// The failures of the reads never set, in the order of the reads.
  var messages: [String] { unanswered.withLock { $0.map(\.message) } }
}

/// A kit object that keeps the dependencies in effect where it was made:
/// a `@Dependency`, an ``Effects``, a ``Load``, a ``StateMachine``.
///
/// Not API: ``withDependencies(from:_:operation:fileID:filePath:line:column:)``
/// finds a view model's dependencies through them.
protocol _DependencyCarrier {
  /// The dependencies in effect where the object was made.
  var _madeWithDependencies: DependencyValues { get }
}

extension Effects: _DependencyCarrier {}

/// Reads a dependency from ``DependencyValues``, in a view model or a
/// service.
///
/// ```swift
/// @MainActor final class MasterViewModel: ViewModel {
///   @Dependency(\.uuid) private var uuid
///   @Dependency(\.date) private var date
///
///   func insertNow() {
///     items.insert(Item(id: uuid(), date: date.now), at: 0)
///   }
/// }
/// ```
///
/// ## Which overrides it sees
///
/// The wrapper keeps the overrides in effect where it was made, and each
/// read adds those in effect where it reads, which win. So a view model made
/// inside `withDependencies` keeps its overrides when the test later calls
/// it outside, and an effect that a view model starts inside
/// `withDependencies` sees that scope's overrides, since its task inherits
/// them.
///
/// A read in a test that no override answers fails the test, naming the
/// dependency and the line of this `@Dependency`; see ``DependencyKey``.
///
/// The wrapper is `Sendable` and reads a task-local value, so it works in a
/// `@MainActor` view model, an actor or a plain `Sendable` service alike.
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
  private let keyPath: KeyPath<DependencyValues, Value> & Sendable
  private let initial: DependencyValues
  private let reader: _DependencyReader

  /// Reads the dependency at `keyPath`.
  ///
  /// - Parameters:
  ///   - keyPath: The dependency, as a property of ``DependencyValues``:
  ///     `\.uuid`, `\.clock`.
  ///   - fileID: Where the wrapper is, for the failure of an unoverridden
  ///     read in a test; by default, the caller's file.
  ///   - filePath: The same file, as a path.
  ///   - line: Where the wrapper is; by default, the caller's line.
  ///   - column: Where the wrapper is; by default, the caller's column.
  public init(
    _ keyPath: KeyPath<DependencyValues, Value> & Sendable,
    fileID: StaticString = #fileID, filePath: StaticString = #filePath,
    line: UInt = #line, column: UInt = #column
  ) {
    self.keyPath = keyPath
    initial = DependencyValues.current
    reader = _DependencyReader(
      kind: "@Dependency", fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The dependency's value now: the innermost override in effect where it
  /// is read, else where the wrapper was made, else its default.
  public var wrappedValue: Value {
    var values = initial.merging(DependencyValues.current)
    values.reader = reader
    return values[keyPath: keyPath]
  }
}

extension Dependency: _DependencyCarrier {
  var _madeWithDependencies: DependencyValues { initial }
}

extension Dependency: CustomReflectable {
  /// A mirror with no children: a dependency is not state, so `Mirror`-based
  /// searches — ``BindingGraph``, POMVVMTesting's `StateRecorder` — treat the
  /// wrapper as a leaf rather than look into the values it captured.
  public var customMirror: Mirror { Mirror(self, children: [:]) }
}

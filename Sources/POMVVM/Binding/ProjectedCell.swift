/// A two-way cell onto one field of another cell's value.
///
/// Reading gives the field of the base cell's current value; writing stores a
/// copy of the base value with the field replaced, through the base cell (so
/// the base's observers are told, and a base that refuses writes refuses
/// this one too). Observers are told when the base changes and the field
/// changed with it (for `Equatable` fields; other fields notify on every
/// change of the base).
///
/// ```swift
/// struct Item { var text: String; var on: Bool }
/// let item = Observable(Item(text: "first", on: false))
/// let on = item.projection(\.on)
/// on.value = true            // item.value.on == true
/// item.value.on = false      // on's observers see false
/// ```
@MainActor
public final class ProjectedCell<Base: MutableObservableCell, Field>: MutableObservableCell {
  /// The cell this one projects from.
  public let base: Base

  /// The field of the base value this cell reads and writes.
  public let keyPath: WritableKeyPath<Base.Value, Field>

  @usableFromInline
  let node: _ProjectionNode<Base, Field>

  @inlinable
  init(
    base: Base, keyPath: WritableKeyPath<Base.Value, Field>,
    isDuplicate: ((Field, Field) -> Bool)?, fileID: StaticString, line: UInt
  ) {
    self.base = base
    self.keyPath = keyPath
    node = _ProjectionNode(base: base, keyPath: keyPath, isDuplicate: isDuplicate)
    node.mirror._setOrigin(.projection, fileID: fileID, line: line)
  }

  /// The field of the base cell's current value; setting it writes through
  /// the base cell.
  ///
  /// A refused write's report names this setter (a setter cannot take its
  /// caller's location): write `cell.set(newValue)`
  /// (``set(_:fileID:line:)``) to have it name your line.
  @inlinable
  public var value: Field {
    get {
      node.updateIfNeeded()
      node.mirror._trackRead()
      return node.mirror._value
    }
    _modify {
      node.updateIfNeeded()
      var newValue = node.mirror._value
      yield &newValue
      set(newValue)
    }
    set { set(newValue) }
  }

  /// Writes the field through the base cell.
  ///
  /// `projection.set(newValue)` calls ``set(_:fileID:line:)``, which names
  /// the caller's line in a refusal's report; this one is what generic code
  /// calls through ``MutableObservableCell``, and its reports name the kit.
  ///
  /// - Parameter newValue: The new value of the field.
  /// - Returns: Whether the base cell accepted the write.
  @inlinable
  @_disfavoredOverload
  @discardableResult
  public func set(_ newValue: Field) -> Bool {
    set(newValue, fileID: #fileID, line: #line)
  }

  /// Writes the field through the base cell; a refusal's report names the
  /// caller's line.
  ///
  /// - Parameters:
  ///   - newValue: The new value of the field.
  ///   - fileID: The culprit's file in a report; by default, the caller's.
  ///   - line: The culprit's line in a report; by default, the caller's.
  /// - Returns: Whether the base cell accepted the write.
  @inlinable
  @discardableResult
  public func set(_ newValue: Field, fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
    // Reads the base without registering an Observation read: a write is
    // not a dependency.
    var whole = _withoutTracking { base.value }
    whole[keyPath: keyPath] = newValue
    return base.set(whole, fileID: fileID, line: line)
  }

  /// Calls `handler` with the field now, then with every change of it.
  ///
  /// The subscription keeps this cell (and so its base) alive.
  ///
  /// - Parameter handler: Called on the main actor with each value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @MainActor (Field) -> Void) -> Subscription {
    node.updateIfNeeded()
    return node.mirror._observe(retaining: self, changesOnly: false, handler)
  }

  /// Calls `handler` with every change of the field from now on.
  ///
  /// The subscription keeps this cell (and so its base) alive.
  ///
  /// - Parameter handler: Called on the main actor with each new value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observeChanges(_ handler: @escaping @MainActor (Field) -> Void) -> Subscription {
    node.updateIfNeeded()
    return node.mirror._observe(retaining: self, changesOnly: true, handler)
  }
}

extension ProjectedCell: _GraphCell {
  var _graphList: _ObserverListBase { node.mirror }
  var _graphNode: _GraphNode? { node }
}

/// The node behind a ``ProjectedCell``: the field's last value, for its
/// observers; reads go to the base.
@MainActor
@usableFromInline
final class _ProjectionNode<Base: MutableObservableCell, Field>: _GraphNode {
  @usableFromInline
  let mirror: Observable<Field>
  /// Reads the field from the base's current value without registering an
  /// Observation read; made where the projection is made, so it runs
  /// specialised.
  @usableFromInline
  let readField: @MainActor () -> Field

  @inlinable
  init(
    base: Base, keyPath: WritableKeyPath<Base.Value, Field>,
    isDuplicate: ((Field, Field) -> Bool)?
  ) {
    if let storage = base._storageIfStored {
      readField = { storage._value[keyPath: keyPath] }
    } else {
      readField = { _withoutTracking { base.value[keyPath: keyPath] } }
    }
    mirror = Observable(_withoutTracking { base.value[keyPath: keyPath] }, isDuplicate: isDuplicate)
    super.init(
      height: base._heightOfDependent, sourceNodes: base._sourceNode.map { [$0] } ?? [])
    connect(to: base, at: 0)
  }

  @usableFromInline
  override var output: _ObserverListBase { mirror }

  @usableFromInline
  override func recompute() {
    if mirror._setQuietly(readField()) {
      needsNotify = true
    }
  }
}

extension MutableObservableCell {
  /// A two-way cell onto one field of this cell's value.
  ///
  /// ```swift
  /// let on = itemCell.projection(\.on)
  /// on.bidirectionalBind(to: switchCell)
  /// ```
  ///
  /// - Parameters:
  ///   - keyPath: The field to project.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  /// - Returns: A cell that reads and writes the field through this cell.
  @inlinable
  public func projection<Field>(
    _ keyPath: WritableKeyPath<Value, Field>, fileID: StaticString = #fileID, line: UInt = #line
  ) -> ProjectedCell<Self, Field> {
    ProjectedCell(
      base: self, keyPath: keyPath, isDuplicate: _duplicateCheck(for: Field.self), fileID: fileID,
      line: line)
  }

  /// A two-way cell onto one `Equatable` field of this cell's value; its
  /// observers are told only when the field changes.
  ///
  /// - Parameters:
  ///   - keyPath: The field to project.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  /// - Returns: A cell that reads and writes the field through this cell.
  @inlinable
  public func projection<Field: Equatable>(
    _ keyPath: WritableKeyPath<Value, Field>, fileID: StaticString = #fileID, line: UInt = #line
  ) -> ProjectedCell<Self, Field> {
    ProjectedCell(
      base: self, keyPath: keyPath, isDuplicate: { $0 == $1 }, fileID: fileID, line: line)
  }
}

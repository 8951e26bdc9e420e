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

  private let mirror: Observable<Field>
  private var upstream: Subscription?

  init(base: Base, keyPath: WritableKeyPath<Base.Value, Field>) {
    self.base = base
    self.keyPath = keyPath
    let mirror = Observable(base.value[keyPath: keyPath])
    self.mirror = mirror
    upstream = base.observeChanges { mirror.value = $0[keyPath: keyPath] }
  }

  /// The field of the base cell's current value; setting it writes through
  /// the base cell.
  public var value: Field {
    get { base.value[keyPath: keyPath] }
    set { set(newValue) }
  }

  /// Writes the field through the base cell.
  ///
  /// - Parameter newValue: The new value of the field.
  /// - Returns: Whether the base cell accepted the write.
  @discardableResult
  public func set(_ newValue: Field) -> Bool {
    var whole = base.value
    whole[keyPath: keyPath] = newValue
    return base.set(whole)
  }

  /// Calls `handler` with the field now, then with every change of it.
  ///
  /// The subscription keeps this cell (and so its base) alive.
  ///
  /// - Parameter handler: Called on the main actor with each value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @MainActor (Field) -> Void) -> Subscription {
    mirror._observe(retaining: self, changesOnly: false, handler)
  }

  /// Calls `handler` with every change of the field from now on.
  ///
  /// The subscription keeps this cell (and so its base) alive.
  ///
  /// - Parameter handler: Called on the main actor with each new value.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observeChanges(_ handler: @escaping @MainActor (Field) -> Void) -> Subscription {
    mirror._observe(retaining: self, changesOnly: true, handler)
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
  /// - Parameter keyPath: The field to project.
  /// - Returns: A cell that reads and writes the field through this cell.
  public func projection<Field>(_ keyPath: WritableKeyPath<Value, Field>) -> ProjectedCell<
    Self, Field
  > {
    ProjectedCell(base: self, keyPath: keyPath)
  }
}

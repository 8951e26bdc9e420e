/// A section of the grouped master list: the items whose switch is off, or
/// on.
public enum SwitchSection: Int, Comparable, CaseIterable, Sendable, CustomStringConvertible {
  /// The items whose switch is off; first.
  case off
  /// The items whose switch is on.
  case on

  /// The section of an item.
  ///
  /// - Parameter item: An item.
  public init(_ item: Item) {
    self = item.on ? .on : .off
  }

  /// Whether the first section comes before the second: off, then on.
  ///
  /// - Parameters:
  ///   - lhs: A section.
  ///   - rhs: Another section.
  /// - Returns: Whether `lhs` comes first.
  public static func < (lhs: SwitchSection, rhs: SwitchSection) -> Bool {
    lhs.rawValue < rhs.rawValue
  }

  /// The section's header: `Off` or `On`.
  public var description: String { self == .on ? "On" : "Off" }
}

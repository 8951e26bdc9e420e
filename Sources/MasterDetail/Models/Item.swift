import Foundation

/// One row of the Master-Detail sample: a date, a text and a switch.
public struct Item: Identifiable, Equatable, Sendable {
  /// The item's identity; it never changes.
  public let id: Int
  /// When the item was added.
  public var date: Date
  /// The item's text; a new item's text is its date.
  public var text: String
  /// Whether the item's switch is on.
  public var on: Bool

  /// Creates an item.
  ///
  /// - Parameters:
  ///   - id: The item's identity.
  ///   - date: When the item was added.
  ///   - text: The item's text.
  ///   - on: Whether the item's switch is on.
  public init(id: Int, date: Date, text: String, on: Bool = false) {
    self.id = id
    self.date = date
    self.text = text
    self.on = on
  }
}

/// One to-do item.
public struct ToDoItem: Identifiable, Codable, Equatable, Sendable {
  /// The item's identity; it never changes.
  public let id: Int
  /// What to do.
  public var title: String
  /// Whether it is done; a completed item sorts to the bottom of the list a
  /// moment after the last toggle.
  public var isCompleted: Bool

  /// Creates an item.
  ///
  /// - Parameters:
  ///   - id: The item's identity.
  ///   - title: What to do.
  ///   - isCompleted: Whether it is done; `false` by default.
  public init(id: Int, title: String, isCompleted: Bool = false) {
    self.id = id
    self.title = title
    self.isCompleted = isCompleted
  }

  private enum CodingKeys: String, CodingKey {
    case id, title, isCompleted
  }

  /// Reads an item; a file written before items could be completed has no
  /// `isCompleted` field, and its items are not completed.
  ///
  /// - Parameter decoder: The decoder.
  /// - Throws: A `DecodingError` for a missing id or title.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int.self, forKey: .id)
    title = try container.decode(String.self, forKey: .title)
    isCompleted = try container.decodeIfPresent(Bool.self, forKey: .isCompleted) ?? false
  }

  /// Writes the item; `isCompleted` only when it is true, so that files of
  /// lists nobody completed anything in stay as they were.
  ///
  /// - Parameter encoder: The encoder.
  /// - Throws: What the encoder throws.
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(title, forKey: .title)
    if isCompleted { try container.encode(true, forKey: .isCompleted) }
  }
}

/// One to-do item.
public struct ToDoItem: Identifiable, Codable, Equatable, Sendable {
  /// The item's identity; it never changes.
  public let id: Int
  /// What to do.
  public var title: String

  /// Creates an item.
  ///
  /// - Parameters:
  ///   - id: The item's identity.
  ///   - title: What to do.
  public init(id: Int, title: String) {
    self.id = id
    self.title = title
  }
}

/// Which items the to-do list shows: all of them, the active ones or the
/// completed ones.
public enum ToDoFilter: String, CaseIterable, Equatable, Sendable, CustomStringConvertible {
  /// Every item.
  case all
  /// The items not done yet.
  case active
  /// The items done.
  case completed

  /// Whether the filter shows an item.
  ///
  /// - Parameter item: An item.
  /// - Returns: `true` if the list shows it under this filter.
  public func includes(_ item: ToDoItem) -> Bool {
    switch self {
    case .all: true
    case .active: !item.isCompleted
    case .completed: item.isCompleted
    }
  }

  /// The next filter, for a key that cycles through them: all, active,
  /// completed, all.
  public var next: ToDoFilter {
    switch self {
    case .all: .active
    case .active: .completed
    case .completed: .all
    }
  }

  /// The filter's name: `all`, `active` or `completed`.
  public var description: String { rawValue }
}

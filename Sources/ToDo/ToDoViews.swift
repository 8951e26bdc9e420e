import POMVVM

/// The to-do list, rendered as text.
///
/// ```
/// To-do (2 of 10, add: enabled)
///   1. ToDo Item 1
///   2. ToDo Item 2
/// Last change: insert [1]
/// ```
///
/// The rows are the list's ``ToDoListViewModel/visible`` query, rendered
/// through a ``POMVVM/ListAdapter``: each update patches the titles it
/// touches, and nothing else. Under a filter other than `all`, the header
/// says so: `To-do (2 of 10, add: enabled), showing active`.
@MainActor
public final class ToDoListView: BindableView, ListView {
  /// The list the view shows.
  public var viewModel: ToDoListViewModel?

  /// The tokens of the view's current binding.
  public let bindings = SubscriptionBag()

  /// The text of the rows, in order: each title, with `(done)` after a
  /// completed item's.
  public private(set) var titles: [String] = []

  /// The header label.
  public let header = Observable("")

  /// The last-change label.
  public let lastChange = Observable("")

  /// Creates an unbound view.
  public init() {}

  /// Follows the items the filter shows, the count, the filter and the
  /// last change.
  ///
  /// - Parameter viewModel: The list's view model.
  /// - Returns: The binding tokens.
  public func makeBindings(to viewModel: ToDoListViewModel) -> [any SubscriptionToken] {
    let heading = { (count: Int, canAdd: Bool, filter: ToDoFilter) in
      "To-do (\(count) of \(ToDoListViewModel.limit), add: \(canAdd ? "enabled" : "disabled"))"
        + (filter == .all ? "" : ", showing \(filter)")
    }
    let initial = heading(
      viewModel.itemCount.value, viewModel.canAdd.value, viewModel.filter.value)
    return [
      combine(
        .every, viewModel.itemCount, viewModel.canAdd, viewModel.filter, initial: initial,
        transform: heading
      )
      .bind(to: header),
      viewModel.lastChange.map { "Last change: \($0)" }.bind(to: lastChange),
      ListAdapter(viewModel.visible, view: self),
    ]
  }

  /// Patches the titles with an update from the adapter: deleted rows go,
  /// moved ones move, inserted ones and every changed one read their new
  /// title.
  ///
  /// - Parameter update: The update.
  /// - Complexity: O(*k*) row operations for *k* changes; a reload reads
  ///   every title.
  public func updateRows(_ update: ListUpdate<ToDoItem>) {
    if update.isReloadData {
      titles = update.elements.map(Self.rowText)
      return
    }
    let batch = update.batch
    let sources = Set(batch.moves.map(\.from))
    var moved: [Int: String] = [:]
    for index in (batch.deletions + sources).sorted(by: >) {
      let title = titles.remove(at: index)
      if sources.contains(index) { moved[index] = title }
    }
    var entering = batch.insertions.map { ($0, Self.rowText(update.elements[$0])) }
    entering += batch.moves.map { ($0.to, moved[$0.from] ?? "") }
    for (index, title) in entering.sorted(by: { $0.0 < $1.0 }) {
      titles.insert(title, at: index)
    }
    for index in batch.changedRows {
      titles[index] = Self.rowText(update.elements[index])
    }
  }

  /// A row's text: the title, and `(done)` after a completed item's.
  static func rowText(_ item: ToDoItem) -> String {
    item.isCompleted ? "\(item.title) (done)" : item.title
  }

  /// The list as lines of text; row numbers are right-aligned, so that the
  /// titles line up past row 9.
  public var lines: [String] {
    let width = String(titles.count).count
    return [header.value]
      + titles.enumerated().map { row, title in
        let number = String(row + 1)
        return String(repeating: " ", count: 2 + width - number.count) + "\(number). \(title)"
      }
      + [lastChange.value]
  }
}

/// The editor of one to-do item, rendered as text.
///
/// ```
/// To-do item
///   Title: ToDo Item 1
/// ```
@MainActor
public final class ToDoEditorView: BindableView {
  /// The item the view edits.
  public var viewModel: ToDoEditorViewModel?

  /// The tokens of the view's current binding.
  public let bindings = SubscriptionBag()

  /// The title field, bound both ways to the item's title.
  public let titleField = Observable("")

  /// Creates an unbound view.
  public init() {}

  /// Binds the title field both ways to the item's title.
  ///
  /// - Parameter viewModel: The editor's view model.
  /// - Returns: The binding tokens.
  public func makeBindings(to viewModel: ToDoEditorViewModel) -> [any SubscriptionToken] {
    [viewModel.title.bidirectionalBind(to: titleField)]
  }

  /// The user types a new title.
  ///
  /// - Parameter text: The field's new content.
  public func type(title text: String) {
    titleField.value = text
  }

  /// The editor as lines of text.
  public var lines: [String] {
    var lines = ["To-do item", "  Title: \(titleField.value)"]
    if viewModel?.isDetached == true {
      lines.append("  (deleted: this item is no longer in the list)")
    }
    return lines
  }
}

/// A shared array of identifiable elements that publishes a change set for
/// every mutation and hands out element cells and counts, as
/// `ObservableArray` does: what ``checkObservableArrayLaws(_:mutations:counting:fileID:filePath:line:column:)``
/// checks.
///
/// `ObservableArray` conforms. So can a store of your own that wraps one
/// and adds its own operations, to check that they keep the laws:
///
/// ```swift
/// extension TodoStore: ArrayLawSubject {
///   var elements: [Todo] { todos.elements }
///   func observeChanges(
///     _ handler: @escaping @MainActor (ArrayChange<Todo>) -> Void
///   ) -> Subscription {
///     todos.observeChanges(handler)
///   }
///   func cell(for id: Todo.ID) -> ElementCell<Todo>? { todos.cell(for: id) }
///   func liveCount(where predicate: @escaping (Todo) -> Bool) -> ArrayCount<Todo> {
///     todos.liveCount(where: predicate)
///   }
/// }
/// ```
@MainActor
public protocol ArrayLawSubject<Element>: AnyObject {
  /// The type of the elements.
  associatedtype Element: Identifiable

  /// The elements, in order.
  var elements: [Element] { get }

  /// Calls `handler` with every change from now on.
  ///
  /// - Parameter handler: Called with each change.
  /// - Returns: The subscription that keeps the observation alive.
  func observeChanges(_ handler: @escaping @MainActor (ArrayChange<Element>) -> Void)
    -> Subscription

  /// The cell onto the element with an id.
  ///
  /// - Parameter id: The element's id.
  /// - Returns: The cell, or `nil` if no element has that id.
  func cell(for id: Element.ID) -> ElementCell<Element>?

  /// A cell with the number of elements that match a predicate, kept up to
  /// date from the change sets.
  ///
  /// - Parameter predicate: Whether an element counts.
  /// - Returns: The counting cell.
  func liveCount(where predicate: @escaping (Element) -> Bool) -> ArrayCount<Element>
}

extension ObservableArray: ArrayLawSubject {}

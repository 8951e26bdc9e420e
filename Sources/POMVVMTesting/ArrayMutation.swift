/// One step of an ``checkObservableArrayLaws(_:mutations:counting:fileID:filePath:line:column:)``
/// run: a named change to the array under test.
///
/// The factories (``insert(_:at:)``, ``remove(at:)``, ``batch(_:_:)``, …)
/// mutate an `ObservableArray` and also say which contents the mutation
/// should leave, which the check compares with the array's. Make any other
/// step — one of your view models' operations, say — with
/// ``init(_:_:)``:
///
/// ```swift
/// let mutations: [ArrayMutation<ObservableArray<Item>>] = [
///   .append(Item(id: 7, text: "new")),
///   .move(from: 0, to: 2),
///   ArrayMutation("toggle the first row") { _ in master.cellViewModel(at: 0)?.toggleSwitch() },
/// ]
/// ```
@MainActor
public struct ArrayMutation<Subject: ArrayLawSubject> {
  /// The name failure messages give the step.
  public var label: String

  let apply: @MainActor (Subject) -> Void
  let expectedContents: (([Subject.Element]) -> [Subject.Element])?

  /// Creates a step that runs any code.
  ///
  /// The check cannot know which contents the step should leave; it checks
  /// every other law.
  ///
  /// - Parameters:
  ///   - label: The name failure messages give the step.
  ///   - apply: Mutates the subject, directly or through view models.
  public init(_ label: String, _ apply: @escaping @MainActor (Subject) -> Void) {
    self.init(label, expected: nil, apply: apply)
  }

  init(
    _ label: String, expected: (([Subject.Element]) -> [Subject.Element])?,
    apply: @escaping @MainActor (Subject) -> Void
  ) {
    self.label = label
    self.apply = apply
    expectedContents = expected
  }
}

// MARK: - Mutations of an ObservableArray

extension ArrayMutation {
  /// Inserts an element.
  ///
  /// - Parameters:
  ///   - element: The element; its id must not be present.
  ///   - index: Where to insert it.
  /// - Returns: The step.
  public static func insert<Element>(_ element: Element, at index: Int) -> Self
  where Element: Identifiable, Subject == ObservableArray<Element> {
    ArrayMutation(
      "insert(\(describe(element)), at: \(index))",
      expected: { contents in
        var contents = contents
        contents.insert(element, at: index)
        return contents
      },
      apply: { $0.insert(element, at: index) })
  }

  /// Appends an element.
  ///
  /// - Parameter element: The element; its id must not be present.
  /// - Returns: The step.
  public static func append<Element>(_ element: Element) -> Self
  where Element: Identifiable, Subject == ObservableArray<Element> {
    ArrayMutation(
      "append(\(describe(element)))", expected: { $0 + [element] }, apply: { $0.append(element) })
  }

  /// Removes the element at a position.
  ///
  /// - Parameter index: A valid index.
  /// - Returns: The step.
  public static func remove<Element>(at index: Int) -> Self
  where Element: Identifiable, Subject == ObservableArray<Element> {
    ArrayMutation(
      "remove(at: \(index))",
      expected: { contents in
        var contents = contents
        contents.remove(at: index)
        return contents
      },
      apply: { $0.remove(at: index) })
  }

  /// Removes the element with an id.
  ///
  /// - Parameter id: The element's id.
  /// - Returns: The step.
  public static func remove<Element>(id: Element.ID) -> Self
  where Element: Identifiable, Subject == ObservableArray<Element> {
    ArrayMutation(
      "remove(id: \(describe(id)))", expected: { $0.filter { $0.id != id } },
      apply: { $0.remove(id: id) })
  }

  /// Removes every element.
  ///
  /// - Returns: The step.
  public static func removeAll<Element>() -> Self
  where Element: Identifiable, Subject == ObservableArray<Element> {
    ArrayMutation("removeAll()", expected: { _ in [] }, apply: { $0.removeAll() })
  }

  /// Moves an element.
  ///
  /// - Parameters:
  ///   - source: The element's index now.
  ///   - destination: Its index afterwards.
  /// - Returns: The step.
  public static func move<Element>(from source: Int, to destination: Int) -> Self
  where Element: Identifiable, Subject == ObservableArray<Element> {
    ArrayMutation(
      "move(from: \(source), to: \(destination))",
      expected: { contents in
        var contents = contents
        contents.insert(contents.remove(at: source), at: destination)
        return contents
      },
      apply: { $0.move(from: source, to: destination) })
  }

  /// Replaces the element at a position.
  ///
  /// - Parameters:
  ///   - index: A valid index.
  ///   - element: The new element.
  /// - Returns: The step.
  public static func replace<Element>(at index: Int, with element: Element) -> Self
  where Element: Identifiable, Subject == ObservableArray<Element> {
    ArrayMutation(
      "replace(at: \(index), with: \(describe(element)))",
      expected: { contents in
        var contents = contents
        contents[index] = element
        return contents
      },
      apply: { $0.replace(at: index, with: element) })
  }

  /// Replaces the element that has the same id.
  ///
  /// - Parameter element: The element's new value.
  /// - Returns: The step.
  public static func update<Element>(_ element: Element) -> Self
  where Element: Identifiable, Subject == ObservableArray<Element> {
    ArrayMutation(
      "update(\(describe(element)))",
      expected: { $0.map { $0.id == element.id ? element : $0 } },
      apply: { $0.update(element) })
  }

  /// Replaces every element.
  ///
  /// - Parameter elements: The new contents; their ids must be unique.
  /// - Returns: The step.
  public static func replaceAll<Element>(with elements: [Element]) -> Self
  where Element: Identifiable, Subject == ObservableArray<Element> {
    ArrayMutation(
      "replaceAll(with: \(describe(elements)))", expected: { _ in elements },
      apply: { $0.replaceAll(with: elements) })
  }

  /// Runs several edits on the contents as one batch.
  ///
  /// - Parameters:
  ///   - label: The name failure messages give the step.
  ///   - body: Edits the contents; the check also runs it on a copy, to know
  ///     the contents to expect, so it must do the same thing every time.
  /// - Returns: The step.
  public static func batch<Element>(
    _ label: String, _ body: @escaping (inout [Element]) -> Void
  ) -> Self where Element: Identifiable, Subject == ObservableArray<Element> {
    ArrayMutation(
      "batch: \(label)",
      expected: { contents in
        var contents = contents
        body(&contents)
        return contents
      },
      apply: { $0.batch(body) })
  }
}

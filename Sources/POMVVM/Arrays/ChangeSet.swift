/// What one mutation of an ``ObservableArray`` did, in the terms a list view
/// patches its rows with: removals, insertions, moves and updates, or a
/// reload.
///
/// The indices follow the batch-update convention of table and collection
/// views:
///
/// - ``removals`` and the sources of ``moves`` are indices in the *old*
///   array;
/// - ``insertions`` and the destinations of ``moves`` are indices in the *new*
///   array;
/// - an ``Update`` names both the old and the new index of an element that
///   kept its identity but changed its value (a moved element can be updated
///   too).
///
/// A change set carries the elements it inserts, removes and updates, so it
/// can be replayed and reverted without the arrays at hand. Its law is that
/// applying it to the old contents gives the new contents:
///
/// ```swift
/// let before = Array(array)
/// let subscription = array.observeChanges { change in
///   assert(try! change.changeSet.applied(to: before) == change.newElements)
/// }
/// ```
public struct ChangeSet<Element> {
  /// An element that left the array.
  public struct Removal {
    /// The element's index in the old array.
    public var index: Int
    /// The removed element.
    public var element: Element

    /// Creates a removal.
    ///
    /// - Parameters:
    ///   - index: The element's index in the old array.
    ///   - element: The removed element.
    @inlinable
    public init(index: Int, element: Element) {
      self.index = index
      self.element = element
    }
  }

  /// An element that entered the array.
  public struct Insertion {
    /// The element's index in the new array.
    public var index: Int
    /// The inserted element.
    public var element: Element

    /// Creates an insertion.
    ///
    /// - Parameters:
    ///   - index: The element's index in the new array.
    ///   - element: The inserted element.
    @inlinable
    public init(index: Int, element: Element) {
      self.index = index
      self.element = element
    }
  }

  /// An element that kept its identity but changed its value.
  public struct Update {
    /// The element's index in the old array.
    public var oldIndex: Int
    /// The element's index in the new array.
    public var newIndex: Int
    /// The value before the change.
    public var oldElement: Element
    /// The value after the change.
    public var newElement: Element

    /// Creates an update.
    ///
    /// - Parameters:
    ///   - oldIndex: The element's index in the old array.
    ///   - newIndex: The element's index in the new array.
    ///   - oldElement: The value before the change.
    ///   - newElement: The value after the change.
    @inlinable
    public init(oldIndex: Int, newIndex: Int, oldElement: Element, newElement: Element) {
      self.oldIndex = oldIndex
      self.newIndex = newIndex
      self.oldElement = oldElement
      self.newElement = newElement
    }
  }

  /// An element that kept its identity and changed its position.
  public struct Move: Hashable, Sendable {
    /// The element's index in the old array.
    public var from: Int
    /// The element's index in the new array.
    public var to: Int

    /// Creates a move.
    ///
    /// - Parameters:
    ///   - from: The element's index in the old array.
    ///   - to: The element's index in the new array.
    @inlinable
    public init(from: Int, to: Int) {
      self.from = from
      self.to = to
    }
  }

  /// Elements that left the array, by ascending old index.
  public var removals: [Removal]
  /// Elements that entered the array, by ascending new index.
  public var insertions: [Insertion]
  /// Elements that changed their value, by ascending new index.
  public var updates: [Update]
  /// Elements that changed their position, by ascending new index.
  public var moves: [Move]
  /// The contents on both sides of a reload.
  public struct Reload {
    /// The contents before the reload.
    public var old: [Element]
    /// The contents after the reload.
    public var new: [Element]

    /// Creates a reload.
    ///
    /// - Parameters:
    ///   - old: The contents before.
    ///   - new: The contents after.
    @inlinable
    public init(old: [Element], new: [Element]) {
      self.old = old
      self.new = new
    }
  }

  /// The contents on both sides, when the change is a reload.
  ///
  /// A reload replaces the whole array: the other lists are empty, and a
  /// list view reloads every row.
  public var reload: Reload?

  /// Creates a change set from its parts.
  ///
  /// - Parameters:
  ///   - removals: Elements that left, by ascending old index.
  ///   - insertions: Elements that entered, by ascending new index.
  ///   - updates: Elements whose value changed, by ascending new index.
  ///   - moves: Elements whose position changed, by ascending new index.
  @inlinable
  public init(
    removals: [Removal] = [], insertions: [Insertion] = [], updates: [Update] = [],
    moves: [Move] = []
  ) {
    self.removals = removals
    self.insertions = insertions
    self.updates = updates
    self.moves = moves
    self.reload = nil
  }

  /// A change set that replaces every element.
  ///
  /// - Parameters:
  ///   - old: The contents before the change.
  ///   - new: The contents after the change.
  /// - Returns: A reload change set.
  /// - Complexity: O(1).
  public static func reload(from old: [Element], to new: [Element]) -> ChangeSet {
    var changeSet = ChangeSet()
    changeSet.reload = Reload(old: old, new: new)
    return changeSet
  }

  /// Whether the change set replaces every element instead of patching.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var isReload: Bool { reload != nil }

  /// Whether the change set changes nothing.
  ///
  /// - Complexity: O(1).
  @inlinable
  public var isEmpty: Bool {
    reload == nil && removals.isEmpty && insertions.isEmpty && updates.isEmpty && moves.isEmpty
  }

  /// How many rows the change set touches (a reload touches every new row).
  ///
  /// - Complexity: O(1).
  @inlinable
  public var count: Int {
    if let reload { return reload.new.count }
    return removals.count + insertions.count + updates.count + moves.count
  }
}

extension ChangeSet.Removal: Equatable where Element: Equatable {}
extension ChangeSet.Removal: Hashable where Element: Hashable {}
extension ChangeSet.Removal: Sendable where Element: Sendable {}
extension ChangeSet.Insertion: Equatable where Element: Equatable {}
extension ChangeSet.Insertion: Hashable where Element: Hashable {}
extension ChangeSet.Insertion: Sendable where Element: Sendable {}
extension ChangeSet.Update: Equatable where Element: Equatable {}
extension ChangeSet.Update: Hashable where Element: Hashable {}
extension ChangeSet.Update: Sendable where Element: Sendable {}
extension ChangeSet.Reload: Equatable where Element: Equatable {}
extension ChangeSet.Reload: Hashable where Element: Hashable {}
extension ChangeSet.Reload: Sendable where Element: Sendable {}
extension ChangeSet: Sendable where Element: Sendable {}
extension ChangeSet: Hashable where Element: Hashable {}

extension ChangeSet: Equatable where Element: Equatable {}

extension ChangeSet: CustomStringConvertible {
  /// A short summary, such as `insert [0], update [3]` or `reload 12`.
  ///
  /// - Complexity: O(*k*), where *k* is the number of changes.
  public var description: String {
    if let reload { return "reload \(reload.new.count)" }
    if isEmpty { return "no change" }
    var parts: [String] = []
    if !removals.isEmpty { parts.append("remove \(removals.map(\.index))") }
    if !insertions.isEmpty { parts.append("insert \(insertions.map(\.index))") }
    if !moves.isEmpty {
      parts.append("move [\(moves.map { "\($0.from)->\($0.to)" }.joined(separator: ", "))]")
    }
    if !updates.isEmpty { parts.append("update \(updates.map(\.newIndex))") }
    return parts.joined(separator: ", ")
  }
}

/// Why a change set does not fit the contents it was applied to.
public struct ChangeSetMismatch: Error, Equatable, CustomStringConvertible {
  /// What did not fit.
  public var description: String

  /// Creates a mismatch.
  ///
  /// - Parameter description: What did not fit.
  public init(_ description: String) {
    self.description = description
  }
}

// MARK: - Replay

extension ChangeSet {
  /// The contents after this change, from the contents before it.
  ///
  /// Removals and move sources leave the old array first; then insertions
  /// and move destinations enter at their new indices; then updates replace
  /// values at their new indices.
  ///
  /// - Parameter old: The contents before the change.
  /// - Returns: The contents after the change.
  /// - Throws: ``ChangeSetMismatch`` if an index is out of range, repeated,
  ///   or the parts do not add up to a consistent array.
  /// - Complexity: O(*n* + *k* log *k*), where *n* is the size of the arrays
  ///   and *k* the number of changes.
  public func applied(to old: [Element]) throws(ChangeSetMismatch) -> [Element] {
    if let reload { return reload.new }
    var leaving = [Bool](repeating: false, count: old.count)
    for index in removals.map(\.index) + moves.map(\.from) {
      guard old.indices.contains(index) else {
        throw ChangeSetMismatch("old index \(index) is out of range for \(old.count) elements")
      }
      guard !leaving[index] else {
        throw ChangeSetMismatch("old index \(index) leaves the array twice")
      }
      leaving[index] = true
    }
    var entering: [(index: Int, element: Element)] = insertions.map { ($0.index, $0.element) }
    entering += moves.map { ($0.to, old[$0.from]) }
    entering.sort { $0.index < $1.index }
    let newCount = old.count - removals.count - moves.count + entering.count
    if let last = entering.last, last.index >= newCount || entering[0].index < 0 {
      let bad = last.index >= newCount ? last.index : entering[0].index
      throw ChangeSetMismatch("new index \(bad) is out of range for \(newCount) elements")
    }
    var result: [Element] = []
    result.reserveCapacity(newCount)
    var nextOld = 0
    var nextEntering = 0
    for newIndex in 0..<newCount {
      if nextEntering < entering.count && entering[nextEntering].index == newIndex {
        result.append(entering[nextEntering].element)
        nextEntering += 1
        if nextEntering < entering.count && entering[nextEntering].index == newIndex {
          throw ChangeSetMismatch("new index \(newIndex) is entered twice")
        }
        continue
      }
      while nextOld < old.count && leaving[nextOld] { nextOld += 1 }
      guard nextOld < old.count else {
        throw ChangeSetMismatch("new index \(newIndex) has no element: the parts do not add up")
      }
      result.append(old[nextOld])
      nextOld += 1
    }
    for update in updates {
      guard result.indices.contains(update.newIndex) else {
        throw ChangeSetMismatch(
          "update index \(update.newIndex) is out of range for \(newCount) elements")
      }
      result[update.newIndex] = update.newElement
    }
    return result
  }

  /// The change that undoes this one: applying it to the new contents gives
  /// the old contents.
  ///
  /// - Complexity: O(*k*), where *k* is the number of changes.
  public var inverted: ChangeSet {
    if let reload { return .reload(from: reload.new, to: reload.old) }
    return ChangeSet(
      removals: insertions.map { Removal(index: $0.index, element: $0.element) },
      insertions: removals.map { Insertion(index: $0.index, element: $0.element) },
      updates: updates.map {
        Update(
          oldIndex: $0.newIndex, newIndex: $0.oldIndex, oldElement: $0.newElement,
          newElement: $0.oldElement)
      }.sorted { $0.newIndex < $1.newIndex },
      moves: moves.map { Move(from: $0.to, to: $0.from) }.sorted { $0.to < $1.to })
  }
}

/// The element that the store's process tests keep in a database.
public struct ProcessItem: Identifiable, Codable, Equatable, Sendable {
  /// The item's id.
  public var id: Int
  /// Its title, which the tests edit.
  public var title: String

  /// Creates an item.
  public init(id: Int, title: String) {
    self.id = id
    self.title = title
  }
}

/// One change of a process test's array.
public enum StoreScriptStep: Equatable, Sendable {
  case insert(ProcessItem, at: Int)
  case remove(at: Int)
  case move(from: Int, to: Int)
  case edit(at: Int, title: String)

  /// The contents after this step.
  public func applied(to items: [ProcessItem]) -> [ProcessItem] {
    var items = items
    switch self {
    case .insert(let item, let index): items.insert(item, at: index)
    case .remove(let index): items.remove(at: index)
    case .move(let from, let to):
      let item = items.remove(at: from)
      items.insert(item, at: to)
    case .edit(let index, let title): items[index].title = title
    }
    return items
  }
}

/// A seeded series of random changes of an array: a writer process makes
/// them, and the test that kills it replays them to know every state the
/// database may hold.
public struct StoreScript {
  private var random: SplitMix64
  private var nextID: Int

  /// Creates a script; new items' ids start after `firstID`.
  public init(seed: UInt64, firstID: Int) {
    random = SplitMix64(seed: seed)
    nextID = firstID
  }

  /// The next step for an array of these contents.
  public mutating func next(for items: [ProcessItem]) -> StoreScriptStep {
    let count = items.count
    let kind = count == 0 ? 0 : Int.random(in: 0..<4, using: &random)
    switch kind {
    case 0:
      let padding = String(repeating: "x", count: Int.random(in: 0...300, using: &random))
      defer { nextID += 1 }
      return .insert(
        ProcessItem(id: nextID, title: "new \(nextID) \(padding)"),
        at: Int.random(in: 0...count, using: &random))
    case 1 where count > 20:
      return .remove(at: Int.random(in: 0..<count, using: &random))
    case 2:
      return .move(
        from: Int.random(in: 0..<count, using: &random),
        to: Int.random(in: 0..<count, using: &random))
    default:
      return .edit(
        at: Int.random(in: 0..<count, using: &random),
        title: "edit \(Int.random(in: 0..<1_000_000, using: &random))")
    }
  }
}

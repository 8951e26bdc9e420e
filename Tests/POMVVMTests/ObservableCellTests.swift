import POMVVM
import TestSupport
import Testing

/// What every kind of cell gets from ``ObservableCell``'s extension: owner-
/// scoped `observeChanges(_:_:)`, with the same lifetime rules as
/// `ObservableArray.observeChanges(_:_:)` and `observe(_:_:)`.
@MainActor
@Suite("ObservableCell")
struct ObservableCellTests {
  final class Owner: SubscriptionOwner {
    let subscriptions = SubscriptionBag()
    var seen: [String] = []
  }

  /// A cell of each kind: the cell, `observeChanges(owner)` on it, and a
  /// change of its value to a text.
  static func make(_ kind: String) throws -> (
    AnyObject, (Owner) -> Subscription, (String) -> Void
  ) {
    let array = ObservableArray([TestItem(1, "a")])
    switch kind {
    case "Observable":
      let cell = Observable("a")
      return (
        cell, { cell.observeChanges($0) { owner, text in owner.seen.append(text) } },
        { cell.value = $0 }
      )
    case "Derived":
      let source = Observable("A")
      let cell = source.map { $0.lowercased() }
      return (
        cell, { cell.observeChanges($0) { owner, text in owner.seen.append(text) } },
        { source.value = $0.uppercased() }
      )
    case "ElementCell":
      let cell = try #require(array.cell(for: 1))
      return (
        cell, { cell.observeChanges($0) { owner, item in owner.seen.append(item.text) } },
        { array.update(TestItem(1, $0)) }
      )
    default:
      let cell = try #require(array.cell(for: 1, \.text))
      return (
        cell, { cell.observeChanges($0) { owner, text in owner.seen.append(text) } },
        { array.update(TestItem(1, $0)) }
      )
    }
  }

  nonisolated static let kinds = ["Observable", "Derived", "ElementCell", "ProjectedCell"]

  @Test(arguments: kinds)
  func observeChangesOnBehalfOfAnOwnerEndsWithTheOwner(kind: String) throws {
    let (cell, observeChanges, change) = try Self.make(kind)
    weak var weakOwner: Owner?
    var owner: Owner? = Owner()
    weakOwner = owner
    var seenBeforeRelease: [String] = []
    if let owner {
      _ = observeChanges(owner)
    }
    change("b")
    change("c")
    seenBeforeRelease = owner?.seen ?? []
    // Not called for the current value: only with changes.
    #expect(seenBeforeRelease == ["b", "c"], "\(kind)")
    owner = nil
    #expect(weakOwner == nil, "the handler does not keep its owner alive: \(kind)")
    change("d")
    withExtendedLifetime(cell) {}
  }

  @Test(arguments: kinds)
  func observeChangesOnBehalfOfAnOwnerEndsWhenCancelled(kind: String) throws {
    let (cell, observeChanges, change) = try Self.make(kind)
    let owner = Owner()
    let subscription = observeChanges(owner)
    change("b")
    subscription.cancel()
    change("c")
    #expect(owner.seen == ["b"], "\(kind)")
    withExtendedLifetime(cell) {}
  }
}

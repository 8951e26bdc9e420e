/// A list view for tests that checks every update an adapter sends it
/// against UIKit's rules, through two ``HeadlessList``s — one applying each
/// update's batch, one its steps — and then hands the update on to a real
/// view, if it has one.
///
/// It knows which elements really changed: it remembers the value of every
/// row it shows, so an update that leaves a changed row as it was breaks
/// ``ListRule/changedRows`` whatever the update itself claims.
///
/// ```swift
/// let checked = CheckedListView(forwardingTo: textList)
/// let adapter = ListAdapter(items, view: checked)
/// items.move(from: 0, to: 3)
/// #expect(checked.violations == [])
/// #expect(checked.rows == items.map(\.id))
/// ```
@MainActor
public final class CheckedListView<Element: Identifiable & Equatable>: ListView {
  /// Whether the view takes updates now; set it to `false` to make the
  /// adapter coalesce.
  public var isReady = true

  /// Every broken rule so far, batch and steps alike.
  public private(set) var violations: [ListRuleViolation] = []

  /// How many updates the view was sent.
  public private(set) var updateCount = 0

  /// How many of them were reloads of the data.
  public private(set) var reloadCount = 0

  /// The rows the batch updates left, in order.
  public var rows: [Element.ID] { batchList.rows }

  /// The rows the steps left, in order.
  public var rowsAfterSteps: [Element.ID] { stepList.rows }

  /// Whether an update arrived while another was being applied.
  public private(set) var didInterleave = false

  private var batchList = HeadlessList<Element.ID>()
  private var stepList = HeadlessList<Element.ID>()
  private var shown: [Element.ID: Element] = [:]
  private var isApplying = false
  private let forward: (@MainActor (ListUpdate<Element>) -> Void)?
  private let forwardReadiness: (@MainActor () -> Bool)?

  /// Called with each update, after it is checked and handed on, while the
  /// update is still being applied.
  public var onUpdate: (@MainActor (ListUpdate<Element>) -> Void)?

  /// Creates a checking view with no real view behind it.
  public init() {
    forward = nil
    forwardReadiness = nil
  }

  /// Creates a checking view that hands every update on to a real view.
  ///
  /// - Parameter view: The real view; held weakly. It is ready when both
  ///   it and ``isReady`` say so.
  public init<Wrapped: ListView>(forwardingTo view: Wrapped) where Wrapped.Element == Element {
    forward = { [weak view] update in view?.updateRows(update) }
    forwardReadiness = { [weak view] in view?.canUpdateRows ?? false }
  }

  /// Whether the view, and the real view behind it, take updates now.
  public var canUpdateRows: Bool { isReady && (forwardReadiness?() ?? true) }

  /// Checks the update's batch and steps, then hands it on.
  ///
  /// - Parameter update: The update.
  public func updateRows(_ update: ListUpdate<Element>) {
    if isApplying { didInterleave = true }
    isApplying = true
    defer { isApplying = false }
    updateCount += 1
    if update.isReloadData { reloadCount += 1 }
    if update.elements.map(\.id) != update.ids {
      violations.append(
        ListRuleViolation(
          rule: .rowIdentities,
          message: "the update's elements are not in the order of its ids"))
    }
    // What really changed: a row shown before whose value is not the same.
    var changed: Set<Element.ID> = []
    for element in update.elements {
      if let old = shown[element.id], old != element { changed.insert(element.id) }
    }
    violations += batchList.apply(update.batch, newRows: update.ids, changed: changed)
    if update.isReloadData {
      stepList = HeadlessList(rows: update.ids)
    } else {
      violations += stepList.apply(update.steps, newRows: update.ids, changed: changed)
    }
    shown = Dictionary(uniqueKeysWithValues: update.elements.map { ($0.id, $0) })
    forward?(update)
    onUpdate?(update)
  }
}

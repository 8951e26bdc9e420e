/// A sectioned list view for tests that checks every update an adapter
/// sends it against UIKit's rules, through a ``HeadlessSectionedList``, and
/// then hands the update on to a real view, if it has one.
///
/// It knows which elements really changed: it remembers the value of every
/// row it shows, so an update that leaves a changed row as it was breaks
/// ``ListRule/changedRows`` whatever the update itself claims.
///
/// ```swift
/// let checked = CheckedSectionedListView<Int, Item>()
/// let adapter = SectionedListAdapter(items.query(sectionedBy: { $0.on ? 1 : 0 }), view: checked)
/// items.cell(for: id)?.value.on.toggle()
/// #expect(checked.violations == [])
/// ```
@MainActor
public final class CheckedSectionedListView<Key: Hashable, Element: Identifiable & Equatable>:
  SectionedListView
{
  /// One section as the view shows it.
  public typealias Section = HeadlessSectionedList<Key, Element.ID>.Section

  /// Whether the view takes updates now; set it to `false` to make the
  /// adapter coalesce.
  public var isReady = true

  /// Every broken rule so far.
  public private(set) var violations: [ListRuleViolation] = []

  /// How many updates the view was sent.
  public private(set) var updateCount = 0

  /// How many of them were reloads of the data.
  public private(set) var reloadCount = 0

  /// The batch updates the view was sent, in order.
  public private(set) var batches: [SectionedBatchUpdate] = []

  /// The sections the updates left, in order.
  public var sections: [Section] { list.sections }

  /// Whether an update arrived while another was being applied.
  public private(set) var didInterleave = false

  private var list = HeadlessSectionedList<Key, Element.ID>()
  private var shown: [Element.ID: Element] = [:]
  private var isApplying = false
  private let forward: (@MainActor (SectionedListUpdate<Key, Element>) -> Void)?
  private let forwardReadiness: (@MainActor () -> Bool)?

  /// Called with each update, after it is checked and handed on, while the
  /// update is still being applied.
  public var onUpdate: (@MainActor (SectionedListUpdate<Key, Element>) -> Void)?

  /// Creates a checking view with no real view behind it.
  public init() {
    forward = nil
    forwardReadiness = nil
  }

  /// Creates a checking view that hands every update on to a real view.
  ///
  /// - Parameter view: The real view; held weakly. It is ready when both
  ///   it and ``isReady`` say so.
  public init<Wrapped: SectionedListView>(forwardingTo view: Wrapped)
  where Wrapped.Key == Key, Wrapped.Element == Element {
    forward = { [weak view] update in view?.updateSections(update) }
    forwardReadiness = { [weak view] in view?.canUpdateSections ?? false }
  }

  /// Whether the view, and the real view behind it, take updates now.
  public var canUpdateSections: Bool { isReady && (forwardReadiness?() ?? true) }

  /// Checks the update's batch, then hands it on.
  ///
  /// - Parameter update: The update.
  /// - Complexity: O(*n* log *n*): it reads every row's element.
  public func updateSections(_ update: SectionedListUpdate<Key, Element>) {
    if isApplying { didInterleave = true }
    isApplying = true
    defer { isApplying = false }
    updateCount += 1
    batches.append(update.batch)
    if update.isReloadData { reloadCount += 1 }
    var changed: Set<Element.ID> = []
    var next: [Element.ID: Element] = [:]
    for (section, ids) in update.ids.enumerated() {
      for row in ids.indices {
        let element = update.element(at: RowPath(section: section, row: row))
        if element.id != ids[row] {
          violations.append(
            ListRuleViolation(
              rule: .rowIdentities,
              message:
                "the update's element at row \(row) of section \(section) is not the row's id"))
        }
        if let old = shown[element.id], old != element { changed.insert(element.id) }
        next[element.id] = element
      }
    }
    let newSections = zip(update.keys, update.ids).map {
      HeadlessSectionedList<Key, Element.ID>.Section(key: $0, ids: $1)
    }
    violations += list.apply(update.batch, newSections: newSections, changed: changed)
    shown = next
    forward?(update)
    onUpdate?(update)
  }
}

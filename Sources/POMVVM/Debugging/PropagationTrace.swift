/// A record of every step of every propagation, while it is on: which cell
/// changed, which observers ran in order, which bindings forwarded, which
/// derived cells recomputed, which sets were dropped as duplicates, which
/// aggregates and change sets were published.
///
/// ```swift
/// let name = Observable("Ada").labelled("name")
/// let label = Observable("").labelled("label")
/// name.bind(to: label)
/// PropagationTrace.start()
/// name.value = "Grace"
/// PropagationTrace.stop()
/// // name = Grace
/// //   → binding to label (main.swift:3)
/// //     label = Grace
/// ```
///
/// Off, the trace costs one predictable branch per notification, on a flag
/// that each cell keeps beside its observers. Steps that the handler itself
/// causes are not recorded.
@MainActor
public enum PropagationTrace {
  /// Whether the trace is on.
  public static var isOn: Bool { _isOn }

  @exclusivity(unchecked)
  static var _isOn = false
  @exclusivity(unchecked)
  private static var handler: (@MainActor (PropagationStep) -> Void)?
  /// How deep the step under way is: observers a change calls are one
  /// deeper than the change, and what they cause one deeper again.
  @exclusivity(unchecked)
  private static var depth = 0
  @exclusivity(unchecked)
  private static var isReporting = false

  /// Turns the trace on; every step goes to `handler` until ``stop()``.
  ///
  /// - Parameter handler: Receives each step, on the main actor; by
  ///   default, prints it.
  public static func start(
    _ handler: @escaping @MainActor (PropagationStep) -> Void = { print($0) }
  ) {
    self.handler = handler
    setTraced(true)
  }

  /// Turns the trace off.
  public static func stop() {
    handler = nil
    setTraced(false)
  }

  private static func setTraced(_ isTraced: Bool) {
    // `depth` is left as it is: a pass that began traced leaves every level
    // it entered, even if the trace stops meanwhile.
    _isOn = isTraced
    for list in _LiveLists.all {
      list._isTraced = isTraced
    }
  }

  private static func report(_ kind: PropagationStep.Kind, _ subject: String, _ detail: String?) {
    guard let handler, !isReporting else { return }
    isReporting = true
    defer { isReporting = false }
    handler(PropagationStep(kind: kind, subject: subject, detail: detail, depth: max(depth, 0)))
  }

  // MARK: - Hooks

  /// What a list's notification is, by the list's kind.
  @usableFromInline
  enum _Event {
    case changed
    case deduplicated
    case superseded
  }

  /// Records a change, a dropped duplicate or a pass that a newer change
  /// cut short.
  @usableFromInline
  static func _record(_ event: _Event, _ list: _ObserverListBase, value: Any? = nil) {
    let kind: PropagationStep.Kind =
      switch event {
      case .deduplicated: .deduplicated
      case .superseded: .superseded
      case .changed:
        switch list._kind {
        case .array: .changeSetPublished
        case .aggregate: .aggregateUpdated
        case .events: .sent
        case .derived, .projection: .recomputed
        case .cell, .elementCell: .changed
        }
      }
    report(kind, list._traceName, value.map(_shortDescription))
  }

  /// Records an observer about to run; its own steps are one deeper.
  @usableFromInline
  static func _enter(_ node: Unmanaged<_NodeBase>, of list: _ObserverListBase) {
    depth += 1
    defer { depth += 1 }
    let role = node._withUnsafeGuaranteedRef { $0._role }
    switch role?.kind {
    case .binding(let twoWay, _)?:
      let target = (role?.target).flatMap { _graphCell(of: $0)?._graphList }
      let arrow = twoWay ? "↔" : "→"
      report(
        .bindingForwarded, list._traceName,
        "\(arrow) \(target?._traceName ?? "a released cell") (\(role?.origin ?? ""))"
      )
    case .bookkeeping?, .derivation?:
      break
    case .observer?:
      report(.observerCalled, list._traceName, role?.origin)
    case nil:
      report(.observerCalled, list._traceName, nil)
    }
  }

  /// Records that the observer that ``_enter(_:of:)`` announced returned.
  @usableFromInline
  static func _leave() {
    depth -= 2
  }
}

/// One step of a propagation, as ``PropagationTrace`` records it.
public struct PropagationStep: Sendable, Hashable, CustomStringConvertible {
  /// What happened.
  public enum Kind: String, Sendable, Hashable {
    /// A stored cell or an element cell took a new value.
    case changed
    /// A derived cell or a projection recomputed to a new value.
    case recomputed
    /// A set of a value equal to the current one was dropped: nobody is told.
    case deduplicated
    /// An observer is called.
    case observerCalled
    /// A binding forwards the change to its other cell.
    case bindingForwarded
    /// An aggregate of an array (a live count, a live element) changed.
    case aggregateUpdated
    /// An array published a change set to its observers.
    case changeSetPublished
    /// An event stream sent an event.
    case sent
    /// A notification pass stopped early: an observer set the cell again,
    /// and the newer value has already reached every observer.
    case superseded
  }

  /// What happened.
  public var kind: Kind
  /// The cell, array or stream it happened to: its label, or its kind,
  /// value type and where it was made.
  public var subject: String
  /// The new value, the binding's target, or where the observer was
  /// subscribed; short, with control characters made visible.
  public var detail: String?
  /// How deep in the propagation: 0 for the change that started it, one
  /// more for each observer between.
  public var depth: Int

  /// Creates a step.
  ///
  /// - Parameters:
  ///   - kind: What happened.
  ///   - subject: What it happened to.
  ///   - detail: The new value, or the binding's target.
  ///   - depth: How deep in the propagation.
  public init(kind: Kind, subject: String, detail: String? = nil, depth: Int) {
    self.kind = kind
    self.subject = subject
    self.detail = detail
    self.depth = depth
  }

  /// The step in one line, indented two spaces per level of depth.
  public var description: String {
    let indent = String(repeating: "  ", count: max(depth, 0))
    let detail = detail ?? ""
    let line =
      switch kind {
      case .changed: "\(subject) = \(detail)"
      case .recomputed: "\(subject) recomputed = \(detail)"
      case .deduplicated: "\(subject): \(detail) is unchanged, nobody is told"
      case .observerCalled: "→ observer of \(subject)" + (self.detail.map { " (\($0))" } ?? "")
      case .bindingForwarded: "→ binding \(subject) \(detail)"
      case .aggregateUpdated: "\(subject) updated = \(detail)"
      case .changeSetPublished: "\(subject) published \(detail)"
      case .sent: "\(subject) sent \(detail)"
      case .superseded: "\(subject): pass stopped, a newer value reached every observer"
      }
    return indent + line
  }
}

/// At most one presented destination — a sheet, a full-screen cover, a
/// popover, an alert, a confirmation dialog — that a view model owns and the
/// platform follows.
///
/// The destination is usually an enum whose cases hold child view models
/// (and ``AlertState``s):
///
/// ```swift
/// enum Destination { case edit(EditViewModel), deleteAlert(AlertState<DeleteAction>) }
/// let destination = Presentation<Destination>()
/// destination.present(.edit(EditViewModel(draft: item)))
/// destination.dismiss()
/// ```
///
/// ## Semantics
///
/// - ``present(_:)`` while something is presented replaces it: the platform
///   dismisses the first and presents the second, and the first is released.
///   There is never more than one destination.
/// - ``dismiss()`` with nothing presented changes nothing and tells no one.
/// - The platform's own dismissal (a swipe down, a tap outside a popover, an
///   alert's button) writes `nil` to ``destination``, as SwiftUI's
///   `.sheet(item:)` does. It dismisses whatever is presented, and is
///   never a trap. A write made while the presentation is telling its
///   observers of a change is applied when that delivery ends.
/// - A dismissed or replaced destination is released, with what its view
///   models started (``Effects``, ``Load``s, timers), unless something else
///   holds it; its work ends at the dismissal even if something does: the
///   operations, requests, feedbacks and time operators of the view models
///   it holds are cancelled (see "Lifetimes follow navigation" in the
///   navigation article).
/// - A change is made whole or not at all. A presentation, a dismissal or
///   an answer made by an operation that someone else cancelled (an
///   ``Effects`` operation, a ``Load`` request, a ``StateMachine``
///   feedback) is refused, as that operation's writes to cells are: the
///   presentation stays exactly as it was, its observers are told nothing,
///   the call says so (`false` or `nil`), and the first refusal of the
///   operation is reported to ``Diagnostics``. An operation that cancels
///   *itself* (the last tick of a timer that cancels the timer and
///   dismisses its sheet) still changes it until it next suspends.
///
/// Reads of ``destination`` register with Observation tracking.
@MainActor
public final class Presentation<Destination>: ObservableCell {
  /// What is presented; stored so that ``BindingGraph`` and
  /// `StateRecorder` find the view models it holds.
  private var _destination: Destination?
  private let state: Observable<Destination?>
  private var deliveryDepth = 0
  private var pendingWrites: [Destination?] = []
  /// The ``Dismissible`` view models the destination holds, by identity.
  private var dismissibles: [ObjectIdentifier] = []
  /// Bumped by every present, so that a child's late `dismiss()` cannot
  /// close a newer destination.
  private var generation = 0
  /// Whether a destination may hold a view model, whose work ends when it
  /// leaves (Internal/ScreenWork.swift).
  private let mayHoldWork: Bool
  /// What the destination presented with ``present(_:tiedTo:fileID:line:)`` follows.
  private var tie: Subscription?

  /// Creates a presentation with nothing presented.
  ///
  /// - Parameters:
  ///   - fileID: Where it is made, for ``BindingGraph``; by default, the
  ///     caller's file.
  ///   - line: Where it is made; by default, the caller's line.
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    state = Observable(nil, isDuplicate: nil, fileID: fileID, line: line)
    mayHoldWork = _ScreenWork.mayHoldWork(Destination.self)
  }

  isolated deinit {
    _Dismissals.unregister(dismissibles, in: self)
  }

  /// What is presented, or `nil`; what `.sheet(item:)` binds to.
  ///
  /// Setting `nil` is the platform's dismissal; setting a destination
  /// presents it (see ``present(_:)``).
  public var destination: Destination? {
    get {
      state._trackRead()
      return _destination
    }
    set {
      if refuses(newValue == nil ? "a dismissal" : "a presentation") { return }
      if deliveryDepth > 0 {
        pendingWrites.append(newValue)
        return
      }
      apply(newValue)
    }
  }

  /// What is presented, or `nil`; what observers are told.
  public var value: Destination? { destination }

  /// Whether something is presented.
  public var isPresented: Bool { destination != nil }

  /// Presents `destination`, replacing whatever is presented.
  ///
  /// - Parameter destination: The destination.
  /// - Returns: `false`, changing nothing, if the presentation was refused
  ///   because it comes from an operation that was cancelled (see
  ///   "Semantics" above).
  @discardableResult
  public func present(_ destination: Destination) -> Bool {
    if refuses("a presentation") { return false }
    apply(destination)
    return true
  }

  /// Presents a destination that edits one element of an
  /// ``ObservableArray``, tied to that element: when the element is removed
  /// (by another screen, a `replaceAll`, an undo), the destination is
  /// dismissed, and an undo or redo that puts the element back does not
  /// present it again.
  ///
  /// The tie is made before any observer hears of the destination, and
  /// belongs to it alone: an observer that removes the element during that
  /// delivery dismisses it, and a destination an observer presents then
  /// (an alert that replaces the sheet, a nested `present(_:tiedTo:)`)
  /// follows its own tie, or none.
  ///
  /// - Parameters:
  ///   - destination: The destination.
  ///   - cell: The cell of the element it edits.
  ///   - fileID: The file of the call, for a report; by default, the caller's.
  ///   - line: The line of the call, for a report; by default, the caller's.
  /// - Returns: `false`, presenting nothing, if the element was removed
  ///   already (reported to ``Diagnostics``), or if the presentation was
  ///   refused because it comes from an operation that was cancelled.
  @discardableResult
  public func present<Element>(
    _ destination: Destination, tiedTo cell: ElementCell<Element>,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    guard !cell.isDetached else {
      Diagnostics.report(
        "present refused: the element with id \(_visibleControls(String(describing: cell.id))) "
          + "was removed from its array, so its destination would edit nothing",
        fileID: fileID, line: line)
      return false
    }
    if refuses("a presentation") { return false }
    apply(destination) { presented in
      // The detachment cell keeps the element cell alive, so the tie
      // follows the element even when the destination holds only its id.
      cell.detachment.observeChanges { [weak self] detached in
        guard detached, let self, self.generation == presented else { return }
        self.apply(nil)
      }
    }
    return true
  }

  /// Dismisses whatever is presented; with nothing presented, does nothing.
  ///
  /// - Returns: Whether something was dismissed: `false` if nothing was
  ///   presented, or if the dismissal was refused, changing nothing,
  ///   because it comes from an operation that was cancelled.
  @discardableResult
  public func dismiss() -> Bool {
    guard _destination != nil, !refuses("a dismissal") else { return false }
    apply(nil)
    return true
  }

  /// Takes the user's answer to the alert presented: dismisses it, as the
  /// platform does for every button of an alert, and gives back the
  /// button's action for the parent to carry out.
  ///
  /// ```swift
  /// if let action = model.destination.answer(button) { model.confirm(action) }
  /// ```
  ///
  /// A button with no action (a plain Cancel) gives `nil`: it only
  /// dismisses. The button must belong to the alert shown: the destination
  /// is that ``AlertState`` (of `Action`), or holds it in an enum case's
  /// payload, an optional or a tuple, and the alert has a button equal to
  /// it (same label and role, and an equal action when `Action` is
  /// `Equatable`), or it is the alert's ``AlertState/cancelButton``. A
  /// button taken from an alert (its ``AlertState/buttons``, its cancel
  /// button) must come from that very alert: an equal button of another
  /// alert made with ``AlertState/init(title:message:buttons:style:)`` (the
  /// Cancel of a follow-up alert) does not count. Any other answer gives
  /// `nil`, changes nothing and is reported to ``Diagnostics``: a second
  /// tap on a button of an alert already gone — dismissed, or replaced by
  /// a follow-up alert, a sheet or a toast — never runs its action twice,
  /// and never dismisses what replaced it.
  ///
  /// - Parameters:
  ///   - button: The button the user chose.
  ///   - fileID: The file of the call, for a report; by default, the caller's.
  ///   - line: The line of the call, for a report; by default, the caller's.
  /// - Returns: The action to carry out, or `nil`.
  @discardableResult
  public func answer<Action>(
    _ button: ButtonState<Action>, fileID: StaticString = #fileID, line: UInt = #line
  ) -> Action? {
    guard let shown = _destination else {
      Diagnostics.report(
        "answer \"\(_visibleControls(button.label))\" ignored: nothing is presented (the "
          + "alert was dismissed already)", fileID: fileID, line: line)
      return nil
    }
    guard AlertState<Action>._alerts(in: shown).contains(where: { $0._offers(button) }) else {
      Diagnostics.report(
        "answer \"\(_visibleControls(button.label))\" ignored: the destination presented has no "
          + "such button (the alert it belonged to was dismissed or replaced); it stays "
          + "presented", fileID: fileID, line: line)
      return nil
    }
    if refuses("an answer") { return nil }
    apply(nil)
    return button.action
  }

  /// Whether `change` must be refused because it comes from a cancelled
  /// operation of the kit (reported once per operation).
  private func refuses(_ change: @autoclosure () -> String) -> Bool {
    _refusesCancelledChange(
      of: "Presentation<\(_typeName(Destination.self, qualified: false))>", following: state,
      change())
  }

  /// Presents `newValue` (or dismisses, for `nil`), then tells the
  /// observers.
  ///
  /// - Parameters:
  ///   - newValue: The destination, or `nil`.
  ///   - makeTie: Makes what the new destination follows, given its
  ///     generation; called before the observers are told, so that the tie
  ///     is in place during their delivery and belongs to this destination
  ///     alone.
  private func apply(_ newValue: Destination?, tiedBy makeTie: ((Int) -> Subscription)? = nil) {
    if newValue == nil && _destination == nil { return }
    let left = mayHoldWork ? _destination : nil
    _Dismissals.unregister(dismissibles, in: self)
    dismissibles = []
    tie?.cancel()
    tie = nil
    _destination = newValue
    generation += 1
    if let newValue {
      let presented = generation
      dismissibles = _Dismissals.register(newValue, in: self) { [weak self] in
        guard let self, self.generation == presented, self._destination != nil,
          !self.refuses("a dismissal")
        else { return false }
        self.apply(nil)
        return true
      }
      if let makeTie { tie = makeTie(presented) }
    }
    deliver()
    // The destination that left ends its work (Internal/ScreenWork.swift),
    // once the observers were told.
    if let left {
      _ScreenWork.end([left], keeping: _destination.map { [$0] } ?? [], leaving: self)
    }
  }

  /// Whether the presentation is telling its observers of a change; for
  /// POMVVMTesting's headless presenter.
  package var _isDelivering: Bool { deliveryDepth > 0 }

  private func deliver() {
    deliveryDepth += 1
    state.value = _destination
    deliveryDepth -= 1
    guard deliveryDepth == 0 else { return }
    while !pendingWrites.isEmpty {
      let write = pendingWrites.removeFirst()
      // Only a dismissal is taken after a delivery: a destination written
      // then would deliver again, and could loop.
      if write == nil {
        apply(nil)
      } else {
        let message =
          "Presentation<\(_typeName(Destination.self, qualified: false))> did not take a "
          + "destination written while it was telling its observers of a change; present "
          + "it once the delivery is over"
        Diagnostics.report(
          _Culprit.report(
            message, fileID: _Culprit.throughValue, line: _Culprit.line(of: state)))
      }
    }
  }

  /// Calls `handler` with what is presented now, then after every change.
  ///
  /// - Parameter handler: Called on the main actor with the destination.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @MainActor (Destination?) -> Void) -> Subscription {
    state.observe(handler)
  }

  /// Calls `handler` after every change from now on.
  ///
  /// - Parameter handler: Called on the main actor with the destination.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observeChanges(_ handler: @escaping @MainActor (Destination?) -> Void)
    -> Subscription
  {
    state.observeChanges(handler)
  }
}

// The graph and the recorder see the slot as one cell (a presentation or
// a dismissal is a change of it) whose destination is searched as
// `sheet.destination`.
extension Presentation: _CellWrapper {
  var _wrappedCell: AnyObject { state }
}

extension Presentation: _GraphContainer {
  var _graphContents: [(label: String, value: Any)] {
    _destination.map { [("destination", $0)] } ?? []
  }
}

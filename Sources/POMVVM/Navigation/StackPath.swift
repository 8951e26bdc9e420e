/// An ordered stack of screens that a view model owns and the platform's
/// navigation stack follows.
///
/// Each screen is usually an enum case holding a child view model. A push
/// gives the screen an ``ID`` that is never reused within the stack, so a
/// SwiftUI `NavigationStack(path:)` (through ``ids``) and a UIKit
/// `UINavigationController` (through ``observe(_:)``) can tell screens apart
/// even when two show the same thing.
///
/// ```swift
/// enum Screen { case detail(DetailViewModel), history(HistoryViewModel) }
/// let path = StackPath<Screen>()
/// let detail = path.push(.detail(DetailViewModel(item: 42)))
/// path.push(.history(HistoryViewModel(item: 42)))
/// path.pop(from: detail)    // back to the root, the history with it
/// ```
///
/// ## Two writers
///
/// The model pushes and pops; the platform pops on its own too (the back
/// button, a swipe, a double tap on Back). The platform's pops arrive as
/// writes of ``ids``, and nothing such a write holds can crash the stack or
/// make it loop:
///
/// - A prefix of the current ids is a pop to it.
/// - Otherwise the write is read as the user's pops and cut where it first
///   leaves out a screen of the stack: that screen and those above it are
///   popped (as ``pop(from:)`` does), and the screens below it stay. Ids the
///   stack does not hold (screens the model already popped) and a new order
///   of the screens kept are not taken: they are reported to
///   ``Diagnostics``, and the observers are told the stack as it is, so the
///   platform shows the model's stack again.
/// - A write made while the stack is telling its observers of a change is
///   applied when that delivery ends, against the stack as it then is.
///
/// So two writes in one frame, the model's and the platform's, in either
/// order, end in one stack, which every observer is then told.
///
/// ## All or nothing
///
/// A change is made whole or not at all. A push, a pop or a replace made
/// by an operation that someone else cancelled (an ``Effects`` operation, a
/// ``Load`` request, a ``StateMachine`` feedback) is refused, as that
/// operation's writes to cells are: the stack stays exactly as it was, its
/// observers are told nothing, the call says so (`false`, `nil`, or an id
/// the stack does not hold) and the first refusal of the operation is
/// reported to ``Diagnostics``. An operation that cancels *itself* (the last
/// tick of a timer that cancels the timer and pops its screen) still
/// changes the stack until it next suspends.
///
/// ## Lifetimes
///
/// The stack holds its screens strongly and nothing else: a popped screen is
/// released, with its ``Effects``, ``Load``s, timers and subscriptions,
/// unless something else holds it. Its work ends at the pop even if
/// something does (SwiftUI, through the pop animation): the operations,
/// requests, feedbacks and time operators of the view models it holds are
/// cancelled (see "Lifetimes follow navigation" in the navigation article).
///
/// Reads of ``screens``, ``ids``, ``entries`` and ``count`` register with
/// Observation tracking, so SwiftUI follows the stack.
@MainActor
public final class StackPath<Screen>: ObservableCell {
  /// The identity of one push: `Hashable`, never reused within its stack.
  public struct ID: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The push's number in its stack, from 1.
    public let rawValue: Int

    /// Creates an id from its number.
    ///
    /// - Parameter rawValue: The push's number.
    public init(rawValue: Int) {
      self.rawValue = rawValue
    }

    /// `#` and the number: `#3`.
    public var description: String { "#\(rawValue)" }
  }

  /// One screen of the stack and the id its push was given.
  public struct Entry {
    /// The push's id.
    public let id: ID
    /// The screen.
    public let screen: Screen

    @usableFromInline
    init(id: ID, screen: Screen) {
      self.id = id
      self.screen = screen
    }
  }

  /// The screens, bottom first; stored so that ``BindingGraph`` and
  /// `StateRecorder` find the view models they hold.
  @usableFromInline
  var _entries: [Entry]
  /// The observers' list, holding the number of screens.
  ///
  /// The entries are not copied into it: a push into a shared buffer would
  /// copy the stack.
  @usableFromInline
  let state: Observable<Int>
  @usableFromInline
  var nextID = 1
  /// How many deliveries of the stack's changes are under way.
  @usableFromInline
  var deliveryDepth = 0
  /// The platform's writes that came during a delivery, applied after it.
  @usableFromInline
  var pendingWrites: [(ids: [ID], fileID: StaticString, line: UInt)] = []
  /// What each screen tied to an element follows (``push(_:tiedTo:whenRemoved:fileID:line:)``).
  @usableFromInline
  var ties: [ID: Subscription] = [:]
  /// The screens that stay shown though their element was removed.
  @usableFromInline
  var shownAsDeleted: Set<ID> = []
  /// The ``Dismissible`` view models each screen holds, by identity.
  @usableFromInline
  var dismissibles: [ID: [ObjectIdentifier]] = [:]
  /// Whether a screen may hold a ``Dismissible`` view model: `false` for a
  /// class that does not conform, which then costs a push nothing.
  @usableFromInline
  let mayHoldDismissibles: Bool
  /// Whether a screen may hold a view model, whose work ends when the
  /// screen leaves (Internal/ScreenWork.swift): `false` for plain data and
  /// for a class that is not a ``ViewModel``, which then costs a pop nothing.
  @usableFromInline
  let mayHoldWork: Bool

  /// Creates a stack holding `screens`, bottom first, each pushed in turn.
  ///
  /// - Parameters:
  ///   - screens: The screens; empty by default.
  ///   - fileID: Where the stack is made, for ``BindingGraph``; by default,
  ///     the caller's file.
  ///   - line: Where the stack is made; by default, the caller's line.
  public init(_ screens: [Screen] = [], fileID: StaticString = #fileID, line: UInt = #line) {
    var entries: [Entry] = []
    entries.reserveCapacity(screens.count)
    for (offset, screen) in screens.enumerated() {
      entries.append(Entry(id: ID(rawValue: offset + 1), screen: screen))
    }
    nextID = screens.count + 1
    _entries = entries
    state = Observable(entries.count, isDuplicate: nil, fileID: fileID, line: line)
    mayHoldDismissibles =
      !(Screen.self is AnyObject.Type) || Screen.self is any Dismissible.Type
    mayHoldWork = _ScreenWork.mayHoldWork(Screen.self)
    for entry in entries { register(entry) }
  }

  isolated deinit {
    for keys in dismissibles.values { _Dismissals.unregister(keys, in: self) }
    for tie in ties.values { tie.cancel() }
  }

  // MARK: - Reading

  /// The screens and their ids, bottom first; what observers are told.
  ///
  /// - Complexity: O(1).
  public var value: [Entry] {
    state._trackRead()
    return _entries
  }

  /// The screens and their ids, bottom first.
  ///
  /// - Complexity: O(1).
  public var entries: [Entry] { value }

  /// The screens, bottom first.
  ///
  /// - Complexity: O(*n*).
  public var screens: [Screen] { value.map(\.screen) }

  /// How many screens the stack holds.
  ///
  /// - Complexity: O(1).
  public var count: Int { value.count }

  /// Whether the stack holds no screen.
  public var isEmpty: Bool { value.isEmpty }

  /// The top screen, or `nil` for an empty stack.
  public var last: Screen? { value.last?.screen }

  /// The screen pushed with `id`, or `nil` if it is not on the stack.
  ///
  /// - Parameter id: The push's id.
  /// - Complexity: O(*n*).
  public subscript(id id: ID) -> Screen? {
    value.last { $0.id == id }?.screen
  }

  /// The screen at `position` from the bottom (0 is the root screen), or
  /// `nil` when the stack is not that deep: `path[1]` in a test's key path
  /// (`$0.added(\.path[1]?.detail) { … }`) names the second screen.
  ///
  /// - Parameter position: The screen's place on the stack, from 0.
  /// - Complexity: O(1).
  public subscript(position: Int) -> Screen? {
    let entries = value
    return entries.indices.contains(position) ? entries[position].screen : nil
  }

  /// Whether the screen pushed with `id` is shown though the element it is
  /// tied to was removed (the ``ElementRemovalPolicy/keepShownAsDeleted``
  /// policy).
  ///
  /// - Parameter id: The push's id.
  /// - Returns: `true` once the element of a screen kept that way is gone.
  public func isShownAsDeleted(_ id: ID) -> Bool {
    state._trackRead()
    return shownAsDeleted.contains(id)
  }

  /// The ids of the screens, bottom first; what a SwiftUI
  /// `NavigationStack(path:)` binds to.
  ///
  /// Setting it is the platform's own pop: see "Two writers" above. A write
  /// that asks for something the stack does not do is reported to
  /// ``Diagnostics``, naming the stack's origin, and never traps; call
  /// ``setIDs(_:fileID:line:)`` to have the report name your line.
  ///
  /// - Complexity: O(*n* + *m*), where *m* is the length of the write.
  public var ids: [ID] {
    get { value.map(\.id) }
    set { setIDs(newValue, fileID: _Culprit.throughValue, line: _Culprit.line(of: state)) }
  }

  // MARK: - The model's writes

  /// Pushes a screen on top.
  ///
  /// - Parameter screen: The screen.
  /// - Returns: The push's id, new to this stack. A push refused because
  ///   it comes from an operation that was cancelled (see "All or nothing"
  ///   above) pushes nothing, and its id is one the stack does not hold.
  /// - Complexity: Amortized O(1), plus the observers.
  @inlinable
  @discardableResult
  public func push(_ screen: Screen) -> ID {
    let id = ID(rawValue: nextID)
    nextID += 1
    if _someCancelledKitTaskRuns, _refuses("a push") { return id }
    let entry = Entry(id: id, screen: screen)
    _entries.append(entry)
    if mayHoldDismissibles { register(entry) }
    deliver()
    return id
  }

  /// Pops the top screen.
  ///
  /// - Returns: `false`, changing nothing, if the stack is empty or the pop
  ///   was refused (see "All or nothing" above).
  /// - Complexity: O(1), plus the observers.
  @inlinable
  @discardableResult
  public func pop() -> Bool {
    guard !_entries.isEmpty else { return false }
    if _someCancelledKitTaskRuns, _refuses("a pop") { return false }
    cut(at: _entries.count - 1)
    return true
  }

  /// Pops the screen pushed with `id` and every screen above it.
  ///
  /// - Parameter id: The push's id.
  /// - Returns: `false`, changing nothing, if no screen of the stack has
  ///   that id (it was popped already), or if the pop was refused (see "All
  ///   or nothing" above).
  /// - Complexity: O(*n*), plus the observers.
  @discardableResult
  public func pop(from id: ID) -> Bool {
    guard let index = _entries.firstIndex(where: { $0.id == id }), !_refuses("a pop") else {
      return false
    }
    cut(at: index)
    return true
  }

  /// Pops every screen above the one pushed with `id`, which stays on top.
  ///
  /// - Parameter id: The push's id.
  /// - Returns: `false`, changing nothing, if no screen of the stack has
  ///   that id, or if the pops were refused (see "All or nothing" above).
  /// - Complexity: O(*n*), plus the observers.
  @discardableResult
  public func pop(to id: ID) -> Bool {
    guard let index = _entries.firstIndex(where: { $0.id == id }), !_refuses("a pop") else {
      return false
    }
    cut(at: index + 1)
    return true
  }

  /// Pops every screen: the root view shows.
  ///
  /// - Returns: Whether the stack is empty now: `false` only if the pops
  ///   were refused (see "All or nothing" above).
  /// - Complexity: O(*n*), plus the observers.
  @discardableResult
  public func popToRoot() -> Bool {
    guard !_entries.isEmpty else { return true }
    if _refuses("a pop to the root") { return false }
    cut(at: 0)
    return true
  }

  /// Replaces every screen with `screens`, each with a new id: a deep link.
  ///
  /// The observers are told once. To tie screens to the elements they
  /// edit, as ``push(_:tiedTo:whenRemoved:fileID:line:)`` does, replace
  /// with ``Push``es: ``replace(with:fileID:line:)``.
  ///
  /// - Parameter screens: The new screens, bottom first.
  /// - Returns: `false`, changing nothing, if the change was refused (see
  ///   "All or nothing" above).
  /// - Complexity: O(*n* + *m*), plus the observers.
  @inlinable
  @discardableResult
  public func replace(with screens: [Screen]) -> Bool {
    if _someCancelledKitTaskRuns, _refuses("a replace") { return false }
    var entries: [Entry] = []
    entries.reserveCapacity(screens.count)
    let first = nextID
    for (offset, screen) in screens.enumerated() {
      entries.append(Entry(id: ID(rawValue: first + offset), screen: screen))
    }
    nextID = first + screens.count
    let removed = _entries
    _entries = entries
    if !(dismissibles.isEmpty && ties.isEmpty && shownAsDeleted.isEmpty) {
      forget(removed[...])
    }
    if mayHoldDismissibles {
      for entry in entries { register(entry) }
    }
    deliver()
    if mayHoldWork { endWork(of: removed[...]) }
    return true
  }

  // MARK: - The platform's writes

  /// Takes the platform's write of the ids it shows: its own pops.
  ///
  /// See "Two writers" in the type's discussion for how a write is read.
  ///
  /// - Parameters:
  ///   - newIDs: The ids the platform shows, bottom first.
  ///   - fileID: The file of the code that wrote; by default, the caller's.
  ///   - line: The line of the code that wrote; by default, the caller's.
  /// - Returns: `true` if the stack now has exactly these ids; `false` if
  ///   part of the write was not taken (reported to ``Diagnostics``) or it
  ///   waits for a delivery under way to end.
  /// - Complexity: O(*n* + *m*), where *m* is the length of the write.
  @discardableResult
  public func setIDs(
    _ newIDs: [ID], fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    if _refuses("a write of its ids") { return false }
    if deliveryDepth > 0 {
      pendingWrites.append((newIDs, fileID, line))
      return false
    }
    return apply(newIDs, fileID: fileID, line: line, correcting: true)
  }

  private func apply(
    _ newIDs: [ID], fileID: StaticString, line: UInt, correcting: Bool
  ) -> Bool {
    // The common case, a pop: a prefix of the stack.
    if newIDs.count <= _entries.count,
      zip(newIDs, _entries).allSatisfy({ $0 == $1.id })
    {
      if newIDs.count < _entries.count { cut(at: newIDs.count) }
      return true
    }
    let written = Set(newIDs)
    let kept = _entries.firstIndex { !written.contains($0.id) } ?? _entries.count
    let held = Set(_entries[..<kept].lazy.map(\.id))
    let unknown = newIDs.filter { !held.contains($0) }
    var problems: [String] = []
    if !unknown.isEmpty {
      problems.append(
        "ids \(unknown.map(\.description).joined(separator: ", ")) are not on the stack "
          + "(popped already, or never pushed)")
    }
    let keptIDs = newIDs.filter { held.contains($0) }
    if !keptIDs.elementsEqual(_entries[..<kept].lazy.map(\.id)) {
      problems.append("the screens cannot be reordered")
    }
    let message =
      "StackPath<\(_typeName(Screen.self, qualified: false))> took part of a write of its "
      + "ids: \(problems.joined(separator: "; ")); it keeps "
      + (kept == 0 ? "no screen" : "its \(kept) bottom screen\(kept == 1 ? "" : "s")")
    let report = _Culprit.report(message, fileID: fileID, line: line)
    Diagnostics.report(report)
    if kept < _entries.count {
      cut(at: kept)
    } else if correcting {
      // Nothing changed, but the platform shows something else: tell it
      // the stack as it is.
      deliver()
    }
    return false
  }

  // MARK: - Internal

  /// Whether `change` must be refused because it comes from a cancelled
  /// operation of the kit (reported once per operation).
  @usableFromInline
  func _refuses(_ change: @autoclosure () -> String) -> Bool {
    _refusesCancelledChange(
      of: "StackPath<\(_typeName(Screen.self, qualified: false))>", following: state, change())
  }

  /// Replaces every screen with `pushes`, each with a new id, tying those
  /// that ask for it; leaves out, and reports, a push whose element is
  /// gone already.
  ///
  /// - Parameters:
  ///   - pushes: The new screens, bottom first.
  ///   - fileID: The file of the call, for reports.
  ///   - line: The line of the call, for reports.
  ///   - leftOut: Called with the index of each push left out, and the
  ///     description of its element's id.
  /// - Returns: The ids of the screens pushed; `nil`, changing nothing, if
  ///   the change was refused.
  @discardableResult
  func _replace(
    with pushes: [Push], fileID: StaticString, line: UInt,
    leftOut: (_ index: Int, _ elementID: String) -> Void
  ) -> [ID]? {
    if _refuses("a replace") { return nil }
    var entries: [Entry] = []
    entries.reserveCapacity(pushes.count)
    var newTies: [(ID, Push.Tie)] = []
    for (index, push) in pushes.enumerated() {
      if let tie = push.tie, tie.isDetached() {
        leftOut(index, tie.elementID())
        continue
      }
      let id = ID(rawValue: nextID)
      nextID += 1
      entries.append(Entry(id: id, screen: push.screen))
      if let tie = push.tie { newTies.append((id, tie)) }
    }
    let removed = _entries
    _entries = entries
    if !(dismissibles.isEmpty && ties.isEmpty && shownAsDeleted.isEmpty) {
      forget(removed[...])
    }
    if mayHoldDismissibles {
      for entry in entries { register(entry) }
    }
    // Tied before the observers hear of the stack: one of them may remove
    // the element.
    for (id, tie) in newTies { ties[id] = tie.follow(self, id) }
    deliver()
    if mayHoldWork { endWork(of: removed[...]) }
    return entries.map(\.id)
  }

  /// Pops the screens from `index` up.
  @inlinable
  func cut(at index: Int) {
    guard index < _entries.count else { return }
    if dismissibles.isEmpty && ties.isEmpty && shownAsDeleted.isEmpty && !mayHoldWork {
      _entries.removeSubrange(index...)
      deliver()
    } else {
      let removed = _entries[index...]
      _entries.removeSubrange(index...)
      forget(removed)
      deliver()
      if mayHoldWork { endWork(of: removed) }
    }
  }

  /// Ends the work of the screens that left (Internal/ScreenWork.swift), once
  /// the observers were told: a pop ends what the screen runs, whoever still
  /// holds it.
  @usableFromInline
  func endWork(of removed: ArraySlice<Entry>) {
    _ScreenWork.end(removed.map(\.screen), keeping: _entries.map(\.screen), leaving: self)
  }

  /// Ends what the stack keeps for screens that left it.
  @usableFromInline
  func forget(_ removed: ArraySlice<Entry>) {
    for entry in removed {
      if !dismissibles.isEmpty, let keys = dismissibles.removeValue(forKey: entry.id) {
        _Dismissals.unregister(keys, in: self)
      }
      if !ties.isEmpty, let tie = ties.removeValue(forKey: entry.id) { tie.cancel() }
      if !shownAsDeleted.isEmpty { shownAsDeleted.remove(entry.id) }
    }
  }

  /// Lets the view models a screen holds dismiss themselves.
  @usableFromInline
  func register(_ entry: Entry) {
    let id = entry.id
    let keys = _Dismissals.register(entry.screen, in: self) { [weak self] in
      self?.pop(from: id) ?? false
    }
    if !keys.isEmpty { dismissibles[id] = keys }
  }

  /// Whether the stack is telling its observers of a change.
  ///
  /// A write of ``ids`` made now waits for the delivery to end. For
  /// POMVVMTesting's headless stack.
  package var _isDelivering: Bool { deliveryDepth > 0 }

  /// Whether the screen pushed with `id` is on the stack.
  func _holds(_ id: ID) -> Bool {
    _entries.contains { $0.id == id }
  }

  /// Marks a screen as shown though its element is gone, and tells the
  /// observers.
  func markShownAsDeleted(_ id: ID) {
    guard _entries.contains(where: { $0.id == id }), !_refuses("a change") else { return }
    shownAsDeleted.insert(id)
    deliver()
  }

  /// Tells the observers the stack, then takes the platform's writes that
  /// came meanwhile.
  @inlinable
  func deliver() {
    deliveryDepth += 1
    state.value = _entries.count
    deliveryDepth -= 1
    if deliveryDepth == 0 && !pendingWrites.isEmpty { applyPendingWrites() }
  }

  @usableFromInline
  func applyPendingWrites() {
    // Each write taken either pops or changes nothing, and a write taken
    // here never asks for a correction, so this ends.
    while !pendingWrites.isEmpty {
      let write = pendingWrites.removeFirst()
      _ = apply(write.ids, fileID: write.fileID, line: write.line, correcting: false)
    }
  }

  // MARK: - Observing

  /// Calls `handler` with the entries now, then after every change.
  ///
  /// A change the platform's write asked for but that was not taken is
  /// told too, with the entries unchanged, so the platform can show the
  /// stack again.
  ///
  /// - Parameter handler: Called on the main actor with the entries.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observe(_ handler: @escaping @MainActor ([Entry]) -> Void) -> Subscription {
    // The handler reads the entries when it is called: always the stack
    // as it is.
    state.observe { [weak self] _ in
      if let self { handler(self._entries) }
    }
  }

  /// Calls `handler` after every change from now on.
  ///
  /// - Parameter handler: Called on the main actor with the entries.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  public func observeChanges(_ handler: @escaping @MainActor ([Entry]) -> Void)
    -> Subscription
  {
    state.observeChanges { [weak self] _ in
      if let self { handler(self._entries) }
    }
  }
}

// The graph and the recorder see the stack as one cell (a push or a pop is
// a change of its entries) whose screens are searched as `path[0]`, ….
extension StackPath: _CellWrapper {
  var _wrappedCell: AnyObject { state }
}

extension StackPath: _GraphContainer {
  var _graphContents: [(label: String, value: Any)] {
    _entries.enumerated().map { ("[\($0.offset)]", $0.element.screen) }
  }
}

extension StackPath.Entry: Sendable where Screen: Sendable {}
extension StackPath.Entry: Equatable where Screen: Equatable {}

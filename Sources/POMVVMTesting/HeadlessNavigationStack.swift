import POMVVM

/// A navigation stack without a screen: it shows what a `StackPath`
/// publishes the way `UINavigationController` and SwiftUI's
/// `NavigationStack(path:)` do, lets a test perform the user's own pops at
/// any moment, and checks that the screen and the model agree.
///
/// ```swift
/// let path = StackPath<Screen>()
/// let navigation = HeadlessNavigationStack(path)
/// path.push(.detail(detail))
/// navigation.userPop()                  // the back button
/// #expect(navigation.violations.isEmpty)
/// #expect(navigation.shown == path.ids)
/// ```
///
/// ## Frames
///
/// By default every change the model publishes is shown at once. Made with
/// `showsChangesAtFrameEnd: true`, the stack shows them only at
/// ``endFrame()``, as a platform that lays out once per run-loop turn does:
/// a user pop made before then acts on the old screen, so the model and
/// the user write in the same frame.
///
/// ## Rules
///
/// Each broken rule is one entry of ``violations``, in the words UIKit
/// uses:
///
/// - the model publishes the same id twice ("Pushing the same view
///   controller instance more than once is not supported");
/// - an id shown has no screen (`path[id:]` is `nil`): SwiftUI would show
///   an empty destination;
/// - after a frame, the screen shows other ids than the model holds;
/// - one step makes the model publish more than ``maximumDeliveriesPerStep``
///   changes: a loop between the model and the screen.
@MainActor
public final class HeadlessNavigationStack<Screen> {
  /// The ids the screen shows, bottom first (the root view is not one).
  public private(set) var shown: [StackPath<Screen>.ID]
  /// The rules broken so far, in the order they were broken.
  public private(set) var violations: [String] = []
  /// How many changes one step may make the model publish before the
  /// stack calls it a loop.
  public var maximumDeliveriesPerStep = 64

  private let path: StackPath<Screen>
  private let deferred: Bool
  private var pending: [StackPath<Screen>.ID]?
  private var subscription: Subscription?
  private var deliveries = 0

  /// Creates a stack that shows `path` and follows it.
  ///
  /// - Parameters:
  ///   - path: The model's stack.
  ///   - showsChangesAtFrameEnd: Whether a change is shown only at
  ///     ``endFrame()``; `false` by default, showing it at once.
  public init(_ path: StackPath<Screen>, showsChangesAtFrameEnd: Bool = false) {
    self.path = path
    self.deferred = showsChangesAtFrameEnd
    shown = path.ids
    subscription = path.observeChanges { [weak self] entries in
      self?.receive(entries.map(\.id))
    }
  }

  private func receive(_ ids: [StackPath<Screen>.ID]) {
    deliveries += 1
    if deliveries == maximumDeliveriesPerStep + 1 {
      violations.append(
        "the model published more than \(maximumDeliveriesPerStep) changes in one step: "
          + "the model and the navigation controller loop")
    }
    if deferred {
      pending = ids
    } else {
      show(ids)
    }
  }

  /// Shows the model's stack, as `setViewControllers(_:animated:)` does.
  private func show(_ ids: [StackPath<Screen>.ID]) {
    if Set(ids).count != ids.count {
      violations.append(
        "Pushing the same view controller instance more than once is not supported "
          + "(ids \(ids.map(\.description).joined(separator: ", ")))")
    }
    for id in ids where path[id: id] == nil {
      violations.append(
        "no view controller for id \(id): the model published an id without a screen")
    }
    shown = ids
  }

  /// Shows what the model published during the frame, then checks that
  /// the screen and the model agree.
  ///
  /// - Returns: The rules this step broke.
  @discardableResult
  public func endFrame() -> [String] {
    step {
      if let ids = pending {
        pending = nil
        show(ids)
      }
    }
  }

  /// The user taps Back: the top screen shown leaves, and the platform
  /// writes the ids left to the model.
  ///
  /// - Returns: `false`, doing nothing, if the screen shows no pushed
  ///   screen (the root view has no Back button).
  @discardableResult
  public func userPop() -> Bool {
    guard !shown.isEmpty else { return false }
    userPop(toCount: shown.count - 1)
    return true
  }

  /// The user pops several screens at once (a long press on Back, a tap
  /// on a tab bar item, a double tap on Back): the stack keeps `count`
  /// screens.
  ///
  /// - Parameter count: How many of the shown screens stay; at most the
  ///   number shown.
  public func userPop(toCount count: Int) {
    let kept = max(0, min(count, shown.count))
    step {
      shown.removeLast(shown.count - kept)
      let written = shown
      path.ids = written
    }
  }

  /// Checks that the screen shows the model's stack.
  ///
  /// With changes shown at frame end, call it after ``endFrame()``.
  ///
  /// - Returns: The rules broken, also added to ``violations``.
  @discardableResult
  public func check() -> [String] {
    let before = violations.count
    if pending == nil || !deferred {
      let model = path.ids
      if shown != model {
        violations.append(
          "the navigation controller shows [\(shown.map(\.description).joined(separator: ", "))]"
            + " but the model holds [\(model.map(\.description).joined(separator: ", "))]")
      }
    }
    return Array(violations[before...])
  }

  @discardableResult
  private func step(_ body: () -> Void) -> [String] {
    let before = violations.count
    deliveries = 0
    body()
    // A pop made while the model delivers a change is taken when the
    // delivery ends; the step that caused the delivery checks then.
    if (!deferred || pending == nil) && !path._isDelivering { check() }
    return Array(violations[before...])
  }
}

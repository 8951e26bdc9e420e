import POMVVM

/// A presenting view controller without a screen: it shows what a
/// `Presentation` publishes the way UIKit's `present`/`dismiss` and
/// SwiftUI's `.sheet(item:)` do, lets a test swipe the sheet down at any
/// moment, and checks that the screen and the model agree.
///
/// ```swift
/// let destination = Presentation<Destination>()
/// let presenter = HeadlessPresenter(destination)
/// destination.present(.edit(edit))
/// presenter.userDismiss()           // the swipe down
/// #expect(destination.destination == nil && presenter.violations.isEmpty)
/// ```
///
/// Each present that replaces a shown destination is a dismissal of the
/// first and a presentation of the second, as UIKit needs ("Attempt to
/// present … which is already presenting …" otherwise): ``presentations``
/// counts them. With `showsChangesAtFrameEnd: true`, changes are shown at
/// ``endFrame()``, so a swipe made before acts on the old screen.
@MainActor
public final class HeadlessPresenter<Destination> {
  /// Whether the screen shows a presented destination.
  public private(set) var isShowing: Bool
  /// How many times the screen presented a destination.
  public private(set) var presentations = 0
  /// The rules broken so far, in UIKit's words.
  public private(set) var violations: [String] = []

  private let presentation: Presentation<Destination>
  private let deferred: Bool
  private var pending: Bool?
  private var subscription: Subscription?

  /// Creates a presenter that follows `presentation`.
  ///
  /// - Parameters:
  ///   - presentation: The model's presentation.
  ///   - showsChangesAtFrameEnd: Whether a change is shown only at
  ///     ``endFrame()``; `false` by default.
  public init(_ presentation: Presentation<Destination>, showsChangesAtFrameEnd: Bool = false) {
    self.presentation = presentation
    deferred = showsChangesAtFrameEnd
    isShowing = presentation.destination != nil
    subscription = presentation.observeChanges { [weak self] destination in
      guard let self else { return }
      if self.deferred {
        self.pending = destination != nil
      } else {
        self.show(destination != nil)
      }
    }
  }

  private func show(_ presented: Bool) {
    if presented { presentations += 1 }
    isShowing = presented
  }

  /// Shows what the model published during the frame, then checks.
  ///
  /// - Returns: The rules this step broke.
  @discardableResult
  public func endFrame() -> [String] {
    if let presented = pending {
      pending = nil
      show(presented)
    }
    return check()
  }

  /// The user swipes the sheet down (or taps outside a popover): the
  /// platform writes `nil` to the model.
  ///
  /// - Returns: `false`, doing nothing, if nothing is shown.
  @discardableResult
  public func userDismiss() -> Bool {
    guard isShowing else { return false }
    isShowing = false
    presentation.destination = nil
    if (!deferred || pending == nil) && !presentation._isDelivering { check() }
    return true
  }

  /// Checks that the screen shows a destination exactly when the model
  /// presents one.
  ///
  /// - Returns: The rules broken, also added to ``violations``.
  @discardableResult
  public func check() -> [String] {
    let before = violations.count
    if pending == nil || !deferred {
      let model = presentation.destination != nil
      if model != isShowing {
        violations.append(
          model
            ? "the model presents a destination but no view controller is presented"
            : "a view controller is presented but the model presents nothing")
      }
    }
    return Array(violations[before...])
  }
}

import Synchronization

/// An alert or a confirmation dialog as data: a title, a message and
/// buttons with typed actions.
///
/// Present it through a ``Presentation`` (usually as one case of a
/// destination enum); when the user chooses a button, the view calls
/// ``Presentation/answer(_:fileID:line:)``, which dismisses the alert and
/// gives the button's action to the parent. Being a value, `Equatable` when
/// `Action` is, it is what a test compares:
///
/// ```swift
/// enum DeleteAction: Equatable { case confirm }
/// let alert = AlertState<DeleteAction>(
///   title: "Delete “Groceries”?", message: "This cannot be undone.",
///   buttons: [.destructive("Delete", action: .confirm), .cancel()])
/// ```
///
/// An alert with no cancel button gets a Cancel added by the platform; so
/// ``cancelButton`` is never `nil` here either: without one, it is an
/// implicit "Cancel" with no action, as the platforms do.
public struct AlertState<Action>: Identifiable {
  /// How the platform shows it.
  public enum Style: Hashable, Sendable {
    /// A centered alert (`.alert`, `UIAlertController.Style.alert`).
    case alert
    /// A confirmation dialog or action sheet (`.confirmationDialog`,
    /// `UIAlertController.Style.actionSheet`).
    case confirmationDialog
  }

  /// The alert's identity, for `.alert(item:)`-style APIs: its title.
  public var id: String { title }
  /// The title.
  public var title: String
  /// The message under the title, if any.
  public var message: String?
  /// The buttons, in the order shown.
  public var buttons: [ButtonState<Action>]
  /// Alert or confirmation dialog.
  public var style: Style

  /// Creates an alert.
  ///
  /// The alert's buttons remember the alert they were made with, so that
  /// ``Presentation/answer(_:fileID:line:)`` takes a button of the alert
  /// shown and refuses an equal one of an alert that is gone (a second tap
  /// after a follow-up alert with its own Cancel replaced this one).
  ///
  /// - Parameters:
  ///   - title: The title.
  ///   - message: The message under the title; none by default.
  ///   - buttons: The buttons; an OK button with no action by default.
  ///   - style: ``Style/alert`` by default.
  public init(
    title: String, message: String? = nil,
    buttons: [ButtonState<Action>] = [ButtonState("OK", role: .cancel)],
    style: Style = .alert
  ) {
    self.title = title
    self.message = message
    let number = _alertNumbers.wrappingAdd(1, ordering: .relaxed).newValue
    self.buttons = buttons.map { button in
      var button = button
      button._alert = number
      return button
    }
    self.style = style
  }

  /// The button the user chose by its label, if the alert has one.
  ///
  /// - Parameter label: The text on the button.
  /// - Returns: The first button with that label, or `nil`.
  public func button(labelled label: String) -> ButtonState<Action>? {
    buttons.first { $0.label == label }
  }

  /// The button a dismissal without a choice stands for (a tap outside a
  /// dialog, the Escape key): the cancel button, or else an implicit
  /// "Cancel" with no action.
  public var cancelButton: ButtonState<Action> {
    if let cancel = buttons.first(where: { $0.role == .cancel }) { return cancel }
    var implicit = ButtonState<Action>.cancel()
    implicit._alert = buttons.first?._alert ?? 0
    return implicit
  }
}

extension AlertState {
  /// The alerts of `Action` that `value` is or holds in an enum case's
  /// payload, an optional or a tuple, three levels down: what a
  /// ``Presentation`` shows, for ``Presentation/answer(_:fileID:line:)``.
  static func _alerts(in value: Any) -> [AlertState] {
    var found: [AlertState] = []
    collect(value, depth: 0, into: &found)
    return found
  }

  private static func collect(_ value: Any, depth: Int, into found: inout [AlertState]) {
    if let alert = value as? AlertState {
      found.append(alert)
      return
    }
    guard depth < 3, !(type(of: value) is AnyClass) else { return }
    let mirror = Mirror(reflecting: value)
    guard [.enum, .optional, .tuple].contains(mirror.displayStyle) else { return }
    for child in mirror.children { collect(child.value, depth: depth + 1, into: &found) }
  }

  /// Whether the alert offers `button`: one of its buttons, or its cancel
  /// button (which may be the platform's implicit one).
  func _offers(_ button: ButtonState<Action>) -> Bool {
    buttons.contains { $0._matches(button) } || cancelButton._matches(button)
  }
}

/// The last number given to an alert made
/// (``AlertState/init(title:message:buttons:style:)``).
private let _alertNumbers = Atomic<UInt64>(0)

extension AlertState: Equatable where Action: Equatable {}
extension AlertState: Hashable where Action: Hashable {}
extension AlertState: Sendable where Action: Sendable {}

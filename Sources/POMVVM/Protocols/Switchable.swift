/// A view model with an on/off switch, and the operations on it.
///
/// A view model conforms by exposing its `on` cell; the operations come
/// from the default implementations in `extension ViewModel where Self:
/// Switchable`, written once for every switchable view model:
///
/// ```swift
/// final class DetailViewModel: ViewModel, Switchable {
///   let on: ProjectedCell<ElementCell<Item>, Bool>
///   // no switch code: openSwitch(), closeSwitch() and toggleSwitch()
///   // come from the extension
/// }
/// ```
///
/// Every operation reports whether the switch took the change: a switch
/// backed by an element that was removed from its array refuses, and the
/// refusal is also reported to ``Diagnostics``.
@MainActor
public protocol Switchable {
  /// The type of the cell that holds the switch's state.
  associatedtype SwitchCell: MutableObservableCell<Bool>

  /// Whether the switch is on.
  var on: SwitchCell { get }

  /// Turns the switch on.
  ///
  /// - Returns: Whether the switch took the change.
  @discardableResult
  func openSwitch() -> Bool

  /// Turns the switch off.
  ///
  /// - Returns: Whether the switch took the change.
  @discardableResult
  func closeSwitch() -> Bool

  /// Turns the switch to its other state.
  ///
  /// - Returns: Whether the switch took the change.
  @discardableResult
  func toggleSwitch() -> Bool
}

// MARK: - Default implementations

extension ViewModel where Self: Switchable {
  /// Turns the switch on; turning on a switch that is on changes nothing
  /// and notifies no one.
  ///
  /// - Returns: Whether the switch took the change (`false` if it is backed
  ///   by a removed element).
  @discardableResult
  public func openSwitch() -> Bool {
    on.set(true)
  }

  /// Turns the switch off; turning off a switch that is off changes nothing
  /// and notifies no one.
  ///
  /// - Returns: Whether the switch took the change (`false` if it is backed
  ///   by a removed element).
  @discardableResult
  public func closeSwitch() -> Bool {
    on.set(false)
  }

  /// Turns the switch to its other state.
  ///
  /// - Returns: Whether the switch took the change (`false` if it is backed
  ///   by a removed element).
  @discardableResult
  public func toggleSwitch() -> Bool {
    on.set(!on.value)
  }
}

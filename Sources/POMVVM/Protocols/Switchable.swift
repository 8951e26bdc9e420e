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
/// refusal is also reported to ``Diagnostics``. On a view model that uses
/// the default implementations, `model.toggleSwitch()` calls
/// `toggleSwitch(fileID:line:)` (and so for open and close), whose report
/// names the caller's line; a call through the requirement, on a generic
/// or existential value, names the `on` cell and where it was made. A view model that implements an
/// operation itself is called as it is (`model.toggleSwitch()` calls its
/// own `toggleSwitch()`).
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
  @_disfavoredOverload
  @discardableResult
  public func openSwitch() -> Bool {
    on.set(true)
  }

  /// Turns the switch on; a refusal's report names the caller's line.
  ///
  /// - Parameters:
  ///   - fileID: The culprit's file in a report; by default, the caller's.
  ///   - line: The culprit's line in a report; by default, the caller's.
  /// - Returns: Whether the switch took the change (`false` if it is backed
  ///   by a removed element).
  @discardableResult
  public func openSwitch(fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
    on.set(true, fileID: fileID, line: line)
  }

  /// Turns the switch off; turning off a switch that is off changes nothing
  /// and notifies no one.
  ///
  /// - Returns: Whether the switch took the change (`false` if it is backed
  ///   by a removed element).
  @_disfavoredOverload
  @discardableResult
  public func closeSwitch() -> Bool {
    on.set(false)
  }

  /// Turns the switch off; a refusal's report names the caller's line.
  ///
  /// - Parameters:
  ///   - fileID: The culprit's file in a report; by default, the caller's.
  ///   - line: The culprit's line in a report; by default, the caller's.
  /// - Returns: Whether the switch took the change (`false` if it is backed
  ///   by a removed element).
  @discardableResult
  public func closeSwitch(fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
    on.set(false, fileID: fileID, line: line)
  }

  /// Turns the switch to its other state.
  ///
  /// - Returns: Whether the switch took the change (`false` if it is backed
  ///   by a removed element).
  @_disfavoredOverload
  @discardableResult
  public func toggleSwitch() -> Bool {
    on.set(!on.value)
  }

  /// Turns the switch to its other state; a refusal's report names the
  /// caller's line.
  ///
  /// - Parameters:
  ///   - fileID: The culprit's file in a report; by default, the caller's.
  ///   - line: The culprit's line in a report; by default, the caller's.
  /// - Returns: Whether the switch took the change (`false` if it is backed
  ///   by a removed element).
  @discardableResult
  public func toggleSwitch(fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
    on.set(!on.value, fileID: fileID, line: line)
  }
}

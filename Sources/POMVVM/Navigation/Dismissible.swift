/// A view model that can close the screen showing it without knowing its
/// parent, as SwiftUI's `dismiss` action does.
///
/// Conform a child view model, and call ``dismiss(fileID:line:)`` from it:
/// pushed on a ``StackPath``, it pops itself and every screen above it;
/// presented by a ``Presentation``, it is dismissed. A view model is found
/// when it is the screen or destination itself, or held in the payload of
/// its enum case.
///
/// ```swift
/// final class EditViewModel: ViewModel, Dismissible {
///   func cancel() { dismiss() }
/// }
/// parent.destination.present(.edit(EditViewModel()))
/// // ... the user taps Cancel:
/// edit.cancel()    // parent.destination.destination == nil
/// ```
///
/// A view model that nothing shows when it asks is reported to
/// ``Diagnostics`` (naming the line of the call), and nothing else happens.
public protocol Dismissible: ViewModel, AnyObject {}

// MARK: - Default implementations

extension Dismissible {
  /// Closes the screen that shows this view model: pops it (and what is
  /// above it) from its stack, or dismisses its presentation.
  ///
  /// - Parameters:
  ///   - fileID: The file of the call, for a report; by default, the caller's.
  ///   - line: The line of the call, for a report; by default, the caller's.
  /// - Returns: `true` if a screen was closed; `false` if nothing showed
  ///   this view model (reported to ``Diagnostics``), or if the dismissal
  ///   was refused, changing nothing, because it comes from an operation
  ///   that was cancelled (see "All or nothing" in ``StackPath``).
  @discardableResult
  public func dismiss(fileID: StaticString = #fileID, line: UInt = #line) -> Bool {
    if let handle = _Dismissals.handle(of: self) {
      if handle.dismiss() { return true }
      // The stack or the presentation refused it, and said so.
      if _writesAreRefused { return false }
    }
    Diagnostics.report(
      "dismiss() of \(_typeName(Self.self, qualified: false)) did nothing: no stack or "
        + "presentation shows it (it was never shown, or was closed already)",
      fileID: fileID, line: line)
    return false
  }

  /// Whether a ``StackPath`` or a ``Presentation`` shows this view model now.
  public var isShown: Bool {
    _Dismissals.handle(of: self) != nil
  }
}

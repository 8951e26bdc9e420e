/// What a stack does with a screen when the array element it edits is
/// removed (``StackPath/push(_:tiedTo:whenRemoved:fileID:line:)``).
public enum ElementRemovalPolicy: Hashable, Sendable {
  /// The screen leaves the stack, with the screens above it.
  case pop
  /// The screen stays, and ``StackPath/isShownAsDeleted(_:)`` turns `true`,
  /// so that it can show "deleted" and offer nothing that writes (its
  /// element cell refuses writes anyway).
  case keepShownAsDeleted
}

extension StackPath {
  /// Pushes a screen that edits one element of an ``ObservableArray``,
  /// tied to that element: when the element is removed — by another
  /// screen, a `replaceAll` from a server, an undo — the screen follows
  /// `policy`.
  ///
  /// ```swift
  /// guard let cell = items.cell(for: id) else { return }
  /// path.push(.detail(DetailViewModel(item: cell)), tiedTo: cell)
  /// items.remove(id: id)    // the detail leaves the stack
  /// ```
  ///
  /// The tie follows the cell's ``ElementCell/detachment``, and a detached
  /// cell stays detached. So an undo or a redo that puts the element back
  /// does **not** bring back a screen that left: the user did not ask for
  /// it, and a screen that appears by itself is worse than one that stays
  /// gone. Re-open it from the new element if the app wants to.
  ///
  /// - Parameters:
  ///   - screen: The screen.
  ///   - cell: The cell of the element the screen edits.
  ///   - policy: What happens to the screen when the element is removed;
  ///     ``ElementRemovalPolicy/pop`` by default.
  ///   - fileID: The file of the call, for a report; by default, the caller's.
  ///   - line: The line of the call, for a report; by default, the caller's.
  /// - Returns: The push's id; `nil`, pushing nothing, if the element was
  ///   removed already (reported to ``Diagnostics``).
  @discardableResult
  public func push<Element>(
    _ screen: Screen, tiedTo cell: ElementCell<Element>,
    whenRemoved policy: ElementRemovalPolicy = .pop,
    fileID: StaticString = #fileID, line: UInt = #line
  ) -> ID? {
    guard !cell.isDetached else {
      Diagnostics.report(
        "push refused: the element with id \(_visibleControls(String(describing: cell.id))) "
          + "was removed from its array, so its screen would edit nothing",
        fileID: fileID, line: line)
      return nil
    }
    let id = push(screen)
    // The stack may have popped the screen already, if an observer did.
    guard _holds(id) else { return id }
    // The tie keeps the cell, so that it follows the element even when
    // the screen holds only its id.
    ties[id] = cell.detachment.observeChanges { [weak self, cell] detached in
      withExtendedLifetime(cell) {}
      guard detached, let self else { return }
      switch policy {
      case .pop: self.pop(from: id)
      case .keepShownAsDeleted: self.markShownAsDeleted(id)
      }
    }
    return id
  }
}

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
  ///   removed already (reported to ``Diagnostics``), or if the push was
  ///   refused because it comes from an operation that was cancelled (see
  ///   "All or nothing" in ``StackPath``). The screen is tied before any
  ///   observer of the stack hears of the push, so an observer that removes
  ///   the element ("hide read items") pops it, or marks it, as any removal
  ///   does.
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
    let id = ID(rawValue: nextID)
    nextID += 1
    if _refuses("a push") { return nil }
    let entry = Entry(id: id, screen: screen)
    _entries.append(entry)
    if mayHoldDismissibles { register(entry) }
    ties[id] = Push.Tie(cell, policy).follow(self, id)
    deliver()
    return id
  }

  /// One screen of a deep link or a restored stack, and the element it is
  /// tied to, if it edits one: what ``StackPath/replace(with:fileID:line:)``
  /// and ``StackPath/restore(_:fileID:line:push:)`` push.
  ///
  /// ```swift
  /// path.replace(with: [
  ///   .init(.list),
  ///   .init(.detail(DetailViewModel(item: cell)), tiedTo: cell),
  /// ])
  /// ```
  public struct Push {
    /// What a tied screen follows: its element cell, erased.
    struct Tie {
      let isDetached: @MainActor () -> Bool
      let elementID: @MainActor () -> String
      let follow: @MainActor (StackPath, ID) -> Subscription

      @MainActor
      init<Element>(_ cell: ElementCell<Element>, _ policy: ElementRemovalPolicy) {
        isDetached = { cell.isDetached }
        elementID = { _visibleControls(String(describing: cell.id)) }
        follow = { path, id in
          // The detachment cell keeps the element cell alive, so the tie
          // follows the element even when the screen holds only its id.
          cell.detachment.observeChanges { [weak path] detached in
            guard detached, let path else { return }
            switch policy {
            case .pop: path.pop(from: id)
            case .keepShownAsDeleted: path.markShownAsDeleted(id)
            }
          }
        }
      }
    }

    /// The screen.
    public let screen: Screen
    /// The element the screen follows, if any.
    let tie: Tie?

    /// A screen tied to nothing.
    ///
    /// - Parameter screen: The screen.
    public init(_ screen: Screen) {
      self.screen = screen
      tie = nil
    }

    /// A screen tied to the element it edits, as
    /// ``StackPath/push(_:tiedTo:whenRemoved:fileID:line:)`` ties it: when
    /// the element is removed, the screen follows `policy`.
    ///
    /// - Parameters:
    ///   - screen: The screen.
    ///   - cell: The cell of the element the screen edits.
    ///   - policy: What happens to the screen when the element is removed;
    ///     ``ElementRemovalPolicy/pop`` by default.
    @MainActor
    public init<Element>(
      _ screen: Screen, tiedTo cell: ElementCell<Element>,
      whenRemoved policy: ElementRemovalPolicy = .pop
    ) {
      self.screen = screen
      tie = Tie(cell, policy)
    }
  }

  /// Replaces every screen with `pushes`, each with a new id, tying the
  /// screens that edit an element to it: a deep link into a detail that
  /// leaves when its element is deleted, as a pushed one does.
  ///
  /// The observers are told once, and every screen is tied before they
  /// are. A push whose element was removed already is left out and
  /// reported to ``Diagnostics``; the other screens are kept, in their
  /// order.
  ///
  /// - Parameters:
  ///   - pushes: The new screens, bottom first.
  ///   - fileID: The file of the call, for reports; by default, the caller's.
  ///   - line: The line of the call, for reports; by default, the caller's.
  /// - Returns: `false` if a push was left out, or if the change was
  ///   refused, changing nothing, because it comes from an operation that
  ///   was cancelled (see "All or nothing" in ``StackPath``).
  /// - Complexity: O(*n* + *m*), plus the observers.
  @discardableResult
  public func replace(
    with pushes: [Push], fileID: StaticString = #fileID, line: UInt = #line
  ) -> Bool {
    var complete = true
    let pushed = _replace(with: pushes, fileID: fileID, line: line) { _, elementID in
      complete = false
      Diagnostics.report(
        "replace left out a screen: the element with id \(elementID) was removed from its "
          + "array, so the screen would edit nothing; the other screens are kept",
        fileID: fileID, line: line)
    }
    return pushed != nil && complete
  }
}

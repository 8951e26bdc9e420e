/// A value that changes over time and tells its observers, synchronously, in
/// subscription order.
///
/// ``Observable`` is the stored cell; ``Derived`` (from ``combine(_:_:initial:fileID:line:transform:)``
/// and ``ObservableCell/map(_:fileID:line:)-6s3zx``) and ``ProjectedCell`` are computed from
/// other cells. Bindings, combiners and the async ``ObservableCell/values``
/// work with any conforming type.
@MainActor
public protocol ObservableCell<Value>: AnyObject {
  /// The type of the value the cell holds.
  associatedtype Value

  /// The current value.
  var value: Value { get }

  /// Calls `handler` with the current value now, then with every change,
  /// until the returned subscription is cancelled or released.
  ///
  /// - Parameter handler: Called on the main actor with each value.
  /// - Returns: The subscription that keeps the observation alive.
  func observe(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription

  /// Calls `handler` with every change from now on (not with the current
  /// value), until the returned subscription is cancelled or released.
  ///
  /// - Parameter handler: Called on the main actor with each new value.
  /// - Returns: The subscription that keeps the observation alive.
  func observeChanges(_ handler: @escaping @MainActor (Value) -> Void) -> Subscription
}

/// A cell you can write to.
///
/// Writing through ``value`` ignores a refusal; ``set(_:)`` reports it. Stored
/// cells never refuse; an element cell whose element was removed from its
/// array does.
@MainActor
public protocol MutableObservableCell<Value>: ObservableCell {
  /// The current value; setting it notifies the observers (for `Equatable`
  /// values, only when the value changes).
  var value: Value { get set }

  /// Writes a value and tells whether the cell accepted it.
  ///
  /// - Parameter newValue: The value to write.
  /// - Returns: `true` if the cell accepted the write (even if the value was
  ///   equal and nobody was notified), `false` if it refused it.
  @discardableResult
  func set(_ newValue: Value) -> Bool

  /// Writes a value and tells whether the cell accepted it; a refusal
  /// reported to ``Diagnostics`` names `fileID` and `line` as its culprit.
  ///
  /// The kit's cells take the caller's location by default
  /// (`cell.set(value)` names your line). The default implementation, for
  /// cells that never report, calls ``set(_:)``.
  ///
  /// - Parameters:
  ///   - newValue: The value to write.
  ///   - fileID: The file of the code that asked for the write.
  ///   - line: The line of the code that asked for the write.
  /// - Returns: `true` if the cell accepted the write, `false` if it
  ///   refused it.
  @discardableResult
  func set(_ newValue: Value, fileID: StaticString, line: UInt) -> Bool
}

// MARK: - Default implementations

extension MutableObservableCell {
  /// Writes a value through ``set(_:)``; the location is not used, as a
  /// cell without its own implementation has no refusal to report.
  ///
  /// - Parameters:
  ///   - newValue: The value to write.
  ///   - fileID: The file of the code that asked for the write.
  ///   - line: The line of the code that asked for the write.
  /// - Returns: Whatever ``set(_:)`` returns.
  @inlinable
  @discardableResult
  public func set(_ newValue: Value, fileID: StaticString, line: UInt) -> Bool {
    set(newValue)
  }
}

extension ObservableCell {
  /// Observes on behalf of `owner`: the handler receives the owner, so it
  /// needs no `[weak self]`, and the observation ends when the owner is
  /// deallocated.
  ///
  /// The subscription is kept in `owner.subscriptions` until it ends (it
  /// leaves the bag when it is cancelled or the cell is deallocated); the
  /// handler holds the owner weakly.
  ///
  /// ```swift
  /// name.observe(self) { view, name in view.title = name }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: The object the observation belongs to.
  ///   - fileID: Where the observation is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the observation is made; by default, the caller's line.
  ///   - handler: Called with the owner and the current value now, then with
  ///     every change.
  /// - Returns: The subscription, already kept by the owner; cancel it to end
  ///   the observation early.
  @discardableResult
  public func observe<Owner: SubscriptionOwner>(
    _ owner: Owner, fileID: StaticString = #fileID, line: UInt = #line,
    _ handler: @escaping @MainActor (Owner, Value) -> Void
  ) -> Subscription {
    let slot = _BagSlot()
    let subscription = observe { [weak owner] value in
      if let owner {
        handler(owner, value)
      }
      withExtendedLifetime(slot) {}
    }
    subscription._setOrigin(fileID: fileID, line: line)
    slot.keep(subscription, in: owner.subscriptions)
    return subscription
  }

  /// Observes the changes on behalf of `owner`: the handler receives the
  /// owner, so it needs no `[weak self]`, and the observation ends when the
  /// owner is deallocated.
  ///
  /// Like ``observeChanges(_:)``, and like
  /// ``ObservableArray/observeChanges(_:fileID:line:_:)``, it calls the
  /// handler with every change from now on, never with the current value.
  /// The subscription is kept in `owner.subscriptions` until it ends (it
  /// leaves the bag when it is cancelled or the cell is deallocated); the
  /// handler holds the owner weakly.
  ///
  /// ```swift
  /// name.observeChanges(self) { viewModel, name in viewModel.isDirty = true }
  /// ```
  ///
  /// - Parameters:
  ///   - owner: The object the observation belongs to.
  ///   - fileID: Where the observation is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the observation is made; by default, the caller's line.
  ///   - handler: Called with the owner and each new value.
  /// - Returns: The subscription, already kept by the owner; cancel it to end
  ///   the observation early.
  @discardableResult
  public func observeChanges<Owner: SubscriptionOwner>(
    _ owner: Owner, fileID: StaticString = #fileID, line: UInt = #line,
    _ handler: @escaping @MainActor (Owner, Value) -> Void
  ) -> Subscription {
    let slot = _BagSlot()
    let subscription = observeChanges { [weak owner] value in
      if let owner {
        handler(owner, value)
      }
      withExtendedLifetime(slot) {}
    }
    subscription._setOrigin(fileID: fileID, line: line)
    slot.keep(subscription, in: owner.subscriptions)
    return subscription
  }
}

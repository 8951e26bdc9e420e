import Observation

extension Derived {
  /// Creates a read-only cell computed from state that the Observation
  /// framework tracks, such as the properties of an app's `@Observable`
  /// model, recomputed when any property it read changes.
  ///
  /// ```swift
  /// @Observable final class Profile { var name = "Ada" }
  /// let profile = Profile()
  /// let greeting = Derived(observing: { "Hello, \(profile.name)" })
  /// greeting.bind(to: titleLabel)          // titleLabel.value == "Hello, Ada"
  /// profile.name = "Grace"                  // soon: "Hello, Grace"
  /// ```
  ///
  /// The cell works wherever a cell does: in ``combine(_:_:initial:fileID:line:transform:)``,
  /// ``ObservableCell/bind(to:fileID:line:)``, ``ObservableCell/map(_:fileID:line:)-6s3zx``.
  ///
  /// ## When it updates
  ///
  /// Observation tells a tracker *before* a property changes, and its
  /// public API has no hook after the change. So the cell is marked out of
  /// date when the change is announced, and it recomputes and tells its
  /// observers on the main actor right after the change, in a task — not
  /// within the set. Every change to a property it read is seen; a burst of
  /// changes made in one main-actor turn is one recomputation. Each
  /// recomputation registers again the properties that `compute` read
  /// this time, so a branch that stops reading a property stops depending
  /// on it.
  ///
  /// ## Lifetime
  ///
  /// The cell follows its properties as long as it lives (its observers and
  /// bindings keep it alive, like any derived cell). When it is released it
  /// stops: `compute` is never called again. Observation offers no way to
  /// withdraw a registration, so the model keeps a registration until the
  /// next change to a property it read, which then finds the cell gone and
  /// does nothing.
  ///
  /// - Parameters:
  ///   - compute: Computes the value; called now, on the main actor, and
  ///     after every change of an Observation-tracked property it read.
  ///   - fileID: Where the cell is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the cell is made; by default, the caller's line.
  public convenience init(
    observing compute: @escaping @MainActor () -> Value,
    fileID: StaticString = #fileID, line: UInt = #line
  ) {
    let link = _ObservationLink()
    let tracked: () -> Value = {
      withObservationTracking({ compute() }, onChange: { [link] in link.propertyWillChange() })
    }
    let node = _DerivedNode(
      tracked(), sources: [], fileID: fileID, line: line, compute: tracked)
    link.node = node
    self.init(node: node)
  }
}

/// The way back from an Observation registration to the cell that made it.
///
/// Held by the registration; it refers to the cell weakly, so that a released
/// cell is never computed again.
@MainActor
final class _ObservationLink: Sendable {
  weak var node: _ObserverListBase?

  /// Called by Observation, on the thread that is about to change a
  /// property, before the change: recompute on the main actor afterwards.
  nonisolated func propertyWillChange() {
    Task { @MainActor in
      guard let node = self.node else { return }
      node._markDirty(from: 0)
      _Scheduler.drain()
    }
  }
}

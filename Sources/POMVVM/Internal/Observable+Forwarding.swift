extension Observable {
  /// Observes this storage on behalf of the cell that owns it and forwards
  /// to it: the subscription keeps `owner` alive, so that a derived cell
  /// (``Derived``, ``ProjectedCell``, ``ElementCell``, ``ArrayCount``) lives
  /// as long as someone observes it, even if nothing else holds it.
  func _observe(
    retaining owner: AnyObject, changesOnly: Bool,
    _ handler: @escaping @MainActor (Value) -> Void
  ) -> Subscription {
    let forward: @MainActor (Value) -> Void = { value in
      extendLifetime(owner)
      handler(value)
    }
    return changesOnly ? observeChanges(forward) : observe(forward)
  }
}

import Observation

/// The Observation registrar of one cell, array or aggregate, made on the
/// first read through a public getter.
///
/// Not API. Every registrar here stands for one piece of state, so it has one
/// key path. A cell whose value nobody reads through its getters never makes
/// one, and its sets never call into Observation.
///
/// Trackers are one-shot: a change fires every tracker registered so far and
/// removes it. So after a change, no tracker is left until the next read
/// registers one, and the registrar is told of a change only if a read came
/// since the last one (`isArmed`): a cell that is read, then set again and
/// again with no read between, pays for Observation once.
@usableFromInline
final class _Tracking: Observation.Observable, @unchecked Sendable {
  @usableFromInline
  let registrar = ObservationRegistrar()

  /// Whether a read came since the last change; touched on the main actor
  /// only.
  // Unchecked: touched only on the main actor, and no access spans a call
  // out (a run-time exclusivity check cost a tracked toggle ~150
  // instructions).
  @usableFromInline
  @exclusivity(unchecked)
  var isArmed = false

  @usableFromInline
  init() {}

  /// The tracked state, as a key path for the registrar; it has no value.
  @usableFromInline
  var state: Int { 0 }

  /// Registers a read with the tracking under way, if any.
  @inlinable
  func access() {
    isArmed = true
    registrar.access(self, keyPath: \.state)
  }

  /// Tells the trackers that registered a read that the state changed.
  @inlinable
  func changed() {
    guard isArmed else { return }
    // Disarmed first: a tracker that reads again from its onChange arms it.
    isArmed = false
    registrar.willSet(self, keyPath: \.state)
    registrar.didSet(self, keyPath: \.state)
  }
}

extension _ObserverListBase {
  /// Registers a read of this list's value with Observation tracking.
  ///
  /// Reads made while a derived cell computes its value are not registered:
  /// a tracker that reads a derived cell depends on that cell, not on its
  /// sources.
  @inlinable
  final func _trackRead() {
    guard _Scheduler.untrackedDepth == 0 else { return }
    (_tracking ?? _makeTracking()).access()
  }

  @usableFromInline
  final func _makeTracking() -> _Tracking {
    let tracking = _Tracking()
    _tracking = tracking
    return tracking
  }
}

// The kit's state types are Observation's `Observable` types, so SwiftUI's
// `@Bindable`, `@State` and `@Environment` accept them: `$cell.value` is a
// two-way SwiftUI binding onto a cell.
extension Observable: Observation.Observable {}
extension Derived: Observation.Observable {}
extension ProjectedCell: Observation.Observable {}
extension ElementCell: Observation.Observable {}
extension ArrayCount: Observation.Observable {}
extension ObservableArray: Observation.Observable {}
extension AnyMutableCell: Observation.Observable {}

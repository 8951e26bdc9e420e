/// When a combined cell recomputes its value from its sources.
///
/// A *change* is a set of a source after the combined cell was made (a set
/// that a source drops as a duplicate is not a change).
public enum CombineStrategy: Sendable, Hashable, CaseIterable {
  /// Fires once, on the first change of any source, and never again.
  case first
  /// Fires once every source has changed at least once, then on every
  /// change.
  case all
  /// Fires on every change of any source.
  case every
}

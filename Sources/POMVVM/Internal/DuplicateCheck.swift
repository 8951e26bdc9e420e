extension Equatable {
  /// An equality test for values statically typed `V` whose dynamic type is
  /// `Self`.
  fileprivate static func _duplicateCheck<V>(as _: V.Type) -> (V, V) -> Bool {
    { lhs, rhs in
      guard let lhs = lhs as? Self, let rhs = rhs as? Self else { return false }
      return lhs == rhs
    }
  }
}

/// The equality test for `V` if `V` is `Equatable` at run time, for code that
/// is generic over `V` and cannot state the constraint.
///
/// Concrete `Equatable` types get a direct `==` through the constrained
/// initializers instead; this path costs two dynamic casts a comparison.
@usableFromInline
func _duplicateCheck<V>(for type: V.Type) -> ((V, V) -> Bool)? {
  guard let equatable = type as? any Equatable.Type else { return nil }
  return equatable._duplicateCheck(as: type)
}

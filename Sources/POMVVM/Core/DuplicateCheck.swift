extension Equatable {
  /// An equality test for values statically typed `V` whose dynamic type is
  /// `Self`.
  ///
  /// `V` and `Self` are the same type (the caller opened `V.self` as this
  /// `Equatable` metatype), so the values are reinterpreted rather than cast:
  /// a comparison costs one call of `==`, not two dynamic casts.
  fileprivate static func _duplicateCheck<V>(as _: V.Type) -> (V, V) -> Bool {
    precondition(V.self == Self.self)
    return { lhs, rhs in unsafeBitCast(lhs, to: Self.self) == unsafeBitCast(rhs, to: Self.self) }
  }
}

/// The equality test for `V` if `V` is `Equatable` at run time, for code that
/// is generic over `V` and cannot state the constraint.
///
/// Concrete `Equatable` types get a direct `==` through the constrained
/// initializers instead.
@usableFromInline
func _duplicateCheck<V>(for type: V.Type) -> ((V, V) -> Bool)? {
  guard let equatable = type as? any Equatable.Type else { return nil }
  return equatable._duplicateCheck(as: type)
}

/// Calls `body` with the object that `reference` points to, without
/// retaining it: the caller guarantees that the object lives for the call.
///
/// Not API. The kit's own wrapper of `Unmanaged._withUnsafeGuaranteedRef`:
/// a main-actor closure passed straight to the standard library costs a
/// run-time executor check on every call, and reading an `unowned(unsafe)`
/// reference costs a retain and a release (through the side table, for an
/// object that is also referenced weakly). A closure passed to this
/// function, which is compiled in Swift 6 mode, costs neither.
@inlinable
@inline(__always)
func _withGuaranteed<Object: AnyObject, Result>(
  _ reference: Unmanaged<Object>, _ body: (Object) -> Result
) -> Result {
  reference._withUnsafeGuaranteedRef(body)
}

/// A weak reference held by an object, for a closure that runs on every
/// change to capture as a constant.
///
/// A closure that captures `[weak self]` holds a variable: each call
/// checks its access at run time (about 75 instructions) before it loads
/// the reference. A closure that captures this object reads its field,
/// which skips the check: only the closure reads it, on the main actor.
@usableFromInline
final class _WeakReference<Object: AnyObject> {
  @usableFromInline
  @exclusivity(unchecked)
  weak var object: Object?

  @inlinable
  init(_ object: Object) {
    self.object = object
  }
}

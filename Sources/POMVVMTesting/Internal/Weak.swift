/// A weak reference, for checks that watch objects go away.
final class WeakReference {
  weak var object: AnyObject?
  let typeName: String

  init(_ object: AnyObject) {
    self.object = object
    typeName = String(describing: type(of: object))
  }

  var isAlive: Bool { object != nil }
}

/// The type names of the objects that are still alive, with their position
/// in the watch list: `DetailViewModel (#2)`.
func survivors(_ references: [WeakReference]) -> [String] {
  references.enumerated().compactMap { index, reference in
    reference.isAlive ? "\(reference.typeName) (#\(index + 1))" : nil
  }
}

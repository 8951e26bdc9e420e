/// Who shows each ``Dismissible`` view model, so that it can dismiss itself
/// without knowing its parent.
///
/// Not API. A ``StackPath`` registers the view models a pushed screen holds,
/// a ``Presentation`` those of its destination; both unregister them when
/// the screen leaves. The latest registration of a view model wins: a view
/// model shown twice is dismissed from where it was shown last.
@MainActor
enum _Dismissals {
  struct Handle {
    weak var child: AnyObject?
    weak var container: AnyObject?
    let dismiss: @MainActor () -> Bool
  }

  static var handles: [ObjectIdentifier: [Handle]] = [:]

  /// The ``Dismissible`` view models `value` holds: itself, or those in an
  /// enum case's payload, an optional or a tuple, two levels down.
  static func dismissibles(in value: Any) -> [AnyObject] {
    if let child = value as? any Dismissible { return [child] }
    guard !(type(of: value) is AnyClass) else { return [] }
    var found: [AnyObject] = []
    collect(value, depth: 0, into: &found)
    return found
  }

  private static func collect(_ value: Any, depth: Int, into found: inout [AnyObject]) {
    if let child = value as? any Dismissible {
      found.append(child)
      return
    }
    guard depth < 3, !(type(of: value) is AnyClass) else { return }
    let mirror = Mirror(reflecting: value)
    guard [.enum, .optional, .tuple].contains(mirror.displayStyle) else { return }
    for child in mirror.children { collect(child.value, depth: depth + 1, into: &found) }
  }

  /// Registers the view models `value` holds as shown by `container`.
  ///
  /// - Returns: Their identities, for ``unregister(_:in:)``.
  static func register(
    _ value: Any, in container: AnyObject, dismiss: @escaping @MainActor () -> Bool
  ) -> [ObjectIdentifier] {
    let children = dismissibles(in: value)
    guard !children.isEmpty else { return [] }
    var keys: [ObjectIdentifier] = []
    for child in children {
      let key = ObjectIdentifier(child)
      handles[key, default: []].append(Handle(child: child, container: container, dismiss: dismiss))
      keys.append(key)
    }
    return keys
  }

  /// Forgets that `container` shows the view models with these identities.
  static func unregister(_ keys: [ObjectIdentifier], in container: AnyObject) {
    for key in keys {
      guard var list = handles[key] else { continue }
      // One registration per screen that left: a view model shown twice
      // by the same container keeps the other.
      if let last = list.lastIndex(where: { $0.container === container }) {
        list.remove(at: last)
      }
      list.removeAll { $0.container == nil || $0.child == nil }
      handles[key] = list.isEmpty ? nil : list
    }
  }

  /// The latest live registration of `child`.
  static func handle(of child: AnyObject) -> Handle? {
    handles[ObjectIdentifier(child)]?.last { $0.child === child && $0.container != nil }
  }
}

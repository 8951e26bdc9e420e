/// An object that a test's elements hold, so that the test sees, through
/// weak references, whether the kit keeps or lets go of what elements
/// hold: a release too many frees it while an element still holds it, and
/// a retain too many keeps it after everyone let go.
public final class HeldToken {
  /// The id of the element that holds it.
  public let id: Int

  /// A token for the element `id`.
  public init(_ id: Int) { self.id = id }

  /// Weak references to `tokens`, each read as the token or `nil` once it
  /// is gone.
  public static func weakReferences(to tokens: [HeldToken]) -> [() -> HeldToken?] {
    tokens.map { token in { [weak token] in token } }
  }
}

/// An element with a title and a switch, holding a ``HeldToken``.
public struct TokenItem: Identifiable, Equatable {
  /// The element's id.
  public let id: Int
  /// Its title.
  public var title: String
  /// Its switch.
  public var on: Bool
  /// What it holds.
  public var token: HeldToken

  /// An element; `title` should be long enough to live on the heap.
  public init(id: Int, title: String, on: Bool = false, token: HeldToken) {
    self.id = id
    self.title = title
    self.on = on
    self.token = token
  }

  /// A title for the element `id` written in `round`, long enough to live
  /// on the heap (so that a copy retains it).
  public static func heapTitle(_ id: Int, _ round: Int) -> String {
    "element \(id), written in round \(round), long enough for the heap"
  }

  /// Equal fields, and the same token.
  public static func == (a: TokenItem, b: TokenItem) -> Bool {
    a.id == b.id && a.title == b.title && a.on == b.on && a.token === b.token
  }
}

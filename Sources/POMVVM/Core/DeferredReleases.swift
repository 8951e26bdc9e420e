/// Releases what dying graph nodes held, one node at a time, so that
/// releasing a chain of derived cells of any depth uses constant stack.
///
/// A derived cell holds its sources, and a projection its base. Released
/// inline, the last cell of a chain `a.map(f).map(g)…` would release its
/// source from inside its own `deinit`, that one the next, and so on: about
/// twenty stack frames a level, a stack overflow at some ten thousand
/// levels. Instead, a dying node moves what it held out of its stored
/// properties and hands it to ``release(_:)``, which keeps it; the outermost
/// call then drops the held values one at a time, in a loop, while the
/// deinitializers they cause only add to the list.
///
/// The node must hand over the only reference it has: a copy left in a
/// stored property or a local would be released when the `deinit` returns,
/// recursively again. So the value is passed `inout` and swapped in.
///
/// Not API.
@MainActor
enum _DeferredReleases {
  private static var held: [Any] = []
  private static var isDraining = false

  /// Takes `value` (what a dying node held), leaving `()` in its place, and
  /// releases it in a loop, one level deep.
  static func release(_ value: inout Any) {
    held.append(())
    swap(&value, &held[held.count - 1])
    guard !isDraining else { return }
    isDraining = true
    defer { isDraining = false }
    while let next = held.popLast() {
      // `next` is dropped at the end of each pass: a `deinit` it causes
      // runs here, one level deep, and only appends to `held`.
      withExtendedLifetime(next) {}
    }
  }
}

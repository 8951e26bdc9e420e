/// Checks that an object graph — views, view models, cells — is deallocated
/// once it has been torn down and released.
///
/// `build` builds the graph, uses it, tears it down if that is part of its
/// life (unbinding a view, say) and returns the objects to watch. The check
/// keeps only weak references to them; when `build` has returned, each one
/// that is still alive is reported, by type name and position in the
/// returned array.
///
/// ```swift
/// @Test @MainActor func theListScreenDoesNotLeak() {
///   checkNoLeaks {
///     let master = MasterViewModel()
///     let list = MasterListView()
///     list.bind(to: master)
///     master.insertNowDate(text: "a")
///     return [master, list, master.items] + list.rows
///   }
/// }
/// ```
///
/// The law is *every object is released*: a failure names the survivors,
/// such as `DetailView (#2), DetailViewModel (#3)`. Usual causes are a
/// binding or observation that captures its owner strongly, and a token kept
/// in a bag the owner itself holds.
///
/// - Parameters:
///   - build: Builds, uses and tears down the graph, and returns the objects
///     that must be deallocated afterwards.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkNoLeaks(
  _ build: () -> [AnyObject],
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let context = CheckContext(
    "checkNoLeaks",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  let watched = watch(build)
  let laws = context.laws("Leak", for: "a graph of \(watched.count) objects")
  guard !watched.isEmpty else {
    laws.misuse("`build` returned no objects to watch")
    return
  }
  let alive = survivors(watched)
  laws.expect(
    "every object is released", alive.isEmpty,
    "still alive after teardown: \(alive.joined(separator: ", "))")
}

/// Runs `build` and keeps weak references to what it returns; the strong
/// ones are released when this function returns.
@MainActor
private func watch(_ build: () -> [AnyObject]) -> [WeakReference] {
  build().map(WeakReference.init)
}

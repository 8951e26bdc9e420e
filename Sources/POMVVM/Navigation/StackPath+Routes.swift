extension StackPath {
  /// The stack as routes, bottom first, for state restoration: what to
  /// save so that ``restore(_:fileID:line:screen:)`` can rebuild it.
  ///
  /// ```swift
  /// enum Route: Codable { case detail(itemID: Int), history(itemID: Int) }
  /// let saved = try JSONEncoder().encode(path.routes { $0.route })
  /// ```
  ///
  /// - Parameter route: The route of a screen; `nil` for a screen that is
  ///   not saved (a transient one), which is left out.
  /// - Returns: The routes.
  /// - Complexity: O(*n*).
  public func routes<Route: Codable>(_ route: (Screen) -> Route?) -> [Route] {
    entries.compactMap { route($0.screen) }
  }

  /// Replaces the stack with the screens the routes describe: a restored
  /// state or a deep link.
  ///
  /// A route whose screen cannot be made — its element no longer exists —
  /// is dropped and reported to ``Diagnostics``; the other screens are kept,
  /// in their order. The observers are told once. To tie the screens to the
  /// elements they edit, so that a restored detail leaves when its element
  /// is deleted as a pushed one does, make ``Push``es instead:
  /// ``restore(_:fileID:line:push:)``.
  ///
  /// ```swift
  /// let routes = try JSONDecoder().decode([Route].self, from: saved)
  /// path.restore(routes) { route in
  ///   switch route {
  ///   case .detail(let id): items.cell(for: id).map { .detail(DetailViewModel(item: $0)) }
  ///   case .history(let id): items.cell(for: id).map { .history(HistoryViewModel(item: $0)) }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - routes: The routes, bottom first.
  ///   - fileID: The file of the call, for reports; by default, the caller's.
  ///   - line: The line of the call, for reports; by default, the caller's.
  ///   - screen: Makes the screen of a route; `nil` when it cannot.
  /// - Returns: The routes dropped; every route if the restore was refused,
  ///   changing nothing, because it comes from an operation that was
  ///   cancelled (see "All or nothing" in ``StackPath``).
  /// - Complexity: O(*n* + *m*), plus the observers.
  @discardableResult
  public func restore<Route: Codable>(
    _ routes: [Route], fileID: StaticString = #fileID, line: UInt = #line,
    screen: (Route) -> Screen?
  ) -> [Route] {
    restore(routes, fileID: fileID, line: line, push: { screen($0).map { Push($0) } })
  }

  /// Replaces the stack with the screens the routes describe, tying those
  /// that edit an element to it, as
  /// ``push(_:tiedTo:whenRemoved:fileID:line:)`` does: a restored detail
  /// leaves the stack when its element is deleted, as a pushed one does.
  ///
  /// A route whose screen cannot be made (`push` gives `nil`), or whose
  /// element was removed already, is dropped and reported to
  /// ``Diagnostics``; the other screens are kept, in their order. Every
  /// screen is tied before the observers are told, once.
  ///
  /// ```swift
  /// path.restore(routes) { route in
  ///   switch route {
  ///   case .detail(let id):
  ///     items.cell(for: id).map { .init(.detail(DetailViewModel(item: $0)), tiedTo: $0) }
  ///   }
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - routes: The routes, bottom first.
  ///   - fileID: The file of the call, for reports; by default, the caller's.
  ///   - line: The line of the call, for reports; by default, the caller's.
  ///   - push: Makes the screen of a route, tied or not; `nil` when it
  ///     cannot.
  /// - Returns: The routes dropped; every route if the restore was refused,
  ///   changing nothing, because it comes from an operation that was
  ///   cancelled (see "All or nothing" in ``StackPath``).
  /// - Complexity: O(*n* + *m*), plus the observers.
  @discardableResult
  public func restore<Route: Codable>(
    _ routes: [Route], fileID: StaticString = #fileID, line: UInt = #line,
    push: (Route) -> Push?
  ) -> [Route] {
    var pushes: [Push] = []
    /// The index in `routes` of each push.
    var origins: [Int] = []
    var dropped = Set<Int>()
    for (index, route) in routes.enumerated() {
      if let pushed = push(route) {
        pushes.append(pushed)
        origins.append(index)
      } else {
        dropped.insert(index)
        Diagnostics.report(
          "restore dropped the route \(_visibleControls(String(describing: route))): its "
            + "screen could not be made (its element no longer exists); the other screens "
            + "are kept", fileID: fileID, line: line)
      }
    }
    let pushed = _replace(with: pushes, fileID: fileID, line: line) { index, elementID in
      dropped.insert(origins[index])
      Diagnostics.report(
        "restore dropped the route "
          + "\(_visibleControls(String(describing: routes[origins[index]]))): the element with "
          + "id \(elementID) was removed from its array; the other screens are kept",
        fileID: fileID, line: line)
    }
    guard pushed != nil else { return routes }
    return dropped.sorted().map { routes[$0] }
  }
}

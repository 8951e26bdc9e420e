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
  /// in their order. The observers are told once.
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
  /// - Returns: The routes dropped.
  /// - Complexity: O(*n* + *m*), plus the observers.
  @discardableResult
  public func restore<Route: Codable>(
    _ routes: [Route], fileID: StaticString = #fileID, line: UInt = #line,
    screen: (Route) -> Screen?
  ) -> [Route] {
    var screens: [Screen] = []
    var dropped: [Route] = []
    for route in routes {
      if let made = screen(route) {
        screens.append(made)
      } else {
        dropped.append(route)
        Diagnostics.report(
          "restore dropped the route \(_visibleControls(String(describing: route))): its "
            + "screen could not be made (its element no longer exists); the other screens "
            + "are kept", fileID: fileID, line: line)
      }
    }
    replace(with: screens)
    return dropped
  }
}

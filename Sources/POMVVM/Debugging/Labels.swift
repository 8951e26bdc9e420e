extension ObservableCell {
  /// Names the cell in ``BindingGraph`` and ``PropagationTrace``, and
  /// returns it, so that a view model names its cells where it makes them.
  ///
  /// ```swift
  /// let title = Observable("").labelled("title")
  /// let openCount = items.liveCount(where: \.on).labelled("open switches")
  /// ```
  ///
  /// A cell that is not one of the kit's keeps no label.
  ///
  /// - Parameter label: The name; a later label replaces it.
  /// - Returns: This cell.
  @discardableResult
  public func labelled(_ label: String) -> Self {
    if let cell = _graphCell(of: self) {
      _Labels.set(label, of: cell._graphList)
    }
    return self
  }

  /// The cell's label, given with ``labelled(_:)``.
  public var graphLabel: String? {
    _graphCell(of: self).flatMap { _Labels.label(of: $0._graphList) }
  }
}

extension ObservableArray {
  /// Names the array in ``BindingGraph`` and ``PropagationTrace``, and
  /// returns it.
  ///
  /// - Parameter label: The name; a later label replaces it.
  /// - Returns: This array.
  @discardableResult
  public func labelled(_ label: String) -> Self {
    _Labels.set(label, of: _observers)
    return self
  }

  /// The array's label, given with ``labelled(_:)``.
  public var graphLabel: String? { _Labels.label(of: _observers) }
}

extension EventStream {
  /// Names the stream in ``BindingGraph`` and ``PropagationTrace``, and
  /// returns it.
  ///
  /// - Parameter label: The name; a later label replaces it.
  /// - Returns: This stream.
  @discardableResult
  public func labelled(_ label: String) -> Self {
    _Labels.set(label, of: self)
    return self
  }

  /// The stream's label, given with ``labelled(_:)``.
  public var graphLabel: String? { _Labels.label(of: self) }
}

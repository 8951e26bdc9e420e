/// Records everything a test observes, so that whole histories are compared
/// at once.
@MainActor
public final class Recorder<Element> {
  /// Everything recorded, in order.
  public private(set) var events: [Element] = []

  /// Creates an empty recorder.
  public init() {}

  /// Records one event.
  public func record(_ event: Element) {
    events.append(event)
  }

  /// A handler that records its values.
  public var handler: @MainActor (Element) -> Void {
    { [self] in record($0) }
  }

  /// Forgets everything recorded so far.
  public func clear() {
    events.removeAll()
  }
}

/// A stream of user actions: taps, text edits with their payload.
///
/// Events are not state: an event stream has no current value and does not
/// drop repeats, so two taps are two events. A view sends its actions; the
/// view model observes them (the reverse data flow from view to view model).
///
/// ```swift
/// let loginTapped = EventStream<Void>()
/// let subscription = loginTapped.observe { print("tapped") }
/// loginTapped.send()   // tapped
/// loginTapped.send()   // tapped
/// ```
///
/// ## Re-entrancy
///
/// An event sent from inside an observer is queued and delivered after the
/// current event has reached every observer, so each observer sees events in
/// the order they were sent. A cancelled observer is never called again; an
/// observer subscribed during a delivery gets the next event, not the
/// current one.
@MainActor
public final class EventStream<Payload>: _ObserverList<Payload> {
  /// Events sent by observers during a delivery, sent after it.
  @usableFromInline
  @exclusivity(unchecked)
  var _pending: [Payload] = []
  /// Whether each observation keeps the stream alive, as observations keep
  /// a derived cell alive: a stream that a time operator made, which
  /// nothing else may hold.
  var _livesWhileObserved = false

  /// Creates a stream with no observers.
  ///
  /// - Parameters:
  ///   - fileID: Where the stream is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the stream is made; by default, the caller's line.
  public init(fileID: StaticString = #fileID, line: UInt = #line) {
    super.init()
    _setOrigin(.events, fileID: fileID, line: line)
  }

  /// Delivers `payload` to every observer, in subscription order.
  ///
  /// - Parameter payload: The event's data.
  /// - Complexity: O(*n*), where *n* is the number of observers.
  @inlinable
  public func send(_ payload: Payload) {
    if _depth > 0 {
      _pending.append(payload)
      return
    }
    _publish(payload, supersedable: false)
    if !_pending.isEmpty {
      _sendPending()
    }
  }

  /// Sends the events that observers sent during a delivery, in order,
  /// including those they send meanwhile.
  @usableFromInline
  func _sendPending() {
    var next = 0
    while next < _pending.count {
      let queued = _pending[next]
      next += 1
      _publish(queued, supersedable: false)
    }
    _pending.removeAll(keepingCapacity: true)
  }

  /// Calls `handler` with every event sent from now on.
  ///
  /// - Parameters:
  ///   - fileID: Where the observation is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the observation is made; by default, the caller's line.
  ///   - handler: Called on the main actor with each event.
  /// - Returns: The subscription; the observation ends when it is cancelled
  ///   or released.
  /// - Complexity: Amortized O(1) to subscribe and to cancel.
  public func observe(
    fileID: StaticString = #fileID, line: UInt = #line,
    _ handler: @escaping @MainActor (Payload) -> Void
  ) -> Subscription {
    let subscription: Subscription
    if _livesWhileObserved {
      subscription = _add { [self] payload in
        extendLifetime(self)
        handler(payload)
      }
    } else {
      subscription = _add(handler)
    }
    subscription._setOrigin(fileID: fileID, line: line)
    return subscription
  }

  /// Observes on behalf of `owner`, which receives the events without a
  /// `[weak self]`; the observation ends when the owner is deallocated.
  ///
  /// - Parameters:
  ///   - owner: The object the observation belongs to; the subscription is
  ///     kept in its bag until it ends (it leaves the bag when it is
  ///     cancelled or the stream is deallocated).
  ///   - fileID: Where the observation is made, for ``BindingGraph`` and
  ///     ``PropagationTrace``; by default, the caller's file.
  ///   - line: Where the observation is made; by default, the caller's line.
  ///   - handler: Called with the owner and each event.
  /// - Returns: The subscription, already kept by the owner.
  @discardableResult
  public func observe<Owner: SubscriptionOwner>(
    _ owner: Owner, fileID: StaticString = #fileID, line: UInt = #line,
    _ handler: @escaping @MainActor (Owner, Payload) -> Void
  ) -> Subscription {
    let slot = _BagSlot()
    let subscription = observe(fileID: fileID, line: line) { [weak owner] payload in
      if let owner {
        handler(owner, payload)
      }
      withExtendedLifetime(slot) {}
    }
    slot.keep(subscription, in: owner.subscriptions)
    return subscription
  }

  /// The number of active observers.
  ///
  /// - Complexity: O(1).
  public var observerCount: Int { _observerCount }
}

extension EventStream where Payload == Void {
  /// Delivers an event with no payload, such as a tap.
  public func send() {
    send(())
  }
}

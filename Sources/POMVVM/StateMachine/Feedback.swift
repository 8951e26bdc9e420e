/// A side effect of a ``StateMachine``, derived from its state, that sends
/// events back.
///
/// A feedback is keyed on the state: `key(state)` is `nil` while the effect
/// should not run, and a value while it should. When the key becomes a value,
/// the effect starts with it; when the key changes or becomes `nil` — the
/// state left the situation the effect was for — the effect is cancelled and
/// whatever it still sends is dropped.
///
/// ```swift
/// // While the state is .loading(page), load that page.
/// Feedback<State, Event>.effect(whenever: { $0.loadingPage }) { page in
///   do {
///     return .loaded(try await catalog.movies(page: page))
///   } catch {
///     return .failed(LoadFailure(error))
///   }
/// }
/// ```
public struct Feedback<State, Event: Sendable> {
  let key: @MainActor (State) -> AnyHashable?
  /// Starts the effect for a key, as the task that `entry` counts, and
  /// calls `done` on the main actor when it has returned.
  let run:
    @MainActor (
      AnyHashable, _ entry: _KitTask, _ send: @escaping @Sendable (Event) async -> Void,
      _ done: @escaping @MainActor () -> Void
    ) -> Task<Void, Never>
  /// Where the feedback was declared, which names its effects in reports.
  let fileID: StaticString
  let line: UInt

  /// An effect that runs while `key(state)` is not `nil`, and sends the
  /// event it returns (if any) when it finishes.
  ///
  /// - Parameters:
  ///   - key: What the effect depends on in the state; `nil` when it should
  ///     not run.
  ///   - fileID: Where the feedback is declared, which names its effects in
  ///     reports; by default, the caller's file.
  ///   - line: Where the feedback is declared; by default, the caller's line.
  ///   - run: The effect, given the key; it runs off the main actor and is
  ///     cancelled when the key changes.
  /// - Returns: The feedback.
  public static func effect<Key: Hashable & Sendable>(
    whenever key: @escaping @MainActor (State) -> Key?,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ run: @escaping @Sendable (Key) async -> Event?
  ) -> Feedback {
    effects(whenever: key, fileID: fileID, line: line) { key, send in
      if let event = await run(key) {
        await send(event)
      }
    }
  }

  /// An effect that runs while `key(state)` is not `nil`, and may send any
  /// number of events while it runs.
  ///
  /// - Parameters:
  ///   - key: What the effect depends on in the state; `nil` when it should
  ///     not run.
  ///   - fileID: Where the feedback is declared, which names its effects in
  ///     reports; by default, the caller's file.
  ///   - line: Where the feedback is declared; by default, the caller's line.
  ///   - run: The effect, given the key and a function that sends an event
  ///     to the machine (dropped once the key has changed); it runs off the
  ///     main actor and is cancelled when the key changes.
  /// - Returns: The feedback.
  public static func effects<Key: Hashable & Sendable>(
    whenever key: @escaping @MainActor (State) -> Key?,
    fileID: StaticString = #fileID, line: UInt = #line,
    _ run:
      @escaping @Sendable (Key, _ send: @escaping @Sendable (Event) async -> Void) async ->
      Void
  ) -> Feedback {
    Feedback(
      key: { key($0).map(AnyHashable.init) },
      run: { anyKey, entry, send, done in
        // The key was made by `key(_:)` above, so the cast cannot fail.
        let typedKey = anyKey.base as? Key
        // A `Task`, not a detached one: the effect inherits the task-local
        // values and priority of the code that sent the event.
        return Task { @MainActor in
          await entry.run {
            if let typedKey {
              await run(typedKey, send)
            }
            done()
          }
        }
      },
      fileID: fileID, line: line)
  }
}

/// The status of a request, as state a view observes instead of parsing
/// data: idle, loading, loaded with a value, or failed.
///
/// ```swift
/// switch viewModel.movies.value {
/// case .idle: "Movies: idle"
/// case .loading: "Movies: loading"
/// case .loaded(let page): "Movies: page \(page.number) of \(page.count)"
/// case .failed(let failure): "Movies: error: \(failure)"
/// }
/// ```
public enum LoadStatus<Value> {
  /// Nothing was requested yet, or the request was cancelled or skipped.
  case idle
  /// The request is under way.
  case loading
  /// The request succeeded.
  case loaded(Value)
  /// The request failed.
  case failed(LoadFailure)

  /// The loaded value, if the request succeeded.
  public var value: Value? {
    if case .loaded(let value) = self { value } else { nil }
  }

  /// Whether the request is under way.
  public var isLoading: Bool {
    if case .loading = self { true } else { false }
  }

  /// The failure, if the request failed.
  public var failure: LoadFailure? {
    if case .failed(let failure) = self { failure } else { nil }
  }
}

extension LoadStatus: Equatable where Value: Equatable {}
extension LoadStatus: Sendable where Value: Sendable {}

/// Why a request failed, as a message a view can show.
public struct LoadFailure: Error, Hashable, Sendable, CustomStringConvertible {
  /// What went wrong.
  public let message: String

  /// Creates a failure with a message.
  ///
  /// - Parameter message: What went wrong.
  public init(message: String) {
    self.message = message
  }

  /// Creates a failure from an error, keeping its message.
  ///
  /// - Parameter error: The error that ended the request.
  public init(_ error: any Error) {
    message = (error as? LoadFailure)?.message ?? String(describing: error)
  }

  /// The message.
  public var description: String { message }
}

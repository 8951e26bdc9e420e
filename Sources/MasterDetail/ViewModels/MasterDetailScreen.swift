import POMVVM

/// A screen pushed on the Master-Detail stack (``MasterViewModel/path``).
@MainActor
public enum MasterDetailScreen {
  /// The detail of one item.
  case detail(DetailViewModel)

  /// The detail's view model, for a screen that is a detail.
  public var detail: DetailViewModel? {
    switch self {
    case .detail(let detail): detail
    }
  }
}

/// What the detail's delete confirmation can ask its view model to do.
public enum DetailAlertAction: Hashable, Sendable {
  /// Delete the item.
  case confirmDelete
}

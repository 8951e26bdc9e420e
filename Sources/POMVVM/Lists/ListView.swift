/// A list on screen — a table view, a collection view, a text list — that a
/// ``ListAdapter`` keeps in step with an ``ObservableArray``.
///
/// A conforming view says whether it can take an update now, and applies
/// one: it swaps its data for the update's *inside* the update, never
/// before it, so that the counts UIKit checks at the end of a batch add up.
///
/// ```swift
/// extension GroceriesViewController: ListView {
///   var canUpdateRows: Bool { viewIfLoaded?.window != nil }
///
///   func updateRows(_ update: ListUpdate<Grocery>) {
///     guard !update.isReloadData else {
///       ids = update.ids
///       tableView.reloadData()
///       return
///     }
///     let batch = update.batch
///     tableView.performBatchUpdates {
///       ids = update.ids   // the data source's rows: swapped inside the batch
///       tableView.deleteRows(at: batch.deletions.map(IndexPath.row), with: .automatic)
///       tableView.insertRows(at: batch.insertions.map(IndexPath.row), with: .automatic)
///       for move in batch.moves {
///         tableView.moveRow(at: .row(move.from), to: .row(move.to))
///       }
///       tableView.reloadRows(at: batch.reloads.map(IndexPath.row), with: .automatic)
///     }
///     tableView.reconfigureRows(at: batch.reconfigurations.map(IndexPath.row))
///   }
/// }
/// ```
///
/// See <doc:WritingAListScreen>.
@MainActor
public protocol ListView: AnyObject {
  /// The type of the array's elements, whose ids are the list's rows.
  associatedtype Element: Identifiable

  /// Whether the view can take an update now.
  ///
  /// Say `false` while the view is off screen, not loaded, or in the middle
  /// of an animation: the adapter then keeps the changes and, once you call
  /// ``ListAdapter/updateIfNeeded()`` (or at the next change after the view
  /// is ready), sends one update from the rows the view shows to what the
  /// array holds. By default, `true`.
  var canUpdateRows: Bool { get }

  /// Applies an update: swaps the view's data for the update's inside it,
  /// and patches the rows.
  ///
  /// The adapter never calls this while a call is under way: an update
  /// asked for meanwhile (the array changing from inside this method, say)
  /// is applied after it returns.
  ///
  /// - Parameter update: What changed, as a batch update, as steps, and as
  ///   the ids and elements after it.
  func updateRows(_ update: ListUpdate<Element>)
}

// MARK: - Default implementations

extension ListView {
  /// Always `true`: the view can take every update as it comes.
  public var canUpdateRows: Bool { true }
}

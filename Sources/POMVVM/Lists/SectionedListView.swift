/// A list on screen with sections — a table view, a collection view, a text
/// list — that a ``SectionedListAdapter`` keeps in step with a
/// ``SectionedQuery``.
///
/// The sibling of ``ListView`` for sections. A conforming view says whether
/// it can take an update now, and applies one: it swaps its data for the
/// update's *inside* the update, never before it, so that the counts UIKit
/// checks at the end of a batch add up.
///
/// ```swift
/// extension SwitchesViewController: SectionedListView {
///   var canUpdateSections: Bool { viewIfLoaded?.window != nil }
///
///   func updateSections(_ update: SectionedListUpdate<Bool, Item>) {
///     guard !update.isReloadData else {
///       (keys, ids) = (update.keys, update.ids)
///       tableView.reloadData()
///       return
///     }
///     let batch = update.batch
///     tableView.performBatchUpdates {
///       (keys, ids) = (update.keys, update.ids)   // swapped inside the batch
///       tableView.deleteSections(IndexSet(batch.sectionDeletions), with: .fade)
///       tableView.insertSections(IndexSet(batch.sectionInsertions), with: .fade)
///       for move in batch.sectionMoves { tableView.moveSection(move.from, toSection: move.to) }
///       tableView.deleteRows(at: batch.deletions.map(\.indexPath), with: .fade)
///       tableView.insertRows(at: batch.insertions.map(\.indexPath), with: .fade)
///       for move in batch.moves {
///         tableView.moveRow(at: move.from.indexPath, to: move.to.indexPath)
///       }
///       tableView.reloadRows(at: batch.reloads.map(\.indexPath), with: .none)
///     }
///     tableView.reconfigureRows(at: batch.reconfigurations.map(\.indexPath))
///   }
/// }
/// ```
///
/// See <doc:FilteringSortingAndGroupingAList>.
@MainActor
public protocol SectionedListView: AnyObject {
  /// The type of the sections' keys.
  associatedtype Key: Hashable
  /// The type of the array's elements, whose ids are the list's rows.
  associatedtype Element: Identifiable

  /// Whether the view can take an update now.
  ///
  /// Say `false` while the view is off screen, not loaded, or in the middle
  /// of an animation: the adapter then keeps the changes and, once you call
  /// ``SectionedListAdapter/updateIfNeeded()`` (or at the next change after
  /// the view is ready), sends one update from the sections the view shows
  /// to the query's. By default, `true`.
  var canUpdateSections: Bool { get }

  /// Applies an update: swaps the view's data for the update's inside it,
  /// and patches the sections and rows.
  ///
  /// The adapter never calls this while a call is under way: an update
  /// asked for meanwhile is applied after it returns.
  ///
  /// - Parameter update: What changed, as a batch update, and the sections
  ///   after it.
  func updateSections(_ update: SectionedListUpdate<Key, Element>)
}

// MARK: - Default implementations

extension SectionedListView {
  /// Always `true`: the view can take every update as it comes.
  public var canUpdateSections: Bool { true }
}

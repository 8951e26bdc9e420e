import MasterDetail
import POMVVM
import TextUI

/// The Master-Detail sample (article 003): a list of dated items with
/// switches and a count of the open ones, and a detail screen that edits one
/// item's text and switch.
///
/// The feature holds the list's view model and two screens, both
/// `BindableView`s of the MasterDetail target: a ``MasterDetail/MasterListView``
/// bound for the whole run (it patches its rows from the items' change
/// sets) and a ``MasterDetail/DetailView`` bound to the item that is open.
/// What either mode shows is what those views observe; user actions go to
/// the views' events (a row's switch tap, the detail's text field) or to the
/// view model's business operations (insert, delete).
@MainActor
public final class MasterDetailFeature: DemoFeature {
  /// `master-detail`.
  public static let name = "master-detail"

  /// What the feature shows, for `--help`.
  public static let summary = "a list of dated items with switches, and a detail screen"

  /// The list screen's script commands.
  public static let listScreen = ScriptScreen(
    name: "list",
    commands: [
      CommandHelp("add [TEXT]", "insert an item at the top; TEXT defaults to the clock's date"),
      CommandHelp("toggle N", "turn the switch of row N on or off"),
      CommandHelp("open N", "show row N on the detail screen"),
      CommandHelp("delete N", "delete row N"),
      CommandHelp("search [TEXT]", "show the items whose text contains TEXT; none: every item"),
      CommandHelp("group on|off", "group the items by switch state, or not"),
      undoHelp, redoHelp,
    ])

  /// The detail screen's script commands.
  public static let detailScreen = ScriptScreen(
    name: "detail",
    commands: [
      CommandHelp("on", "turn the switch on"),
      CommandHelp("off", "turn the switch off"),
      CommandHelp("toggle", "turn the switch on or off"),
      CommandHelp("text TEXT", "set the text to everything after the first space"),
      CommandHelp("delete", "delete the item and go back to the list"),
      CommandHelp("back", "go back to the list"),
      undoHelp, redoHelp,
    ])

  /// The list screen, then the detail screen.
  public static var screens: [ScriptScreen] { [listScreen, detailScreen] }

  /// Which screen shows.
  enum Screen: Equatable {
    case list
    case detail
  }

  /// The list's view model: the shared items.
  public let master: MasterViewModel

  /// The list screen, bound to ``master`` for the whole run.
  public let list = MasterListView()

  /// The detail screen; bound to an item while it shows, and rebound to the
  /// next item opened.
  public let detail = DetailView()

  var screen = Screen.list

  // Interactive state: the selected row, the first row shown, and the text
  // being edited on the detail screen.
  var cursor = ListCursor()
  var editor: LineEditor?
  /// The search text being typed on the list screen.
  var searchEditor: LineEditor?

  /// Brings the detail back to its item when an undo or redo puts the item
  /// back in the list.
  var reopening: Subscription?

  /// Creates the feature on its list screen, with no items.
  ///
  /// - Parameter environment: The clock that dates new items.
  public init(environment: FeatureEnvironment) {
    master = MasterViewModel(clock: environment.now)
    list.bind(to: master)
    reopening = master.items.observeChanges { [weak self] _ in self?.reopenDetailIfItCameBack() }
  }

  /// The list or the detail screen.
  public var currentScreen: ScriptScreen {
    screen == .list ? Self.listScreen : Self.detailScreen
  }

  /// The lines of the screen showing: ``MasterDetail/MasterListView/lines``
  /// or ``MasterDetail/DetailView/lines``.
  public var lines: [String] {
    screen == .list ? list.lines : detail.lines
  }

  /// How many rows the list shows.
  var rowCount: Int { list.rows.count }

  /// Shows the detail screen of the item at a row.
  ///
  /// - Returns: `false` if the row has no item.
  @discardableResult
  func open(row index: Int) -> Bool {
    guard list.rows.indices.contains(index), let id = list.rows[index].viewModel?.id,
      let viewModel = master.detailViewModel(for: id)
    else { return false }
    detail.bind(to: viewModel)
    screen = .detail
    editor = nil
    return true
  }

  /// Goes back to the list, unbinding the detail screen.
  func back() {
    detail.unbind()
    editor = nil
    screen = .list
    cursor.clamp(toRowCount: rowCount)
  }
}

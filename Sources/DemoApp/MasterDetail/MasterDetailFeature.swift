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
      CommandHelp("delete", "ask to delete the item; yes deletes it and goes back to the list"),
      CommandHelp("back", "go back to the list"),
      undoHelp, redoHelp,
    ])

  /// The delete confirmation, over the detail screen.
  public static let confirmDeleteScreen = ScriptScreen(
    name: "delete confirmation",
    commands: [
      CommandHelp("yes", "delete the item and go back to the list"),
      CommandHelp("no", "keep the item and go back to the detail"),
    ])

  /// The list screen, the detail screen and the delete confirmation.
  public static var screens: [ScriptScreen] { [listScreen, detailScreen, confirmDeleteScreen] }

  /// Which screen shows.
  enum Screen: Equatable {
    case list
    case detail
    case confirmDelete
  }

  /// The list's view model: the shared items.
  public let master: MasterViewModel

  /// The list screen, bound to ``master`` for the whole run.
  public let list = MasterListView()

  /// The detail screen; bound to an item while it shows, and rebound to the
  /// next item opened.
  public let detail = DetailView()

  /// What shows follows the master's stack: the list when it is empty,
  /// else the detail on top, with its delete confirmation over it while
  /// that is presented.
  var screen: Screen {
    guard let top = master.openDetail else { return .list }
    return top.alert.isPresented ? .confirmDelete : .detail
  }

  /// The button of the delete confirmation that the arrow keys select.
  var alertSelection = 0

  // Interactive state: the selected row, the first row shown, and the text
  // being edited on the detail screen.
  var cursor = ListCursor()
  var editor: LineEditor?
  /// The search text being typed on the list screen.
  var searchEditor: LineEditor?

  /// Binds the detail screen to the detail on top of the master's stack.
  var navigation: Subscription?

  /// Creates the feature on its list screen, with no items.
  ///
  /// - Parameter environment: The clock that dates new items.
  public init(environment: FeatureEnvironment) {
    master = MasterViewModel(clock: environment.now)
    list.bind(to: master)
    navigation = master.path.observeChanges { [weak self] _ in self?.followPath() }
  }

  /// The list or the detail screen.
  public var currentScreen: ScriptScreen {
    switch screen {
    case .list: Self.listScreen
    case .detail: Self.detailScreen
    case .confirmDelete: Self.confirmDeleteScreen
    }
  }

  /// The lines of the screen showing: ``MasterDetail/MasterListView/lines``
  /// or ``MasterDetail/DetailView/lines``.
  public var lines: [String] {
    switch screen {
    case .list: list.lines
    case .detail: detail.lines
    case .confirmDelete: detail.lines + [""] + alertLines
    }
  }

  /// The delete confirmation as lines: its title, its message and its
  /// buttons, with control characters made visible.
  var alertLines: [String] {
    guard let alert = master.openDetail?.alert.destination else { return [] }
    var lines = ["  \(alert.title.withVisibleControlCharacters)"]
    if let message = alert.message { lines.append("  \(message.withVisibleControlCharacters)") }
    let buttons = alert.buttons.enumerated().map { index, button in
      let label = button.label.withVisibleControlCharacters
      return index == alertSelection ? "[\(label)]" : " \(label) "
    }
    var row = "  " + buttons.joined(separator: " ")
    while row.last == " " { row.removeLast() }
    lines.append(row)
    return lines
  }

  /// How many rows the list shows.
  var rowCount: Int { list.rows.count }

  /// Shows the detail screen of the item at a row.
  ///
  /// - Returns: `false` if the row has no item.
  @discardableResult
  func open(row index: Int) -> Bool {
    guard list.rows.indices.contains(index), let id = list.rows[index].viewModel?.id
    else { return false }
    return master.open(id: id) != nil
  }

  /// Goes back to the list: pops the detail.
  func back() {
    if !master.path.pop() { followPath() }
  }

  /// Binds the detail screen to the detail on top of the stack, or unbinds
  /// it when the list shows: after `open`, `back`, and a deletion of the
  /// item from anywhere (the tie pops its detail).
  func followPath() {
    editor = nil
    alertSelection = 0
    if let top = master.openDetail {
      if detail.viewModel !== top { detail.bind(to: top) }
    } else {
      detail.unbind()
      cursor.clamp(toRowCount: rowCount)
    }
  }
}

import Foundation
import POMVVM
import TextUI
import ToDo

/// The to-do list (article 002): at most 10 items in a store that lives
/// outside the view models, a list that shows the last change set the
/// store published, and a detail screen that edits and deletes one item.
///
/// The feature holds the store's list view model and three
/// `BindableView`s: a ``ToDo/ToDoListView`` and a ``SaveStatusView`` bound
/// to the list for the whole run, and a ``ToDo/ToDoEditorView`` bound to the
/// item that is open. User actions go to the view models' operations (add,
/// delete) or to the editor view's title field; what either mode shows is
/// what the views observe.
///
/// ## Persistence
///
/// With `--store FILE` the list is kept in a SQLite database
/// (`Store(database:)`). A `FILE` that ends in `.json` names a JSON store
/// file, as earlier versions kept: the database is the same name ending in
/// `.sqlite`, and the first run moves the JSON file's items into it
/// (`Store(database:importing:)`), leaving the JSON file as it was; later
/// runs open the database. Any other `FILE` is the database itself. A
/// database (or JSON file) that does not exist yet starts with the two
/// sample items, like a list kept in memory. One that cannot be read, is
/// not a valid store (a field this version does not know, say), or holds
/// more than 10 items stops the feature from starting, and the file is
/// left untouched.
///
/// Several `pomvvm-demo` processes may keep the same database open: a
/// change saved by one arrives in the others' lists by itself, within a
/// quarter of a second (interactively, without a key), and at once after
/// the next script command (`refresh` takes it in and prints the screen).
/// An item that another process changed since this one last read it is
/// never saved over: the change's save fails with the store's conflict
/// error, the other process's value stays in the database, and this one's
/// in memory.
///
/// In a script, every command that changes the list waits for its save,
/// so that a save that fails is that command's error. Interactively, saves
/// are coalesced and written in the background, so a key never waits for
/// the disk. Either way nothing is lost on the way out: the store is
/// flushed on `q` or `quit`, at the end of the script or of the input, on
/// Ctrl-C, and when `SIGINT`, `SIGTERM` or `SIGHUP` ends the app.
///
/// A save that fails keeps the change in memory (the next save that
/// succeeds writes it) and shows `Save failed: …` under the screen.
@MainActor
public final class ToDoFeature: DemoFeature {
  /// `todo`.
  public static let name = "todo"

  /// The list is kept in the `--store` database, if one is given.
  public static let keepsAStoreFile = true

  /// What the feature shows, for `--help`.
  public static let summary = "a to-do list of at most 10 items in a store, and an item editor"

  /// The list screen's script commands.
  public static let listScreen = ScriptScreen(
    name: "list",
    commands: [
      CommandHelp(
        "add [TITLE]", "add an item at the end; TITLE defaults to 'ToDo Item N' (at most 10)"),
      CommandHelp("delete N", "delete row N"),
      CommandHelp("open N", "show row N on the detail screen, to edit it"),
      CommandHelp("edit N", "open a sheet editing a draft of row N (done or cancel)"),
      CommandHelp("toggle N", "mark row N done or not; done items sort last 1s after"),
      CommandHelp("filter WHICH", "show all items, the active ones (not done), or the completed"),
      CommandHelp("wait DURATION", "let time pass (virtual in a script): 300ms, 1s"),
      CommandHelp("refresh", "take in the changes other processes saved to the --store database"),
      undoHelp, redoHelp,
    ])

  /// The detail screen's script commands.
  public static let detailScreen = ScriptScreen(
    name: "detail",
    commands: [
      CommandHelp("title TEXT", "set the title to everything after the first space"),
      CommandHelp("delete", "delete the item and go back to the list"),
      CommandHelp("back", "go back to the list"),
      undoHelp, redoHelp,
    ])

  /// The edit sheet's script commands: the draft changes, and the item
  /// only on `done`.
  public static let editSheet = ScriptScreen(
    name: "edit",
    commands: [
      CommandHelp("title TEXT", "set the draft's title to everything after the first space"),
      CommandHelp("toggle", "mark the draft done or not"),
      CommandHelp("done", "write the draft into the item (one undo step) and close the sheet"),
      CommandHelp("cancel", "close the sheet; the item stays as it was"),
    ])

  /// The list screen, the detail screen, then the edit sheet.
  public static var screens: [ScriptScreen] { [listScreen, detailScreen, editSheet] }

  /// Which screen shows.
  enum Screen: Equatable {
    case list
    case detail
  }

  /// The list's view model, over the store.
  public let list: ToDoListViewModel

  /// The list screen, bound to ``list`` for the whole run.
  public let listView = ToDoListView()

  /// The line under either screen that shows a failed save.
  public let saveStatus = SaveStatusView()

  /// The detail screen; bound to an item while it shows, and rebound to the
  /// next item opened.
  public let editorView = ToDoEditorView()

  var screen = Screen.list

  // Interactive state: the selected row, the first row shown, the title
  // being edited on the detail screen, and the message of a refused key
  // until the next key.
  var cursor = ListCursor()
  var editor: LineEditor?
  var notice: String?

  /// Brings the detail screen back to its item when an undo or redo puts
  /// the item back in the list.
  var reopening: Subscription?

  /// Ends the title's line editing when the edit sheet opens or closes
  /// (also when deleting its item closes it).
  var followingSheet: Subscription?

  /// The edit sheet, while the list presents one.
  var sheet: ToDoEditViewModel? { list.sheet.destination }

  /// Creates the feature on its list screen.
  ///
  /// Without a store file, or with one that does not exist yet (nor, for
  /// a `.json` name, its database), the list starts with two items added
  /// through the view model, `ToDo Item 1` and `ToDo Item 2`.
  ///
  /// - Parameter environment: The store file, if any.
  /// - Throws: ``FeatureError`` with the ``POMVVM/StoreError``'s message if
  ///   the database or the JSON file to move into it cannot be read or is
  ///   not a valid to-do store (``POMVVM/Store/toDoList(database:importing:)``;
  ///   the file is left untouched), or if a new database cannot be written.
  public init(environment: FeatureEnvironment) throws(FeatureError) {
    let store: Store<ToDoItem>
    var isNew = true
    if let url = environment.storeURL {
      let (database, jsonFile) = Self.storeFiles(for: url)
      isNew = !([database] + (jsonFile.map { [$0] } ?? [])).contains {
        FileManager.default.fileExists(atPath: $0.path)
      }
      do throws(StoreError) {
        store = try Store.toDoList(database: database, importing: jsonFile)
      } catch {
        throw FeatureError(error.description)
      }
    } else {
      store = Store()
    }
    list = ToDoListViewModel(store: store, clock: environment.clock)
    listView.bind(to: list)
    saveStatus.bind(to: list)
    reopening = store.items.observeChanges { [weak self] _ in self?.reopenEditorIfItCameBack() }
    followingSheet = list.sheet.observeChanges { [weak self] _ in self?.editor = nil }
    if store.fileURL != nil {
      SignalFlush.register(self) { [weak store] in store?.flush() }
    }
    guard isNew else { return }
    let reports = Diagnostics.capturingReports {
      // The sample items are where the list starts, not a change to undo.
      list.history.withoutRecording {
        for _ in 0..<2 {
          _ = try? list.add()
        }
      }
      store.flush()
    }
    if let saveError = list.saveError.value {
      throw FeatureError(saveError.description)
    }
    Self.forward(reports, except: nil)
  }

  /// The edit sheet while it shows, else the list or the detail screen.
  public var currentScreen: ScriptScreen {
    if sheet != nil { return Self.editSheet }
    return screen == .list ? Self.listScreen : Self.detailScreen
  }

  /// The lines of the screen showing — ``ToDo/ToDoListView/lines`` or
  /// ``ToDo/ToDoEditorView/lines``, with the edit sheet's lines under a
  /// blank line while it shows — and the ``SaveStatusView``'s line after
  /// them while a save fails.
  public var lines: [String] {
    let below = screen == .list ? listView.lines : editorView.lines
    let sheet = sheetLines.isEmpty ? [] : [""] + sheetLines
    return below + sheet + saveStatus.lines
  }

  /// The label before the draft's title on the edit sheet.
  static let sheetTitleLabel = "    Title: "

  /// The edit sheet as lines, empty when none shows: its heading, the
  /// draft's title (control characters made visible) and done mark, and
  /// its buttons.
  ///
  /// ```
  ///   Edit to-do item
  ///     Title: ToDo Item 1
  ///     Done: no
  ///   [Cancel] [Done]
  /// ```
  var sheetLines: [String] {
    guard let sheet else { return [] }
    return [
      "  Edit to-do item",
      Self.sheetTitleLabel + sheet.title.value.withVisibleControlCharacters,
      "    Done: \(sheet.isCompleted.value ? "yes" : "no")",
      "  [Cancel] [Done]",
    ]
  }

  /// How many rows the list shows.
  var rowCount: Int { listView.titles.count }

  /// Shows the detail screen of the item at a row.
  ///
  /// - Parameter row: The row, from 1 as displayed.
  /// - Throws: ``ToDo/ToDoRefusal`` if no item is at that row.
  func open(row: Int) throws(ToDoRefusal) {
    editorView.bind(to: try list.editor(row: row))
    screen = .detail
    editor = nil
  }

  /// Opens the edit sheet of the item at a row, over the list.
  ///
  /// - Parameter row: The row, from 1 as displayed.
  /// - Throws: ``ToDo/ToDoRefusal`` if no item is at that row.
  func editSheet(row: Int) throws(ToDoRefusal) {
    try list.edit(row: row)
    editor = nil
  }

  /// Goes back to the list, unbinding the detail screen.
  func back() {
    editorView.unbind()
    editor = nil
    screen = .list
    cursor.clamp(toRowCount: rowCount)
  }

  /// Runs a change to the store and waits for its save, with the kit's
  /// diagnostics held, and returns the save error it left, if any.
  ///
  /// The store reports a failed save to `Diagnostics` as well as in its
  /// `saveError`; the caller shows the error itself, so that report is
  /// dropped, and any other is passed on.
  ///
  /// - Parameter change: The change.
  /// - Returns: The store's save error after the change.
  func saving(_ change: () -> Void) -> StoreError? {
    let reports = Diagnostics.capturingReports {
      change()
      list.store.flush()
    }
    let saveError = list.saveError.value
    Self.forward(reports, except: saveError)
    return saveError
  }

  /// Writes the changes not saved yet before the app exits.
  public func finish() {
    list.store.flush()
  }

  /// Whether a change is still being saved in the background; the terminal
  /// redraws until its outcome shows.
  public var hasPendingWork: Bool { list.store.isSaving || list.effects.inFlight.value > 0 }

  /// Whether the list is kept in a database, whose other processes' changes
  /// arrive while the terminal waits for a key.
  public var watchesForOutsideChanges: Bool { list.store.fileURL != nil }

  /// Takes in the changes that other processes saved to the database, so
  /// that a script prints them after the command that follows them.
  public func settle() async {
    await list.store.refresh()
  }

  /// The database that `--store FILE` names, and the JSON store file to
  /// move into it on the first run: `todo.json` is moved into
  /// `todo.sqlite`; any name that does not end in `.json` is the database.
  ///
  /// - Parameter url: The `--store` file.
  /// - Returns: The database, and the JSON file if `url` names one.
  nonisolated public static func storeFiles(for url: URL) -> (database: URL, jsonFile: URL?) {
    guard url.pathExtension == "json" else { return (url, nil) }
    return (url.deletingPathExtension().appendingPathExtension("sqlite"), url)
  }

  deinit {
    SignalFlush.unregister(self)
  }

  private static func forward(_ reports: [Diagnostics.Report], except saveError: StoreError?) {
    for report in reports where report.message != saveError?.description {
      Diagnostics.report(report)
    }
  }
}

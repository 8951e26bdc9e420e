// A screen's work ends when it leaves the screen (issue 49, item 15).
//
// A popped or dismissed screen is released only when nothing else holds it,
// and SwiftUI holds a popped view, and so its view model, through the pop
// animation; a test or a closure may hold it longer. So a ``StackPath`` and
// a ``Presentation`` end the work of a screen themselves when it leaves
// them: they cancel what the screen's view models run, whoever still holds
// them.
//
// Nothing is registered while a screen is shown: the screen is searched
// once, when it leaves, so pushes, cell sets and notifications pay nothing.
// A stack or presentation whose screens cannot hold a view model (`Int`
// screens, a class that is not a `ViewModel`) does not search at all.
//
// What the search ends, from the screen that left:
// - The view models it holds (objects of classes that conform to
//   ``ViewModel``), found through enum payloads, optionals, tuples,
//   structures and collections, and through their stored properties the
//   view models they hold in turn, and the screens and destinations of the
//   stacks and presentations they hold.
// - In those, the work owners they store: ``Effects`` (every operation is
//   cancelled, as ``Effects/cancelAll()`` does), ``Load`` (every request is
//   cancelled and its result dropped; the status stays as it was),
//   ``StateMachine`` (every feedback is cancelled and what it still sends
//   dropped) and the time operators (`debounced`, `throttled`, `delayed`
//   cells and streams, which drop what they hold back and stop their timer).
//
// What it leaves alone: the stack or presentation the screen left (a child
// may hold its parent's stack to push a sibling), a view model below the
// screen's own that holds that stack or presentation (the screen's parent,
// held through a `parent` reference), the view models still shown by the
// same stack or presentation (a screen pushed twice, a `replace(with:)`
// that keeps it), and everything that is not a view model (cells, arrays,
// services): shared state is not work.
//
// The ending is quiet: it changes no state a view shows (a load keeps its
// status, a machine its state), so a test's recorder sees the pop and no
// change of the screen that left. Work that a held view model starts after
// its screen left is not ended by that pop: it ends with its owner, or when
// the view model leaves a screen again.

/// A kit object that runs tasks for the screen that holds it.
///
/// Not API.
@MainActor
protocol _ScreenWorkOwner: AnyObject {
  /// Ends what the object runs: its screen has left the stack or the
  /// presentation that showed it. Changes no state that a view shows.
  func _endScreenWork()
}

@MainActor
enum _ScreenWork {
  /// How deep the search goes through nested values (enum payloads,
  /// structures, collections) between two objects.
  private static let valueDepth = 8

  /// Whether a screen of type `Screen` may hold a view model, whose work
  /// ends when the screen leaves.
  ///
  /// `false` for plain data (`Int`, an enum of plain values) and for a class
  /// that is not a ``ViewModel``: their stacks never search.
  static func mayHoldWork<Screen>(_ type: Screen.Type) -> Bool {
    if Screen.self is AnyObject.Type { return Screen.self is any ViewModel.Type }
    return !_isPOD(Screen.self)
  }

  /// Ends the work of the view models that the screens in `removed` hold,
  /// except those that the screens in `kept` show (at their top level).
  ///
  /// - Parameters:
  ///   - removed: The screens that left.
  ///   - kept: The screens still shown by `container`.
  ///   - container: The stack or presentation that the screens left.
  static func end(_ removed: [Any], keeping kept: [Any], leaving container: AnyObject) {
    var search = Search(container: container)
    var screens: [AnyObject] = []
    for value in removed { search.objects(in: value, depth: 0, into: &screens) }
    guard !screens.isEmpty else { return }
    var shown: [AnyObject] = []
    for value in kept { search.objects(in: value, depth: 0, into: &shown) }
    for object in shown { search.visited.insert(ObjectIdentifier(object)) }
    for object in screens { search.visit(object, isScreen: true) }
    // Ended once the search is over: cancelling may run code (an observer
    // of `Effects.inFlight`) that changes what the search walks.
    for owner in search.owners { owner._endScreenWork() }
    for waiting in search.operators { waiting._cancel() }
  }

  @MainActor
  private struct Search {
    let container: AnyObject
    var visited: Set<ObjectIdentifier> = []
    var owners: [any _ScreenWorkOwner] = []
    var operators: [any _TimeWaiting] = []

    init(container: AnyObject) {
      self.container = container
      visited.insert(ObjectIdentifier(container))
    }

    /// Adds the objects that `value` holds through values (not through
    /// other objects) to `found`.
    func objects(in value: Any, depth: Int, into found: inout [AnyObject]) {
      if type(of: value) is AnyClass {
        found.append(value as AnyObject)
        return
      }
      guard depth < _ScreenWork.valueDepth, !_ScreenWork.isPlainData(value) else { return }
      let mirror = Mirror(reflecting: value)
      for child in mirror.children {
        objects(in: child.value, depth: depth + 1, into: &found)
      }
    }

    /// Ends the work `object` runs, or searches it if it is a view model or
    /// a stack or presentation.
    mutating func visit(_ object: AnyObject, isScreen: Bool) {
      guard visited.insert(ObjectIdentifier(object)).inserted else { return }
      if let owner = object as? any _ScreenWorkOwner {
        owners.append(owner)
        return
      }
      // Before the cells: a stack and a presentation are cells too.
      if let screens = object as? any _ScreenContainer {
        for screen in screens._screensShown { search(screen) }
        return
      }
      if let list = _RootFinder.list(of: object) {
        if let waiting = _TimeOperators.waiting(of: list) { operators.append(waiting) }
        return
      }
      guard object is any ViewModel else { return }
      var held: [AnyObject] = []
      var mirror: Mirror? = Mirror(reflecting: object)
      while let current = mirror {
        for child in current.children { objects(in: child.value, depth: 1, into: &held) }
        mirror = current.superclassMirror
      }
      // Below the screen's own view models, one that holds the stack or
      // presentation the screen left is its parent: not the screen's work.
      if !isScreen, held.contains(where: { $0 === container }) { return }
      for child in held { visit(child, isScreen: false) }
    }

    /// Searches a screen of a nested stack or presentation.
    private mutating func search(_ screen: Any) {
      var found: [AnyObject] = []
      objects(in: screen, depth: 0, into: &found)
      for object in found { visit(object, isScreen: false) }
    }
  }

  /// Whether `value` holds no object at all, so that it needs no search.
  private static func isPlainData(_ value: Any) -> Bool {
    func check<T>(_ type: T.Type) -> Bool { _isPOD(type) }
    return _openExistential(Swift.type(of: value), do: check)
  }
}

/// A stack or a presentation, whose screens are searched when a screen
/// holding it leaves.
///
/// Not API.
@MainActor
protocol _ScreenContainer: AnyObject {
  /// The screens or the destination shown now.
  var _screensShown: [Any] { get }
}

extension StackPath: _ScreenContainer {
  var _screensShown: [Any] { _entries.map(\.screen) }
}

extension Presentation: _ScreenContainer {
  var _screensShown: [Any] { _graphContents.map(\.value) }
}

extension Effects: _ScreenWorkOwner {
  func _endScreenWork() { cancelAll() }
}

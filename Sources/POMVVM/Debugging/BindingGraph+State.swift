/// One piece of state found in a root: a cell, an array or an event stream.
///
/// Not API: it is how POMVVMTesting's `StateRecorder` finds state the way
/// ``BindingGraph`` does, with the same property paths.
package struct _FoundState {
  /// The cell, array or stream, as it was stored.
  package let object: AnyObject
  /// The property path it was found at (`detail.on`, `rows[2].text`).
  package let path: String
  /// Its label, if it was given one with `labelled(_:)`.
  package let label: String?
  /// What it is, shared by every wrapper of it: an erased cell and the cell
  /// it wraps have the same identity.
  package let identity: ObjectIdentifier
}

/// What a search of a root found: its state, the view models that hold it,
/// and what the search could not look into.
///
/// Not API: POMVVMTesting's `StateRecorder` searches with it.
package struct _StateSearch {
  /// The cells, arrays, streams and queries, each once, in the order found.
  package var states: [_FoundState] = []
  /// The view models, views and kit containers below the roots whose state
  /// was searched, each once, with their paths.
  package var holders: [(object: AnyObject, path: String)] = []
  /// What could not be searched, by path: `("cache", "a closure")`.
  package var blindSpots: [(path: String, what: String)] = []
}

extension BindingGraph {
  /// The cells, arrays and streams stored in `roots`, found as
  /// ``init(reachableFrom:)-(Any...)`` finds them, each once, in the order
  /// they were found.
  ///
  /// Not API: POMVVMTesting's `StateRecorder` calls it before and after
  /// every step. It walks stored properties only; nothing in the set and
  /// notify paths knows of it.
  @MainActor
  package static func _stateObjects(in roots: [Any]) -> [_FoundState] {
    _stateSearch(in: roots).states
  }

  /// Searches `roots` as ``init(reachableFrom:)-(Any...)`` does, skipping
  /// the paths `isIgnored` accepts.
  ///
  /// Not API: POMVVMTesting's `StateRecorder` calls it before and after
  /// every step.
  @MainActor
  package static func _stateSearch(
    in roots: [Any], ignoring isIgnored: ((String) -> Bool)? = nil
  ) -> _StateSearch {
    var finder = _RootFinder()
    finder.isIgnored = isIgnored
    for root in roots {
      finder.find(in: root, path: nil, depth: 0)
    }
    var search = _StateSearch()
    var seen = Set<ObjectIdentifier>()
    for (list, object) in zip(finder.lists, finder.objects) {
      let identity = ObjectIdentifier(list)
      guard seen.insert(identity).inserted else { continue }
      search.states.append(
        _FoundState(
          object: object, path: finder.labels[identity] ?? "(root)",
          label: _Labels.label(of: list), identity: identity))
    }
    search.holders = finder.holders
    search.blindSpots = finder.blindSpots
    return search
  }

  /// The identity ``_stateObjects(in:)`` gives `object`, if it is a cell, an
  /// array or a stream of the kit.
  @MainActor
  package static func _stateIdentity(of object: AnyObject) -> ObjectIdentifier? {
    _RootFinder.list(of: object).map(ObjectIdentifier.init)
  }
}

/// What still waits in a root: operations of its ``Effects``, and time
/// operators with a deadline ahead.
///
/// Not API: POMVVMTesting's `StateRecorder.finish()` reports it.
package struct _PendingWork {
  /// Each operation still running: `"sort" (started at TodosViewModel.swift:48)`.
  package var effects: [String] = []
  /// Each time operator waiting for its clock:
  /// `debounced 300ms "query" (made at SearchViewModel.swift:12)`.
  package var operators: [String] = []
  /// The ``Effects`` found, to cancel what they run.
  package var runners: [Effects] = []
  /// Each request of a ``Load`` that has not returned: `load "movie"
  /// request (started at MovieViewModel.swift:30)`.
  package var loads: [String] = []
  /// Each effect of a ``StateMachine``'s feedback that has not returned:
  /// `feedback for "3" (declared at MoviesViewModel.swift:20)`.
  package var feedbacks: [String] = []
  /// The loads and machines found, to cancel what they run.
  package var owners: [any _PendingWorkOwner] = []

  /// Cancels everything still running: the operations, the requests, the
  /// feedbacks.
  @MainActor
  package func cancelAll() {
    for runner in runners { runner.cancelAll() }
    for owner in owners { owner._cancelPendingWork() }
  }
}

/// A kit object that runs tasks of its own (a ``Load``, a
/// ``StateMachine``), as `StateRecorder.finish()` asks what still runs.
///
/// Not API.
@MainActor
package protocol _PendingWorkOwner: AnyObject {
  /// Each task that has not returned, as a failure names it, with
  /// `, cancelled, not returned` for one that was cancelled but still runs.
  var _pendingDescriptions: [String] { get }
  /// Cancels every task that has not returned.
  func _cancelPendingWork()
}

extension BindingGraph {
  /// The work still pending in `roots`: the operations of the ``Effects``
  /// stored in them, and the time operators reachable from their state
  /// (stored, or derived from stored cells and streams) that still wait.
  @MainActor
  package static func _pendingWork(in roots: [Any]) -> _PendingWork {
    var finder = _RootFinder()
    for root in roots {
      finder.find(in: root, path: nil, depth: 0)
    }
    var work = _PendingWork()
    for (effects, _) in finder.effects {
      work.runners.append(effects)
      work.effects += effects._runningDescriptions
    }
    for (owner, path) in finder.workOwners {
      work.owners.append(owner)
      let descriptions = owner._pendingDescriptions
      if owner is any _GraphCell {
        work.loads += descriptions.map { "load \(Effects.quoted(path)) \($0)" }
      } else {
        work.feedbacks += descriptions
      }
    }
    var seen = Set<ObjectIdentifier>()
    var toVisit = finder.lists
    while let list = toVisit.popLast() {
      guard seen.insert(ObjectIdentifier(list)).inserted else { continue }
      if let waiting = _TimeOperators.waiting(of: list), waiting._isWaiting {
        let path = finder.labels[ObjectIdentifier(list)].map { " \"\($0)\"" } ?? ""
        work.operators.append(
          waiting._operatorName + path
            + (list._origin.map { " (made at \($0.split(separator: "/").last ?? ""))" } ?? ""))
      }
      toVisit += list._dependentEdges.map(\.node)
      list._forEachObserver { observer in
        if case .derivation? = observer._role?.kind,
          let target = (observer._role?.target).flatMap(_RootFinder.list(of:))
        {
          toVisit.append(target)
        }
      }
    }
    work.operators.sort()
    return work
  }
}

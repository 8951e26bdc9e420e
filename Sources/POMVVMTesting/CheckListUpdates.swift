/// Checks that every change an array publishes reaches a list view safely:
/// each change set's `ChangeSet/batchUpdate` and
/// `ChangeSet/steps` are applied to a ``HeadlessList`` that keeps
/// UIKit's batch-update rules, and its rows must then be the array's.
///
/// ```swift
/// @Test @MainActor func theGroceriesUpdateTheirListSafely() {
///   let store = GroceryStore()
///   checkListUpdates(
///     store.items,
///     mutations: [
///       ArrayMutation("add milk") { _ in store.add("milk") },
///       ArrayMutation("sort by name") { _ in store.sortByName() },
///       .remove(at: 0),
///     ])
/// }
/// ```
///
/// After each step, for every change set the step published, it checks
/// these laws (the rules of ``ListRule``):
///
/// - *the batch update keeps UIKit's rules*, and *the rows after the batch
///   update are the array's*;
/// - *the steps keep UIKit's rules*, and *the rows after the steps are the
///   array's*.
///
/// A broken rule is reported with the message UIKit would raise.
///
/// - Parameters:
///   - subject: The array, or a store that wraps one.
///   - mutations: The steps, in order.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkListUpdates<Subject: ArrayLawSubject>(
  _ subject: Subject,
  mutations: [ArrayMutation<Subject>],
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let context = CheckContext(
    "checkListUpdates(\(Subject.self))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  runListUpdateLaws(subject, in: context) { step, _ in
    step < mutations.count ? mutations[step] : nil
  }
}

/// Checks that every change of an `ObservableArray` reaches a list view
/// safely, through a seeded run of random mutations.
///
/// The run leans on what breaks lists: elements that both move and change
/// (refreshes that shuffle and edit), batches that mix insertions,
/// removals, moves, edits and the removal and re-insertion of the same id,
/// refreshes that shuffle everything, replacements by new elements, and
/// reloads — besides every single mutation. The laws are those of
/// ``checkListUpdates(_:mutations:fileID:filePath:line:column:)``. A failure
/// names the seed and the step, so a run can be repeated.
///
/// ```swift
/// checkListUpdates(
///   ObservableArray<Item>(),
///   randomMutations: 1_000, seed: 42,
///   newElement: { Item(id: $0, text: "item \($0)") },
///   edited: { item, variant in
///     var item = item
///     item.text = "edit \(variant)"
///     return item
///   })
/// ```
///
/// - Parameters:
///   - array: The array; it may start with elements.
///   - count: The number of random steps.
///   - seed: The seed of the random run.
///   - newElement: Makes a new element from a number that grows by one on
///     every call, from 0. Its id must not be in the array (the check skips
///     numbers whose id is).
///   - edited: Returns an element edited in place: the same id, a changed
///     value, chosen by a random number.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkListUpdates<Element: Identifiable & Equatable>(
  _ array: ObservableArray<Element>,
  randomMutations count: Int,
  seed: UInt64,
  newElement: (Int) -> Element,
  edited: (Element, Int) -> Element,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let context = CheckContext(
    "checkListUpdates(\(ObservableArray<Element>.self), seed: \(seed))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  let laws = context.laws("List update", for: "\(ObservableArray<Element>.self)")
  var random = SplitMix64(seed: seed)
  var number = 0
  var misused = false

  func fresh(avoiding ids: Set<Element.ID>) -> Element? {
    for _ in 0..<16 {
      let element = newElement(number)
      number += 1
      if !ids.contains(element.id) { return element }
    }
    laws.misuse("`newElement` keeps making elements whose ids are already in the array")
    misused = true
    return nil
  }

  func edit(_ element: Element) -> Element? {
    let result = edited(element, random.pick(1_000))
    guard result.id == element.id else {
      laws.misuse(
        "`edited` changed the id of \(describe(element)) to \(describe(result.id)); "
          + "it must keep the id")
      misused = true
      return nil
    }
    return result
  }

  /// Edits, moves, inserts and removes at random in `contents`, the way a
  /// batch or a refresh does; `reinsert` removes elements and puts them
  /// back (edited or not) elsewhere.
  func scramble(_ contents: [Element], operations: Int) -> [Element]? {
    var next = contents
    var ids = Set(contents.map(\.id))
    for _ in 0..<operations {
      switch next.isEmpty ? 0 : random.pick(5) {
      case 0:
        guard let element = fresh(avoiding: ids) else { return nil }
        ids.insert(element.id)
        next.insert(element, at: random.pick(next.count + 1))
      case 1:
        next.remove(at: random.pick(next.count))
      case 2:
        let element = next.remove(at: random.pick(next.count))
        next.insert(element, at: random.pick(next.count + 1))
      case 3:
        // Remove and re-insert the same id, edited, somewhere else.
        let element = next.remove(at: random.pick(next.count))
        guard let edited = edit(element) else { return nil }
        next.insert(random.pick(2) == 0 ? edited : element, at: random.pick(next.count + 1))
      default:
        let index = random.pick(next.count)
        guard let edited = edit(next[index]) else { return nil }
        next[index] = edited
      }
    }
    return next
  }

  func draw(_ contents: [Element]) -> ArrayMutation<ObservableArray<Element>>? {
    let count = contents.count
    let ids = Set(contents.map(\.id))
    switch random.pick(12) {
    case 0:
      return fresh(avoiding: ids).map { .insert($0, at: random.pick(count + 1)) }
    case 1 where count > 0:
      return .remove(at: random.pick(count))
    case 2 where count > 1:
      return .move(from: random.pick(count), to: random.pick(count))
    case 3 where count > 0:
      return edit(contents[random.pick(count)]).map { .update($0) }
    case 4 where count > 0:
      let index = random.pick(count)
      return fresh(avoiding: ids).map { .replace(at: index, with: $0) }
    case 5, 6:
      // Moves and edits together: shuffle a few and edit some of them.
      guard var next = scramble(contents, operations: 1 + random.pick(4)) else { return nil }
      if next.count > 1 {
        for _ in 0..<(1 + random.pick(3)) {
          let from = random.pick(next.count)
          let to = random.pick(next.count)
          next.swapAt(from, to)
          if random.pick(2) == 0, let edited = edit(next[to]) { next[to] = edited }
        }
      }
      return .replaceAll(with: next)
    case 7, 8:
      guard let next = scramble(contents, operations: 1 + random.pick(6)) else { return nil }
      return .batch("a mix of \(next.count) rows") { $0 = next }
    case 9:
      // A full shuffle, some rows edited: usually more changes than rows.
      var next = contents
      next.shuffle(using: &random)
      for index in next.indices where random.pick(3) == 0 {
        guard let edited = edit(next[index]) else { return nil }
        next[index] = edited
      }
      return .replaceAll(with: next)
    case 10 where random.pick(4) == 0:
      // Everything new: a reload.
      var next: [Element] = []
      var taken = ids
      for _ in 0..<random.pick(8) {
        guard let element = fresh(avoiding: taken) else { return nil }
        taken.insert(element.id)
        next.append(element)
      }
      return .replaceAll(with: next)
    case 11 where count > 12:
      return .removeAll()
    default:
      return fresh(avoiding: ids).map { .append($0) }
    }
  }

  runListUpdateLaws(array, in: context) { step, contents in
    guard step < count, !misused else { return nil }
    return draw(contents)
  }
}

/// Runs steps on `subject` until `next` returns `nil`, applying every
/// published change's batch update and steps to a headless list.
@MainActor
func runListUpdateLaws<Subject: ArrayLawSubject>(
  _ subject: Subject,
  in context: CheckContext,
  next: (Int, [Subject.Element]) -> ArrayMutation<Subject>?
) {
  let laws = context.laws("List update", for: "\(Subject.self)")
  var published: [ArrayChange<Subject.Element>] = []
  let subscription = subject.observeChanges { published.append($0) }
  defer { subscription.cancel() }
  let start = subject.elements.map(\.id)
  var batchList = HeadlessList(rows: start)
  var stepList = HeadlessList(rows: start)

  var step = 0
  while context.failureCount < CheckContext.failureLimit {
    let before = subject.elements
    guard let mutation = next(step, before) else { break }
    step += 1
    published.removeAll()
    _ = Diagnostics.capturing { mutation.apply(subject) }
    context.step("step \(step): \(mutation.label)") {
      for change in published {
        let ids = change.newElements.map(\.id)
        let batch = change.changeSet.batchUpdate
        for broken in batchList.apply(batch, for: change) {
          laws.fail(
            "the batch update keeps UIKit's rules",
            "\(broken.rule.rawValue): \(broken.message) (change `\(change.changeSet)`, "
              + "batch `\(batch)`)")
        }
        laws.expect(
          "the rows after the batch update are the array's", batchList.rows == ids,
          "the list shows \(describe(batchList.rows)), the array holds \(describe(ids))")
        // Each change is checked on its own, from the rows it starts from.
        if batchList.rows != ids { batchList = HeadlessList(rows: ids) }
        let steps = change.changeSet.steps
        for broken in stepList.apply(steps, for: change) {
          laws.fail(
            "the steps keep UIKit's rules",
            "\(broken.rule.rawValue): \(broken.message) (change `\(change.changeSet)`, steps "
              + "\(describe(steps)))")
        }
        laws.expect(
          "the rows after the steps are the array's", stepList.rows == ids,
          "the list shows \(describe(stepList.rows)), the array holds \(describe(ids))")
        if stepList.rows != ids { stepList = HeadlessList(rows: ids) }
      }
    }
  }
}

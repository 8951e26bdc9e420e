/// Checks that a shared array keeps the laws of `ObservableArray` through
/// a sequence of mutations: its change sets replay to its contents, its
/// aggregates equal a recount, and its element cells follow their elements
/// and detach when they are removed.
///
/// ```swift
/// @Test @MainActor func theItemsKeepTheirLaws() {
///   let master = MasterViewModel()
///   checkObservableArrayLaws(
///     master.items,
///     mutations: [
///       ArrayMutation("insert a row") { _ in master.insertNowDate(text: "a") },
///       ArrayMutation("toggle it") { _ in master.cellViewModel(at: 0)?.toggleSwitch() },
///       .remove(at: 0),
///     ],
///     counting: [\.on])
/// }
/// ```
///
/// Before each step the check holds a cell (``ArrayLawSubject/cell(for:)``)
/// for every element, and it counts the elements with each predicate in
/// `counting` and every element (``ArrayLawSubject/liveCount(where:)``). After
/// each step it checks these laws:
///
/// - *a change set replays to the new contents*: applying each published
///   change set to the contents before it (`ChangeSet.applied(to:)`) gives
///   the contents published with it;
/// - *the published contents are the array's contents*: the last change
///   set's contents are the array's, and a step that publishes nothing
///   changes nothing;
/// - *a mutation leaves the contents it describes*, for the factory
///   mutations (``ArrayMutation/insert(_:at:)`` and the others);
/// - *aggregates equal a recount*, and *aggregates recount only on
///   reloads* (`ArrayCount.recounts` grows by one per reload change set,
///   and not otherwise);
/// - *element cells follow their elements*: the cell of an element that is
///   still there holds its value and is not detached;
/// - *element cells detach on removal*: the cell of an element that left is
///   detached, and its `ElementCell.detachment` told observers once;
/// - *a detached cell refuses writes visibly*: writing to it returns `false`,
///   reports to `Diagnostics` and changes nothing.
///
/// - Parameters:
///   - subject: The array, or a store that wraps one.
///   - mutations: The steps, in order.
///   - predicates: Boolean properties to count elements by, such as `\.on`.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkObservableArrayLaws<Subject: ArrayLawSubject>(
  _ subject: Subject,
  mutations: [ArrayMutation<Subject>],
  counting predicates: [KeyPath<Subject.Element, Bool>] = [],
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) where Subject.Element: Equatable {
  let context = CheckContext(
    "checkObservableArrayLaws(\(Subject.self))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  runArrayLaws(subject, counting: predicates, in: context) { step, _ in
    step < mutations.count ? mutations[step] : nil
  }
}

/// Checks that an `ObservableArray` keeps its laws through a seeded run of
/// random mutations.
///
/// Each step is drawn from the contents at the time: inserts, appends,
/// removals by index and by id, moves, updates and replacements in place
/// (through `edited`), replacements by a new element, refreshes that keep,
/// drop, edit, add and reorder elements at once (`replaceAll(with:)`),
/// batches, and, now and then, removing everything or replacing everything.
/// The laws checked after each step are those of
/// ``checkObservableArrayLaws(_:mutations:counting:fileID:filePath:line:column:)``.
/// A failure names the seed and the step, so a run can be repeated.
///
/// ```swift
/// checkObservableArrayLaws(
///   ObservableArray<Item>(),
///   randomMutations: 500, seed: 42,
///   newElement: { Item(id: $0, text: "item \($0)") },
///   edited: { item, variant in
///     var item = item
///     if variant.isMultiple(of: 2) { item.on.toggle() } else { item.text += "!" }
///     return item
///   },
///   counting: [\.on])
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
///   - predicates: Boolean properties to count elements by, such as `\.on`.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkObservableArrayLaws<Element: Identifiable & Equatable>(
  _ array: ObservableArray<Element>,
  randomMutations count: Int,
  seed: UInt64,
  newElement: (Int) -> Element,
  edited: (Element, Int) -> Element,
  counting predicates: [KeyPath<Element, Bool>] = [],
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let context = CheckContext(
    "checkObservableArrayLaws(\(ObservableArray<Element>.self), seed: \(seed))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  let laws = context.laws("ObservableArray", for: "\(ObservableArray<Element>.self)")
  var random = SplitMix64(seed: seed)
  var number = 0
  var misused = false

  /// A new element whose id is in none of `contents`.
  func fresh(avoiding contents: [Element]) -> Element? {
    let ids = Set(contents.map(\.id))
    for _ in 0..<16 {
      let element = newElement(number)
      number += 1
      if !ids.contains(element.id) { return element }
    }
    laws.misuse("`newElement` keeps making elements whose ids are already in the array")
    misused = true
    return nil
  }

  /// An element edited in place, keeping its id.
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

  /// A random mutation of `contents`.
  func draw(_ contents: [Element]) -> ArrayMutation<ObservableArray<Element>>? {
    let count = contents.count
    switch random.pick(13) {
    case 0:
      return fresh(avoiding: contents).map { .insert($0, at: random.pick(count + 1)) }
    case 1:
      return fresh(avoiding: contents).map { .append($0) }
    case 2 where count > 0:
      return .remove(at: random.pick(count))
    case 3 where count > 0:
      return .remove(id: contents[random.pick(count)].id)
    case 4 where count > 1:
      return .move(from: random.pick(count), to: random.pick(count))
    case 5 where count > 0:
      return edit(contents[random.pick(count)]).map { .update($0) }
    case 6 where count > 0:
      let index = random.pick(count)
      return edit(contents[index]).map { .replace(at: index, with: $0) }
    case 7 where count > 0:
      let index = random.pick(count)
      return fresh(avoiding: contents).map { .replace(at: index, with: $0) }
    case 8:
      // A refresh: keep most, edit some, add some, reorder a little.
      var next = contents.filter { _ in random.pick(6) != 0 }
      for index in next.indices where random.pick(4) == 0 {
        guard let edited = edit(next[index]) else { return nil }
        next[index] = edited
      }
      for _ in 0..<random.pick(3) {
        guard let element = fresh(avoiding: contents + next) else { return nil }
        next.insert(element, at: random.pick(next.count + 1))
      }
      if next.count > 1 && random.pick(2) == 0 {
        next.swapAt(random.pick(next.count), random.pick(next.count))
      }
      return .replaceAll(with: next)
    case 9:
      // A batch of a few inserts, removals and edits, drawn now so that the
      // batch does the same thing on the array and on the check's copy.
      var next = contents
      var edits: [String] = []
      for _ in 0..<(1 + random.pick(4)) {
        switch next.isEmpty ? 0 : random.pick(3) {
        case 0:
          guard let element = fresh(avoiding: contents + next) else { return nil }
          let index = random.pick(next.count + 1)
          next.insert(element, at: index)
          edits.append("insert at \(index)")
        case 1:
          let index = random.pick(next.count)
          next.remove(at: index)
          edits.append("remove at \(index)")
        default:
          let index = random.pick(next.count)
          guard let edited = edit(next[index]) else { return nil }
          next[index] = edited
          edits.append("edit at \(index)")
        }
      }
      let target = next
      return .batch(edits.joined(separator: ", ")) { $0 = target }
    case 10 where random.pick(8) == 0:
      return .removeAll()
    case 11:
      var next: [Element] = []
      for _ in 0..<random.pick(5) {
        guard let element = fresh(avoiding: contents + next) else { return nil }
        next.append(element)
      }
      return .replaceAll(with: next)
    default:
      return fresh(avoiding: contents).map { .append($0) }
    }
  }

  runArrayLaws(array, counting: predicates, in: context) { step, contents in
    guard step < count, !misused else { return nil }
    return draw(contents)
  }
}

/// What the check holds on one element: its cell, and how many times the
/// cell's detachment was told.
@MainActor
final class CellWatch<Element: Identifiable> {
  let cell: ElementCell<Element>
  private(set) var detachments = 0
  private var subscription: Subscription?

  init(_ cell: ElementCell<Element>) {
    self.cell = cell
    subscription = cell.detachment.observeChanges { [weak self] detached in
      if detached {
        self?.detachments += 1
      }
    }
  }

  func stop() {
    subscription?.cancel()
  }
}

/// Runs steps on `subject` until `next` returns `nil`, checking the array
/// laws after each.
///
/// `next` gives the step with a number, from 0, and the contents before it.
@MainActor
func runArrayLaws<Subject: ArrayLawSubject>(
  _ subject: Subject,
  counting predicates: [KeyPath<Subject.Element, Bool>],
  in context: CheckContext,
  next: (Int, [Subject.Element]) -> ArrayMutation<Subject>?
) where Subject.Element: Equatable {
  typealias Element = Subject.Element
  let laws = context.laws("ObservableArray", for: "\(Subject.self)")
  let counts: [(label: String, cell: ArrayCount<Element>, predicate: (Element) -> Bool)] =
    [("liveCount(where: { _ in true })", subject.liveCount { _ in true }, { _ in true })]
    + predicates.map { keyPath in
      (
        "liveCount(where: \(keyPath))", subject.liveCount { $0[keyPath: keyPath] },
        { $0[keyPath: keyPath] }
      )
    }
  var reloads = 0
  var watches: [Element.ID: CellWatch<Element>] = [:]
  var published: [ArrayChange<Element>] = []
  let subscription = subject.observeChanges { published.append($0) }
  defer {
    subscription.cancel()
    for watch in watches.values {
      watch.stop()
    }
  }

  var step = 0
  while context.failureCount < CheckContext.failureLimit {
    let before = subject.elements
    guard let mutation = next(step, before) else { break }
    step += 1
    for element in before where watches[element.id] == nil {
      if let cell = subject.cell(for: element.id) {
        watches[element.id] = CellWatch(cell)
      }
    }
    published.removeAll()
    // Steps may report refused writes, which belong to the laws below.
    _ = Diagnostics.capturing { mutation.apply(subject) }
    let after = subject.elements

    context.step("step \(step): \(mutation.label)") {
      var contents = before
      var removed: Set<Element.ID> = []
      for change in published {
        let changeSet = change.changeSet
        do {
          let replayed = try changeSet.applied(to: contents)
          laws.expect(
            "a change set replays to the new contents", replayed == change.newElements,
            "applying `\(changeSet)` to \(describe(contents)) gives \(describe(replayed)), "
              + "but the change publishes \(describe(change.newElements))")
        } catch {
          laws.fail(
            "a change set replays to the new contents",
            "applying `\(changeSet)` to \(describe(contents)) fails: \(error)")
        }
        removed.formUnion(changeSet.removals.map(\.element.id))
        if let reload = changeSet.reload {
          removed.formUnion(Set(reload.old.map(\.id)).subtracting(reload.new.map(\.id)))
          reloads += 1
        }
        contents = change.newElements
      }
      if published.isEmpty {
        laws.expect(
          "the published contents are the array's contents", after == before,
          "no change set was published, but the contents went from \(describe(before)) "
            + "to \(describe(after))")
      } else {
        laws.expect(
          "the published contents are the array's contents", after == contents,
          "the last change set publishes \(describe(contents)), the array holds "
            + describe(after))
      }
      if let expected = mutation.expectedContents?(before) {
        laws.expectEqual("a mutation leaves the contents it describes", after, expected)
      }

      for count in counts {
        let recount = after.count(where: count.predicate)
        laws.expect(
          "aggregates equal a recount", count.cell.value == recount,
          "\(count.label) is \(count.cell.value), a recount gives \(recount)")
        laws.expect(
          "aggregates recount only on reloads", count.cell.recounts == reloads,
          "\(count.label) counted every element \(count.cell.recounts) times in all, over "
            + "\(reloads) reload change sets")
      }

      var present: [Element.ID: Element] = [:]
      for element in after {
        present[element.id] = element
      }
      // Every watched element was there before the step; going through them
      // in that order keeps the failures in a stable order.
      for element in before {
        let id = element.id
        guard let watch = watches[id] else { continue }
        let cell = watch.cell
        guard removed.contains(id) || present[id] == nil else {
          if cell.isDetached {
            laws.fail(
              "element cells follow their elements",
              "the cell for id \(describe(id)) is detached, but its element was not removed")
          } else if let element = present[id], cell.value != element {
            laws.fail(
              "element cells follow their elements",
              "the cell for id \(describe(id)) holds \(describe(cell.value)), the array holds "
                + describe(element))
          }
          continue
        }
        let isDetached = cell.isDetached
        let last = cell.value
        var accepted = false
        let reports = Diagnostics.capturing { accepted = cell.set(last) }
        let contentsAfterWrite = subject.elements
        laws.expect(
          "element cells detach on removal", isDetached && watch.detachments == 1,
          "after its element left, the cell for id \(describe(id)) "
            + (isDetached ? "is detached" : "is not detached")
            + ", its detachment was told \(watch.detachments) times"
            + (accepted ? ", and it took a write, like a ghost copy" : ""))
        if isDetached {
          laws.expect(
            "a detached cell refuses writes visibly",
            !accepted && !reports.isEmpty && contentsAfterWrite == after,
            "writing to the detached cell for id \(describe(id)) returned \(accepted), sent "
              + "\(reports.count) reports to Diagnostics and "
              + (contentsAfterWrite == after ? "left the array alone" : "changed the array"))
        }
        watch.stop()
        watches[id] = nil
      }
    }
  }
}

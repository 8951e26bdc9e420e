/// Checks an app's own live query through a seeded run of random mutations
/// of its array: after every step the query must equal a from-scratch
/// evaluation, and every change it publishes must replay and reach a list
/// view safely.
///
/// The steps mix every mutation of the array (inserts, removals, moves,
/// updates, `replaceAll` with shuffles, batches, the removal and
/// re-insertion of an id), writes through element cells (`edited` decides
/// what changes: sort keys, filter results), and changes of the query's
/// predicate (negated, then restored) and order (reversed, then restored).
/// The query is left with its own predicate and order at the end.
///
/// ```swift
/// @Test @MainActor func theActiveFilterKeepsItsLaws() {
///   let store = ToDoStore()
///   checkLiveQuery(
///     store.activeItems, randomMutations: 2_000, seed: 1,
///     newElement: { ToDoItem(id: $0, title: "item \($0)") },
///     edited: { item, variant in
///       var item = item
///       if variant.isMultiple(of: 2) { item.done.toggle() } else { item.title += "!" }
///       return item
///     })
/// }
/// ```
///
/// After each step it checks these laws:
///
/// - *the query equals a from-scratch evaluation*: the array's elements
///   that the predicate keeps, stably sorted by the order (ties in the
///   array's order);
/// - *every change replays onto the query's previous rows*
///   (`ChangeSet.applied(to:)`), and *the last change's rows are the
///   query's*;
/// - *the batch update keeps UIKit's rules*, checked by ``HeadlessList``.
///
/// A failure names the seed and the step, so a run can be repeated.
///
/// - Parameters:
///   - query: The query; its array may start with elements.
///   - count: The number of random steps.
///   - seed: The seed of the random run.
///   - newElement: Makes a new element from a number that grows by one on
///     every call, from 0.
///   - edited: Returns an element edited in place: the same id, a changed
///     value, chosen by a random number.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkLiveQuery<Element: Identifiable & Equatable>(
  _ query: LiveQuery<Element>,
  randomMutations count: Int,
  seed: UInt64,
  newElement: @escaping (Int) -> Element,
  edited: @escaping (Element, Int) -> Element,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  let context = CheckContext(
    "checkLiveQuery(\(LiveQuery<Element>.self), seed: \(seed))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  let laws = context.laws("LiveQuery", for: "\(LiveQuery<Element>.self)")
  let array = query.array
  let isIncluded = query.isIncluded
  let order = query.areInIncreasingOrder
  var negated = false
  var reversed = false
  var mutations = QueryMutations(seed: seed, newElement: newElement, edited: edited)

  var published: [ArrayChange<Element>] = []
  let subscription = query.observeChanges { published.append($0) }
  var rows = query.elements
  var list = HeadlessList(rows: rows.map(\.id))

  func expected() -> [Element] {
    let keep: (Element) -> Bool = negated ? { !isIncluded($0) } : isIncluded
    let sort: ((Element, Element) -> Bool)? = order.map { order in
      reversed ? { order($1, $0) } : order
    }
    return evaluateFromScratch(array.elements, isIncluded: keep, areInIncreasingOrder: sort)
  }

  context.step("before the first step") {
    _ = laws.expectEqual(
      "the query equals a from-scratch evaluation", query.elements, expected(), "rows")
  }
  var step = 0
  while step < count && context.failureCount < CheckContext.failureLimit {
    guard
      let (label, action) = mutations.draw(
        array,
        negatePredicate: {
          negated.toggle()
          query.isIncluded = negated ? { !isIncluded($0) } : isIncluded
        },
        reverseOrder: {
          guard let order else { return query.reevaluate() }
          reversed.toggle()
          query.areInIncreasingOrder = reversed ? { order($1, $0) } : order
        },
        reevaluate: { query.reevaluate() })
    else {
      laws.misuse(mutations.misuse ?? "no step could be drawn")
      break
    }
    step += 1
    published.removeAll()
    _ = Diagnostics.capturing { action() }
    context.step("step \(step): \(label)") {
      for change in published {
        do {
          let replayed = try change.changeSet.applied(to: rows)
          laws.expectEqual(
            "every change replays onto the query's previous rows", replayed, change.newElements,
            "change `\(change.changeSet)`")
        } catch {
          laws.fail(
            "every change replays onto the query's previous rows",
            "change `\(change.changeSet)` does not fit the rows \(describe(rows.map(\.id))): "
              + "\(error)")
        }
        let batch = change.changeSet.batchUpdate
        for broken in list.apply(batch, for: change) {
          laws.fail(
            "the batch update keeps UIKit's rules",
            "\(broken.rule.rawValue): \(broken.message) (change `\(change.changeSet)`, batch "
              + "`\(batch)`)")
        }
        rows = change.newElements
        list = HeadlessList(rows: rows.map(\.id))
      }
      laws.expectEqual(
        "the last change's rows are the query's", rows.map(\.id), query.ids, "ids")
      rows = query.elements
      list = HeadlessList(rows: rows.map(\.id))
      laws.expectEqual("the query equals a from-scratch evaluation", rows, expected(), "rows")
    }
  }
  subscription.cancel()
  if negated { query.isIncluded = isIncluded }
  if reversed { query.areInIncreasingOrder = order }
}

/// Checks an app's own sectioned query through a seeded run of random
/// mutations of its array: after every step the query must equal a
/// from-scratch evaluation, filtered, stably sorted and grouped, and every
/// sectioned batch it publishes must keep UIKit's rules.
///
/// The steps are those of
/// ``checkLiveQuery(_:randomMutations:seed:newElement:edited:fileID:filePath:line:column:)``;
/// let `edited` change section keys too. The laws:
///
/// - *the query equals a from-scratch evaluation*: the kept elements,
///   stably sorted, grouped by `sectionKey` into sections ordered by
///   `sectionOrder`, each in the query's order, no section empty;
/// - *the batch update keeps UIKit's rules*, checked by
///   ``HeadlessSectionedList`` from the sections before the change to its
///   `newSections`, with every row whose value changed counted as changed;
/// - *the last change's sections are the query's*.
///
/// - Parameters:
///   - query: The query; its array may start with elements.
///   - sectionKey: The query's section key, as given to `query(…sectionedBy:)`.
///   - sectionOrder: The query's section order; by default, ascending keys.
///   - count: The number of random steps.
///   - seed: The seed of the random run.
///   - newElement: Makes a new element from a number that grows by one on
///     every call, from 0.
///   - edited: Returns an element edited in place: the same id, a changed
///     value, chosen by a random number.
///   - fileID: The file ID to report failures at; defaults to the caller's.
///   - filePath: The file path to report failures at; defaults to the
///     caller's.
///   - line: The line to report failures at; defaults to the caller's.
///   - column: The column to report failures at; defaults to the caller's.
@MainActor
public func checkLiveQuery<Key: Hashable & Comparable, Element: Identifiable & Equatable>(
  _ query: SectionedQuery<Key, Element>,
  sectionedBy sectionKey: @escaping (Element) -> Key,
  sectionOrder: @escaping (Key, Key) -> Bool = { $0 < $1 },
  randomMutations count: Int,
  seed: UInt64,
  newElement: @escaping (Int) -> Element,
  edited: @escaping (Element, Int) -> Element,
  fileID: StaticString = #fileID,
  filePath: StaticString = #filePath,
  line: UInt = #line,
  column: UInt = #column
) {
  typealias Section = HeadlessSectionedList<Key, Element.ID>.Section
  let context = CheckContext(
    "checkLiveQuery(\(SectionedQuery<Key, Element>.self), seed: \(seed))",
    at: CallerLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  let laws = context.laws("SectionedQuery", for: "\(SectionedQuery<Key, Element>.self)")
  let array = query.array
  let isIncluded = query.isIncluded
  let order = query.areInIncreasingOrder
  var negated = false
  var reversed = false
  var mutations = QueryMutations(seed: seed, newElement: newElement, edited: edited)

  var published: [SectionedChange<Key, Element>] = []
  let subscription = query.observeChanges { published.append($0) }

  func shape(_ sections: [QuerySection<Key, Element>]) -> [Section] {
    sections.map { Section(key: $0.key, ids: $0.ids) }
  }
  func values(_ sections: [QuerySection<Key, Element>]) -> [Element.ID: Element] {
    var values: [Element.ID: Element] = [:]
    for section in sections {
      for element in section.elements { values[element.id] = element }
    }
    return values
  }
  func expected() -> (sections: [Section], elements: [Element]) {
    let keep: (Element) -> Bool = negated ? { !isIncluded($0) } : isIncluded
    let sort: ((Element, Element) -> Bool)? = order.map { order in
      reversed ? { order($1, $0) } : order
    }
    let rows = evaluateFromScratch(array.elements, isIncluded: keep, areInIncreasingOrder: sort)
    var keys: [Key] = []
    var grouped: [Key: [Element]] = [:]
    for element in rows {
      let key = sectionKey(element)
      if grouped[key] == nil { keys.append(key) }
      grouped[key, default: []].append(element)
    }
    keys.sort(by: sectionOrder)
    return (
      keys.map { Section(key: $0, ids: grouped[$0, default: []].map(\.id)) },
      keys.flatMap { grouped[$0, default: []] }
    )
  }
  func checkAgainstScratch() {
    let sections = query.sections
    let scratch = expected()
    laws.expectEqual(
      "the query equals a from-scratch evaluation", shape(sections), scratch.sections,
      "sections")
    laws.expectEqual(
      "the query equals a from-scratch evaluation", sections.flatMap(\.elements),
      scratch.elements, "rows")
  }

  var before = query.sections
  context.step("before the first step") { checkAgainstScratch() }
  var step = 0
  while step < count && context.failureCount < CheckContext.failureLimit {
    guard
      let (label, action) = mutations.draw(
        array,
        negatePredicate: {
          negated.toggle()
          query.isIncluded = negated ? { !isIncluded($0) } : isIncluded
        },
        reverseOrder: {
          guard let order else { return query.reevaluate() }
          reversed.toggle()
          query.areInIncreasingOrder = reversed ? { order($1, $0) } : order
        },
        reevaluate: { query.reevaluate() })
    else {
      laws.misuse(mutations.misuse ?? "no step could be drawn")
      break
    }
    step += 1
    published.removeAll()
    _ = Diagnostics.capturing { action() }
    context.step("step \(step): \(label)") {
      for change in published {
        let after = change.newSections
        let old = values(before)
        var changed: Set<Element.ID> = []
        for (id, value) in values(after) where old[id].map({ $0 != value }) ?? false {
          changed.insert(id)
        }
        var list = HeadlessSectionedList(sections: shape(before))
        for broken in list.apply(change.batchUpdate, newSections: shape(after), changed: changed) {
          laws.fail(
            "the batch update keeps UIKit's rules",
            "\(broken.rule.rawValue): \(broken.message) (batch `\(change.batchUpdate)`)")
        }
        before = after
      }
      laws.expectEqual(
        "the last change's sections are the query's", shape(before), shape(query.sections),
        "sections")
      before = query.sections
      checkAgainstScratch()
    }
  }
  subscription.cancel()
  if negated { query.isIncluded = isIncluded }
  if reversed { query.areInIncreasingOrder = order }
}

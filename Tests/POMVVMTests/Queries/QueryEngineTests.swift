import POMVVM
import POMVVMTesting
import TestSupport
import Testing

/// What a query shows, and how it follows its array, while the array
/// delivers a change that the query has yet to see: observers that run
/// before the query read it, re-evaluate it and change the array again.
@MainActor
@Suite("Query delivery")
struct QueryEngineTests {
  private func items(_ count: Int) -> ObservableArray<TestItem> {
    ObservableArray((0..<count).map { TestItem($0, "\($0)") })
  }

  /// What a read of a query returns, all at once.
  private struct Read: Equatable {
    var ids: [Int]
    var count: Int
    var elements: [TestItem]
    var byPosition: [TestItem]

    @MainActor
    init(_ query: LiveQuery<TestItem>) {
      ids = query.ids
      count = query.count
      elements = query.elements
      byPosition = (0..<query.count).map { query[$0] }
    }

    init(_ elements: [TestItem]) {
      ids = elements.map(\.id)
      count = elements.count
      self.elements = elements
      byPosition = elements
    }
  }

  /// Every problem of a change that does not replay onto `old`: its old
  /// values included.
  static func problems(
    _ changeSet: ChangeSet<TestItem>, from old: [TestItem], to new: [TestItem]
  ) -> [String] {
    if let reload = changeSet.reload {
      return reload.old == old && reload.new == new ? [] : ["reload \(reload.old) from \(old)"]
    }
    var problems: [String] = []
    for removal in changeSet.removals
    where !old.indices.contains(removal.index) || old[removal.index] != removal.element {
      problems.append("removal \(removal.index) of \(removal.element) from \(old)")
    }
    for update in changeSet.updates {
      if !old.indices.contains(update.oldIndex) || old[update.oldIndex] != update.oldElement {
        problems.append("update \(update.oldIndex) from \(update.oldElement) in \(old)")
      }
      if update.oldElement == update.newElement {
        problems.append("update \(update.oldIndex) changes nothing")
      }
    }
    let updated = changeSet.updates.map(\.newIndex)
    if Set(updated).count != updated.count { problems.append("repeated updates \(updated)") }
    let replayed = try? changeSet.applied(to: old)
    if replayed != new {
      problems.append("\(changeSet) on \(old) gives \(String(describing: replayed)), not \(new)")
    }
    return problems
  }

  // MARK: - Reading while the query is behind its array

  @Test func aDetailClosingWhenItsElementGoesReadsTheRowsTheQueryLastPublished() {
    let array = items(3)
    let query = array.query(where: { _ in true })
    var reads: [Read] = []
    let detail = array.cell(for: 2)!
    var shown: [[TestItem]] = []
    let subscription = detail.detachment.observeChanges { _ in
      shown.append(query.elements)  // the rows the query last published: 0, 1 and 2
      reads.append(Read(query))
    }
    array.remove(id: 2)  // the detail closes before the query hears of it
    #expect(shown == [[TestItem(0, "0"), TestItem(1, "1"), TestItem(2, "2")]])
    #expect(reads == [Read([TestItem(0, "0"), TestItem(1, "1"), TestItem(2, "2")])])
    #expect(Read(query) == Read([TestItem(0, "0"), TestItem(1, "1")]))
    _ = (detail, subscription)
  }

  @Test func anArrayObserverMadeBeforeTheQueryReadsItsLastRowsWithTheOldValues() {
    let array = items(4)
    var reads: [Read] = []
    let late = Late<LiveQuery<TestItem>>()
    let subscription = array.observeChanges { _ in
      guard let query = late.value, reads.isEmpty else { return }
      // A removal, then an edit, made while the query has not seen the
      // first edit.
      array.remove(id: 3)
      array.cell(for: 1)?.value.text = "edited again"
      reads.append(Read(query))
    }
    let query = array.query(sortedBy: { $0.text < $1.text })
    late.value = query
    array.cell(for: 1)?.value.text = "edited"
    // As the query last published: before the first edit.
    #expect(reads == [Read((0..<4).map { TestItem($0, "\($0)") })])
    #expect(
      Read(query) == Read([TestItem(0, "0"), TestItem(2, "2"), TestItem(1, "edited again")]))
    _ = subscription
  }

  @Test func aLaterObserverOfTheQueryReadsItAfterAnEarlierOneRemovedARow() {
    let array = items(4)
    let query = array.query(where: { $0.id != 0 })
    var published: [Int] = []
    var reads: [Read] = []
    let first = query.observeChanges { change in
      published = change.newElements.map(\.id)
      if array.contains(id: 2) { array.remove(id: 2) }
    }
    let second = query.observeChanges { _ in reads.append(Read(query)) }
    array.cell(for: 1)?.value.text = "edited"
    #expect(published == [1, 3])
    #expect(reads.first == Read([TestItem(1, "edited"), TestItem(2, "2"), TestItem(3, "3")]))
    #expect(reads.last == Read([TestItem(1, "edited"), TestItem(3, "3")]))
    #expect(Read(query) == Read([TestItem(1, "edited"), TestItem(3, "3")]))
    _ = (first, second)
  }

  @Test func aListAdapterOfAQueryUpdatedMidDeliveryShowsTheQuery() {
    let array = items(5)
    let view = CheckedListView<TestItem>()
    var adapter: ListAdapter<CheckedListView<TestItem>>?
    let isReacting = Late<Bool>()
    let subscription = array.observeChanges { _ in
      guard isReacting.value == true else { return }
      if array.contains(id: 4) { array.remove(id: 4) }
      view.isReady = true
      adapter?.updateIfNeeded()
    }
    let query = array.query(where: { $0.id != 0 })
    adapter = ListAdapter(query, view: view)
    view.isReady = false
    // A change that waits for the view, then one whose delivery makes the
    // view ready.
    array.cell(for: 3)?.value.text = "waiting"
    isReacting.value = true
    array.cell(for: 2)?.value.text = "edited"
    #expect(view.rows == query.ids)
    #expect(view.rows == [1, 2, 3])
    #expect(view.violations == [])
    _ = subscription
  }

  // MARK: - Re-evaluating while the query is behind its array

  enum Reevaluation: CaseIterable {
    case readCell, predicate, order, reevaluate
  }

  @Test(arguments: Reevaluation.allCases)
  func reEvaluatingFromAnObserverThatRunsBeforeTheQueryFollowsTheArray(
    how: Reevaluation
  ) {
    let array = ObservableArray((0..<6).map { TestItem($0, $0.isMultiple(of: 2) ? "tea" : "cake") })
    let search = Observable("")
    let late = Late<LiveQuery<TestItem>>()
    let searched = Late<String>()
    let subscription = array.observeChanges { change in
      guard let query = late.value, !change.changeSet.removals.isEmpty else { return }
      searched.value = "t"
      switch how {
      case .readCell: search.value = "t"
      case .predicate: query.isIncluded = { $0.text.contains("t") }
      case .order: query.areInIncreasingOrder = { $0.id > $1.id }
      case .reevaluate: query.reevaluate()
      }
    }
    let query = array.query(
      where: { item in searched.value.map { item.text.contains($0) } ?? true }, reading: search)
    late.value = query
    var contents = query.elements
    var problems: [String] = []
    let recorder = query.observeChanges { change in
      problems += Self.problems(change.changeSet, from: contents, to: change.newElements)
      contents = change.newElements
    }
    array.remove(id: 2)
    let order: ((TestItem, TestItem) -> Bool)? = how == .order ? { $0.id > $1.id } : nil
    let expected = QueryModel.evaluate(
      array.elements, where: { $0.text.contains("t") }, sortedBy: order)
    #expect(query.elements == expected)
    #expect(contents == expected)
    #expect(problems == [])
    _ = (subscription, recorder)
  }

  // MARK: - Following changes made during a delivery

  @Test func changesMadeDuringADeliveryAreFollowedWithTheirOwnOldValuesOnce() {
    let array = items(6)
    let query = array.query(sortedBy: { $0.text < $1.text })
    var contents = query.elements
    var problems: [String] = []
    var updates = 0
    var step = 0
    // Before the query: an edit while the first change is delivered.
    let before = array.observeChanges { _ in
      step += 1
      if step == 1 { array.cell(for: 1)?.value.text = "1b" }
      if step == 2 { array.cell(for: 3)?.value.text = "3b" }
    }
    let recorder = query.observeChanges { change in
      updates += change.changeSet.updates.count
      problems += Self.problems(change.changeSet, from: contents, to: change.newElements)
      contents = change.newElements
    }
    // After the query: another edit, while the query already shows the
    // first two.
    let after = array.observeChanges { _ in
      if step == 1 { array.cell(for: 5)?.value.text = "5b" }
    }
    array.cell(for: 0)?.value.text = "0b"
    #expect(problems == [])
    #expect(
      contents
        == QueryModel.evaluate(
          array.elements, where: { _ in true }, sortedBy: { $0.text < $1.text }))
    #expect(query.elements == contents)
    // Each edit is published once.
    #expect(updates == 4)
    _ = (before, recorder, after)
  }

  @Test func aReactionDuringADeliveryIsFollowedWithoutEvaluatingEveryElement() {
    let array = ObservableArray(
      (0..<1_000).map { TestItem($0, "\($0 % 10)", on: $0.isMultiple(of: 2)) })
    let flat = array.query(where: { $0.on }, sortedBy: { $0.text < $1.text })
    let sectioned = array.query(sortedBy: { $0.text < $1.text }, sectionedBy: { $0.text })
    let reaction = array.observeChanges { change in
      guard let update = change.changeSet.updates.first, update.newElement.id == 10 else { return }
      array.cell(for: 11)?.value.text = "reacted"
    }
    let (flatBuilds, sectionedBuilds) = (flat._rebuilds, sectioned._rebuilds)
    array.cell(for: 10)?.value.text = "edited"
    #expect(flat._rebuilds == flatBuilds)
    #expect(sectioned._rebuilds == sectionedBuilds)
    #expect(
      flat.elements
        == QueryModel.evaluate(array.elements, where: { $0.on }, sortedBy: { $0.text < $1.text }))
    #expect(
      sectioned.sections.flatMap(\.ids)
        == QueryModel.evaluate(
          array.elements, where: { _ in true }, sortedBy: { $0.text < $1.text }
        ).map(\.id))
    _ = reaction
  }

  // MARK: - The laws, with re-entrant observers everywhere

  private static func flatPredicate(_ mode: Int, _ search: Observable<String>) -> (TestItem) -> Bool
  {
    { item in (search.value.isEmpty || item.text != search.value) && (mode == 0 || item.on) }
  }

  private static func flatOrder(_ mode: Int) -> ((TestItem, TestItem) -> Bool)? {
    switch mode {
    case 0: nil
    case 1: { $0.text < $1.text }
    default: { $0.text > $1.text }
    }
  }

  /// Random mutations while observers placed before the queries, after
  /// them, on element cells and on the queries themselves read the queries,
  /// re-evaluate them and change the array again: after every step each
  /// query equals a fresh evaluation, every change replays with its old
  /// values, every sectioned batch keeps UIKit's rules, and the adapters'
  /// views equal the queries.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func queriesKeepTheirLawsWithReentrantObserversEverywhere(seed: UInt64) {
    // Two generators: the steps' one is lent to `QueryModel.mutate` while
    // the reactions draw from theirs.
    var random = SplitMix64(seed: seed)
    var reactionRandom = SplitMix64(seed: seed &+ 1_000)
    func pick(_ bound: Int) -> Int { Int(reactionRandom.next() % UInt64(bound)) }
    func roll(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    let texts = ["a", "b", "c"]
    let array = ObservableArray(
      (0..<16).map { TestItem($0, texts[$0 % 3], on: $0.isMultiple(of: 4)) })
    // Lent to `QueryModel.mutate` too: the reactions keep their own.
    var nextID = 16
    var removed: [TestItem] = []
    var reactionID = 10_000
    var reactionRemoved: [TestItem] = []
    let search = Observable("")
    var flatMode = 0
    var flatOrderMode = 1
    var budget = 0
    var problems: [String] = []
    var step = 0
    var flat: LiveQuery<TestItem>?
    var sectioned: SectionedQuery<Int, TestItem>?

    /// Reads both queries: every read agrees with the others.
    func read(_ place: String) {
      if let flat {
        let ids = flat.ids
        let elements = flat.elements
        if elements.map(\.id) != ids || flat.count != ids.count {
          problems.append("step \(step), \(place): flat reads disagree")
        }
        if !ids.isEmpty {
          let position = pick(ids.count)
          if flat[position] != elements[position] || flat.index(id: ids[position]) != position {
            problems.append("step \(step), \(place): flat row \(position) disagrees")
          }
        }
      }
      if let sectioned {
        let sections = sectioned.sections
        if sections.map(\.key) != sectioned.keys
          || sections.reduce(0, { $0 + $1.elements.count }) != sectioned.count
        {
          problems.append("step \(step), \(place): sectioned reads disagree")
        }
        if let section = sections.indices.randomElement(using: &reactionRandom),
          !sections[section].elements.isEmpty
        {
          let path = RowPath(section: section, row: 0)
          if sectioned[path] != sections[section].elements[0]
            || sectioned.path(of: sections[section].ids[0]) != path
          {
            problems.append("step \(step), \(place): sectioned row \(path) disagrees")
          }
        }
      }
    }

    /// One random reaction, while the step's budget lasts.
    func react(_ place: String) {
      read(place)
      guard budget > 0, pick(3) == 0 else { return }
      budget -= 1
      let count = array.count
      switch pick(9) {
      case 0 where count > 0:
        if let element = array.remove(id: array[pick(count)].id) { reactionRemoved.append(element) }
      case 1 where count > 0:
        array.cell(for: array[pick(count)].id)?.value.text = texts[pick(3)]
      case 2 where count > 0:
        array.cell(for: array[pick(count)].id)?.value.on.toggle()
      case 3 where !reactionRemoved.isEmpty:
        var element = reactionRemoved.remove(at: pick(reactionRemoved.count))
        element.text = texts[pick(3)]
        if !array.contains(id: element.id) { array.insert(element, at: pick(count + 1)) }
      case 4:
        search.value = ["", "a", "b"][pick(3)]
      case 5:
        flatMode = pick(2)
        flat?.isIncluded = Self.flatPredicate(flatMode, search)
      case 6:
        flatOrderMode = pick(3)
        flat?.areInIncreasingOrder = Self.flatOrder(flatOrderMode)
      case 7:
        if pick(2) == 0 { flat?.reevaluate() } else { sectioned?.reevaluate() }
      default:
        // Numbered first: the insertion's observers may insert too.
        reactionID += 1
        array.insert(TestItem(reactionID, texts[pick(3)], on: pick(2) == 0), at: pick(count + 1))
      }
    }

    var subscriptions: [Subscription] = []
    subscriptions.append(array.observeChanges { _ in react("array observer before") })
    for id in 0..<4 {
      guard let cell = array.cell(for: id) else { continue }
      subscriptions.append(cell.observeChanges { _ in react("cell \(id)") })
      subscriptions.append(cell.detachment.observeChanges { _ in react("detachment \(id)") })
    }
    let flatQuery = array.query(
      where: Self.flatPredicate(flatMode, search), sortedBy: Self.flatOrder(flatOrderMode),
      reading: search)
    let sectionedQuery = array.query(
      where: { search.value.isEmpty || $0.text != search.value }, sortedBy: { $0.text < $1.text },
      sectionedBy: { $0.on ? 1 : 0 }, reading: search)
    flat = flatQuery
    sectioned = sectionedQuery

    // Recorders first, so that they see each change before any reaction
    // to it publishes the next.
    var flatContents = flatQuery.elements
    subscriptions.append(
      flatQuery.observeChanges { change in
        problems += Self.problems(change.changeSet, from: flatContents, to: change.newElements)
          .map { "step \(step), flat: \($0)" }
        flatContents = change.newElements
      })
    var headless = HeadlessSectionedList<Int, Int>(
      sections: sectionedQuery.sections.map { .init(key: $0.key, ids: $0.ids) })
    var shown: [Int: TestItem] = [:]
    for element in sectionedQuery.sections.flatMap(\.elements) { shown[element.id] = element }
    subscriptions.append(
      sectionedQuery.observeChanges { change in
        let sections = change.newSections
        var changed: Set<Int> = []
        var next: [Int: TestItem] = [:]
        for element in sections.flatMap(\.elements) {
          if let old = shown[element.id], old != element { changed.insert(element.id) }
          next[element.id] = element
        }
        shown = next
        let violations = headless.apply(
          change.batchUpdate, newSections: sections.map { .init(key: $0.key, ids: $0.ids) },
          changed: changed)
        problems += violations.map { "step \(step), sectioned: \($0)" }
      })
    subscriptions.append(flatQuery.observeChanges { _ in react("flat observer") })
    subscriptions.append(sectionedQuery.observeChanges { _ in react("sectioned observer") })
    let flatView = CheckedListView<TestItem>()
    let flatAdapter = ListAdapter(flatQuery, view: flatView)
    let sectionedView = CheckedSectionedListView<Int, TestItem>()
    let sectionedAdapter = SectionedListAdapter(sectionedQuery, view: sectionedView)
    subscriptions.append(array.observeChanges { _ in react("array observer after") })

    for current in 1...300 {
      step = current
      budget = 3
      // Reactions may have put back an id this list still holds.
      removed.removeAll { array.contains(id: $0.id) }
      switch roll(12) {
      case 0:
        search.value = ["", "a", "b", "c"][roll(4)]
      case 1:
        flatMode = roll(2)
        flatQuery.isIncluded = Self.flatPredicate(flatMode, search)
      case 2:
        flatOrderMode = roll(3)
        flatQuery.areInIncreasingOrder = Self.flatOrder(flatOrderMode)
      case 3:
        let isReady = roll(2) == 0
        flatView.isReady = isReady
        sectionedView.isReady = isReady
      default:
        QueryModel.mutate(array, &random, nextID: &nextID, removed: &removed)
      }
      if roll(4) == 0 {
        flatView.isReady = true
        sectionedView.isReady = true
      }
      flatAdapter.updateIfNeeded()
      sectionedAdapter.updateIfNeeded()

      let expectedFlat = QueryModel.evaluate(
        array.elements, where: Self.flatPredicate(flatMode, search),
        sortedBy: Self.flatOrder(flatOrderMode))
      if flatQuery.elements != expectedFlat {
        problems.append("step \(step): flat \(flatQuery.elements) != \(expectedFlat)")
      }
      if flatContents != expectedFlat { problems.append("step \(step): flat changes drifted") }
      let expectedSections = QueryModel.sections(
        array.elements, where: { search.value.isEmpty || $0.text != search.value },
        sortedBy: { $0.text < $1.text }, sectionedBy: { $0.on ? 1 : 0 }
      ).map { HeadlessSectionedList<Int, Int>.Section(key: $0.key, ids: $0.ids) }
      let sections = sectionedQuery.sections.map {
        HeadlessSectionedList<Int, Int>.Section(key: $0.key, ids: $0.ids)
      }
      if sections != expectedSections {
        problems.append("step \(step): sections \(sections) != \(expectedSections)")
      }
      if headless.sections != expectedSections {
        problems.append("step \(step): sectioned changes drifted")
      }
      if flatView.isReady && flatView.rows != expectedFlat.map(\.id) {
        problems.append("step \(step): the flat view drifted")
      }
      if sectionedView.isReady && sectionedView.sections != expectedSections {
        problems.append("step \(step): the sectioned view drifted")
      }
      problems += flatView.violations.map { "step \(step), flat view: \($0)" }
      problems += sectionedView.violations.map { "step \(step), sectioned view: \($0)" }
      if !problems.isEmpty { break }
    }
    #expect(problems == [], "seed \(seed)")
    withExtendedLifetime((subscriptions, flatAdapter, sectionedAdapter)) {}
  }

  // MARK: - One update whose row stays (the fast path)

  /// A query's changes, each checked to replay onto the rows before it.
  private final class Replay {
    var last: [TestItem]
    var changes: [ChangeSet<TestItem>] = []
    var problems: [String] = []

    @MainActor
    init(_ query: LiveQuery<TestItem>) {
      last = query.elements
    }

    @MainActor
    func take(_ changeSet: ChangeSet<TestItem>, now: [TestItem]) {
      changes.append(changeSet)
      problems += QueryEngineTests.problems(changeSet, from: last, to: now)
      last = now
    }
  }

  @Test func anEditThatKeepsItsRowIsOneUpdateAtThatRow() {
    let array = items(5)
    let query = array.query(sortedBy: { $0.text < $1.text })
    let replay = Replay(query)
    let subscription = query.observeChanges { replay.take($0.changeSet, now: query.elements) }
    array.cell(for: 2)?.value.on = true  // not a sort key: the row stays
    #expect(replay.changes.count == 1)
    #expect(replay.changes.first?.updates.map(\.newIndex) == [2])
    #expect(replay.changes.first?.updates.first?.oldElement == TestItem(2, "2"))
    #expect(replay.changes.first?.updates.first?.newElement == TestItem(2, "2", on: true))
    #expect(replay.changes.first?.moves.isEmpty == true)
    #expect(replay.problems == [])
    // A new sort key that keeps the row between the same neighbours.
    array.cell(for: 2)?.value.text = "2b"
    #expect(replay.changes.last?.updates.map(\.newIndex) == [2])
    #expect(replay.changes.last?.moves.isEmpty == true)
    #expect(replay.problems == [])
    #expect(query.elements.map(\.id) == [0, 1, 2, 3, 4])
    _ = subscription
  }

  @Test func anEditThatMovesItsRowIsAMoveWithItsUpdate() {
    let array = items(5)
    let query = array.query(sortedBy: { $0.text < $1.text })
    let replay = Replay(query)
    let subscription = query.observeChanges { replay.take($0.changeSet, now: query.elements) }
    array.cell(for: 1)?.value.text = "9"
    #expect(replay.changes.count == 1)
    #expect(replay.changes.first?.moves.count == 1)
    #expect(replay.changes.first?.updates.count == 1)
    #expect(replay.problems == [])
    #expect(query.elements.map(\.id) == [0, 2, 3, 4, 1])
    // And back, to the front.
    array.cell(for: 1)?.value.text = "0a"
    #expect(replay.problems == [])
    #expect(query.elements.map(\.id) == [0, 1, 2, 3, 4])
    _ = subscription
  }

  @Test func anEditOfAnElementTheQueryDoesNotShowIsAnInsertionOrNothing() {
    let array = items(5)
    let query = array.query(where: { $0.on }, sortedBy: { $0.text < $1.text })
    let replay = Replay(query)
    let subscription = query.observeChanges { replay.take($0.changeSet, now: query.elements) }
    array.cell(for: 3)?.value.text = "3b"  // still out
    #expect(replay.changes.isEmpty)
    array.cell(for: 3)?.value.on = true  // in
    #expect(replay.changes.count == 1)
    #expect(replay.changes.last?.insertions.map(\.index) == [0])
    array.cell(for: 3)?.value.text = "3c"  // stays in place
    #expect(replay.changes.last?.updates.map(\.newIndex) == [0])
    array.cell(for: 3)?.value.on = false  // out again
    #expect(replay.changes.last?.removals.map(\.index) == [0])
    #expect(replay.changes.count == 3)
    #expect(replay.problems == [])
    #expect(query.elements.isEmpty)
    _ = subscription
  }

  @Test func editsInPlaceDuringTheQuerysDeliveryAreFollowedOneByOne() {
    let array = items(6)
    let query = array.query(sortedBy: { $0.text < $1.text })
    let replay = Replay(query)
    var reacted = false
    let subscription = query.observeChanges { change in
      replay.take(change.changeSet, now: query.elements)
      guard !reacted else { return }
      reacted = true
      // During the delivery: one edit in place, one that moves its row.
      array.cell(for: 4)?.value.on = true
      array.cell(for: 0)?.value.text = "9"
    }
    // Before the query, an array observer edits in place as well: the
    // query is then behind its array when the first change reaches it.
    var early = false
    let earlier = array.observeChanges { _ in
      guard !early else { return }
      early = true
      array.cell(for: 5)?.value.on = true
    }
    array.cell(for: 2)?.value.on = true
    #expect(replay.problems == [])
    #expect(query.elements.map(\.id) == [1, 2, 3, 4, 5, 0])
    #expect(query.elements.filter(\.on).map(\.id) == [2, 4, 5])
    #expect(query.elements == array.elements.sorted { $0.text < $1.text })
    _ = (subscription, earlier)
  }

  @Test func aToggleOfADetachedCellLeavesTheQueryAlone() {
    let array = items(4)
    let query = array.query(sortedBy: { $0.text < $1.text })
    let replay = Replay(query)
    let subscription = query.observeChanges { replay.take($0.changeSet, now: query.elements) }
    let cell = array.cell(for: 2)!
    array.remove(id: 2)
    #expect(replay.changes.count == 1)
    let refused = Diagnostics.capturing { cell.value.on.toggle() }
    #expect(refused.count == 1, "a detached cell refuses the write")
    #expect(replay.changes.count == 1)
    #expect(replay.problems == [])
    #expect(query.elements.map(\.id) == [0, 1, 3])
    // The id comes back: the old cell still edits nothing.
    array.append(TestItem(2, "2"))
    let refusedAgain = Diagnostics.capturing { cell.value.text = "detached" }
    #expect(refusedAgain.count == 1)
    #expect(
      query.elements == [TestItem(0, "0"), TestItem(1, "1"), TestItem(2, "2"), TestItem(3, "3")])
    #expect(replay.problems == [])
    _ = subscription
  }
}

/// A value set after the closures that read it are made.
@MainActor
private final class Late<Value> {
  var value: Value?
}

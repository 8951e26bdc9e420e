import POMVVM

struct Row: Identifiable, Hashable {
  var id: Int
  var title: String
  var on: Bool
}

/// Article 002's to-do item: equal (and hashed) by id only.
struct ArticleItem: Hashable {
  let id: Int
  var title: String

  static func == (lhs: ArticleItem, rhs: ArticleItem) -> Bool { lhs.id == rhs.id }
  func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// Article 002's diff, as published: set inclusion, then `index(of:)` per
/// changed element.
///
/// It reports appends and removals only (no edits, no moves), and falls back
/// to reload otherwise.
enum ArticleBehavior {
  case add([Int])
  case remove([Int])
  case reload
}

@inline(never)
func articleDiff(original: [ArticleItem], now: [ArticleItem]) -> ArticleBehavior {
  let originalSet = Set(original)
  let nowSet = Set(now)
  if originalSet.isSubset(of: nowSet) {
    let added = nowSet.subtracting(originalSet)
    return .add(added.compactMap { now.firstIndex(of: $0) })
  } else if nowSet.isSubset(of: originalSet) {
    let removed = originalSet.subtracting(nowSet)
    return .remove(removed.compactMap { original.firstIndex(of: $0) })
  } else {
    return .reload
  }
}

/// The floor for a diff: one pass over both arrays comparing ids and values
/// from the front and from the back (a prefix/suffix trim).
@inline(never)
func plainPass(_ old: [Row], _ new: [Row]) -> Int {
  let shared = min(old.count, new.count)
  var prefix = 0
  var edits = 0
  while prefix < shared && old[prefix].id == new[prefix].id {
    if old[prefix] != new[prefix] { edits += 1 }
    prefix += 1
  }
  var oldEnd = old.count
  var newEnd = new.count
  while oldEnd > prefix && newEnd > prefix && old[oldEnd - 1].id == new[newEnd - 1].id {
    oldEnd -= 1
    newEnd -= 1
    if old[oldEnd] != new[newEnd] { edits += 1 }
  }
  return prefix &+ edits &+ oldEnd &+ newEnd
}

@MainActor
func runArrayBenchmarks(_ settings: Settings, _ report: inout Report) {
  let sink = Sink()

  // Toggle one field through an element cell, with a count and a list observer.
  func toggleCost(size: Int) -> Double {
    let array = ObservableArray((0..<size).map { Row(id: $0, title: "row \($0)", on: false) })
    let open = array.count(where: \.on)
    let list = array.observe { sink.total &+= $0.changeSet.count }
    let header = open.observeChanges { sink.total &+= $0 }
    guard let on = array.cell(for: size / 2, \.on) else { fatalError("no middle row") }
    let cost = measure(settings.iterations(200_000)) { n in
      for _ in 0..<n { on.value.toggle() }
    }
    precondition(open.recounts == 0, "the count was recomputed from scratch")
    blackHole((list, header, on))
    return cost
  }
  let toggleSmall = toggleCost(size: 100)
  let toggleLarge = toggleCost(size: 100_000)
  report.add("toggle via element cell, n = 100", toggleSmall, unit: "ns")
  report.add(
    "toggle via element cell, n = 100,000", toggleLarge, unit: "ns",
    ratios: [("n = 100", toggleSmall)])

  // Identity diff, n = 100,000, one element appended then removed again.
  let size = 100_000
  let rows = (0..<size).map { Row(id: $0, title: "row \($0)", on: $0 % 3 == 0) }
  let appended = rows + [Row(id: size, title: "new", on: false)]
  let array = ObservableArray(rows)
  let diffCost =
    measure(settings.iterations(200)) { n in
      for _ in 0..<n {
        array.replaceAll(with: appended)
        array.replaceAll(with: rows)
      }
    } / 2
  let passCost =
    measure(settings.iterations(200)) { n in
      for _ in 0..<n {
        sink.total &+= plainPass(rows, appended)
        sink.total &+= plainPass(appended, rows)
      }
    } / 2
  let articleRows = rows.map { ArticleItem(id: $0.id, title: $0.title) }
  let articleAppended = appended.map { ArticleItem(id: $0.id, title: $0.title) }
  let articleCost =
    measure(settings.iterations(10), repeats: 3) { n in
      for _ in 0..<n {
        blackHole(articleDiff(original: articleRows, now: articleAppended))
        blackHole(articleDiff(original: articleAppended, now: articleRows))
      }
    } / 2
  report.add("diff n = 100,000, one appended/removed: plain O(n) pass", passCost / 1e3, unit: "us")
  report.add(
    "diff n = 100,000, one appended/removed: POMVVM replaceAll", diffCost / 1e3, unit: "us",
    ratios: [("plain pass", passCost / 1e3), ("article 002", articleCost / 1e3)])
  report.add(
    "diff n = 100,000, one appended/removed: article 002", articleCost / 1e3, unit: "us")

  // Identity diff, n = 10,000 with 1,000 elements replaced by new ones.
  var random = SystemRandomNumberGenerator()
  let small = (0..<10_000).map { Row(id: $0, title: "row \($0)", on: false) }
  var replaced = small
  for (offset, index) in Array(small.indices).shuffled(using: &random).prefix(1_000).enumerated() {
    replaced[index] = Row(id: 1_000_000 + offset, title: "replacement", on: true)
  }
  let replacing = ObservableArray(small)
  let replaceCost =
    measure(settings.iterations(100)) { n in
      for _ in 0..<n {
        replacing.replaceAll(with: replaced)
        replacing.replaceAll(with: small)
      }
    } / 2
  let standardCost =
    measure(settings.iterations(4), repeats: 3) { n in
      for _ in 0..<n {
        blackHole(replaced.difference(from: small))
        blackHole(small.difference(from: replaced))
      }
    } / 2
  report.add(
    "diff n = 10,000, 1,000 replaced: POMVVM replaceAll", replaceCost / 1e3, unit: "us",
    ratios: [("difference(from:)", standardCost / 1e3)])
  report.add(
    "diff n = 10,000, 1,000 replaced: stdlib difference(from:)", standardCost / 1e3, unit: "us")
  blackHole(sink.total)
}

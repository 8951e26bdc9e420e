/// The random steps of the live query checks: every mutation of the array,
/// writes through element cells, and changes of the query's predicate and
/// order, drawn from a seeded generator.
@MainActor
struct QueryMutations<Element: Identifiable> {
  var random: SplitMix64
  let newElement: (Int) -> Element
  let edited: (Element, Int) -> Element
  var number = 0
  /// Why the check cannot go on, when `newElement` or `edited` misbehave.
  var misuse: String?

  init(
    seed: UInt64, newElement: @escaping (Int) -> Element,
    edited: @escaping (Element, Int) -> Element
  ) {
    random = SplitMix64(seed: seed)
    self.newElement = newElement
    self.edited = edited
  }

  /// A new element whose id is not in `ids`.
  mutating func fresh(avoiding ids: Set<Element.ID>) -> Element? {
    for _ in 0..<16 {
      let element = newElement(number)
      number += 1
      if !ids.contains(element.id) { return element }
    }
    misuse = "`newElement` keeps making elements whose ids are already in the array"
    return nil
  }

  /// An element edited in place, keeping its id.
  mutating func edit(_ element: Element) -> Element? {
    let result = edited(element, random.pick(1_000))
    guard result.id == element.id else {
      misuse = "`edited` changed the id of \(describe(element.id)) to \(describe(result.id))"
      return nil
    }
    return result
  }

  /// Draws one step on `array`, with `setPredicate` and `setOrder` to change
  /// the query: a label and the action.
  mutating func draw(
    _ array: ObservableArray<Element>, negatePredicate: @escaping @MainActor () -> Void,
    reverseOrder: @escaping @MainActor () -> Void, reevaluate: @escaping @MainActor () -> Void
  ) -> (label: String, action: @MainActor () -> Void)? {
    let contents = array.elements
    let count = contents.count
    let ids = Set(contents.map(\.id))
    switch random.pick(16) {
    case 0:
      guard let element = fresh(avoiding: ids) else { return nil }
      let index = random.pick(count + 1)
      return ("insert \(describe(element.id)) at \(index)", { array.insert(element, at: index) })
    case 1 where count > 0:
      let index = random.pick(count)
      return ("remove at \(index)", { array.remove(at: index) })
    case 2 where count > 1:
      let from = random.pick(count)
      let to = random.pick(count)
      return ("move \(from) to \(to)", { array.move(from: from, to: to) })
    case 3 where count > 0, 4 where count > 0, 5 where count > 0:
      // Writes through the element's cell: sort keys, filter results and
      // section keys change here.
      guard let element = edit(contents[random.pick(count)]) else { return nil }
      return (
        "write \(describe(element)) through its cell",
        { array.cell(for: element.id)?.value = element }
      )
    case 6 where count > 0:
      guard let element = edit(contents[random.pick(count)]) else { return nil }
      return ("update \(describe(element.id))", { _ = array.update(element) })
    case 7 where count > 0:
      // Remove an id and put it back, edited, elsewhere: two changes.
      let element = contents[random.pick(count)]
      guard let back = edit(element) else { return nil }
      let index = random.pick(count)
      return (
        "remove \(describe(element.id)) and re-insert it at \(index)",
        {
          _ = array.remove(id: element.id)
          array.insert(back, at: Swift.min(index, array.count))
        }
      )
    case 8:
      // A refresh: shuffled, some edited, some gone, one new.
      var next = contents
      next.shuffle(using: &random)
      for index in next.indices where random.pick(3) == 0 {
        guard let edited = edit(next[index]) else { return nil }
        next[index] = edited
      }
      if !next.isEmpty && random.pick(2) == 0 { next.remove(at: random.pick(next.count)) }
      if random.pick(2) == 0, let element = fresh(avoiding: ids) {
        next.insert(element, at: random.pick(next.count + 1))
      }
      return ("replaceAll with \(next.count) elements, shuffled", { array.replaceAll(with: next) })
    case 9:
      // A batch: edits, a move, a removal and a re-insertion of the same id.
      var next = contents
      for _ in 0..<(1 + random.pick(4)) where !next.isEmpty {
        let from = random.pick(next.count)
        var element = next.remove(at: from)
        if random.pick(2) == 0 {
          guard let edited = edit(element) else { return nil }
          element = edited
        }
        if random.pick(4) != 0 { next.insert(element, at: random.pick(next.count + 1)) }
      }
      if let element = fresh(avoiding: ids) {
        next.insert(element, at: random.pick(next.count + 1))
      }
      return ("a batch leaving \(next.count) elements", { array.batch { $0 = next } })
    case 10 where random.pick(3) == 0:
      return ("negate the predicate", negatePredicate)
    case 11 where random.pick(3) == 0:
      return ("reverse the order", reverseOrder)
    case 12 where random.pick(3) == 0:
      return ("evaluate every element again", reevaluate)
    case 13 where count > 20:
      return ("remove everything", { array.removeAll() })
    default:
      guard let element = fresh(avoiding: ids) else { return nil }
      return ("append \(describe(element.id))", { array.append(element) })
    }
  }
}

/// The elements of `array` that `isIncluded` keeps, in the order
/// `areInIncreasingOrder` gives, ties in the array's order: a query
/// evaluated from scratch.
func evaluateFromScratch<Element>(
  _ elements: [Element], isIncluded: (Element) -> Bool,
  areInIncreasingOrder: ((Element, Element) -> Bool)?
) -> [Element] {
  let kept = elements.enumerated().filter { isIncluded($0.element) }
  guard let areInIncreasingOrder else { return kept.map(\.element) }
  return kept.sorted { lhs, rhs in
    if areInIncreasingOrder(lhs.element, rhs.element) { return true }
    if areInIncreasingOrder(rhs.element, lhs.element) { return false }
    return lhs.offset < rhs.offset
  }.map(\.element)
}

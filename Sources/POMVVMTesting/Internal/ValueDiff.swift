#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Values as text, and the difference between two values as `-`/`+` lines,
/// in the style of swift-custom-dump, built on `Mirror` so that the kit
/// keeps no dependencies.
///
/// A difference shows only what differs: the fields of a struct, class or
/// tuple that changed (nested as deep as they go), the payload of an enum
/// case, the elements of a collection that were removed, inserted or
/// changed, with their indices, and for a long string a window around the
/// first difference with a caret under it. What did not change is counted,
/// `… (3 unchanged)`.
///
/// ```
///   Item(
/// -   on: false
/// +   on: true
///     … (3 unchanged)
///   )
/// ```
enum ValueDiff {
  /// `value` on one line: `Item(id: 1, text: "a", on: false)`, strings
  /// quoted and escaped, enum cases with a leading dot, dates in ISO 8601
  /// (`2009-02-13T23:31:30Z`).
  ///
  /// Values are rendered whole, at any depth: two values that differ
  /// anywhere render differently. (An object below the top is named by its
  /// type, `Node(…)`: it is a reference, and the recorder follows the view
  /// models and cells it may be by their own paths.)
  static func render(_ value: Any) -> String {
    render(value, depth: 0)
  }

  /// `value` on one line, as found `depth` levels down (an object below
  /// the top is named by its type).
  private static func render(_ value: Any, depth: Int) -> String {
    var text = ""
    // What is left to write, last first: a loop, not recursion, so that a
    // value nested thousands of levels deep (a long indirect list) cannot
    // exhaust the stack.
    var work: [Piece] = [.value(value, depth: depth)]
    while let piece = work.popLast() {
      switch piece {
      case .text(let string):
        text += string
      case .value(let value, let depth):
        text += expand(value, depth: depth, then: &work)
      }
    }
    return text
  }

  /// The difference between `old` and `new` as lines, each starting with
  /// `-` (only in `old`), `+` (only in `new`) or a space (context); `nil`
  /// when both render the same.
  static func diff(_ old: Any, _ new: Any) -> String? {
    guard render(old) != render(new) else { return nil }
    return lines(old, new, indent: 0, label: "").map(\.text).joined(separator: "\n")
  }

  /// How deep a difference is shown field by field; below, the two values
  /// that differ are shown whole, one `-` and one `+` line (the comparison
  /// itself has no limit).
  private static let nestingLimit = 100

  /// Strings this long or longer are shown as a window around their first
  /// difference.
  private static let longString = 60

  private struct Line {
    var mark: Character
    var indent: Int
    var body: String

    var text: String { "\(mark) " + String(repeating: "  ", count: indent) + body }
  }

  // MARK: - Rendering

  /// A piece of a rendering still to write.
  private enum Piece {
    case text(String)
    case value(Any, depth: Int)
  }

  /// What of `value` can be written now; the rest (its fields or elements,
  /// and what closes it) is pushed onto `work`.
  private static func expand(_ value: Any, depth: Int, then work: inout [Piece]) -> String {
    if let string = value as? String { return String(reflecting: string) }
    if let string = value as? Substring { return String(reflecting: String(string)) }
    if let character = value as? Character { return String(reflecting: character) }
    if let date = value as? Date { return iso8601(date) }
    let mirror = Mirror(reflecting: value)
    let children = Array(mirror.children)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = children.first else { return "nil" }
      work.append(.value(wrapped.value, depth: depth))
      return ""
    case .enum:
      guard let payload = children.first else { return caseName(of: value) }
      let fields = Mirror(reflecting: payload.value)
      if fields.displayStyle == .tuple {
        push(Array(fields.children), depth: depth + 1, close: ")", onto: &work)
      } else {
        work.append(.text(")"))
        work.append(.value(payload.value, depth: depth + 1))
      }
      return ".\(payload.label ?? "?")("
    case .tuple:
      push(children, depth: depth + 1, close: ")", onto: &work)
      return "("
    case .collection, .set:
      push(children, labelled: false, depth: depth + 1, close: "]", onto: &work)
      return "["
    case .dictionary:
      guard !children.isEmpty else { return "[:]" }
      // Sorted by their text, so that two equal dictionaries read the same.
      let pairs = children.map { child -> String in
        let pair = Array(Mirror(reflecting: child.value).children)
        guard pair.count == 2 else { return render(child.value, depth: depth + 1) }
        return render(pair[0].value, depth: depth + 1) + ": "
          + render(pair[1].value, depth: depth + 1)
      }
      return "[" + pairs.sorted().joined(separator: ", ") + "]"
    case .struct:
      if isLeaf(value, children) { return String(describing: value) }
      push(children, depth: depth + 1, close: ")", onto: &work)
      return typeName(of: value) + "("
    case .class:
      // An object is shown by its fields at the top only: below, it is a
      // reference (a view model's cells, a graph with cycles), named by type.
      if isLeaf(value, children) { return String(describing: value) }
      guard depth == 0 else { return typeName(of: value) + "(…)" }
      push(children, depth: depth + 1, close: ")", onto: &work)
      return typeName(of: value) + "("
    default:
      return String(describing: value)
    }
  }

  /// Pushes `children`, separated by commas and (unless `labelled` is
  /// false) named by their labels, then `close`, to be written in order.
  private static func push(
    _ children: [Mirror.Child], labelled: Bool = true, depth: Int, close: String,
    onto work: inout [Piece]
  ) {
    work.append(.text(close))
    for (index, child) in children.enumerated().reversed() {
      work.append(.value(child.value, depth: depth))
      if labelled, let label = child.label, !label.hasPrefix(".") {
        work.append(.text("\(label): "))
      }
      if index > 0 { work.append(.text(", ")) }
    }
  }

  /// A case without payload: its name after a dot, unless the enum
  /// describes itself.
  private static func caseName(of value: Any) -> String {
    value is CustomStringConvertible ? String(describing: value) : ".\(value)"
  }

  /// Whether a struct or class is shown by its description rather than by
  /// its fields: it has none, or only private ones and a description of its
  /// own (`Date`, `URL`).
  private static func isLeaf(_ value: Any, _ children: [Mirror.Child]) -> Bool {
    value is Date || children.isEmpty
      || (value is CustomStringConvertible
        && children.allSatisfy { $0.label?.hasPrefix("_") ?? true })
  }

  /// A date as a reader of a test failure expects it: ISO 8601 in UTC,
  /// `2009-02-13T23:31:30Z`, with the fraction of a second when there is
  /// one, to the microsecond (`2009-02-13T23:31:30.25Z`), so that two
  /// dates a moment apart do not read the same.
  ///
  /// `Date`'s own mirror shows `Date(timeIntervalSinceReferenceDate: …)`, a
  /// number nobody reads as a date.
  static func iso8601(_ date: Date) -> String {
    let interval = date.timeIntervalSinceReferenceDate
    guard interval.isFinite else { return "\(date)" }
    var seconds = interval.rounded(.down)
    var micros = Int(((interval - seconds) * 1_000_000).rounded())
    if micros == 1_000_000 {
      seconds += 1
      micros = 0
    }
    let whole = Date(timeIntervalSinceReferenceDate: seconds).formatted(.iso8601)
    guard micros > 0, whole.hasSuffix("Z") else { return whole }
    var fraction = String(micros)
    fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
    while fraction.hasSuffix("0") { fraction.removeLast() }
    return whole.dropLast() + "." + fraction + "Z"
  }

  private static func typeName(of value: Any) -> String {
    String(describing: type(of: value))
  }

  // MARK: - Differences

  private static func lines(_ old: Any, _ new: Any, indent: Int, label: String) -> [Line] {
    if let old = old as? String, let new = new as? String {
      return stringLines(old, new, indent: indent, label: label)
    }
    let oldMirror = Mirror(reflecting: old)
    let newMirror = Mirror(reflecting: new)
    let style = oldMirror.displayStyle
    let sameType = type(of: old) == type(of: new) && style == newMirror.displayStyle
    guard sameType, indent < nestingLimit else {
      return replaced(old, new, indent: indent, label: label)
    }
    let oldChildren = Array(oldMirror.children)
    let newChildren = Array(newMirror.children)
    switch style {
    case .optional where !oldChildren.isEmpty && !newChildren.isEmpty:
      return lines(oldChildren[0].value, newChildren[0].value, indent: indent, label: label)
    case .struct where !isLeaf(old, oldChildren), .class where !isLeaf(old, oldChildren),
      .tuple:
      guard oldChildren.map(\.label) == newChildren.map(\.label) else { break }
      let open = style == .tuple ? "(" : typeName(of: old) + "("
      return [Line(mark: " ", indent: indent, body: label + open)]
        + fieldLines(oldChildren, newChildren, indent: indent + 1)
        + [Line(mark: " ", indent: indent, body: ")")]
    case .enum:
      guard let oldPayload = oldChildren.first, let newPayload = newChildren.first,
        oldPayload.label == newPayload.label
      else { break }
      let open = label + ".\(oldPayload.label ?? "?")("
      let oldFields = Mirror(reflecting: oldPayload.value)
      let newFields = Mirror(reflecting: newPayload.value)
      let inner: [Line]
      if oldFields.displayStyle == .tuple, newFields.displayStyle == .tuple,
        oldFields.children.map(\.label) == newFields.children.map(\.label)
      {
        inner = fieldLines(
          Array(oldFields.children), Array(newFields.children), indent: indent + 1)
      } else {
        inner = lines(oldPayload.value, newPayload.value, indent: indent + 1, label: "")
      }
      return [Line(mark: " ", indent: indent, body: open)] + inner
        + [Line(mark: " ", indent: indent, body: ")")]
    case .collection:
      return [Line(mark: " ", indent: indent, body: label + "[")]
        + elementLines(oldChildren.map(\.value), newChildren.map(\.value), indent: indent + 1)
        + [Line(mark: " ", indent: indent, body: "]")]
    default:
      break
    }
    return replaced(old, new, indent: indent, label: label)
  }

  private static func replaced(_ old: Any, _ new: Any, indent: Int, label: String) -> [Line] {
    [
      Line(mark: "-", indent: indent, body: label + render(old)),
      Line(mark: "+", indent: indent, body: label + render(new)),
    ]
  }

  private static func unchanged(_ count: Int, indent: Int) -> [Line] {
    count == 0 ? [] : [Line(mark: " ", indent: indent, body: "… (\(count) unchanged)")]
  }

  /// The fields that differ, nested; the others counted.
  private static func fieldLines(
    _ old: [Mirror.Child], _ new: [Mirror.Child], indent: Int
  ) -> [Line] {
    var result: [Line] = []
    var same = 0
    for (index, (oldChild, newChild)) in zip(old, new).enumerated() {
      guard render(oldChild.value) != render(newChild.value) else {
        same += 1
        continue
      }
      let name = oldChild.label.flatMap { $0.hasPrefix(".") ? nil : $0 } ?? "\(index)"
      result += lines(oldChild.value, newChild.value, indent: indent, label: name + ": ")
    }
    return result + unchanged(same, indent: indent)
  }

  /// The elements removed, inserted or changed, with their indices; runs
  /// of equal elements counted.
  ///
  /// Elements are matched by a longest common subsequence of their
  /// renderings; a run of removals next to a run of insertions is shown as
  /// changes, element by element, nested.
  private static func elementLines(_ old: [Any], _ new: [Any], indent: Int) -> [Line] {
    let oldText = old.map(render)
    let newText = new.map(render)
    var result: [Line] = []
    var same = 0
    var removed: [Int] = []
    var inserted: [Int] = []
    func flushChanges() {
      let paired = min(removed.count, inserted.count)
      for (oldIndex, newIndex) in zip(removed.prefix(paired), inserted.prefix(paired)) {
        result += lines(old[oldIndex], new[newIndex], indent: indent, label: "[\(newIndex)]: ")
      }
      for oldIndex in removed.dropFirst(paired) {
        result.append(Line(mark: "-", indent: indent, body: "[\(oldIndex)]: " + oldText[oldIndex]))
      }
      for newIndex in inserted.dropFirst(paired) {
        result.append(Line(mark: "+", indent: indent, body: "[\(newIndex)]: " + newText[newIndex]))
      }
      removed.removeAll()
      inserted.removeAll()
    }
    for step in editScript(oldText, newText) {
      switch step {
      case .same:
        flushChanges()
        same += 1
      case .removed(let index):
        result += unchanged(same, indent: indent)
        same = 0
        removed.append(index)
      case .inserted(let index):
        result += unchanged(same, indent: indent)
        same = 0
        inserted.append(index)
      }
    }
    flushChanges()
    return result + unchanged(same, indent: indent)
  }

  private enum EditStep: Equatable {
    case same
    case removed(Int)
    case inserted(Int)
  }

  /// The steps from `old` to `new` along a longest common subsequence; past
  /// a size where that costs too much, position by position.
  private static func editScript(_ old: [String], _ new: [String]) -> [EditStep] {
    guard old.count * new.count <= 250_000 else {
      var steps: [EditStep] = []
      for index in 0..<max(old.count, new.count) {
        if index < old.count, index < new.count, old[index] == new[index] {
          steps.append(.same)
          continue
        }
        if index < old.count { steps.append(.removed(index)) }
        if index < new.count { steps.append(.inserted(index)) }
      }
      return steps
    }
    // lengths[i][j]: the longest common subsequence of old[i...] and new[j...].
    var lengths = Array(
      repeating: Array(repeating: 0, count: new.count + 1), count: old.count + 1)
    for i in stride(from: old.count - 1, through: 0, by: -1) {
      for j in stride(from: new.count - 1, through: 0, by: -1) {
        lengths[i][j] =
          old[i] == new[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
      }
    }
    var steps: [EditStep] = []
    var i = 0
    var j = 0
    while i < old.count || j < new.count {
      if i < old.count, j < new.count, old[i] == new[j] {
        steps.append(.same)
        i += 1
        j += 1
      } else if j < new.count, i == old.count || lengths[i][j + 1] >= lengths[i + 1][j] {
        steps.append(.inserted(j))
        j += 1
      } else {
        steps.append(.removed(i))
        i += 1
      }
    }
    return steps
  }

  /// Two strings: whole when short; when long, a window around the first
  /// difference, and a caret under it with its position.
  private static func stringLines(_ old: String, _ new: String, indent: Int, label: String)
    -> [Line]
  {
    guard max(old.count, new.count) >= longString || old.contains("\n") || new.contains("\n")
    else {
      return replaced(old, new, indent: indent, label: label)
    }
    let common = zip(old, new).prefix { $0 == $1 }.count
    let start = max(0, common - 20)
    func window(_ string: String) -> (text: String, caret: Int) {
      let characters = Array(string)
      let end = min(characters.count, common + 40)
      let before = String(characters[start..<min(common, characters.count)])
      let shown = String(characters[start..<end])
      let lead = start > 0 ? "…" : ""
      let tail = end < characters.count ? "…" : ""
      let text = "\"" + lead + escaped(shown) + tail + "\""
      return (text, 1 + lead.count + escaped(before).count)
    }
    let (oldText, caret) = window(old)
    let newText = window(new).text
    return [
      Line(mark: "-", indent: indent, body: label + oldText),
      Line(mark: "+", indent: indent, body: label + newText),
      Line(
        mark: " ", indent: indent,
        body: String(repeating: " ", count: label.count + caret)
          + "^ first difference, at character \(common + 1)"),
    ]
  }

  /// A string's contents as they appear between quotes in a literal.
  private static func escaped(_ string: String) -> String {
    String(String(reflecting: string).dropFirst().dropLast())
  }
}

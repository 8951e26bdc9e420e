/// State that appeared during a step — a pushed screen, a presented sheet,
/// a new row's view model, or a cell on its own — as a ``StateRecorder``
/// reports it: once, whole, with the value it has at the end of the step.
@MainActor
struct AddedState {
  /// The view model's identity, or the cell's, array's or stream's.
  var identity: ObjectIdentifier
  /// Its property path.
  var path: String
  /// The view model or cell itself, kept until the step that reports it
  /// has read its value.
  var object: AnyObject
  /// Whether it appeared between steps, after the previous step's action
  /// had returned.
  var isLate: Bool
  /// Whether it appeared before any step began.
  var isBeforeFirstStep: Bool

  /// Holds `object`, found at `path`; `identity` is a cell's, an array's or
  /// a stream's as the recorder follows it, or by default the object's.
  init(object: AnyObject, path: String, identity: ObjectIdentifier? = nil) {
    self.identity = identity ?? ObjectIdentifier(object)
    self.path = path
    self.object = object
    isLate = false
    isBeforeFirstStep = false
  }

  /// The path as failures name it, with the type of a view model:
  /// `path[1] (DetailViewModel)`.
  var name: String {
    guard BindingGraph._stateIdentity(of: object) == nil else { return path }
    return "\(path) (\(type(of: object)))"
  }
}

/// The whole value of a view model (or of one cell) as lines, one per piece
/// of state it holds, by the path below it: `title: "Draft"`, sorted.
///
/// A test compares two of them to compare a new view model with an expected
/// one, as TCA compares a pushed child's whole state. The lines hold every
/// cell, array and query found below the object, and every other stored
/// property of it and of the view models below it (a form's draft id, a
/// plain `var count`), each rendered whole, at any depth.
@MainActor
func stateLines(of object: AnyObject, isIgnored: ((String) -> Bool)? = nil) -> [String] {
  if BindingGraph._stateIdentity(of: object) != nil {
    return [recordedValue(of: object).map { ValueDiff.render($0) } ?? "(a stream of events)"]
  }
  let search = BindingGraph._stateSearch(in: [object], ignoring: isIgnored)
  var lines = search.states.map { found in
    found.path + ": "
      + (recordedValue(of: found.object).map { ValueDiff.render($0) } ?? "(a stream of events)")
  }
  for (holder, path) in [(object, nil)] + search.holders.map({ ($0.object, Optional($0.path)) }) {
    lines += plainPropertyLines(of: holder, at: path, isIgnored: isIgnored)
  }
  return lines.isEmpty ? ["(no state the recorder follows)"] : lines.sorted()
}

/// The stored properties of an app's view model that are not the kit's
/// state (which the search lists by path) nor objects (which are followed,
/// or listed as blind spots), each as `path: value`.
@MainActor
private func plainPropertyLines(
  of holder: AnyObject, at path: String?, isIgnored: ((String) -> Bool)?
) -> [String] {
  var lines: [String] = []
  var mirror: Mirror? = Mirror(reflecting: holder)
  while let current = mirror {
    defer { mirror = current.superclassMirror }
    // The kit's own classes (a state machine, a store) keep bookkeeping, not
    // app state, in their stored properties.
    let module = _typeName(current.subjectType, qualified: true).prefix { $0 != "." }
    guard module != "POMVVM", module != "POMVVMTesting" else { continue }
    for child in current.children {
      guard let label = child.label, let name = plainPropertyName(label) else { continue }
      let childPath = path.map { "\($0).\(name)" } ?? name
      if let isIgnored, isIgnored(childPath) { continue }
      if let object = unwrappedObject(child.value) {
        // The kit's cells, arrays and streams are listed by their own paths.
        if BindingGraph._stateIdentity(of: object) != nil { continue }
        lines.append("\(childPath): \(ValueDiff.render([object]).dropFirst().dropLast())")
        continue
      }
      lines.append("\(childPath): \(ValueDiff.render(child.value))")
    }
  }
  return lines
}

/// A stored property's name as a path names it (`_title` and a lazy
/// property's storage as `title`); `nil` for Observation's registrar.
private func plainPropertyName(_ label: String) -> String? {
  guard !label.hasPrefix("_$") else { return nil }
  var name = Substring(label)
  if name.hasPrefix("$__lazy_storage_$_") { name = name.dropFirst("$__lazy_storage_$_".count) }
  while name.hasPrefix("_") { name = name.dropFirst() }
  return name.isEmpty ? nil : String(name)
}

/// `value` as an object, through any optionals; `nil` for a value or `nil`.
private func unwrappedObject(_ value: Any) -> AnyObject? {
  var value = value
  while true {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { break }
    guard let wrapped = mirror.children.first else { return nil }
    value = wrapped.value
  }
  guard type(of: value) is AnyClass else { return nil }
  return value as AnyObject
}

/// A path that a ``StateRecorder`` ignores, with everything below it:
/// `cache`, `detail.form`, `rows[*].onTap` (`[*]` stands for any index or
/// key).
struct IgnoredPath {
  private let tokens: [Substring]

  init(_ pattern: String) {
    tokens = Self.tokens(of: pattern)
  }

  /// Whether `path` is the pattern's path or lies below it.
  func matches(_ path: String) -> Bool {
    let candidate = Self.tokens(of: path)
    guard candidate.count >= tokens.count else { return false }
    return zip(tokens, candidate).allSatisfy { pattern, token in
      pattern == token || (pattern == "[*]" && token.hasPrefix("["))
    }
  }

  /// `rows[2].on` as `rows`, `[2]`, `on`.
  static func tokens(of path: String) -> [Substring] {
    var tokens: [Substring] = []
    var start = path.startIndex
    var index = path.startIndex
    var depth = 0
    while index < path.endIndex {
      let character = path[index]
      if character == "[" {
        if depth == 0, start < index { tokens.append(path[start..<index]) }
        if depth == 0 { start = index }
        depth += 1
      } else if character == "]" {
        depth -= 1
        if depth == 0 {
          tokens.append(path[start...index])
          start = path.index(after: index)
        }
      } else if character == ".", depth == 0 {
        if start < index { tokens.append(path[start..<index]) }
        start = path.index(after: index)
      }
      index = path.index(after: index)
    }
    if start < path.endIndex { tokens.append(path[start...]) }
    return tokens
  }
}

/// Whether `path` lies strictly below `ancestor`: `path[1].title` below
/// `path[1]`, not below `path[10]`.
func isPath(_ path: String, below ancestor: String) -> Bool {
  guard path.count > ancestor.count, path.hasPrefix(ancestor) else { return false }
  let next = path[path.index(path.startIndex, offsetBy: ancestor.count)]
  return next == "." || next == "["
}

/// How a write tells a refusing cell who made it, in the `fileID` and
/// `line` that `set(_:fileID:line:)` takes, at no cost to a write that is
/// accepted: the marks are constants or a cell's address, and only a refusal
/// decodes them (``Diagnostics/report(_:fileID:line:)``).
///
/// - A write through a cell's `value` (or through `set(_:)` on a generic
///   cell) passes ``throughValue`` and the cell's address, ``line(of:)``: a
///   setter cannot know its caller, so the report names the cell.
/// - A binding's write passes the line that made the binding with
///   ``bindingFlag`` set.
/// - A location inside the kit is never named.
@usableFromInline
enum _Culprit {
  /// The `fileID` of a write through a cell's `value`; no `#fileID` has
  /// this form.
  @inlinable
  static var throughValue: StaticString { "<value of a POMVVM cell>" }

  /// The bit of `line` that marks a binding's write; no source file is
  /// that long.
  @inlinable
  static var bindingFlag: UInt { 1 << (UInt.bitWidth - 1) }

  /// The `line` of a write through `cell`'s `value`: its address.
  @inlinable
  static func line(of cell: AnyObject) -> UInt {
    UInt(bitPattern: ObjectIdentifier(cell))
  }

  /// The report of a message whose culprit `fileID` and `line` name.
  @MainActor
  static func report(_ message: String, fileID: StaticString, line: UInt) -> Diagnostics.Report {
    let file = "\(fileID)"
    if file == "\(throughValue)" {
      return cellReport(message, cell: liveList(at: line))
    }
    if line & bindingFlag != 0 {
      return Diagnostics.Report(message, fileID: file, line: line & ~bindingFlag, culprit: .binding)
    }
    if file.hasPrefix("POMVVM/") {
      // The kit's own line says nothing to the user (a call through a
      // protocol requirement without the location).
      return Diagnostics.Report(message, fileID: "", line: 0, culprit: .cell)
    }
    return Diagnostics.Report(message, fileID: file, line: line)
  }

  /// The live list at `address`, if one is there: the cell written is on
  /// the stack of the refused write, but a stray `line` must not be taken
  /// for an address.
  @MainActor
  private static func liveList(at address: UInt) -> _ObserverListBase? {
    _LiveLists.all.first { UInt(bitPattern: ObjectIdentifier($0)) == address }
  }

  /// The report of a refused write through `cell`'s `value`: the message
  /// names the cell, by its label or else its kind and type, and where it
  /// was made.
  @MainActor
  private static func cellReport(_ message: String, cell: _ObserverListBase?) -> Diagnostics.Report
  {
    guard let cell else {
      return Diagnostics.Report(message, fileID: "", line: 0, culprit: .cell)
    }
    var name = _Labels.label(of: cell).map(_visibleControls) ?? cell._typedKindName
    var fileID = ""
    var line: UInt = 0
    if cell._line != 0, let origin = cell._fileID {
      fileID = String(cString: origin)
      line = UInt(cell._line)
      name += " (made at \(fileID):\(line))"
    }
    let refused = "write refused: "
    let text =
      message.hasPrefix(refused)
      ? "\(name) refused a write: \(message.dropFirst(refused.count))" : "\(name): \(message)"
    return Diagnostics.Report(text, fileID: fileID, line: line, culprit: .cell)
  }
}

extension _ObserverListBase {
  /// The kind and the value type, as the graph writes them:
  /// `projection<String>`.
  var _typedKindName: String {
    _kind == .array ? _kindName : "\(_kindName)<\(_valueTypeName)>"
  }
}

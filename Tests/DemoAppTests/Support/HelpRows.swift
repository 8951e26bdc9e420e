/// The help line's entries for the undo and redo keys: `u undo: Rename`
/// and `U redo`, naming the step each would take where it has one.
func undoKeys(undo: String? = nil, redo: String? = nil) -> [String] {
  [undo.map { "u undo: \($0)" } ?? "u undo", redo.map { "U redo: \($0)" } ?? "U redo"]
}

/// The help line's rows on an 80-column terminal, as the expected screens
/// spell them: entries two spaces apart, wrapped between entries onto as
/// many rows as they need, joined by line feeds.
func helpRows(_ entries: [String], width: Int = 80) -> String {
  var rows: [String] = []
  var row = ""
  for entry in entries {
    let joined = row.isEmpty ? entry : row + "  " + entry
    if row.isEmpty || joined.count <= width {
      row = joined
    } else {
      rows.append(row)
      row = entry
    }
  }
  rows.append(row)
  return rows.joined(separator: "\n")
}

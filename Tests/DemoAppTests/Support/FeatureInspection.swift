import DemoApp
import Testing
import TextUI

extension DemoFeature {
  /// The feature's terminal body as text, with each line's style after a
  /// `|` when it has one, and the cursor, so that a whole screen compares at
  /// once.
  func renderedBody(width: Int, height: Int) -> String {
    let frame = body(size: TerminalSize(width: width, height: height))
    var lines = frame.lines.map { line in
      line.style.isEmpty ? line.text : "\(line.text) |\(Self.name(of: line.style))"
    }
    if let cursor = frame.cursor {
      lines.append("cursor at \(cursor.row),\(cursor.column)")
    }
    return lines.joined(separator: "\n")
  }

  /// Hands keys to the feature, each of which must keep it running.
  func press(_ keys: [Key], sourceLocation: SourceLocation = #_sourceLocation) {
    for key in keys {
      #expect(handle(key) == .continue, sourceLocation: sourceLocation)
    }
  }

  private static func name(of style: LineStyle) -> String {
    [
      (LineStyle.bold, "bold"), (.dim, "dim"), (.underline, "underline"), (.reverse, "reverse"),
      (.accent, "accent"),
    ]
    .filter { style.contains($0.0) }.map(\.1).joined(separator: ",")
  }
}

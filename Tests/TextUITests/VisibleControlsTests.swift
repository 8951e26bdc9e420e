import Testing
import TextUI

@Suite("Visible control characters")
struct VisibleControlsTests {
  @Test(arguments: [
    ("plain text", "plain text"),
    ("red\u{1B}[31m", "red\\u{1B}[31m"),
    ("a\rb\nc\td", "a\\u{0D}b\\u{0A}c\\u{09}d"),
    ("nul\u{0}end", "nul\\u{00}end"),
    ("del\u{7F} csi\u{9B}", "del\\u{7F} csi\\u{9B}"),
    ("é 漢 👍 e\u{301}", "é 漢 👍 e\u{301}"),
  ])
  func controlCharactersBecomeEscapes(text: String, shown: String) {
    #expect(text.withVisibleControlCharacters == shown)
    #expect(!shown.unicodeScalars.contains { $0.properties.generalCategory == .control })
  }
}

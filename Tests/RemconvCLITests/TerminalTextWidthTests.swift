import Testing

@testable import RemconvCLI

/// A view measures a title by its scalars when each is a grapheme cluster of its own (issue 26:
/// breaking a title with an emoji or in Japanese into `Character`s cost some 14,000
/// instructions). These tests hold that measure to the definition, the width counted per
/// cluster (`TerminalText.clusterWidth`), for every scalar it accepts, alone and beside others
/// that could join a cluster with it.
@Suite struct TerminalTextWidthTests {
  /// Scalars that join a cluster with what is before or after them, or start one: marks, the
  /// joiners and variation selectors, emoji modifiers, regional indicators, Hangul jamo, a
  /// prepended Arabic sign, a spacing mark, and plain neighbours.
  static let neighbours: [String] = [
    "a", "é", "\u{301}", "\u{200D}", "\u{200C}", "\u{FE0F}", "\u{FE0E}", "\u{1F3FB}", "\u{1F1E6}", "\u{1F1EB}",
    "\u{1100}", "\u{1161}", "\u{11A8}", "\u{0600}", "\u{0903}", "\u{3099}", "\u{20E3}", "日", "🌿", " ",
  ]

  static func widths(_ text: String) -> (measured: Int, clusters: Int) {
    (TerminalText.width(text), TerminalText.clusterWidth(text))
  }

  @Test func everyScalarMeasuredByScalarsAgreesWithItsClustersAloneAndBesideOthers() {
    // Every scalar up to the emoji blocks, one in seven of the big CJK and Hangul blocks.
    let values =
      Array(0x20...0x33FF) + Array(stride(from: 0x3400, through: 0xD7FF, by: 7))
      + Array(0xF900...0xFFFD) + Array(0x1F000...0x1FAFF) + Array(stride(from: 0x20000, through: 0x2A6DF, by: 97))
    var accepted = 0
    var disagreements: [String] = []
    for value in values {
      guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
      let text = String(Character(scalar))
      guard TerminalText.standaloneScalarsWidth(text) != nil else { continue }
      accepted += 1
      for sample in [text, text + text] + Self.neighbours.flatMap({ [text + $0, $0 + text] }) {
        let both = Self.widths(sample)
        if both.measured != both.clusters {
          disagreements.append(sample.unicodeScalars.map { "U+" + String($0.value, radix: 16) }.joined(separator: " "))
        }
      }
    }
    #expect(disagreements.isEmpty, "\(disagreements.prefix(20))")
    #expect(accepted > 10_000)
  }

  @Test func titlesOfManyScriptsAgree() {
    for title in [
      "Naïve report #0", "emoji 🌿 plants", "東京 Tōkyō", "Überweisung", "Счёт за газ", "Ελληνικά", "한국어 메모",
      "👍🏽 ok", "🇫🇷 trip", "👨‍👩‍👧 family", "1️⃣ first", "ｶﾞ half", "नमस्ते", "e\u{301}cole", "",
    ] {
      let both = Self.widths(title)
      #expect(both.measured == both.clusters, "\(title)")
    }
  }
}

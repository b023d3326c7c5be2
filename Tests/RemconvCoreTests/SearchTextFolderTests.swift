import Foundation
import Testing

@testable import RemconvCore

/// The search column's folding from tables gives exactly Foundation's folding of the NFC form,
/// which the search column held before (issue 26; `strasse` finds `Straße`): the rule that cuts
/// a text into pieces holds for every scalar, and whole texts of many scripts fold the same.
/// Folds are compared byte for byte (`instr` compares bytes), never as Swift strings, whose `==`
/// holds canonically equivalent texts equal.
@Suite struct SearchTextFolderTests {
  static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

  /// What comes before a piece, one of each way Foundation's composition or folding could reach
  /// across a cut: a capital Latin letter (folded, its marks dropped), a small one (unchanged,
  /// its marks dropped), Greek capital sigma, a half-width katakana (widened, the marks after it
  /// kept as they are), a Hangul leading jamo and a syllable (vowels and finals compose with
  /// them), Devanagari (its signs kept), an emoji, and a lone combining mark.
  static let contexts = ["A", "a", "Σ", "ｶ", "\u{1100}", "가", "क", "😀", "\u{301}"]

  /// For every assigned scalar of the planes that hold scripts, symbols and emoji (and every
  /// 97th of the ideograph planes), wherever the rule lets a piece start, Foundation folds
  /// what comes before it and the scalar apart: cutting there changes nothing.
  @Test func everyScalarThatStartsAPieceFoldsApartFromWhatPrecedesIt() {
    let contextFolds = Self.contexts.map(SearchTextFolder.foundationFold)
    var checked = 0
    var failures: [String] = []
    let ranges: [(ClosedRange<UInt32>, UInt32)] = [
      (0x80...0xFFFF, 1), (0x1_0000...0x1_FFFF, 1), (0x2_0000...0x3_FFFF, 97), (0xE_0000...0xE_FFFF, 1),
    ]
    for (range, step) in ranges {
      for value in stride(from: range.lowerBound, through: range.upperBound, by: Int(step)) {
        guard let scalar = Unicode.Scalar(value), scalar.properties.generalCategory != .unassigned,
          SearchTextFolder.startsPiece(scalar)
        else { continue }
        checked += 1
        let alone = SearchTextFolder.foundationFold(String(scalar))
        for (context, contextFold) in zip(Self.contexts, contextFolds)
        where Self.bytes(SearchTextFolder.foundationFold(context + String(scalar))) != Self.bytes(contextFold + alone) {
          failures.append("U+\(String(value, radix: 16, uppercase: true)) after \(context.unicodeScalars.map(\.value))")
        }
      }
    }
    #expect(checked > 80_000)
    #expect(failures.isEmpty, "\(failures.prefix(20))")
  }

  /// The marks, extenders, emoji modifiers and jamo the rule keeps with what precedes them do
  /// join it: after a capital Latin letter or a Hangul jamo, Foundation folds them differently
  /// than alone, so the rule is not merely cautious there.
  @Test func scalarsKeptWithWhatPrecedesThemDoJoinIt() {
    for (context, value) in [
      ("A", 0x301), ("A", 0x1F3FB), ("ｶ", 0xFF9E), ("\u{1100}", 0x1161), ("\u{1100}\u{1161}", 0x11A8), ("A", 0x20DD),
    ] as [(String, UInt32)] {
      let scalar = Unicode.Scalar(value)!
      #expect(!SearchTextFolder.startsPiece(scalar))
      #expect(
        Self.bytes(SearchTextFolder.foundationFold(context + String(scalar)))
          != Self.bytes(SearchTextFolder.foundationFold(context) + SearchTextFolder.foundationFold(String(scalar))))
    }
  }

  /// Pools of scalars a text is drawn from: Latin with its special cases (ß, ẞ, ŉ, ǅ, dotted and
  /// dotless i), combining marks and joiners, Greek (final sigma, ypogegrammeni), Cyrillic,
  /// Hebrew and Arabic with their points, Devanagari, Thai, Oriya and Malayalam (signs that
  /// compose), Hangul jamo and syllables, kana and full- and half-width forms, ligatures and
  /// compatibility letters, emoji with skin tones, ZWJ sequences, flags and tags, mathematical
  /// and Deseret letters.
  static let pools: [[UInt32]] = [
    Array(0x41...0x5A) + Array(0x61...0x7A) + [0x20, 0x2C, 0x2E, 0x0A, 0x1F],
    Array(0xC0...0x17F) + [0xDF, 0x1E9E, 0x130, 0x131, 0x149, 0x1C4, 0x1C5, 0x1C6, 0x1F0],
    Array(0x300...0x36F) + [0x345, 0x1AB0, 0x20D0, 0x20DD, 0x20E3, 0xFE0F, 0xFE0E, 0x200D, 0x200C, 0x3099, 0x309A],
    Array(0x391...0x3C9) + [0x3C2, 0x1F00, 0x1F80, 0x1FB3, 0x1FBC, 0x390, 0x3B0, 0x1FE3],
    Array(0x400...0x45F) + [0x4C1, 0x4D0, 0x4E6],
    Array(0x5B0...0x5EA) + Array(0x621...0x655) + [0xFB1D, 0xFB2A, 0xFE8D],
    Array(0x900...0x97F) + Array(0xE01...0xE5B) + Array(0xB01...0xB57) + Array(0xD02...0xD57),
    Array(0x1100...0x11FF) + Array(0xAC00...0xAC40) + [0xD7A3, 0xD7B0, 0xD7CB, 0x3131, 0x314F],
    Array(0x3041...0x30FF) + Array(0xFF01...0xFFEE) + Array(0x4E00...0x4E30),
    [0xFB00, 0xFB01, 0xFB02, 0xFB03, 0xFB04, 0xFB05, 0xFB06, 0xFB13, 0x2126, 0x212A, 0x212B, 0x2160, 0x2460, 0xB2]
      + [0x2122, 0x1D400, 0x1D7FF, 0x10400, 0x10428, 0x1E900, 0x1E922, 0x118A0],
    [0x1F600, 0x1F44D, 0x1F3FB, 0x1F3FC, 0x1F3FF, 0x1F468, 0x1F469, 0x1F467, 0x200D, 0x2764, 0xFE0F, 0x1F1EB]
      + [0x1F1F7, 0x1F3F4, 0xE0067, 0xE0062, 0xE0065, 0xE006E, 0xE007F, 0x1F9D1, 0x2695],
  ]

  /// SplitMix64: the same seed makes the same texts.
  struct Generator {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state &+= 0x9E37_79B9_7F4A_7C15
      var value = state
      value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
      value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
      return Int((value ^ (value >> 31)) % UInt64(bound))
    }
  }

  /// Random texts, mostly of one script with others mixed in, fold as Foundation folds them,
  /// alone, as a search query does, and as title and notes of the search column; the second
  /// time (from the tables) as the first.
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func randomTextsFoldAsFoundationFoldsThem(seed: UInt64) {
    var generator = Generator(state: seed)
    var failures: [String] = []
    for _ in 0..<5_000 {
      let main = generator.next(Self.pools.count)
      var scalars = String.UnicodeScalarView()
      for _ in 0..<generator.next(40) {
        let pool = generator.next(4) == 0 ? generator.next(Self.pools.count) : main
        scalars.append(Unicode.Scalar(Self.pools[pool][generator.next(Self.pools[pool].count)])!)
      }
      let text = String(scalars)
      let expected = Self.bytes(SearchTextFolder.foundationFold(text))
      if Self.bytes(ReminderIndexValues.fold(text)) != expected
        || Self.bytes(ReminderIndexValues.fold(text)) != expected
      {
        failures.append("\(text.unicodeScalars.map(\.value))")
      }
      let notes = String(text.reversed())
      if Self.bytes(ReminderIndexValues.searchText(title: text, notes: notes))
        != expected + [0x1F] + Self.bytes(SearchTextFolder.foundationFold(notes))
      {
        failures.append("title and notes \(text.unicodeScalars.map(\.value))")
      }
    }
    #expect(failures.isEmpty, "\(failures.prefix(10))")
  }

  /// The cases the search promises, and the edges of the tables: `strasse` finds `Straße`,
  /// final sigma, Turkish dotted I, ligatures, width, decomposed letters, a long run of marks
  /// (a piece too long to keep), and pieces that fold to nothing but themselves.
  @Test func knownCasesFoldAsFoundationFoldsThem() {
    let texts = [
      "Straße", "STRASSE", "ὈΔΥΣΣΕΎΣ", "ὀδυσσεύς", "İstanbul", "ıi", "ﬁﬂﬃ", "ＡＢＣ ｶﾞﾊﾟ", "Cafe\u{301}",
      "e"
        + String(
          repeating: "\u{301}\u{327}", count: 40), "가각\u{1100}\u{1161}\u{11A8}", "👨‍👩‍👧 🇫🇷 👍🏽 ❤️", "क्षि ที่", "ǅemal", "",
      "only ascii, no capitals",
    ]
    for text in texts {
      #expect(
        Self.bytes(ReminderIndexValues.fold(text)) == Self.bytes(SearchTextFolder.foundationFold(text)), "\(text)")
    }
    #expect(Self.bytes(ReminderIndexValues.fold("Straße")) == Self.bytes("strasse"))
    #expect(ReminderIndexValues.fold("Straße").contains(ReminderIndexValues.fold("strasse")))
  }
}

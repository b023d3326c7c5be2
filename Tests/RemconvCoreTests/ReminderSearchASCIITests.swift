import Testing

@testable import RemconvCore

/// A search compares printable ASCII text with a printable ASCII query by bytes, ignoring ASCII
/// case, instead of asking Foundation (issue 26: a search at 100k asked it twice a row). These
/// tests hold that comparison to Foundation's case-, diacritic- and width-insensitive search,
/// `ReminderSearch.foundationContains`, the definition it replaces on such text.
@Suite struct ReminderSearchASCIITests {
  /// Printable ASCII, tab and line feed: the text the comparison answers for.
  static let alphabet: [UInt8] = [0x09, 0x0A] + Array(0x20...0x7E)

  /// A fixed linear congruential generator: the same texts on every run.
  struct Sequence {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  @Test func everyPairOfCharactersAgreesWithFoundation() throws {
    let printable = Array(0x20...0x7E).map { String(UnicodeScalar(UInt8($0))) }
    for first in printable where first != " " {
      let search = try #require(ReminderSearch(first))
      for second in printable {
        for text in [first + second, second + first, second, "x" + second.uppercased() + first.uppercased()] {
          #expect(search.contains(text) == search.foundationContains(text), "\(first) in \(text)")
        }
      }
    }
  }

  @Test func randomTextsAgreeWithFoundation() throws {
    var sequence = Sequence(state: 26)
    func text(_ length: Int, from alphabet: [UInt8]) -> String {
      String(decoding: (0..<length).map { _ in alphabet[sequence.next(alphabet.count)] }, as: UTF8.self)
    }
    // Few letters, so that queries are found often; every other printable byte too.
    let narrow = Array("aAbB ^`~-_.\t\n".utf8)
    for round in 0..<3000 {
      let alphabet = round % 2 == 0 ? narrow : Self.alphabet
      let haystack = text(sequence.next(40), from: alphabet)
      let start = haystack.utf8.count > 0 ? sequence.next(haystack.utf8.count) : 0
      var needle = String(decoding: Array(haystack.utf8.dropFirst(start).prefix(1 + sequence.next(5))), as: UTF8.self)
      if round % 3 == 0 { needle = text(1 + sequence.next(4), from: alphabet) }
      if round % 5 == 0 { needle = needle.uppercased() }
      guard let search = ReminderSearch(needle) else { continue }
      #expect(search.contains(haystack) == search.foundationContains(haystack), "\(needle) in \(haystack)")
    }
  }

  @Test func otherTextIsLeftToFoundation() throws {
    let search = try #require(ReminderSearch("cafe"))
    #expect(ReminderSearch.asciiText("Cafe\u{301} au lait", contains: Array("cafe".utf8)) == nil)
    #expect(search.contains("Cafe\u{301} au lait"))
    #expect(ReminderSearch.asciiText("CAFE\r\n", contains: Array("cafe".utf8)) == nil)
    #expect(ReminderSearch.asciiText("my CAFE\tbar\n", contains: Array("cafe".utf8)) == true)
    #expect(ReminderSearch.asciiText("my CAF\nE", contains: Array("cafe".utf8)) == false)
    // A query that is not ASCII is always Foundation's.
    let wide = try #require(ReminderSearch("ＡＢＣ"))
    #expect(wide.contains("abc"))
  }
}

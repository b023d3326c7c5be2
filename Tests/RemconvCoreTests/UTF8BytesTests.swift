import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `UTF8Bytes.areValid` answers what making a `String` of the bytes answers.
@Suite struct UTF8BytesTests {
  @Test func randomBytesAreValidExactlyWhenTheyMakeTheSameText() {
    var random = SeededGenerator(seed: 3629)
    // Bytes drawn mostly from the edges of RFC 3629's ranges, so that every rule is met often.
    let edges: [UInt8] = [
      0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE,
      0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
    ]
    var valid = 0
    for _ in 0..<50_000 {
      let count = Int.random(in: 0...8, using: &random)
      let bytes = (0..<count).map { _ in
        Bool.random(using: &random) ? edges.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
      }
      let viaText = String(validUTF8: bytes) != nil
      #expect(bytes.withUnsafeBufferPointer(UTF8Bytes.areValid) == viaText, "\(bytes)")
      if viaText { valid += 1 }
    }
    #expect(valid > 5000)
  }

  @Test func theBoundariesOfEachRule() {
    let cases: [([UInt8], Bool)] = [
      ([], true), ([0x7F], true), ([0x80], false), ([0xC1, 0xBF], false), ([0xC2, 0x80], true),
      ([0xE0, 0x9F, 0x80], false), ([0xE0, 0xA0, 0x80], true), ([0xED, 0x9F, 0xBF], true),
      ([0xED, 0xA0, 0x80], false), ([0xF0, 0x8F, 0x80, 0x80], false), ([0xF0, 0x90, 0x80, 0x80], true),
      ([0xF4, 0x8F, 0xBF, 0xBF], true), ([0xF4, 0x90, 0x80, 0x80], false), ([0xF5, 0x80, 0x80, 0x80], false),
      ([0xE2, 0x82], false), ([0xE2, 0x82, 0xAC], true), ([0xE2, 0x82, 0x2C], false), (Array("Straße".utf8), true),
    ]
    for (bytes, expected) in cases {
      #expect(bytes.withUnsafeBufferPointer(UTF8Bytes.areValid) == expected, "\(bytes)")
      #expect((String(validUTF8: bytes) != nil) == expected, "\(bytes)")
    }
  }
}

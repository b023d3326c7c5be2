import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `Timestamp(iso:)` reads remconv's own form at fixed offsets (`scanWritten`) before the
/// general scan: the shortcut must give what the scan gives for every text it accepts.
@Suite struct TimestampParsingTests {
  @Test func theWrittenFormReadsAsTheGeneralScanReadsIt() {
    var random = SeededGenerator(seed: 3339)
    let pieces: [UInt8] = Array("0123456789-T:Z .+z".utf8)
    var accepted = 0
    for round in 0..<40_000 {
      // A written timestamp (some of impossible dates), then some of its bytes replaced.
      var text = Array(
        String(
          format: "%04d-%02d-%02dT%02d:%02d:%02dZ", Int.random(in: 0...9999, using: &random),
          Int.random(in: 0...13, using: &random), Int.random(in: 0...32, using: &random),
          Int.random(in: 0...25, using: &random), Int.random(in: 0...61, using: &random),
          Int.random(in: 0...61, using: &random)
        ).utf8)
      for _ in 0..<(round % 3) {
        text[Int.random(in: 0..<text.count, using: &random)] = pieces.randomElement(using: &random)!
      }
      if round % 7 == 0 { text.removeLast() }
      text.withUnsafeBufferPointer { bytes in
        let written = Timestamp.scanWritten(bytes)
        let scanned = DigitScanner.scanWhole(bytes, Timestamp.scan)
        #expect(written == nil || written == scanned, "\(String(decoding: bytes, as: UTF8.self))")
        if written != nil { accepted += 1 }
      }
    }
    #expect(accepted > 5000)
    // Every instant's own text takes the shortcut, when whole seconds.
    for seconds in stride(from: -62_135_596_800 as Int64, through: 253_402_300_799, by: 7_777_777) {
      let timestamp = Timestamp(millisecondsSinceEpoch: seconds * 1000)
      var text = timestamp.description
      #expect(text.withUTF8(Timestamp.scanWritten) == timestamp)
    }
  }
}

import Foundation
import Testing

@testable import RemconvCore

@Suite struct ICSContentLineTests {
  private func lines(_ bytes: [UInt8], log: DiagnosticLog = DiagnosticLog()) throws -> [ContentLine] {
    let reader = ContentLineReader(bytes: ByteReader(bytes: bytes, name: "t.ics"), file: "t.ics", diagnostics: log)
    var result: [ContentLine] = []
    while let line = try reader.next() { result.append(line) }
    return result
  }

  @Test func unfoldsWithEveryLineEndingAndKeepsTheStartLine() throws {
    for ending in ["\r\n", "\n", "\r"] {
      let text = ["BEGIN:VTODO", "SUMMARY:one", " two", "\tthree", "UID:x", "END:VTODO"].joined(separator: ending)
      let result = try lines(Array(text.utf8))
      #expect(result.map(\.text) == ["BEGIN:VTODO", "SUMMARY:onetwothree", "UID:x", "END:VTODO"])
      #expect(result.map(\.line) == [1, 2, 5, 6])
    }
  }

  @Test func namesAreUpperCasedTheSameWithOrWithoutTheTableOfKnownNames() throws {
    // Known names come from a table of literals, others are decoded: both upper-case ASCII
    // letters only, and a near miss (another length, a byte off) is not taken for a known one.
    let cases: [(String, String)] = [
      ("uid", "UID"), ("Related-To", "RELATED-TO"), ("percent-complete", "PERCENT-COMPLETE"),
      ("vtimezone", "VTIMEZONE"), ("x-lic-location", "X-LIC-LOCATION"), ("tzid", "TZID"),
      ("uidx", "UIDX"), ("ui", "UI"), ("uiD_", "UID_"), ("u1d", "U1D"), ("uíd", "UíD"),
      ("percent-completed", "PERCENT-COMPLETED"), ("x-remconv-flagged", "X-REMCONV-FLAGGED"), ("", ""),
      ("x-remconv-something-longer", "X-REMCONV-SOMETHING-LONGER"),
      ("UID\u{0}", "UID\u{0}"), ("Ä", "Ä"), ("a-z@[`{", "A-Z@[`{"),
    ]
    for (written, expected) in cases {
      let bytes = Array(written.utf8)
      #expect(bytes.withUnsafeBufferPointer(ContentLine.asciiUppercased) == expected, "\(written)")
    }
    func known(_ text: String) -> ICSName? { Array(text.utf8).withUnsafeBufferPointer(ICSName.init) }
    #expect(known("summary") == .summary)
    #expect(known("x-remconv-flagged") == .remconvFlagged)
    #expect(known("summarx") == nil)
    #expect(known("x-remconv-something-longer") == nil)
    for name in ICSName.allCases {
      #expect(known(name.rawValue.lowercased()) == name)
      #expect(known(name.rawValue + "S") == nil)
      #expect(ContentLine(text: name.rawValue.lowercased() + ":x", line: 1).known == name)
    }
    // Every byte value in every position of a name that spans all three words: only a
    // letter's two cases match.
    let name = Array("X-REMCONV-INVALID".utf8)
    for position in name.indices {
      for byte in UInt8.min...UInt8.max {
        var changed = name
        changed[position] = byte
        let isLetter = name[position] >= UInt8(ascii: "A") && name[position] <= UInt8(ascii: "Z")
        let sameName = byte == name[position] || (isLetter && byte == name[position] + 0x20)
        #expect(
          (changed.withUnsafeBufferPointer(ICSName.init) == .remconvInvalid) == sameName, "byte \(byte) at \(position)")
      }
    }
    // A non-ASCII name is never a known one, even where Unicode would upper-case it to one.
    #expect(ContentLine(text: "u\u{131}d:x", line: 1).known == nil)
    #expect(ContentLine(text: "u\u{131}d:x", line: 1).name == "U\u{131}D")
  }

  @Test func keepsTheRealSpaceAfterTheFoldSpace() throws {
    // tasks.org's fixtures: a fold inside "[ ]" leaves two spaces, the second one real.
    let result = try lines(Array("DESCRIPTION:[\n  ] Kite\n".utf8))
    #expect(result.map(\.text) == ["DESCRIPTION:[ ] Kite"])
  }

  @Test func unfoldsAFoldRightAfterThePropertyName() throws {
    let result = try lines(Array("UID\n :abc\nDUE\n ;VALUE=DATE:20260101\n".utf8))
    #expect(result.map(\.text) == ["UID:abc", "DUE;VALUE=DATE:20260101"])
    #expect(result[1].parts?.parameter("VALUE") == "DATE")
  }

  @Test func skipsBlankLinesAndAByteOrderMark() throws {
    let result = try lines([0xEF, 0xBB, 0xBF] + Array("BEGIN:VCALENDAR\r\n\r\nEND:VCALENDAR\r\n\r\n".utf8))
    #expect(result.map(\.text) == ["BEGIN:VCALENDAR", "END:VCALENDAR"])
    #expect(result.map(\.line) == [1, 3])
  }

  @Test func readsLatin1WithAWarning() throws {
    let log = DiagnosticLog()
    let result = try lines(Array("SUMMARY:K".utf8) + [0xF6, 0x6C, 0x6E] + Array("\nX:ab\n".utf8), log: log)
    #expect(result.map(\.text) == ["SUMMARY:Köln", "X:ab"])
    #expect(log.entries.map(\.code) == ["encoding"])
    #expect(log.entries.map(\.location?.line) == [1])
  }

  @Test func refusesANulByteNamingItsLineAndColumn() {
    do {
      _ = try lines(Array("SUMMARY:K\nX:a".utf8) + [0] + Array("b\n".utf8))
      Issue.record("a NUL byte was read as text")
    } catch {
      #expect("\(error)".contains("t.ics:2:4: a NUL byte"), "\(error)")
    }
  }

  @Test func splitsNameParametersAndValueRespectingQuotes() throws {
    let parts = try #require(
      ContentLineParts(
        #"attendee;ROLE=REQ-PARTICIPANT;DELEGATED-FROM="mailto:a@x.org","mailto:b@x.org";CN="Doe; John":mailto:c@x.org"#
      ))
    #expect(parts.name == "ATTENDEE")
    #expect(parts.parameters.map(\.name) == ["ROLE", "DELEGATED-FROM", "CN"])
    #expect(parts.parameters[1].values == ["mailto:a@x.org", "mailto:b@x.org"])
    #expect(parts.parameter("CN") == "Doe; John")
    #expect(parts.value == "mailto:c@x.org")
    #expect(
      parts.parameterText(excluding: ["ROLE"]) == #"DELEGATED-FROM="mailto:a@x.org","mailto:b@x.org";CN="Doe; John""#)
    #expect(ContentLineParts("NO COLON HERE") == nil)
    #expect(ContentLineParts(#"X;P="unclosed:value"#) == nil)
  }

  @Test func recognisesComponentBoundaries() {
    #expect(ContentLine(text: "begin:vtodo ", line: 1).boundary == .begin("VTODO"))
    #expect(ContentLine(text: "END:VCALENDAR", line: 1).boundary == .end("VCALENDAR"))
    #expect(ContentLine(text: "END;STANDARD", line: 1).boundary == nil)
    #expect(ContentLine(text: "BEGINNING:x", line: 1).boundary == nil)
    #expect(ContentLine(text: "DESCRIPTION:END:VTODO", line: 1).boundary == nil)
  }

  @Test func escapesAndUnescapesText() {
    let text = "a\\b; c, d\ne\r\nf"
    let escaped = ICSText.escape(text)
    #expect(escaped == #"a\\b\; c\, d\ne\nf"#)
    #expect(ICSText.unescape(escaped) == "a\\b; c, d\ne\nf")
    #expect(ICSText.unescape(#"Quarterly\: draft \N next \x"#) == "Quarterly: draft \n next \\x")
    #expect(ICSText.unescape("trailing\\") == "trailing\\")
  }

  @Test func splitsListsAtUnescapedCommas() {
    #expect(ICSText.splitList(#"Family,Gifts\, small,a\\,b"#) == ["Family", "Gifts, small", "a\\", "b"])
    #expect(ICSText.splitList("one") == ["one"])
  }

  // MARK: Folding

  private func folded(_ line: String) -> [UInt8] {
    var output: [UInt8] = []
    ICSText.appendFolded(line, to: &output)
    return output
  }

  /// The physical lines of folded output, each checked to end in CRLF.
  private func physicalLines(_ bytes: [UInt8]) -> [[UInt8]] {
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A {
        lines.append(current)
        current = []
        index += 2
      } else {
        current.append(bytes[index])
        index += 1
      }
    }
    #expect(current.isEmpty, "the output ends with CRLF")
    return lines
  }

  @Test func foldsASCIIAtExactly75Octets() {
    let line = "SUMMARY:" + String(repeating: "x", count: 200)
    let physical = physicalLines(folded(line))
    // 208 octets: 75, then a space and 74, then a space and the last 59.
    #expect(physical.map(\.count) == [75, 75, 60])
    #expect(physical.dropFirst().allSatisfy { $0.first == 0x20 })
    #expect(physicalLines(folded(String(repeating: "y", count: 75))).map(\.count) == [75])
    #expect(physicalLines(folded(String(repeating: "y", count: 76))).map(\.count) == [75, 2])
    #expect(folded("") == [0x0D, 0x0A])
  }

  @Test func neverSplitsAUTF8Sequence() throws {
    for filler in ["é", "€", "🌿", "a€"] {
      for prefixLength in 0..<4 {
        let line = "SUMMARY:" + String(repeating: "a", count: prefixLength) + String(repeating: filler, count: 60)
        let bytes = folded(line)
        let physical = physicalLines(bytes)
        for (index, piece) in physical.enumerated() {
          #expect(piece.count <= 75, "line \(index) has \(piece.count) octets")
          let content = index == 0 ? piece[...] : piece.dropFirst()
          #expect(String(validating: Array(content), as: UTF8.self) != nil, "line \(index) splits a character")
        }
        let unfolded = try #require(
          try ContentLineReader(
            bytes: ByteReader(bytes: bytes, name: "t"), file: "t", diagnostics: nil
          ).next())
        #expect(unfolded.text == line)
      }
    }
  }
}

import Foundation
import RemconvTestSupport
import Testing
@testable import RemconvCore

/// `LibICalAcceptance` lets the reader skip libical's parse of a VTODO; it must never accept a
/// component in which libical finds something to report. Checked against libical itself on
/// every VTODO of the fixtures, the samples and the shared corpus, and on variations of every
/// line of remconv's own output and of hand-made components.
@Suite struct LibICalAcceptanceTests {
  /// The VTODOs of an iCalendar file; none for a file whose structure is broken.
  private func todos(in path: String) -> [ComponentBlock] {
    guard let bytes = FileManager.default.contents(atPath: path) else { return [] }
    let cutter = ComponentCutter(
      lines: ContentLineReader(bytes: ByteReader(bytes: Array(bytes), name: path), file: path, diagnostics: nil),
      file: path, keeping: ["VTODO"])
    var blocks: [ComponentBlock] = []
    do {
      while let event = try cutter.next() {
        if case .component(let block, _) = event, block.name == "VTODO" { blocks.append(block) }
      }
    } catch {
      return []
    }
    return blocks
  }

  private func block(_ lines: [String]) -> ComponentBlock {
    ComponentBlock(name: "VTODO", lines: lines.enumerated().map { ContentLine(text: $1, line: $0 + 1) }, startLine: 1)
  }

  /// Records an issue when the block is accepted but libical reports a problem in it.
  private func expectAgreement(_ block: ComponentBlock, _ origin: String) {
    guard LibICalAcceptance.accepts(block) else { return }
    let problems = LibICal.problems(inComponent: block.text)
    #expect(problems == [], "\(origin): accepted, but libical reports \(problems.map { $0.map(\.message) } ?? ["no component"])")
  }

  private var files: [String] {
    var paths: [String] = []
    for root in [Repository.path("Tests"), Repository.path("Samples")] + [ICSTest.corpusFolder].compactMap({ $0 }) {
      guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
      while let name = walker.nextObject() as? String {
        if name.hasSuffix(".ics") { paths.append(root + "/" + name) }
      }
    }
    return paths.sorted()
  }

  @Test func agreesWithLibICalOnEveryFixtureSampleAndCorpusFile() {
    var accepted = 0
    var seen = 0
    for path in files {
      for todo in todos(in: path) {
        seen += 1
        if LibICalAcceptance.accepts(todo) { accepted += 1 }
        expectAgreement(todo, path + ":\(todo.startLine)")
      }
    }
    #expect(seen > 50)
    // The fast path is taken for the common shapes, not only for none.
    #expect(accepted > seen / 4)
  }

  /// A VTODO with every kind of line the fast path accepts, as remconv writes them.
  static let typical = [
    "BEGIN:VTODO", "UID:bench-1@remconv.example", "DTSTAMP:20261129T120000Z", "CREATED:20260210T084000Z",
    "LAST-MODIFIED:20260210T090100Z", "SUMMARY:Café forecast\\, then \"call\"", "DESCRIPTION:Line one\\nLine two\\; ok\ttabbed",
    "STATUS:NEEDS-ACTION", "PRIORITY:9", "PERCENT-COMPLETE:40", "DUE;TZID=America/Los_Angeles:20270210T180000",
    "DTSTART;VALUE=DATE:20270201", "COMPLETED:20270101T000000Z", "CATEGORIES:milk,batch 0", "URL:https://example.com/a?b=1&c=2",
    "RELATED-TO;RELTYPE=PARENT:bench-0@remconv.example", "X-REMCONV-FLAGGED:TRUE", "RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE;UNTIL=20271231T000000Z",
    "BEGIN:VALARM", "ACTION:DISPLAY", "DESCRIPTION:Reminder", "TRIGGER;RELATED=END:-P1DT2H15M", "X-WR-ALARMUID:abc", "END:VALARM",
    "END:VTODO",
  ]

  @Test func acceptsTheCommonShapes() {
    let typical = block(Self.typical)
    #expect(LibICalAcceptance.accepts(typical))
    #expect(LibICal.problems(inComponent: typical.text) == [])
  }

  /// Each line of the typical VTODO changed in the ways producers get them wrong, and in ways
  /// that are right but unusual: whatever the fast path accepts, libical must accept too.
  @Test func agreesWithLibICalOnVariationsOfEveryLine() {
    let edits: [(String) -> String] = [
      { $0.lowercased() },
      { $0.replacingOccurrences(of: ":", with: ";X-P=1:") },
      { $0.replacingOccurrences(of: ":", with: ";VALUE=TEXT:") },
      { $0.replacingOccurrences(of: ":", with: ";VALUE=DATE-TIME:") },
      { String($0.prefix { $0 != ":" }) + ":" },
      { $0 + "\\" },
      { $0 + "\\q" },
      { $0 + "\u{01}" },
      { $0.replacingOccurrences(of: "20", with: "2x") },
      { $0.replacingOccurrences(of: "0210", with: "1310") },
      { $0.replacingOccurrences(of: "0210", with: "0231") },
      { $0.replacingOccurrences(of: "T18", with: "T25") },
      { $0.replacingOccurrences(of: "Z", with: "") },
      { $0.replacingOccurrences(of: "T", with: "") },
      { $0 + "Z" },
      { $0.replacingOccurrences(of: "WEEKLY", with: "FORTNIGHTLY") },
      { $0.replacingOccurrences(of: "MO,WE", with: "1MO") },
      { $0.replacingOccurrences(of: "INTERVAL=2", with: "INTERVAL=0") },
      { $0.replacingOccurrences(of: "INTERVAL=2", with: "COUNT=3") },
      { $0.replacingOccurrences(of: "UNTIL=20271231T000000Z", with: "BYMONTHDAY=31,-1") },
      { $0.replacingOccurrences(of: "UNTIL=20271231T000000Z", with: "BYMONTH=13") },
      { $0.replacingOccurrences(of: "UNTIL=20271231T000000Z", with: "WKST=SU;BYMONTH=12") },
      { $0.replacingOccurrences(of: "-P1DT2H15M", with: "PT") },
      { $0.replacingOccurrences(of: "-P1DT2H15M", with: "P1W2D") },
      { $0.replacingOccurrences(of: "-P1DT2H15M", with: "+PT15M") },
      { $0.replacingOccurrences(of: "-P1DT2H15M", with: "-PT15S5M") },
      { $0.replacingOccurrences(of: "RELATED=END", with: "RELATED=LATER") },
      { $0.replacingOccurrences(of: "RELTYPE=PARENT", with: "RELTYPE=CHILD") },
      { $0.replacingOccurrences(of: "RELTYPE=PARENT", with: "RELTYPE=NEPHEW") },
      { $0.replacingOccurrences(of: "NEEDS-ACTION", with: "DONE") },
      { $0.replacingOccurrences(of: "NEEDS-ACTION", with: "IN-PROCESS") },
      { $0.replacingOccurrences(of: "PRIORITY:9", with: "PRIORITY:10") },
      { $0.replacingOccurrences(of: "PERCENT-COMPLETE:40", with: "PERCENT-COMPLETE:101") },
      { $0.replacingOccurrences(of: "America/Los_Angeles", with: "W. Europe Standard Time") },
      { $0.replacingOccurrences(of: "America/Los_Angeles", with: "\"America/Los_Angeles\"") },
      { $0.replacingOccurrences(of: "X-REMCONV", with: "X-LIC") },
      { $0.replacingOccurrences(of: "X-REMCONV-FLAGGED", with: "X-") },
      { $0.replacingOccurrences(of: "ACTION:DISPLAY", with: "ACTION:EMAIL") },
      { $0.replacingOccurrences(of: "SUMMARY", with: "SUMMARY;LANGUAGE=de") },
      { $0.replacingOccurrences(of: "URL:https", with: "URL: https") },
    ]
    var rejected = 0
    for index in Self.typical.indices {
      for edit in edits {
        var lines = Self.typical
        lines[index] = edit(lines[index])
        let variant = block(lines)
        if !LibICalAcceptance.accepts(variant) { rejected += 1 }
        expectAgreement(variant, lines[index])
      }
    }
    #expect(rejected > Self.typical.count * 5)
    // Structure: a stray sub-component, a VALARM left open, a nested VALARM.
    for lines in [
      Array(Self.typical.dropLast()) + ["BEGIN:X-THING", "END:X-THING", "END:VTODO"],
      Self.typical.filter { $0 != "END:VALARM" },
      Self.typical.map { $0 == "ACTION:DISPLAY" ? "BEGIN:VALARM" : $0 },
    ] {
      #expect(!LibICalAcceptance.accepts(block(lines)))
    }
  }
}

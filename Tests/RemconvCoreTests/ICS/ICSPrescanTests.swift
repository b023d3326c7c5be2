import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The pre-scan: what the reading pass needs from further on in the file arrives before the
/// first record, and its quick reading (`ICSSkim`) leaves exactly what the cutter's leaves.
@Suite struct ICSPrescanTests {
  /// What a pre-scan left: its digest or its error, the zones and the links it added.
  struct Outcome: Equatable, CustomStringConvertible {
    var result: String
    var zones: [String]
    var links: [String]

    var description: String { ([result] + zones + links).joined(separator: "\n") }
  }

  static func session() -> ICSReadSession {
    ICSReadSession(
      file: "t.ics", diagnostics: DiagnosticLog(), options: ReaderOptions(), links: ChildLinks(),
      derivedIDs: DerivedIDGenerator())
  }

  static func outcome(
    _ bytes: [UInt8], _ scan: (ByteReader, ICSReadSession) throws(RemconvError) -> String
  ) -> Outcome {
    let session = session()
    let result: String
    do {
      result = try scan(ByteReader(bytes: bytes, name: "t.ics"), session)
    } catch {
      result = "error: \(error)"
    }
    let zones = session.zones.blocks.sorted { $0.key < $1.key }.map { tzid, block in
      "\(tzid)@\(block.startLine): " + block.lines.map { "\($0.line) \($0.text)" }.joined(separator: " | ")
    }
    let links = session.links.parentsByChild.keys.sorted().map { child in
      let link = session.links.parent(of: child)
      return "\(child) <- \(link?.parent ?? "") @\(link?.location.line ?? 0)"
    }
    return Outcome(result: result, zones: zones, links: links)
  }

  /// The pre-scan as the reader runs it, and through the cutter alone.
  static func both(_ bytes: [UInt8]) -> (scan: Outcome, cutter: Outcome) {
    (outcome(bytes, ICSPrescan.scan), outcome(bytes, ICSPrescan.scanByCutting))
  }

  /// Whether the skim reads the input without leaving it to the cutter.
  static func skims(_ bytes: [UInt8]) throws -> Bool {
    var skim = ICSSkim(bytes: ByteReader(bytes: bytes, name: "t.ics"), session: session())
    return try skim.run() != nil
  }

  static func zone(_ tzid: String, offset: String, frequency: String = "YEARLY") -> [String] {
    [
      "BEGIN:VTIMEZONE", "TZID:\(tzid)", "BEGIN:STANDARD", "DTSTART:16010101T000000",
      "RRULE:FREQ=\(frequency);BYMONTH=1;BYMONTHDAY=1", "TZOFFSETFROM:\(offset)", "TZOFFSETTO:\(offset)",
      "END:STANDARD",
      "END:VTIMEZONE",
    ]
  }

  static func todo(_ uid: String, due: String? = nil, lines: [String] = []) -> [String] {
    ["BEGIN:VTODO", "UID:\(uid)", "SUMMARY:\(uid)"] + (due.map { ["DUE;\($0)"] } ?? []) + lines + ["END:VTODO"]
  }

  static func calendar(_ name: String, _ body: [String]) -> [String] {
    ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//test//EN", "X-WR-CALNAME:\(name)"] + body + ["END:VCALENDAR"]
  }

  static func text(_ lines: [String], ending: String = "\r\n") -> String {
    lines.joined(separator: ending) + ending
  }

  /// Three calendars, each with zones of its own: the first uses a zone only the second
  /// defines (after it), the second redefines a TZID of the first, the third repeats zones of
  /// both byte for byte, and a parent names a child read before it.
  static let threeCalendars = text(
    calendar(
      "Home",
      todo("early", due: "TZID=Office:20260301T100000") + todo("child", due: "TZID=Shared:20260301T100000")
        + zone("Shared", offset: "+0100")
        + todo("parent", lines: ["RELATED-TO;RELTYPE=CHILD:child", "RELATED-TO;RELTYPE=CHILD:elsewhere"]))
      + calendar(
        "Work",
        zone("Shared", offset: "+0300") + zone("Office", offset: "+0500")
          + todo("late", due: "TZID=Shared:20260301T100000"))
      + calendar("Again", zone("Office", offset: "+0500") + zone("Shared", offset: "+0100") + todo("again")))

  // MARK: What arrives before the first record

  @Test func aZoneAfterTheVTodosThatUseItConvertsTheirTimes() throws {
    let result = try ICSTest.read(text: Self.threeCalendars)
    // Office is +05:00, defined in the second calendar only, after the VTODO that uses it.
    #expect(result.reminder("early")?.dueDate?.description == "2026-03-01T05:00:00Z")
    #expect(result.reminder("child")?.dueDate?.description == "2026-03-01T09:00:00Z")
  }

  @Test func theFirstZoneOfATZIDServesEveryCalendarOfTheFile() throws {
    let result = try ICSTest.read(text: Self.threeCalendars)
    // The second calendar's own Shared (+03:00) comes after the first's (+01:00): the first wins.
    #expect(result.reminder("late")?.dueDate?.description == "2026-03-01T09:00:00Z")
    #expect(result.lists.map(\.name) == ["Home", "Work", "Again"])
  }

  @Test func aChildBeforeItsParentFindsIt() throws {
    let result = try ICSTest.read(text: Self.threeCalendars)
    #expect(result.reminder("child")?.parentID == "parent")
    #expect(result.warnings("missing-child").map(\.location?.line) == [28])
  }

  @Test func aZoneDefinedTwiceDifferentlyKeepsTheFirstAndStillChecksTheSecond() throws {
    let kept = Self.text(
      Self.calendar(
        "A",
        Self.todo("a", due: "TZID=Twice:20260301T100000") + Self.zone("Twice", offset: "+0200")
          + Self.zone("Twice", offset: "-0700")))
    #expect(try ICSTest.read(text: kept).reminder("a")?.dueDate?.description == "2026-03-01T08:00:00Z")
    // The second, refused as no time zone, though the first of its TZID was kept: before any record.
    let refused = Self.text(
      Self.calendar(
        "A",
        Self.todo("a") + Self.zone("Twice", offset: "+0200")
          + Self.zone("Twice", offset: "+0200", frequency: "SECONDLY")
      ))
    let log = DiagnosticLog()
    do {
      _ = try ICSReader(
        context: ReaderContext(
          source: .standardInput, diagnostics: log, options: ReaderOptions(),
          preopened: ByteReader(bytes: Array(refused.utf8), name: "<stdin>")))
      Issue.record("read")
    } catch RemconvError.malformedInput(let message, let location, _) {
      #expect(message.contains("VTIMEZONE 'Twice': RRULE FREQ=SECONDLY"))
      #expect(location.line == 18)
    }
    #expect(log.entries.isEmpty)
  }

  @Test func theDigestOfEveryRecordCoversAZoneAfterIt() {
    let lines = Self.calendar("A", Self.todo("a") + Self.zone("Late", offset: "+0100"))
    let changed = Self.calendar("A", Self.todo("a") + Self.zone("Late", offset: "+0200"))
    let first = Self.both(Array(Self.text(lines).utf8))
    let second = Self.both(Array(Self.text(changed).utf8))
    #expect(first.scan == first.cutter)
    #expect(second.scan == second.cutter)
    #expect(first.scan.result != second.scan.result)
  }

  @Test func aTruncatedFileIsRefusedBeforeAnyRecordWhereverItEnds() throws {
    let text = Self.threeCalendars
    let whole = Array(text.utf8)
    #expect(try Self.skims(whole))
    // Cut inside the last calendar, the input is broken wherever the cut falls.
    let second = try #require(text.range(of: "BEGIN:VCALENDAR", options: .backwards)).lowerBound
    let last = try #require(text.range(of: "END:VCALENDAR", options: .backwards)).upperBound
    let broken =
      text.utf8.distance(from: text.startIndex, to: second)
      + 1..<text.utf8.distance(
        from: text.startIndex, to: last)
    for length in 0..<whole.count {
      let (scan, cutter) = Self.both(Array(whole[..<length]))
      #expect(scan == cutter, "cut at \(length)")
      if broken.contains(length) { #expect(scan.result.hasPrefix("error: "), "cut at \(length)") }
    }
  }

  // MARK: The skim leaves what the cutter leaves

  /// Spellings the skim reads itself, and inputs it leaves to the cutter; both give the same.
  static let spellings: [(name: String, text: String, skims: Bool)] = {
    let plain = Self.threeCalendars
    let third = plain.range(of: "BEGIN:VCALENDAR", options: .backwards)!.lowerBound
    let lineFeedsBeforeTheThirdCalendar =
      plain[..<third].replacingOccurrences(of: "\r\n", with: "\n") + plain[third...]
    return [
      ("three calendars, CRLF", plain, true),
      ("three calendars, LF", plain.replacingOccurrences(of: "\r\n", with: "\n"), true),
      ("three calendars, CR", plain.replacingOccurrences(of: "\r\n", with: "\r"), true),
      ("a byte order mark", "\u{FEFF}" + plain, true),
      (
        "blank lines between components", plain.replacingOccurrences(of: "END:VTODO\r\n", with: "END:VTODO\r\n\r\n"),
        true
      ),
      (
        "lower case and folded names",
        plain.replacingOccurrences(of: "BEGIN:VTIMEZONE", with: "begin:vtime\r\n zone")
          .replacingOccurrences(of: "RELATED-TO;RELTYPE=CHILD:child", with: "R\r\n ELATED-TO;reltype=child:ch\r\n\tild")
          .replacingOccurrences(of: "UID:parent", with: "uid:par\r\n ent"),
        true
      ),
      ("a UID with an escape and non-ASCII", plain.replacingOccurrences(of: "parent", with: "pär\\,ent"), true),
      ("a zone's line in UTF-8", plain.replacingOccurrences(of: "TZID:Office", with: "TZID:Büro"), true),
      (
        "a repeated zone whose END line is continued",
        plain.replacingOccurrences(
          of: "END:VTIMEZONE\r\nBEGIN:VTODO\r\nUID:again", with: "END:VTIMEZONE\r\n X\r\nBEGIN:VTODO\r\nUID:again"),
        false
      ),
      (
        "a repeated zone after a blank line, its BEGIN in lower case",
        plain.replacingOccurrences(of: "Again\r\nBEGIN:VTIMEZONE", with: "Again\r\n\r\nbegin:VTIMEZONE"), true
      ),
      ("the first calendars in LF, the repeated zones in CRLF", lineFeedsBeforeTheThirdCalendar, true),
      (
        "a VTIMEZONE outside the calendar and a VEVENT",
        Self.text(Self.zone("Out", offset: "+0400") + ["BEGIN:VEVENT", "UID:e", "END:VEVENT"]) + plain, true
      ),
      (
        "a UID inside a VALARM",
        plain.replacingOccurrences(of: "UID:parent", with: "BEGIN:VALARM\r\nUID:alarm\r\nEND:VALARM\r\nUID:parent"),
        true
      ),
      ("a property outside any calendar", "X-STRAY:1\r\n" + plain, false),
      ("an END that closes nothing", plain + "END:VTODO\r\n", false),
      ("a mismatched END", plain.replacingOccurrences(of: "END:STANDARD", with: "END:DAYLIGHT"), false),
      ("a VCALENDAR inside a VCALENDAR", plain.replacingOccurrences(of: "BEGIN:VTODO", with: "BEGIN:VCALENDAR"), false),
      ("an empty input", "", false),
      ("only blank lines", "\r\n\r\n", false),
      (
        "a continuation after a blank line",
        plain.replacingOccurrences(of: "UID:early", with: "UID:early\r\n\r\n UID:x"), true
      ),
    ]
  }()

  @Test func theSkimLeavesWhatTheCutterLeaves() throws {
    for spelling in Self.spellings {
      let bytes = Array(spelling.text.utf8)
      let (scan, cutter) = Self.both(bytes)
      #expect(scan == cutter, "\(spelling.name)")
      #expect(try Self.skims(bytes) == spelling.skims, "\(spelling.name)")
    }
  }

  @Test func aLineNotInUTF8IsReadAsTheCutterReadsItAndANULIsLeftToTheCutter() throws {
    // In a VTIMEZONE's line, which the skim reads: ISO-8859-1, as the cutter decodes it.
    let text = Self.threeCalendars
    let zoneLine = try #require(text.range(of: "TZID:Office"))
    var latin1 = Array(text.utf8)
    latin1.insert(0xE9, at: text.utf8.distance(from: text.startIndex, to: zoneLine.upperBound))
    var nul = Array(text.utf8)
    nul.insert(0, at: nul.count / 2)
    for (bytes, skims) in [(latin1, true), (nul, false)] {
      let (scan, cutter) = Self.both(bytes)
      #expect(scan == cutter)
      #expect(scan.zones.contains { $0.hasPrefix("Office\u{E9}@") } == skims)
      #expect(try Self.skims(bytes) == skims)
    }
  }

  @Test func aVeryLongLineIsLeftToTheCutter() throws {
    let long = Self.threeCalendars.replacingOccurrences(
      of: "X-WR-CALNAME:Home", with: "X-WR-CALNAME:" + String(repeating: "h", count: 1 << 20))
    let bytes = Array(long.utf8)
    let (scan, cutter) = Self.both(bytes)
    #expect(scan == cutter)
    #expect(try !Self.skims(bytes))
  }

  @Test func aRepeatedZoneIsReadOnceAndADifferentOneIsStillAdded() {
    let lines = Self.calendar("A", Self.zone("Z", offset: "+0100") + Self.todo("a"))
    let repeated = Self.calendar("B", Self.zone("Z", offset: "+0100") + Self.zone("Y", offset: "+0200"))
    let (scan, cutter) = Self.both(Array(Self.text(lines + repeated).utf8))
    #expect(scan == cutter)
    #expect(scan.zones.count == 2)
    #expect(scan.zones.first?.hasPrefix("Y@") == true)
  }

  /// Every .ics of the fixtures, the fuzz regressions and the shared corpus (when present).
  @Test func everyKnownFileGivesTheSameThroughTheSkimAndTheCutter() throws {
    var paths: [String] = []
    for folder in [
      Repository.path("Tests/RemconvCoreTests/Fixtures/ics"),
      Repository.path("Tests/RemconvCoreTests/Fixtures/ics/golden"),
      Repository.path("Fuzz/regressions/ics"),
    ] + (ICSTest.corpusFolder.map { [$0] } ?? []) {
      let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".ics") }
      paths += names.sorted().map { folder + "/" + $0 }
    }
    #expect(paths.count > 15)
    for path in paths {
      let bytes = try Array(Data(contentsOf: URL(fileURLWithPath: path)))
      let (scan, cutter) = Self.both(bytes)
      #expect(scan == cutter, "\(path)")
    }
  }
}

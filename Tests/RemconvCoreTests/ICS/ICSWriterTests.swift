import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

@Suite struct ICSWriterTests {
  /// The fixtures that import (the malformed ones do not).
  static let readableFixtures = [
    "apple-style.ics", "calendars.ics", "due-kinds.ics", "latin1.ics", "nextcloud-style.ics", "outlook-style.ics",
    "quirks.ics", "subtasks.ics", "thunderbird-style.ics",
  ]

  /// Compares `actual` with a golden file, VTIMEZONE bodies aside. With
  /// `REMCONV_UPDATE_GOLDEN=1` the golden file is rewritten instead.
  private func expectGolden(_ actual: String, _ relativePath: String) throws {
    let path = Repository.path(relativePath)
    if ProcessInfo.processInfo.environment["REMCONV_UPDATE_GOLDEN"] == "1" {
      try Data(actual.utf8).write(to: URL(fileURLWithPath: path))
      return
    }
    let golden = try String(contentsOfFile: path, encoding: .utf8)
    #expect(
      ICSTest.withoutTimeZoneBodies(actual) == ICSTest.withoutTimeZoneBodies(golden), "differs from \(relativePath)")
  }

  private func export(_ bench: TestBench, _ arguments: [String] = []) throws -> String {
    let path = bench.directory.file("export-\(UUID().uuidString).ics")
    let result = bench.run(["export", "--format", "ics", "-o", path] + arguments)
    #expect(result.status == .ok, "\(result.errors)")
    return try String(contentsOfFile: path, encoding: .utf8)
  }

  // MARK: Golden files

  @Test func theSampleExportMatchesSamplesIcs() throws {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    try expectGolden(try export(bench), "Samples/ics/reminders.ics")
  }

  @Test func theFixturesExportMatchesTheGoldenFile() throws {
    let bench = TestBench()
    for fixture in Self.readableFixtures { #expect(bench.run(["import", ICSTest.fixture(fixture)]).status == .ok) }
    try expectGolden(try export(bench), "Tests/RemconvCoreTests/Fixtures/ics/golden/fixtures.ics")
  }

  // MARK: RFC 5545 form

  @Test func writesCRLFFoldedLinesAndTheRequiredProperties() throws {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    for fixture in Self.readableFixtures { bench.run(["import", ICSTest.fixture(fixture)]) }
    let bytes = Array(try export(bench).utf8)
    var lines: [[UInt8]] = []
    var current: [UInt8] = []
    var index = 0
    while index < bytes.count {
      if bytes[index] == 0x0D {
        #expect(index + 1 < bytes.count && bytes[index + 1] == 0x0A, "CR without LF at byte \(index)")
        lines.append(current)
        current = []
        index += 2
        continue
      }
      #expect(bytes[index] != 0x0A, "LF without CR at byte \(index)")
      current.append(bytes[index])
      index += 1
    }
    #expect(current.isEmpty)
    #expect(lines.allSatisfy { $0.count <= 75 })
    let text = String(decoding: bytes, as: UTF8.self)
    let calendars = text.components(separatedBy: "BEGIN:VCALENDAR\r\n").dropFirst()
    #expect(!calendars.isEmpty)
    for calendar in calendars {
      #expect(calendar.hasPrefix("VERSION:2.0\r\nPRODID:-//remconv//NONSGML remconv//EN\r\n"))
      // One VTIMEZONE per TZID used in the calendar.
      var used = Set<String>()
      for match in calendar.matches(of: /TZID=([^:;]+)[:;]/) { used.insert(String(match.1)) }
      var defined: [String] = []
      for match in calendar.matches(of: /BEGIN:VTIMEZONE\r\nTZID:([^\r]+)\r\n/) { defined.append(String(match.1)) }
      #expect(Set(defined) == used)
      #expect(defined.count == Set(defined).count)
      for todo in calendar.components(separatedBy: "BEGIN:VTODO\r\n").dropFirst() {
        let body = todo.components(separatedBy: "END:VTODO\r\n")[0]
        #expect(body.contains("UID:") && body.contains("DTSTAMP:"))
      }
    }
  }

  @Test func writesTheDoneTripleAndTheMappedPriorities() throws {
    let list = ReminderList(id: "L", name: "Chores")
    let completed = try #require(Timestamp(iso: "2026-11-28T16:20:00.250Z"))
    var done = Reminder(id: "done", listID: "L", title: "Done", isDone: true, completedAt: completed, priority: .high)
    done.tags = ["a,b", "c"]
    let cancelled = Reminder(
      id: "cancelled", listID: "L", title: "Cancelled", isDone: true, priority: .low,
      extra: ["ical": .object(["status": .string("CANCELLED")])])
    let granular = Reminder(
      id: "granular", listID: "L", title: "Three", priority: .high, extra: ["ical": .object(["priority": .number(3)])])
    let regraded = Reminder(
      id: "regraded", listID: "L", title: "Was three", priority: .low,
      extra: ["ical": .object(["priority": .number(3)])])
    let (text, diagnostics) = try ICSTest.write([(list, [done, cancelled, granular, regraded])])
    #expect(
      text.contains(
        "UID:done\r\nDTSTAMP:20261129T100000Z\r\nSUMMARY:Done\r\nSTATUS:COMPLETED\r\nCOMPLETED:20261128T162000Z\r\nPERCENT-COMPLETE:100\r\nPRIORITY:1\r\nCATEGORIES:a\\,b,c\r\n"
      ))
    #expect(
      text.contains(
        "UID:cancelled\r\nDTSTAMP:20261129T100000Z\r\nSUMMARY:Cancelled\r\nSTATUS:CANCELLED\r\nPRIORITY:9\r\n"))
    #expect(text.contains("SUMMARY:Three\r\nSTATUS:NEEDS-ACTION\r\nPRIORITY:3\r\n"))
    #expect(text.contains("SUMMARY:Was three\r\nSTATUS:NEEDS-ACTION\r\nPRIORITY:9\r\n"))
    #expect(diagnostics.map(\.code) == ["cannot-carry"])
    #expect(diagnostics.first?.message.contains("fractions of a second") == true)
  }

  @Test func writesEveryDueKindAsItIs() throws {
    let date = try #require(LocalDate(year: 2026, month: 11, day: 30))
    let nine = try #require(LocalDateTime(date: date, hour: 9, minute: 0, second: 0))
    let list = ReminderList(id: "L", name: "Due")
    let reminders = [
      Reminder(id: "d", listID: "L", title: "d", dueDate: .date(date)),
      Reminder(id: "u", listID: "L", title: "u", dueDate: .utc(nine)),
      Reminder(id: "f", listID: "L", title: "f", dueDate: .floating(nine)),
      Reminder(id: "z", listID: "L", title: "z", dueDate: .zoned(nine, timeZone: "Asia/Tokyo")),
      Reminder(id: "z2", listID: "L", title: "z2", dueDate: .zoned(nine, timeZone: "Asia/Tokyo")),
      Reminder(id: "utc", listID: "L", title: "utc", dueDate: .zoned(nine, timeZone: "UTC")),
    ]
    let (text, diagnostics) = try ICSTest.write([(list, reminders)])
    #expect(text.contains("DUE;VALUE=DATE:20261130\r\n"))
    #expect(text.contains("DUE:20261130T090000Z\r\n"))
    #expect(text.contains("DUE:20261130T090000\r\n"))
    #expect(text.contains("DUE;TZID=Asia/Tokyo:20261130T090000\r\n"))
    #expect(text.components(separatedBy: "BEGIN:VTIMEZONE\r\nTZID:Asia/Tokyo\r\n").count == 2)
    #expect(text.contains("BEGIN:VTIMEZONE\r\nTZID:UTC\r\n"))
    #expect(diagnostics.isEmpty)
    let reread = try ICSTest.read(text: text)
    #expect(reread.reminders.map(\.dueDate) == reminders.map(\.dueDate))
  }

  @Test func putsBackWhatTheReaderKept() throws {
    let source = try ICSTest.read(path: ICSTest.fixture("thunderbird-style.ics"))
    let list = try #require(source.lists.first)
    let (text, _) = try ICSTest.write([(list, source.reminders)])
    #expect(
      text.contains(
        "DTSTART;TZID=America/Chicago:20260106T070000\r\nRRULE:FREQ=DAILY\r\nCATEGORIES:Garden,Outdoor\r\n"))
    // The VALARM from the alarm, then the lines the reader kept.
    #expect(
      text.contains(
        "BEGIN:VALARM\r\nACTION:DISPLAY\r\nTRIGGER;RELATED=END:-PT15M\r\nDESCRIPTION:Default Mozilla Description\r\nEND:VALARM\r\nX-MOZ-GENERATION:2\r\n"
      ))
    #expect(text.contains("END:VTODO\r\nBEGIN:VTODO\r\nCREATED:20260106T155900Z\r\n"))
    #expect(text.contains("RECURRENCE-ID;TZID=America/Chicago:20260106T070000\r\n"))
    #expect(text.components(separatedBy: "BEGIN:VTIMEZONE").count == 2)
    let reread = try ICSTest.read(text: text)
    #expect(reread.reminders == source.reminders)
  }

  @Test func writesAnEmptyCalendarForAnEmptyStore() throws {
    let (text, _) = try ICSTest.write([])
    #expect(text == "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//remconv//NONSGML remconv//EN\r\nEND:VCALENDAR\r\n")
    #expect(try ICSTest.read(text: text).reminders.isEmpty)
  }

  @Test func libicalReadsTheOutputWithoutComplaint() throws {
    let json = try ICSTest.read(path: ICSTest.fixture("due-kinds.ics"))
    let list = try #require(json.lists.first)
    let (text, _) = try ICSTest.write([(list, json.reminders)])
    let problems = try #require(LibICalOracle.problems(inComponent: Array(text.utf8)))
    #expect(problems.isEmpty)
  }

  // MARK: Round trips

  @Test(arguments: readableFixtures)
  func importExportImportGivesTheSameStore(fixture: String) throws {
    let first = TestBench()
    #expect(first.run(["import", ICSTest.fixture(fixture)]).status == .ok)
    let exported = try export(first)
    let second = TestBench()
    let path = second.directory.write("round.ics", exported)
    #expect(second.run(["import", path]).status == .ok)
    #expect(second.snapshot() == first.snapshot())
    // The writer is a fixed point: the second export is the first.
    #expect(try export(second) == exported)
  }

  @Test func jsonThroughIcsAndBackIsTheSame() throws {
    let first = TestBench()
    #expect(first.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let second = TestBench()
    let path = second.directory.write("round.ics", try export(first))
    #expect(second.run(["import", path]).status == .ok)
    #expect(second.snapshot() == first.snapshot())
  }

  @Test func extraOfOtherFormatsTravelsThroughIcs() throws {
    let list = ReminderList(id: "L", name: "Extras", extra: ["csv": .object(["Folder Name": .string("Inbox; work")])])
    let reminder = Reminder(
      id: "r", listID: "L", title: "Carried",
      extra: ["taskwarrior": .object(["urgency": .number("4.2"), "annotations": .array([.string("a, b")])])])
    let (text, diagnostics) = try ICSTest.write([(list, [reminder])])
    #expect(diagnostics.isEmpty)
    #expect(text.contains("X-REMCONV-EXTRA:"))
    let reread = try ICSTest.read(text: text)
    #expect(reread.reminders.first?.extra == reminder.extra)
    #expect(reread.lists.first?.extra == list.extra)
  }

  @Test func convertStreamsIcsToJson() throws {
    let bench = TestBench()
    let result = bench.run(["convert", ICSTest.fixture("subtasks.ics"), "--to", "json"])
    #expect(result.status == .ok)
    #expect(result.output.contains(#""name": "Move house""#))
    #expect(result.output.contains(#""id":"grandchild""#))
  }
}

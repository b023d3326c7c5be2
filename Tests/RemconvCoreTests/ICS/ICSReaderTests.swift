import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

@Suite struct ICSReaderTests {
  // MARK: Due dates

  @Test func keepsEveryKindOfDueDate() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("due-kinds.ics"))
    let date = try #require(LocalDate(year: 2026, month: 11, day: 30))
    let nine = try #require(LocalDateTime(date: date, hour: 9, minute: 0, second: 0))
    #expect(result.reminder("due-date")?.dueDate == .date(date))
    #expect(result.reminder("due-utc")?.dueDate == .utc(nine))
    #expect(result.reminder("due-floating")?.dueDate == .floating(nine))
    #expect(result.reminder("due-zoned")?.dueDate == .zoned(nine, timeZone: "Asia/Tokyo"))
    #expect(
      result.reminder("due-date-no-value")?.dueDate == .date(try #require(LocalDate(year: 2026, month: 12, day: 1))))
    #expect(result.diagnostics.isEmpty)
  }

  @Test func anAllDayItemIsTheSameDateInEveryZone() throws {
    let text = """
      BEGIN:VCALENDAR
      BEGIN:VTODO
      UID:all-day
      DUE;VALUE=DATE:20261130
      END:VTODO
      END:VCALENDAR
      """
    let auckland = try ICSTest.read(text: text, timeZone: "Pacific/Auckland")
    let losAngeles = try ICSTest.read(text: text, timeZone: "America/Los_Angeles")
    let expected = DueDate.date(try #require(LocalDate(year: 2026, month: 11, day: 30)))
    #expect(auckland.reminder("all-day")?.dueDate == expected)
    #expect(losAngeles.reminder("all-day")?.dueDate == expected)
    #expect(expected.day(in: try #require(TimeZone(identifier: "Pacific/Auckland"))).description == "2026-11-30")
    #expect(expected.day(in: try #require(TimeZone(identifier: "America/Los_Angeles"))).description == "2026-11-30")
  }

  @Test func anAllDayItemIsTheSameDateThroughTheCommandLineInEveryZone() throws {
    var snapshots: [String] = []
    for zone in ["Pacific/Auckland", "America/Los_Angeles"] {
      let bench = TestBench(environment: ["TZ": zone])
      #expect(bench.run(["import", ICSTest.fixture("due-kinds.ics")]).status == .ok)
      snapshots.append(bench.snapshot())
    }
    #expect(
      snapshots[0].contains(
        #""id":"due-date","title":"All-day","notes":"","isDone":false,"completedAt":null,"flagged":false,"dueDate":"2026-11-30","dueTimeZone":null"#
      ))
    #expect(snapshots[0] == snapshots[1])
  }

  @Test func resolvesNonIANAZonesWithAWarningAndNeverShiftsSilently() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("outlook-style.ics"))
    let windows = try #require(result.reminder("040000008200E00074C5B7101A82E00800000000"))
    #expect(windows.dueDate?.description == "2026-01-31T17:00:00 Europe/Berlin")
    #expect(windows.title == "Quarterly report: draft")
    let custom = try #require(result.reminder("040000008200E00074C5B7101A82E00800000001"))
    // 10:00 at +05:30 is 04:30 UTC: converted with the file's VTIMEZONE, the instant exact.
    #expect(custom.dueDate?.description == "2026-02-02T04:30:00Z")
    let evolution = try #require(result.reminder("040000008200E00074C5B7101A82E00800000002"))
    #expect(evolution.dueDate?.description == "2026-02-03T09:00:00 Europe/Vienna")
    let unknown = try #require(result.reminder("040000008200E00074C5B7101A82E00800000003"))
    #expect(unknown.dueDate?.description == "2026-02-04T09:00:00")
    let zoneWarnings = result.warnings("time-zone")
    #expect(zoneWarnings.count == 4)
    #expect(zoneWarnings.map(\.location?.line) == [33, 41, 47, 53])
    #expect(zoneWarnings[0].message.contains("Europe/Berlin"))
    #expect(zoneWarnings[0].uid == "040000008200E00074C5B7101A82E00800000000")
  }

  /// A time in a zone only the file defines is converted up to 2200, the year its expansion
  /// was counted for; a later one is kept as written, with a warning, not expanded to.
  @Test func aTimePast2200InTheFilesOwnZoneIsKeptNotConverted() throws {
    func calendar(due: String) -> String {
      [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:x", "BEGIN:VTIMEZONE", "TZID:Plus Five", "BEGIN:STANDARD",
        "DTSTART:16010101T000000", "RRULE:FREQ=YEARLY;BYMONTH=1;BYMONTHDAY=1", "TZOFFSETFROM:+0500", "TZOFFSETTO:+0500",
        "END:STANDARD", "END:VTIMEZONE", "BEGIN:VTODO", "UID:u", "SUMMARY:s", "DUE;TZID=Plus Five:\(due)", "END:VTODO",
        "END:VCALENDAR", "",
      ].joined(separator: "\r\n")
    }
    let within = try ICSTest.read(text: calendar(due: "22001231T100000"))
    #expect(within.reminder("u")?.dueDate?.description == "2200-12-31T05:00:00Z")
    let past = try ICSTest.read(text: calendar(due: "22010101T100000"))
    let reminder = try #require(past.reminder("u"))
    #expect(reminder.dueDate == nil)
    #expect(reminder.extra["ical"]?["invalid"] == .array([.string("DUE;TZID=Plus Five:22010101T100000")]))
    #expect(past.warnings("time-zone").contains { $0.message.contains("2201 is past 2200") && $0.location?.line == 16 })
  }

  @Test func appleStartEqualToDueMeansNoStartAndAVTimezoneMayComeLast() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("apple-style.ics"))
    let reminder = try #require(result.reminder("6C1D1A2E-0F0B-4E52-A3D2-0C1E9B2F7A01"))
    #expect(reminder.dueDate?.description == "2026-03-12T17:00:00 Europe/Berlin")
    let lines = reminder.extra["ical"]?["lines"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(!lines.contains { $0.hasPrefix("DTSTART") })
    #expect(reminder.startDate == nil)
    #expect(lines.contains("X-APPLE-SORT-ORDER:795345300"))
    #expect(!lines.contains { $0.hasPrefix("TRIGGER") }, "the VALARM is an alarm now")
    #expect(reminder.alarms.map(\.trigger) == [.absolute(try #require(Timestamp(iso: "2026-03-12T16:00:00Z")))])
    #expect(result.lists.map(\.name) == ["Errands"])
    #expect(result.lists.first?.color == "#FF2968")
  }

  @Test func aRealStartARecurrenceAndAlarmsAreFields() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("thunderbird-style.ics"))
    let recurring = try #require(result.reminder("d0c3a1f2-7e55-4a3b-9b8e-1f2e3d4c5b6a"))
    let lines = recurring.extra["ical"]?["lines"]?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(!lines.contains { $0.hasPrefix("DTSTART") || $0.hasPrefix("RRULE") || $0.hasPrefix("TRIGGER") })
    // DTSTART equal to DUE is the rule's anchor, not a start of its own.
    #expect(recurring.startDate == nil)
    #expect(recurring.recurrence == Recurrence(rule: "FREQ=DAILY"))
    #expect(
      recurring.alarms == [
        Alarm(trigger: .relative(seconds: -900, to: .due), text: "Default Mozilla Description")
      ])
    let startOnly = try #require(result.reminder("4f0e9d8c-7b6a-4594-8372-615049382716"))
    #expect(startOnly.dueDate == nil)
    #expect(
      startOnly.startDate
        == .zoned(try #require(LocalDateTime(iso: "2026-03-01T09:00:00")), timeZone: "America/Chicago"))
    #expect(startOnly.extra["ical"]?["lines"] == nil)
  }

  // MARK: Done, priority, tags, flag, timestamps

  @Test func doneByStatusByCompletedOrByPercentAndCancelledCountsAsDone() throws {
    func done(_ properties: String) throws -> Reminder {
      let text = "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:x\n\(properties)\nEND:VTODO\nEND:VCALENDAR\n"
      return try #require(try ICSTest.read(text: text).reminder("x"))
    }
    #expect(try done("STATUS:COMPLETED").isDone)
    #expect(try done("STATUS:COMPLETED").completedAt == nil)
    #expect(try done("COMPLETED:20260101T120000Z").completedAt?.description == "2026-01-01T12:00:00Z")
    #expect(try done("PERCENT-COMPLETE:100").isDone)
    #expect(try !done("STATUS:NEEDS-ACTION\nPERCENT-COMPLETE:0").isDone)
    let cancelled = try done("STATUS:CANCELLED")
    #expect(cancelled.isDone)
    #expect(cancelled.extra["ical"]?["status"] == .string("CANCELLED"))
    let inProcess = try done("STATUS:IN-PROCESS\nPERCENT-COMPLETE:25")
    #expect(!inProcess.isDone)
    #expect(inProcess.extra["ical"]?["status"] == .string("IN-PROCESS"))
    #expect(inProcess.extra["ical"]?["percent"] == .number(25))
  }

  @Test func mapsPriorityRangesAndKeepsTheExactNumber() throws {
    var seen: [Int: Priority] = [:]
    for number in 0...9 {
      let text = "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:p\nPRIORITY:\(number)\nEND:VTODO\nEND:VCALENDAR\n"
      let reminder = try #require(try ICSTest.read(text: text).reminder("p"))
      seen[number] = reminder.priority
      let exact = reminder.extra["ical"]?["priority"]
      #expect(exact == ([2, 3, 4, 6, 7, 8].contains(number) ? .number(number) : nil), "PRIORITY:\(number)")
    }
    #expect(seen[0] == Priority.none)
    #expect((1...4).allSatisfy { seen[$0] == .high })
    #expect(seen[5] == .medium)
    #expect((6...9).allSatisfy { seen[$0] == .low })
  }

  @Test func invalidValuesAreWarningsAndKeptVerbatim() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("quirks.ics"))
    let horde = try #require(result.reminder("q-empty-priority.1519164997000"))
    #expect(horde.priority == Priority.none)
    #expect(horde.extra["ical"]?["invalid"] == .array([.string("PRIORITY:")]))
    let broken = try #require(result.reminder("q-bad-dates"))
    #expect(broken.title == "Broken start date")
    #expect(broken.dueDate == nil)
    #expect(
      broken.extra["ical"]?["invalid"]
        == .array([
          .string("DTSTART:20131009T170000T"), .string("DUE:-0011130T160000"), .string("PRIORITY:x"),
        ]))
    let badValueWarnings = result.warnings("invalid-value").filter { $0.uid == "q-bad-dates" }
    #expect(badValueWarnings.map(\.location?.line) == [31, 32])
  }

  @Test func libicalErrorsBecomeWarningsWithLineAndUID() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("quirks.ics"))
    let errors = result.warnings("ical-error")
    let located = errors.map { "\($0.location?.line ?? 0) \($0.uid ?? "-")" }
    #expect(located.contains("10 q-empty-priority.1519164997000"))
    #expect(located.contains("19 q-synology@172.18.0.1"))
    #expect(located.contains("20 q-synology@172.18.0.1"))
    #expect(located.contains("30 q-bad-dates"))
    #expect(errors.first { $0.location?.line == 30 }?.message.contains("DTSTART") == true)
    // Synology's misspelt properties libical refuses are kept as they were.
    let synology = try #require(result.reminder("q-synology@172.18.0.1"))
    #expect(synology.isDone)
    #expect(
      synology.extra["ical"]?["invalid"]?.arrayValue?.compactMap(\.stringValue) == [
        "LAST-MOD:20260101T100000", "PERCENT_COMPLETE:100", "DESCRIPTION:", "LOCATION:",
      ])
    #expect(synology.extra["ical"]?["lines"]?.arrayValue == [.string("TRANSP:OPAQUE")])
  }

  @Test func readsTagsFlagURLAndParameters() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("quirks.ics"))
    let gifts = try #require(result.reminder("q-empty-priority.1519164997000"))
    #expect(gifts.tags == ["Family", "Gifts, small", "Birthday"])
    #expect(gifts.url == "https://example.org/wishlist?id=42&lang=de")
    #expect(
      gifts.notes
        == "[ ] Board game\n[ ] Kite\n[ ] Puzzle with 1000 pieces for the long winter evenings\n[ ] Kids' book für Anna"
    )
    let flagged = try #require(result.reminder("q-flagged"))
    #expect(flagged.flagged)
    #expect(flagged.title == "Flagged and tagged")
    #expect(flagged.extra["ical"]?["parameters"] == .object(["SUMMARY": .string("LANGUAGE=en")]))
    #expect(
      flagged.extra["ical"]?["lines"]?.arrayValue?.compactMap(\.stringValue) == [
        "GEO:52.52;13.40", "ATTACH;FMTTYPE=text/plain:https://example.org/notes.txt", "CLASS:PRIVATE",
        "X-UNKNOWN-PROP;param1=xxx:Unknown Value",
      ])
  }

  @Test func readsTimestampsAndWarnsOnceAboutFloatingOnes() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("nextcloud-style.ics"), timeZone: "Europe/Berlin")
    let kettle = try #require(result.reminder("hh7k2q9x1a"))
    #expect(kettle.createdAt?.description == "2026-02-01T09:15:00Z")
    #expect(kettle.editedAt?.description == "2026-02-02T07:30:00Z")
    #expect(result.warnings("floating-time").map { $0.message.prefix(13) } == ["CREATED has n", "LAST-MODIFIED"])
    let apple = try ICSTest.read(path: ICSTest.fixture("apple-style.ics"))
    #expect(apple.reminder("6C1D1A2E-0F0B-4E52-A3D2-0C1E9B2F7A02")?.completedAt?.description == "2026-03-05T12:10:00Z")
    #expect(apple.diagnostics.isEmpty)
  }

  @Test func theStampIsTheEditTimeOnlyWhenNoLastModifiedIsGiven() throws {
    let text = "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:s\nDTSTAMP:20260102T030405Z\nEND:VTODO\nEND:VCALENDAR\n"
    #expect(try ICSTest.read(text: text).reminder("s")?.editedAt?.description == "2026-01-02T03:04:05Z")
    let ours =
      "BEGIN:VCALENDAR\nPRODID:\(ICSFormat.productID)\nBEGIN:VTODO\nUID:s\nDTSTAMP:20260102T030405Z\nEND:VTODO\nEND:VCALENDAR\n"
    #expect(try ICSTest.read(text: ours).reminder("s")?.editedAt == nil)
  }

  // MARK: Subtasks and overrides

  @Test func linksSubtasksFromEitherSideInAnyOrder() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("subtasks.ics"))
    #expect(result.reminder("child-before-parent")?.parentID == "parent")
    #expect(result.reminder("grandchild")?.parentID == "child-before-parent")
    #expect(result.reminder("plain-child")?.parentID == "parent")
    #expect(result.reminder("orphan")?.parentID == "missing-parent")
    let parent = try #require(result.reminder("parent"))
    #expect(parent.extra["ical"]?["lines"]?.arrayValue == [.string("RELATED-TO;RELTYPE=SIBLING:sibling-of-parent")])
    let missing = result.warnings("missing-child")
    #expect(missing.count == 1)
    #expect(missing.first?.location?.line == 20)
    #expect(missing.first?.message.contains("never-there") == true)
  }

  @Test func subtasksNestInTheStoreAndAMissingParentIsReported() throws {
    let bench = TestBench()
    let result = bench.run(["import", ICSTest.fixture("subtasks.ics")])
    #expect(result.status == .ok)
    #expect(result.errors.contains("missing-parent"))
    #expect(result.errors.contains("never-there"))
    let snapshot = bench.snapshot()
    #expect(snapshot.contains(#""id":"child-before-parent","title":"Label the boxes""#))
    #expect(snapshot.contains(#""parentId":"parent""#))
  }

  @Test func aChildBeforeItsParentLinksOnStandardInputToo() throws {
    let bench = TestBench()
    let text = try String(contentsOfFile: ICSTest.fixture("subtasks.ics"), encoding: .utf8)
    #expect(bench.run(["import", "--format", "ics", "--list", "Piped", "-"], input: text).status == .ok)
    #expect(
      bench.snapshot().contains(
        #""id":"child-before-parent","title":"Label the boxes","notes":"","isDone":false,"completedAt":null,"flagged":false,"dueDate":null,"dueTimeZone":null,"startDate":null,"startTimeZone":null,"recurrence":null,"alarms":[],"priority":"none","parentId":"parent""#
      ))
  }

  @Test func thePrescanFindsChildLinksHoweverTheyAreSpelled() throws {
    // The pre-scan passes over every line whose first byte cannot begin BEGIN, END, UID or
    // RELATED-TO: a lower-case name and a name folded after its first letter still count, a
    // VALARM's UID (depth 2) is not the VTODO's, and a blank line before a continuation does
    // not make the continuation part of a skipped line.
    let text = """
      BEGIN:VCALENDAR
      BEGIN:VTODO
      uid:kid-lower
      SUMMARY:Named in lower case
      END:VTODO
      BEGIN:VTODO
      UID:kid-folded
      SUMMARY:Named by a folded line
      END:VTODO
      BEGIN:VTODO
      BEGIN:VALARM
      UID:alarm-not-the-parent
      TRIGGER:-PT15M
      ACTION:DISPLAY
      DESCRIPTION:Soon
      END:VALARM
      UID:parent
      SUMMARY:The parent
      related-to;reltype=child:kid-lower
      R
       ELATED-TO;RELTYPE=CHILD:kid-folded
      RRULE:FREQ=WEEKLY

       RELATED-TO;RELTYPE=CHILD:kid-after-a-blank-line
      END:VTODO
      BEGIN:VTODO
      UID:kid-after-a-blank-line
      SUMMARY:Linked by a continuation after a blank line
      END:VTODO
      END:VCALENDAR
      """
    let result = try ICSTest.read(text: text)
    #expect(result.reminder("kid-lower")?.parentID == "parent")
    #expect(result.reminder("kid-folded")?.parentID == "parent")
    #expect(result.reminder("kid-after-a-blank-line")?.parentID == "parent")
    #expect(result.reminder("parent")?.parentID == nil)
    #expect(result.warnings("missing-child").isEmpty)
  }

  @Test func recurrenceOverridesStayWithTheirMaster() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("thunderbird-style.ics"))
    #expect(result.reminders.count == 2)
    let master = try #require(result.reminder("d0c3a1f2-7e55-4a3b-9b8e-1f2e3d4c5b6a"))
    #expect(!master.isDone)
    #expect(master.tags == ["Garden", "Outdoor"])
    let overrides = master.extra["ical"]?["overrides"]?.arrayValue ?? []
    #expect(overrides.count == 1)
    let override = overrides.first?.arrayValue?.compactMap(\.stringValue) ?? []
    #expect(override.first == "BEGIN:VTODO")
    #expect(override.contains("RECURRENCE-ID;TZID=America/Chicago:20260106T070000"))
    #expect(override.last == "END:VTODO")
    #expect(result.skipped.sorted() == ["VEVENT", "VJOURNAL"])
  }

  // MARK: Lists and identity

  @Test func eachCalendarIsAList() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("calendars.ics"))
    #expect(result.lists.map(\.name) == ["Reading", "Films", "Empty but named"])
    let reading = result.lists[0]
    #expect(reading.id == "list-one-uid")
    #expect(reading.color == "#1BADF8")
    #expect(reading.symbol == "book")
    #expect(
      reading.extra["ical"]?["lines"]?.arrayValue == [
        .string("CALSCALE:GREGORIAN"), .string("X-WR-TIMEZONE:Europe/Berlin"),
      ])
    #expect(result.lists[1].color == "#63DA38")
    #expect(result.reminder("book-1")?.listID == "list-one-uid")
    #expect(result.reminder("film-1")?.listID == result.lists[1].id)
    #expect(result.skipped == ["VEVENT"])
  }

  @Test func aVTodoWithoutUIDGetsTheSameDerivedUIDEveryTime() throws {
    let first = try ICSTest.read(path: ICSTest.fixture("quirks.ics"))
    let second = try ICSTest.read(path: ICSTest.fixture("quirks.ics"))
    let derived = try #require(first.reminders.first { $0.title == "No UID at all" })
    #expect(second.reminders.first { $0.title == "No UID at all" }?.id == derived.id)
    #expect(first.warnings("missing-uid").first?.location?.line == 51)
    #expect(first.reminder("q-folded-after-name")?.dueDate?.description == "2026-04-02")
  }

  @Test func latin1IsReadWithAWarning() throws {
    let result = try ICSTest.read(path: ICSTest.fixture("latin1.ics"))
    #expect(result.reminder("latin1@example.org")?.title == "Grüße aus Köln")
    #expect(result.warnings("encoding").first?.location?.line == 5)
  }

  @Test func aBareVTodoIsReadWithAWarning() throws {
    let result = try ICSTest.read(text: "BEGIN:VTODO\nUID:bare\nSUMMARY:No calendar\nEND:VTODO")
    #expect(result.reminder("bare")?.title == "No calendar")
    #expect(result.warnings("stray-component").count == 1)
  }

  @Test func standardInputIsRecognisedAsICalendar() throws {
    let bench = TestBench()
    let text = try String(contentsOfFile: ICSTest.fixture("due-kinds.ics"), encoding: .utf8)
    let result = bench.run(["import", "-"], input: text)
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.errors.contains("5 added"))
    #expect(bench.snapshot().contains(#""name": "Due kinds""#))
  }

  @Test func strictRefusesAFileWithWarnings() {
    let bench = TestBench()
    let result = bench.run(["import", "--strict", ICSTest.fixture("quirks.ics")])
    #expect(result.status == .dataError)
    #expect(!bench.snapshot().contains("q-flagged"))
  }

  // MARK: Broken structure

  @Test(arguments: [
    ("malformed-unterminated.ics", 1, "never closed"),
    ("malformed-mismatched.ics", 7, "END:VTODO does not match BEGIN:VALARM at line 5"),
    ("malformed-not-ical.ics", 1, "not iCalendar"),
  ])
  func brokenStructureIsMalformedWithTheLine(file: String, line: Int, message: String) throws {
    do {
      _ = try ICSTest.read(path: ICSTest.fixture(file))
      Issue.record("\(file) was read")
    } catch RemconvError.malformedInput(let text, let location, _) {
      #expect(location.line == line)
      #expect(location.file.hasSuffix(file))
      #expect(text.contains(message))
    }
  }

  @Test func brokenStructureExits65AndWritesNothing() {
    let bench = TestBench()
    #expect(bench.run(["import", ICSTest.fixture("apple-style.ics")]).status == .ok)
    let before = bench.snapshot()
    let result = bench.run(["import", ICSTest.fixture("malformed-mismatched.ics")])
    #expect(result.status == .dataError)
    #expect(result.status.rawValue == 65)
    #expect(result.errors.contains("malformed-mismatched.ics:7"))
    #expect(bench.snapshot() == before)
  }

  @Test func aTruncatedStreamNamesTheComponentLeftOpen() throws {
    do {
      _ = try ICSTest.read(text: "BEGIN:VCALENDAR\nBEGIN:VTODO\nUID:a\nBEGIN:VALARM\nACTION:DISPLAY\n")
      Issue.record("read")
    } catch RemconvError.malformedInput(let text, let location, _) {
      #expect(location.line == 4)
      #expect(text.contains("BEGIN:VALARM is never closed"))
    }
  }
}

import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Start dates, recurrence and alarms (issue 22) through iCalendar, the store and the peers.
@Suite struct ScheduleMappingTests {
  /// A weekly-on-Tuesday reminder with one exception, a 15-minute alarm and a start date.
  static let weekly = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//test//EN\r
    X-WR-CALNAME:Team\r
    BEGIN:VTODO\r
    UID:weekly-1\r
    SUMMARY:Weekly planning\r
    DTSTART;TZID=Europe/Berlin:20261201T083000\r
    DUE;TZID=Europe/Berlin:20261201T090000\r
    RRULE:FREQ=WEEKLY;BYDAY=TU\r
    EXDATE;TZID=Europe/Berlin:20261222T090000\r
    RDATE;VALUE=DATE:20261231\r
    X-REMCONV-REPEAT-FROM:COMPLETION\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:Planning\\, soon\r
    TRIGGER;RELATED=END:-PT15M\r
    END:VALARM\r
    BEGIN:VALARM\r
    ACTION:AUDIO\r
    TRIGGER;VALUE=DATE-TIME:20261201T070000Z\r
    END:VALARM\r
    END:VTODO\r
    END:VCALENDAR\r

    """

  /// A store holding `weekly`.
  static func benchWithWeekly() -> TestBench {
    let bench = TestBench()
    let source = bench.directory.write("weekly.ics", weekly)
    #expect(bench.run(["import", source]).status == .ok)
    return bench
  }

  static func berlin(_ text: String) throws -> DueDate {
    .zoned(try #require(LocalDateTime(iso: text)), timeZone: "Europe/Berlin")
  }

  static func expected() throws -> (start: DueDate, recurrence: Recurrence, alarms: [Alarm]) {
    let start = try berlin("2026-12-01T08:30:00")
    let recurrence = Recurrence(
      rule: "FREQ=WEEKLY;BYDAY=TU", exceptionDates: [try berlin("2026-12-22T09:00:00")],
      additionalDates: [.date(try #require(LocalDate(iso: "2026-12-31")))], basis: .completion)
    let alarms = [
      Alarm(trigger: .relative(seconds: -900, to: .due), text: "Planning, soon"),
      Alarm(trigger: .absolute(try #require(Timestamp(iso: "2026-12-01T07:00:00Z"))), action: "AUDIO"),
    ]
    return (start, recurrence, alarms)
  }

  @Test func theReaderFillsTheFieldsAndKeepsNothingTwice() throws {
    let result = try ICSTest.read(text: Self.weekly)
    let reminder = try #require(result.reminder("weekly-1"))
    let expected = try Self.expected()
    #expect(reminder.startDate == expected.start)
    #expect(reminder.recurrence == expected.recurrence)
    #expect(reminder.alarms == expected.alarms)
    #expect(reminder.extra["ical"] == nil, "\(reminder.extra)")
  }

  /// Apple writes DTSTART equal to DUE and a trigger related to the start: the start is read
  /// as none, so the alarm is related to the due (the same instant) and the written VTODO still
  /// names a date its trigger relates to.
  @Test func anAlarmOnAStartThatIsTheDueIsRelatedToTheDue() throws {
    let apple = """
      BEGIN:VCALENDAR\r
      VERSION:2.0\r
      PRODID:-//Apple Inc.//iOS 18.1//EN\r
      BEGIN:VTODO\r
      UID:apple-1\r
      SUMMARY:Call the garage\r
      DTSTART;TZID=Europe/Berlin:20261210T090000\r
      DUE;TZID=Europe/Berlin:20261210T090000\r
      BEGIN:VALARM\r
      ACTION:DISPLAY\r
      TRIGGER:-PT15M\r
      DESCRIPTION:Reminder\r
      END:VALARM\r
      END:VTODO\r
      END:VCALENDAR\r

      """
    let reminder = try #require(try ICSTest.read(text: apple).reminder("apple-1"))
    #expect(reminder.startDate == nil)
    #expect(reminder.alarms == [Alarm(trigger: .relative(seconds: -900, to: .due), text: "Reminder")])
    let bench = TestBench()
    #expect(bench.run(["import", bench.directory.write("apple.ics", apple)]).status == .ok)
    let validated = bench.run(["validate"])
    #expect(validated.status == .ok, "\(validated.output)\(validated.errors)")
    let exported = bench.run(["export", "--format", "ics", "-o", "-"])
    #expect(exported.output.contains("TRIGGER;RELATED=END:-PT15M\r\n"), "\(exported.output)")
  }

  @Test func everyFormatThatCarriesThemReadsBackTheSame() throws {
    let bench = Self.benchWithWeekly()
    let expected = try Self.expected()
    for format in ["json", "jsonl", "csv", "opml", "ics", "jcal", "vdir"] {
      let path = bench.directory.file("out." + format)
      let exported = bench.run(["export", "--format", format, "-o", path])
      #expect(exported.status == .ok, "\(format): \(exported.errors)")
      let copy = TestBench()
      #expect(copy.run(["import", path, "--format", format]).status == .ok, "\(format)")
      let store = try Store(path: copy.storePath)
      defer { store.close() }
      let back = try #require(try store.reminder(uid: "weekly-1"), "\(format)").reminder
      #expect(back.startDate == expected.start, "\(format)")
      #expect(back.recurrence == expected.recurrence, "\(format)")
      #expect(back.alarms == expected.alarms, "\(format)")
    }
  }

  @Test func aChangedRuleIsAFieldChangeOfItsOwn() throws {
    let bench = Self.benchWithWeekly()
    let changed = bench.directory.write(
      "changed.ics", Self.weekly.replacingOccurrences(of: "BYDAY=TU", with: "BYDAY=WE"))
    let result = bench.run(["import", changed, "--report", "json"])
    let report = try JSONParser.parse(result.output)
    #expect(report["updated"] == .number(1))
    #expect(report["fieldChanges"] == .object(["recurrence": .number(1)]))
  }

  /// A store of the 0008 release: the reminder whose DTSTART, RRULE, EXDATE and VALARM were in
  /// `extra.ical.lines` exports with them once, from the fields.
  @Test func anEarlierStoreExportsTheLiftedFieldsOnce() throws {
    let bench = TestBench()
    try FixtureStores.copy("v0008.sqlite", into: bench.directory)
    let json = try JSONParser.parse(bench.run(["export", "--format", "json"]).output)
    let reminders = (json["lists"]?.arrayValue ?? []).flatMap { $0["reminders"]?.arrayValue ?? [] }
    let weekly = try #require(reminders.first { $0["id"] == .string("nextcloud-wochenplanung-3c1f@example.org") })
    #expect(weekly["recurrence"]?["rule"] == .string("FREQ=WEEKLY;BYDAY=TU"))
    #expect(weekly["startDate"] == .string("2026-12-01T08:30:00"))
    #expect(weekly["alarms"]?.arrayValue?.count == 1)
    #expect(weekly["extra"] == .object(["ical": .object(["lines": .array([.string("X-NEXTCLOUD-BOARD:12")])])]))
    let ics = bench.run(["export", "--format", "ics"]).output
    #expect(ics.components(separatedBy: "RRULE:FREQ=WEEKLY;BYDAY=TU\r\n").count == 2)
    #expect(ics.components(separatedBy: "BEGIN:VALARM\r\n").count == 2)
    #expect(ics.components(separatedBy: "DTSTART;TZID=Europe/Berlin:20261201T083000\r\n").count == 2)
  }

  /// A JSON file an earlier remconv exported, its recurrence in `extra.ical.lines`: the model
  /// boundary lifts it on import.
  @Test func anEarlierExportIsLiftedOnImport() throws {
    let bench = TestBench()
    let old = bench.directory.write(
      "old.json",
      #"""
      {"format":"remconv","version":1,"lists":[{"id":"L","name":"Team","symbol":"list.bullet","color":null,
      "createdAt":null,"extra":{},"reminders":[{"id":"R","title":"Standup","notes":"","isDone":false,
      "completedAt":null,"flagged":false,"dueDate":"2026-12-01","dueTimeZone":null,"priority":"none","parentId":null,
      "tags":[],"url":null,"createdAt":null,"editedAt":null,
      "extra":{"ical":{"lines":["RRULE:FREQ=DAILY;COUNT=5","BEGIN:VALARM","ACTION:DISPLAY","TRIGGER:PT0S","END:VALARM"]}}}]}]}
      """#)
    #expect(bench.run(["import", old]).status == .ok)
    let store = try Store(path: bench.storePath)
    defer { store.close() }
    #expect(try store.database.scalar("SELECT recurrence FROM reminders") != .null, "written to the column")
    let reminder = try #require(try store.reminder(uid: "R")).reminder
    #expect(reminder.recurrence == Recurrence(rule: "FREQ=DAILY;COUNT=5"))
    #expect(reminder.alarms == [Alarm(trigger: .relative(seconds: 0, to: .start))])
    #expect(reminder.extra.isEmpty)
  }

  // MARK: Peers

  static let peerScript = #"""
    import json, sys, icalendar
    out = []
    with open(sys.argv[1], "rb") as handle:
        for calendar in icalendar.Calendar.from_ical(handle.read(), multiple=True):
            for todo in calendar.walk("VTODO"):
                exdates = todo.get("EXDATE")
                exdates = exdates if isinstance(exdates, list) else ([exdates] if exdates else [])
                out.append({
                    "uid": str(todo.get("UID")),
                    "rrule": todo.get("RRULE").to_ical().decode() if todo.get("RRULE") else None,
                    "start": todo.get("DTSTART").dt.isoformat() if todo.get("DTSTART") else None,
                    "startZone": str(todo.get("DTSTART").params.get("TZID")) if todo.get("DTSTART") else None,
                    "exdates": [d.dt.isoformat() for e in exdates for d in e.dts],
                    "alarms": [{"trigger": str(a.get("TRIGGER").to_ical().decode()),
                                "related": a.get("TRIGGER").params.get("RELATED"),
                                "action": str(a.get("ACTION")), "description": str(a.get("DESCRIPTION", ""))}
                               for a in todo.walk("VALARM")],
                })
    print(json.dumps(out))
    """#

  @Test(.enabled(if: ICSPeerTests.hasPythonICalendar))
  func pythonICalendarReadsRuleExceptionStartAndAlarms() throws {
    let bench = Self.benchWithWeekly()
    let path = bench.directory.file("out.ics")
    #expect(bench.run(["export", "--format", "ics", "-o", path]).status == .ok)
    let result = try ICSTest.run(ICSPeerTests.python, ["-c", Self.peerScript, path])
    #expect(result.status == 0, "\(result.errors)")
    let todo = try #require(try JSONParser.parse(result.output).arrayValue?.first)
    #expect(todo["rrule"] == .string("FREQ=WEEKLY;BYDAY=TU"))
    #expect(todo["start"] == .string("2026-12-01T08:30:00+01:00"))
    #expect(todo["startZone"] == .string("Europe/Berlin"))
    #expect(todo["exdates"] == .array([.string("2026-12-22T09:00:00+01:00")]))
    let alarms = try #require(todo["alarms"]?.arrayValue)
    #expect(alarms.count == 2)
    #expect(alarms.first?["trigger"] == .string("-PT15M") && alarms.first?["related"] == .string("END"))
    #expect(alarms.first?["description"] == .string("Planning, soon"))
    #expect(alarms.last?["trigger"] == .string("20261201T070000Z") && alarms.last?["action"] == .string("AUDIO"))
  }

  static let todomanScript = #"""
    import json, sys
    from todoman.model import Database
    db = Database([sys.argv[1]], sys.argv[2])
    print(json.dumps([{"summary": t.summary, "start": t.start.isoformat() if t.start else None,
                       "due": t.due.isoformat() if t.due else None, "rrule": t.rrule,
                       "recurring": t.is_recurring} for t in db.todos(status=["ANY"])]))
    """#

  @Test(.enabled(if: ICSTest.exists(ICSPeerTests.todomanPath)))
  func todomanReadsStartDueAndRuleFromTheVdirExport() throws {
    let bench = Self.benchWithWeekly()
    let root = bench.directory.file("vdir")
    #expect(bench.run(["export", "--format", "vdir", "-o", root]).status == .ok)
    let lists = try FileManager.default.contentsOfDirectory(atPath: root)
    let result = try ICSTest.run(
      ICSPeerTests.python, ["-c", Self.todomanScript, root + "/" + (lists.first ?? ""), bench.directory.file("cache")],
      environment: ["TZ": "UTC", "HOME": bench.directory.path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"])
    #expect(result.status == 0, "\(result.errors)")
    let todo = try #require(try JSONParser.parse(result.output).arrayValue?.first)
    #expect(todo["summary"] == .string("Weekly planning"))
    // todoman gives times in the local zone (UTC here): the same instants as in Berlin.
    #expect(todo["start"] == .string("2026-12-01T07:30:00+00:00"))
    #expect(todo["due"] == .string("2026-12-01T08:00:00+00:00"))
    #expect(todo["rrule"] == .string("FREQ=WEEKLY;BYDAY=TU"))
    #expect(todo["recurring"] == .bool(true))
  }
}

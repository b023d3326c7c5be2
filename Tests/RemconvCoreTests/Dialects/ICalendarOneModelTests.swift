import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `.ics` and jCal are one iCalendar model: every property and parameter, known or not,
/// crosses between them as a property of its own, and a to-do is done by one rule.
@Suite struct ICalendarOneModelTests {
  /// A VTODO with what the model reads and much it does not: recurrence, exceptions, a start,
  /// an alarm, classification, a location, a geographic position, an attendee with
  /// parameters, an unknown property with a parameter, an override of one occurrence.
  static let rich = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//Example//Tasks//EN\r
    X-WR-CALNAME:Chores\r
    CALSCALE:GREGORIAN\r
    BEGIN:VTODO\r
    UID:RICH-1\r
    DTSTAMP:20261101T100000Z\r
    SUMMARY:Water the plants\\, all of them\r
    DESCRIPTION:Line one\\nLine two\r
    STATUS:IN-PROCESS\r
    PERCENT-COMPLETE:40\r
    PRIORITY:3\r
    CLASS:PRIVATE\r
    LOCATION:Balcony\\; east side\r
    GEO:52.52;13.405\r
    DTSTART;TZID=Europe/Berlin:20261102T090000\r
    DUE;TZID=Europe/Berlin:20261102T100000\r
    RRULE:FREQ=WEEKLY;UNTIL=20261231T230000Z;BYDAY=MO,TH\r
    EXDATE;TZID=Europe/Berlin:20261109T090000,20261112T090000\r
    ATTENDEE;CN="Doe, Jane";ROLE=REQ-PARTICIPANT:mailto:jane@example.com\r
    X-FOO;X-BAR=baz:some value\r
    CATEGORIES:garden,home\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:Water\r
    TRIGGER;RELATED=START:-PT15M\r
    END:VALARM\r
    END:VTODO\r
    BEGIN:VTODO\r
    UID:RICH-1\r
    RECURRENCE-ID;TZID=Europe/Berlin:20261105T090000\r
    SUMMARY:Water the plants (late)\r
    DTSTART;TZID=Europe/Berlin:20261105T180000\r
    END:VTODO\r
    BEGIN:VTODO\r
    UID:CANCELLED-1\r
    SUMMARY:Dropped\r
    STATUS:CANCELLED\r
    PRIORITY:7\r
    END:VTODO\r
    BEGIN:VTODO\r
    UID:REOPENED-1\r
    SUMMARY:Reopened\r
    STATUS:NEEDS-ACTION\r
    COMPLETED:20261101T080000Z\r
    END:VTODO\r
    END:VCALENDAR\r

    """

  /// .ics → jCal → .ics, and the jCal itself: the same reminders each time, every property a
  /// real jCal property (nothing hidden in X-REMCONV-EXTRA).
  @Test func everyPropertyCrossesIcsToJCalAndBack() throws {
    let fromICS = try ICSTest.read(text: Self.rich)
    #expect(fromICS.reminders.count == 3)
    let jcal = try Dialects.write(JCalFormat.descriptor, [(fromICS.lists[0], fromICS.reminders)])
    #expect(!jcal.text.contains("x-remconv-extra"), "\(jcal.text)")
    // The one thing neither carries: a completion time on a to-do STATUS says is not done is
    // left out, as `.ics` leaves it out, and reported naming the reminder.
    #expect(jcal.diagnostics.map { "\($0.code) \($0.uid ?? "")" } == ["cannot-carry REOPENED-1"])
    var expected = fromICS.reminders
    expected[2].completedAt = nil
    let fromJCal = try Dialects.read(JCalFormat.descriptor, text: jcal.text, name: "rich.jcal")
    #expect(fromJCal.lists == fromICS.lists)
    #expect(fromJCal.reminders == expected)

    let (icsAgain, _) = try ICSTest.write([(fromJCal.lists[0], fromJCal.reminders)])
    let backInICS = try ICSTest.read(text: icsAgain)
    #expect(backInICS.reminders == expected)
    #expect(backInICS.lists == fromICS.lists)

    // The jCal is RFC 7265's: typed values, parameters as members, components nested.
    let document = try #require(try JSONParser.parse(jcal.text).arrayValue?.first?.arrayValue)
    let todos = try #require(document[2].arrayValue).compactMap(JCalComponent.init).filter { $0.name == "vtodo" }
    let rich = try #require(todos.first)
    let properties = rich.properties.compactMap(JCalProperty.init)
    func property(_ name: String) -> JCalProperty? { properties.first { $0.name == name } }
    #expect(property("status")?.text == "IN-PROCESS")
    #expect(property("priority")?.values == [.number("3")])
    #expect(property("percent-complete")?.values == [.number("40")])
    #expect(property("class")?.text == "PRIVATE")
    #expect(property("location")?.text == "Balcony; east side")
    #expect(property("geo")?.values == [.array([.number("52.52"), .number("13.405")])])
    #expect(property("dtstart")?.type == "date-time" && property("dtstart")?.text == "2026-11-02T09:00:00")
    #expect(property("dtstart")?.parameters == ["tzid": .string("Europe/Berlin")])
    #expect(
      property("rrule")?.values
        == [
          .object([
            "freq": .string("WEEKLY"), "until": .string("2026-12-31T23:00:00Z"),
            "byday": .array([.string("MO"), .string("TH")]),
          ])
        ])
    #expect(property("exdate")?.values == [.string("2026-11-09T09:00:00"), .string("2026-11-12T09:00:00")])
    #expect(property("attendee")?.parameters == ["cn": .string("Doe, Jane"), "role": .string("REQ-PARTICIPANT")])
    #expect(property("attendee")?.type == "cal-address")
    #expect(property("x-foo")?.parameters == ["x-bar": .string("baz")] && property("x-foo")?.type == "unknown")
    #expect(rich.components.compactMap(JCalComponent.init).map(\.name) == ["valarm"])
    #expect(todos.count == 4, "the override is a VTODO of its own, as in .ics")
    let cancelled = try #require(todos.first { $0.properties.contains(JCalProperty("uid", text: "CANCELLED-1").json) })
    let cancelledProperties = cancelled.properties.compactMap(JCalProperty.init)
    #expect(cancelledProperties.first { $0.name == "status" }?.text == "CANCELLED")
    #expect(cancelledProperties.first { $0.name == "priority" }?.values == [.number("7")])
  }

  /// jCal → .ics: the fixture a jCal producer wrote, read as .ics after the conversion.
  @Test func everyPropertyCrossesJCalToIcs() throws {
    let fromJCal = try Dialects.read(JCalFormat.descriptor, path: Dialects.fixture("jcal", "calendar.json"))
    let (ics, _) = try ICSTest.write([(fromJCal.lists[0], fromJCal.reminders)])
    for line in [
      "STATUS:IN-PROCESS", "PRIORITY:3", "PRIORITY:7", "STATUS:CANCELLED", "RRULE:FREQ=MONTHLY;INTERVAL=3",
      "DTSTART;TZID=Europe/Berlin:20261128T090000", "BEGIN:VALARM", "TRIGGER:-PT15M", "X-APPLE-SORT-ORDER:545683380",
    ] {
      #expect(ics.contains(line + "\r\n"), "\(line)")
    }
    #expect(!ics.contains("X-REMCONV-EXTRA"))
    let backInICS = try ICSTest.read(text: ics)
    #expect(backInICS.reminders == fromJCal.reminders)
  }

  /// One rule for both: STATUS, when it is one of RFC 5545's, decides; without it, COMPLETED
  /// or PERCENT-COMPLETE:100 say the to-do is done.
  @Test func theDoneRuleIsTheSameForIcsAndJCal() throws {
    let cases: [(status: String?, completed: Bool, done: Bool)] = [
      ("NEEDS-ACTION", true, false), ("IN-PROCESS", true, false), ("COMPLETED", false, true),
      ("CANCELLED", false, true), (nil, true, true), (nil, false, false),
    ]
    for (status, completed, done) in cases {
      var lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "BEGIN:VTODO", "UID:T", "SUMMARY:t"]
      if let status { lines.append("STATUS:" + status) }
      if completed { lines.append("COMPLETED:20261101T080000Z") }
      lines += ["END:VTODO", "END:VCALENDAR", ""]
      let ics = try #require(try ICSTest.read(text: lines.joined(separator: "\r\n")).reminders.first)
      var properties = #"["uid",{},"text","T"],["summary",{},"text","t"]"#
      if let status { properties += #",["status",{},"text",""# + status + #""]"# }
      if completed { properties += #",["completed",{},"date-time","2026-11-01T08:00:00Z"]"# }
      let jcal = #"["vcalendar",[],[["vtodo",["# + properties + "],[]]]]"
      let fromJCal = try #require(try Dialects.read(JCalFormat.descriptor, text: jcal, name: "t.jcal").reminders.first)
      #expect(ics.isDone == done, "\(status ?? "no STATUS"), COMPLETED \(completed)")
      #expect(fromJCal.isDone == done, "\(status ?? "no STATUS"), COMPLETED \(completed)")
      #expect(ics.completedAt == fromJCal.completedAt)
    }
  }

  // MARK: python-icalendar

  static let pythonScript = #"""
    import json, sys
    import icalendar

    with open(sys.argv[1], "rb") as handle:
        calendar = icalendar.Calendar.from_ical(handle.read())
    result = {}
    for todo in calendar.walk("VTODO"):
        if todo.get("RECURRENCE-ID") is not None:
            continue
        exdates = todo.get("EXDATE")
        exdates = exdates if isinstance(exdates, list) else ([exdates] if exdates is not None else [])
        result[str(todo.get("UID"))] = {
            "status": str(todo.get("STATUS", "")),
            "rrule": todo.get("RRULE").to_ical().decode() if todo.get("RRULE") is not None else None,
            "dtstart": todo.get("DTSTART").dt.isoformat() if todo.get("DTSTART") is not None else None,
            "exdate": [d.dt.isoformat() for e in exdates for d in e.dts],
            "alarms": len(todo.walk("VALARM")),
        }
    print(json.dumps(result))
    """#

  /// Runs when python-icalendar is installed, and always in CI, where its absence fails.
  static let runsPython = ICSPeerTests.hasPythonICalendar || ProcessInfo.processInfo.environment["CI"] != nil

  @Test(.enabled(if: runsPython, "needs /usr/bin/python3 with python3-icalendar"))
  func pythonICalendarSeesRecurrenceAndAlarmAfterJCalToIcs() throws {
    try #require(
      ICSPeerTests.hasPythonICalendar,
      "python3-icalendar for /usr/bin/python3 is not installed: Scripts/bootstrap.sh --test installs it")
    let fromICS = try ICSTest.read(text: Self.rich)
    let jcal = try Dialects.write(JCalFormat.descriptor, [(fromICS.lists[0], fromICS.reminders)])
    let fromJCal = try Dialects.read(JCalFormat.descriptor, text: jcal.text, name: "rich.jcal")
    let (ics, _) = try ICSTest.write([(fromJCal.lists[0], fromJCal.reminders)])
    let folder = TemporaryDirectory()
    let path = folder.write("converted.ics", ics)
    let result = try ICSTest.run(ICSPeerTests.python, ["-c", Self.pythonScript, path])
    #expect(result.status == 0, "\(result.errors)")
    let view = try JSONParser.parse(result.output)
    let rich = try #require(view["RICH-1"])
    #expect(rich["status"] == .string("IN-PROCESS"))
    #expect(rich["rrule"] == .string("FREQ=WEEKLY;UNTIL=20261231T230000Z;BYDAY=MO,TH"))
    #expect(rich["dtstart"] == .string("2026-11-02T09:00:00+01:00"))
    #expect(rich["exdate"] == .array([.string("2026-11-09T09:00:00+01:00"), .string("2026-11-12T09:00:00+01:00")]))
    #expect(rich["alarms"] == .number("1"))
    #expect(view["CANCELLED-1"]?["status"] == .string("CANCELLED"))
  }
}

/// A store that imported jCal with an older remconv holds `extra.jcal`: its properties are
/// written as the iCalendar properties they are, not hidden in `X-REMCONV-EXTRA`.
@Suite struct LegacyJCalExtraTests {
  @Test func keptJCalPropertiesAreWrittenAsProperties() throws {
    let list = ReminderList(
      id: "L", name: "Old",
      extra: ["jcal": .object(["properties": .array([JCalProperty("calscale", text: "GREGORIAN").json])])])
    var reminder = Reminder(id: "OLD-1", listID: "L", title: "t")
    reminder.extra = [
      "jcal": .object([
        "properties": .array([
          JCalProperty("rrule", [:], "recur", [.object(["freq": .string("DAILY"), "count": .number("3")])]).json,
          JCalProperty("class", text: "PRIVATE").json,
        ]),
        "components": .array([
          JCalComponent(
            name: "valarm",
            properties: [
              JCalProperty("action", text: "DISPLAY").json,
              JCalProperty("trigger", [:], "duration", [.string("-PT5M")]).json,
            ],
            components: []
          ).json
        ]),
        "status": .string("IN-PROCESS"),
      ])
    ]
    let (ics, _) = try ICSTest.write([(list, [reminder])])
    for line in [
      "CALSCALE:GREGORIAN", "RRULE:FREQ=DAILY;COUNT=3", "CLASS:PRIVATE", "BEGIN:VALARM", "TRIGGER:-PT5M",
      "STATUS:IN-PROCESS",
    ] {
      #expect(ics.contains(line + "\r\n"), "\(line)\n\(ics)")
    }
    #expect(!ics.contains("X-REMCONV-EXTRA"))
    let back = try #require(try ICSTest.read(text: ics).reminders.first)
    #expect(back.extra["ical"]?["status"] == .string("IN-PROCESS"))
    #expect(back.extra["jcal"] == nil)
  }
}

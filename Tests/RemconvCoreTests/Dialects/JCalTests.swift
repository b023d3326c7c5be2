import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

@Suite struct JCalTests {
  let format = JCalFormat.descriptor

  @Test func readsACalendarOfTodos() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("jcal", "calendar.json"))
    #expect(outcome.lists.count == 1, "the VTIMEZONE is the calendar's zone, not kept with the list")
    let list = outcome.lists[0]
    #expect(list.name == "Household")
    #expect(list.color == "#FF9500")
    #expect(list.id == StableID.derived(["list", ListName.key(for: "Household")]))
    #expect(
      list.extra["ical"]?["lines"] == .array([.string("CALSCALE:GREGORIAN"), .string("X-WR-TIMEZONE:Europe/Berlin")]))

    #expect(outcome.reminders.map(\.id) == ["0F2C6E0A-5B1D-4C39-9C9B-3D2A1B7E9F10", "A1B2", "F00D-1", "CANCEL-1"])
    let milk = outcome.reminders[0]
    #expect(milk.title == "Buy milk, eggs", "jCal text is not escaped")
    #expect(milk.notes == "2%\nlactose-free")
    #expect(milk.isDone)
    #expect(milk.completedAt == (try Dialects.timestamp("2026-11-29T11:59:00Z")))
    #expect(milk.priority == .high)
    #expect(milk.dueDate == .date(try Dialects.localDate("2026-11-30")))
    #expect(milk.tags == ["errands", "home"])
    #expect(milk.url == "https://example.com/x")
    #expect(milk.createdAt == (try Dialects.timestamp("2026-11-20T08:00:00Z")))
    #expect(milk.editedAt == (try Dialects.timestamp("2026-11-29T11:59:00Z")))
    #expect(milk.extra["ical"]?["lines"] == .array([.string("X-APPLE-SORT-ORDER:545683380")]))

    let gutters = outcome.reminders[1]
    #expect(!gutters.isDone)
    #expect(gutters.extra["ical"]?["status"] == .string("IN-PROCESS"))
    #expect(gutters.extra["ical"]?["percent"] == .number("40"))
    #expect(gutters.priority == .high)
    #expect(gutters.extra["ical"]?["priority"] == .number("3"), "the exact PRIORITY is kept")
    #expect(gutters.dueDate == .zoned(try Dialects.localDateTime("2026-12-02T17:00:00"), timeZone: "Europe/Berlin"))
    #expect(gutters.tags == ["outside", "ladder"], "several CATEGORIES properties add up")
    #expect(gutters.parentID == nil, "a CHILD relation is not a parent")
    // The start, rule and alarm are fields; nothing of them stays in the kept lines.
    #expect(gutters.extra["ical"]?["lines"] == nil)
    #expect(gutters.startDate == .zoned(try Dialects.localDateTime("2026-11-28T09:00:00"), timeZone: "Europe/Berlin"))
    #expect(gutters.recurrence == Recurrence(rule: "FREQ=MONTHLY;INTERVAL=3"))
    #expect(gutters.alarms == [Alarm(trigger: .relative(seconds: -900, to: .start), text: "Reminder")])

    let ladder = outcome.reminders[2]
    #expect(ladder.parentID == "A1B2", "RELATED-TO without RELTYPE is a parent")
    #expect(ladder.flagged)
    #expect(ladder.dueDate == .zoned(try Dialects.localDateTime("2026-12-01T10:00:00"), timeZone: "America/Chicago"))

    let cancelled = outcome.reminders[3]
    #expect(cancelled.isDone)
    #expect(cancelled.extra["ical"]?["status"] == .string("CANCELLED"))
    #expect(cancelled.priority == .low)
    #expect(cancelled.extra["ical"]?["priority"] == .number("7"))
    #expect(cancelled.dueDate == .floating(try Dialects.localDateTime("2026-11-15T18:00:00")))
    #expect(outcome.skipped == ["VEVENT"])
    #expect(outcome.diagnostics.allSatisfy { $0.location?.line != nil }, "\(outcome.diagnostics)")
  }

  @Test func readsAStreamOfCalendarsAndABareTodo() throws {
    let stream = try Dialects.read(format, path: Dialects.fixture("jcal", "stream.json"))
    #expect(stream.lists.map(\.name) == ["Work", "Empty"])
    #expect(stream.lists[0].id == "LIST-WORK")
    #expect(stream.lists[0].symbol == "briefcase")
    #expect(stream.reminders.map(\.listID) == ["LIST-WORK"])
    #expect(stream.reminders[0].dueDate == .utc(try Dialects.localDateTime("2026-11-30T08:00:00")))

    let solo = try Dialects.read(format, path: Dialects.fixture("jcal", "vtodo.json"))
    let todo = try #require(solo.reminders.first)
    #expect(solo.lists.map(\.name) == ["vtodo"], "a bare VTODO is read as the one VTODO of an unnamed calendar")
    #expect(todo.listID == solo.lists.first?.id)
    #expect(todo.isDone, "COMPLETED without STATUS is done")
  }

  @Test func badValuesAreWarningsAndKept() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("jcal", "bad-values.json"))
    let odd = try #require(outcome.reminder("ODD-1"))
    #expect(odd.dueDate == nil && odd.priority == .none)
    #expect(odd.extra["ical"]?["invalid"] == .array([.string("DUE:tomorrow"), .string("PRIORITY:12")]))
    #expect(odd.extra["ical"]?["status"] == .string("DONE-ISH"))
    // A COMPLETED in no zone is read in the reader's zone, as in .ics; with no known STATUS it
    // says the to-do is done.
    #expect(odd.completedAt == (try Dialects.timestamp("2026-11-01T09:00:00Z")) && odd.isDone)
    let noUID = try #require(outcome.reminder(titled: "No UID"))
    #expect(noUID.extra["ical"]?["invalid"] == .array([.string("PERCENT-COMPLETE:lots")]))
    #expect(noUID.dueDate == .floating(try Dialects.localDateTime("2026-12-01T10:00:00")), "an unknown zone")
    #expect(outcome.warnings("invalid-value").count == 3)
    #expect(outcome.warnings("missing-uid").count == 1)
    #expect(outcome.diagnostics.allSatisfy { $0.location?.line != nil })
  }

  /// Reading what the writer wrote gives the same lists and reminders, `extra` included.
  @Test func writesWhatItReadsBackUnchanged() throws {
    let outcome = try Dialects.read(format, path: Dialects.fixture("jcal", "calendar.json"))
    let list = try #require(outcome.lists.last)
    let written = try Dialects.write(format, [(list, outcome.reminders)])
    let again = try Dialects.read(format, text: written.text)
    #expect(again.lists.last == list)
    #expect(again.reminders == outcome.reminders)
    #expect(written.diagnostics.isEmpty, "\(written.diagnostics)")
    // A property that could not be read goes back out, kept as iCalendar keeps it.
    let odd = try Dialects.read(format, path: Dialects.fixture("jcal", "bad-values.json"))
    let oddWritten = try Dialects.write(format, [(odd.lists[0], odd.reminders)])
    #expect(oddWritten.text.contains("[\"x-remconv-invalid\",{},\"text\",\"DUE:tomorrow\"]"))
  }

  @Test func writesEveryKindOfDueAndTheRemconvProperties() throws {
    let list = ReminderList(id: "L", name: "Mixed", symbol: "star", color: "#112233")
    var reminder = Reminder(
      id: "R1", listID: "L", parentID: "P0", title: "Mixed", notes: "a\nb", flagged: true,
      dueDate: .zoned(try Dialects.localDateTime("2026-11-30T09:00:00"), timeZone: "Europe/Berlin"),
      priority: .medium, tags: ["x", ""], url: "https://example.com",
      createdAt: try Dialects.timestamp("2026-11-01T10:00:00.250Z"))
    reminder.extra = ["taskwarrior": .object(["depends": .array([.string("u1")])])]
    let written = try Dialects.write(format, [(list, [reminder])])
    let document = try JSONParser.parse(written.text)
    let calendar = try #require(document.arrayValue?.first?.arrayValue)
    let calendarProperties = try #require(calendar[1].arrayValue).compactMap(JCalProperty.init)
    #expect(calendarProperties.first { $0.name == "x-remconv-symbol" }?.text == "star")
    #expect(calendarProperties.first { $0.name == "x-apple-calendar-color" }?.text == "#112233")
    let components = try #require(calendar[2].arrayValue).compactMap(JCalComponent.init)
    #expect(components.map(\.name) == ["vtimezone", "vtodo"], "the zone the due date is in comes first")
    let todo = try #require(components.last)
    let properties = todo.properties.compactMap(JCalProperty.init)
    func property(_ name: String) -> JCalProperty? { properties.first { $0.name == name } }
    #expect(property("due")?.parameters == ["tzid": .string("Europe/Berlin")])
    #expect(property("due")?.text == "2026-11-30T09:00:00")
    #expect(property("due")?.type == "date-time")
    #expect(property("priority")?.values == [.number("5")])
    #expect(property("categories")?.values == [.string("x")])
    #expect(property("related-to")?.parameters == ["reltype": .string("PARENT")])
    #expect(property("x-remconv-flagged")?.values == [.bool(true)])
    #expect(property("x-remconv-extra")?.text == "{\"taskwarrior\":{\"depends\":[\"u1\"]}}")
    #expect(property("dtstamp")?.text == "2026-11-29T10:00:00Z")
    #expect(property("status")?.text == "NEEDS-ACTION")
    #expect(property("description")?.text == "a\nb")
    let reported = written.diagnostics.map(\.message)
    #expect(reported.contains { $0.contains("empty tag") })
    #expect(reported.contains { $0.contains("fractions of a second") })
    let back = try #require(try Dialects.read(format, text: written.text).reminders.first)
    #expect(back.extra["taskwarrior"] == reminder.extra["taskwarrior"])
    #expect(back.dueDate == reminder.dueDate && back.flagged && back.parentID == "P0" && back.notes == "a\nb")
  }

  @Test func isDetectedFromContent() throws {
    for name in ["calendar.json", "stream.json", "vtodo.json"] {
      #expect(try FormatRegistry.detect(for: .file(Dialects.fixture("jcal", name))).name == "jcal", "\(name)")
    }
    #expect(FormatRegistry.detect(forOutput: "out.jcal")?.name == "jcal")
  }
}

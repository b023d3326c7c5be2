import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// What remconv before 0009 kept of a start date, recurrence and alarms in `extra.ical.lines`
/// is lifted into the fields, and only that leaves `extra`.
@Suite struct ExtraScheduleLiftingTests {
  static func time(_ text: String) throws -> LocalDateTime { try #require(LocalDateTime(iso: text)) }
  static func strings(_ items: [String]) -> JSONValue { .array(items.map(JSONValue.string)) }
  static func ical(_ members: [String: JSONValue]) -> [String: JSONValue] { ["ical": .object(members)] }

  @Test func theReminderOfTheEarlierStoreIsLiftedWithoutLoss() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0008.sqlite", into: directory)
    let store = try Store(path: path)
    defer { store.close() }
    var reminder = try #require(try store.reminder(uid: "nextcloud-wochenplanung-3c1f@example.org")).reminder
    ExtraScheduleLifting.lift(&reminder)
    #expect(reminder.startDate == .zoned(try Self.time("2026-12-01T08:30:00"), timeZone: "Europe/Berlin"))
    #expect(
      reminder.recurrence
        == Recurrence(
          rule: "FREQ=WEEKLY;BYDAY=TU",
          exceptionDates: [.zoned(try Self.time("2026-12-22T09:00:00"), timeZone: "Europe/Berlin")]))
    #expect(reminder.alarms == [Alarm(trigger: .relative(seconds: -900, to: .start), text: "Wochenplanung")])
    // The line no field holds stays, alone.
    #expect(reminder.extra == Self.ical(["lines": Self.strings(["X-NEXTCLOUD-BOARD:12"])]))
    #expect(reminder.dueDate == .zoned(try Self.time("2026-12-01T09:00:00"), timeZone: "Europe/Berlin"))
  }

  @Test func whatTheFieldsCannotHoldStaysInExtra() {
    let lines = [
      "RRULE:FREQ=DAILY", "RRULE:FREQ=WEEKLY",  // two rules: no one recurrence
      "DTSTART;TZID=W. Europe Standard Time:20261201T080000",  // not an IANA zone
      "BEGIN:VALARM", "ACTION:AUDIO", "END:VALARM",  // no trigger
    ]
    var reminder = Reminder(id: "a", listID: "l", title: "t", extra: Self.ical(["lines": Self.strings(lines)]))
    let before = reminder
    ExtraScheduleLifting.lift(&reminder)
    #expect(reminder == before)
    #expect(ExtraScheduleLifting.lifted(before) == before)
    #expect(ExtraScheduleLifting.lifted(Reminder(id: "b", listID: "l", title: "t")) == nil)
  }

  @Test func alarmsKeepTheirOtherLinesAndKindsOfTrigger() throws {
    let lines = [
      "BEGIN:VALARM", "UID:A1", "ACTION:DISPLAY", "TRIGGER;VALUE=DATE-TIME:20261208T074500Z",
      "DESCRIPTION:Zahnarzt\\, 9 Uhr", "X-WR-ALARMUID:A1", "END:VALARM",
      "BEGIN:VALARM", "ACTION:EMAIL", "TRIGGER;RELATED=END:-P1DT2H", "END:VALARM",
      "RDATE;VALUE=DATE:20261224,20261231", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1", "X-REMCONV-REPEAT-FROM:COMPLETION",
      "DTSTART;VALUE=DATE:20261130",
    ]
    var reminder = Reminder(
      id: "a", listID: "l", title: "t", extra: Self.ical(["lines": Self.strings(lines), "status": .string("X")]))
    ExtraScheduleLifting.lift(&reminder)
    let at = try #require(Timestamp(iso: "2026-12-08T07:45:00Z"))
    #expect(
      reminder.alarms == [
        Alarm(trigger: .absolute(at), text: "Zahnarzt, 9 Uhr"),
        Alarm(trigger: .relative(seconds: -93_600, to: .due), action: "EMAIL"),
      ])
    let days = try ["2026-12-24", "2026-12-31"].map { try #require(LocalDate(iso: $0)) }
    #expect(
      reminder.recurrence
        == Recurrence(
          rule: "FREQ=MONTHLY;BYMONTHDAY=-1", additionalDates: days.map(DueDate.date), basis: .completion))
    #expect(reminder.startDate == .date(try #require(LocalDate(iso: "2026-11-30"))))
    #expect(
      reminder.extra
        == Self.ical([
          "status": .string("X"), "alarmLines": .array([Self.strings(["UID:A1", "X-WR-ALARMUID:A1"]), .array([])]),
        ]))
  }

  @Test func fieldsAlreadySetAreNotOverwritten() {
    let existing = Recurrence(rule: "FREQ=YEARLY")
    var reminder = Reminder(
      id: "a", listID: "l", title: "t", recurrence: existing,
      extra: Self.ical(["lines": Self.strings(["RRULE:FREQ=DAILY", "DTSTART:20261201T080000"])]))
    ExtraScheduleLifting.lift(&reminder)
    #expect(reminder.recurrence == existing)
    #expect(reminder.startDate == .floating(LocalDateTime(iso: "2026-12-01T08:00:00")!))
    #expect(reminder.extra == Self.ical(["lines": Self.strings(["RRULE:FREQ=DAILY"])]))
  }

  @Test(arguments: [
    ("-PT15M", -900), ("PT0S", 0), ("-P1D", -86_400), ("P2W", 1_209_600), ("-P1DT1H30M", -91_800), ("+PT1H", 3600),
  ])
  func durationsReadAndWriteBack(text: String, seconds: Int) {
    #expect(ICSDuration.seconds(text[...]) == seconds)
    #expect(ICSDuration.seconds(ICSDuration.text(seconds: seconds)[...]) == seconds)
  }

  @Test func malformedAndHugeDurations() {
    for text in ["P", "PT", "-P1H", "P1DT", "PT1S1M", "P1W1D", "15M"] {
      #expect(!ICSDuration.isWellFormed(text[...]) && ICSDuration.seconds(text[...]) == nil, "\(text)")
    }
    #expect(
      ICSDuration.isWellFormed("PT99999999999999999999M") && ICSDuration.seconds("PT99999999999999999999M") == nil)
  }
}

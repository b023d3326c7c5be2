import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The model's start date, recurrence and alarms: their JSON, the store's columns, the text rule.
@Suite struct ScheduleModelTests {
  static func sample() throws -> Reminder {
    let tokyo = DueDate.zoned(try #require(LocalDateTime(iso: "2026-12-01T09:00:00")), timeZone: "Asia/Tokyo")
    return Reminder(
      id: "R", listID: "L", title: "Weekly", dueDate: tokyo,
      startDate: .date(try #require(LocalDate(iso: "2026-11-30"))),
      recurrence: Recurrence(
        rule: "FREQ=WEEKLY;BYDAY=TU", exceptionDates: [tokyo],
        additionalDates: [.utc(try #require(LocalDateTime(iso: "2026-12-24T10:00:00")))], basis: .completion),
      alarms: [
        Alarm(trigger: .relative(seconds: -900, to: .start), action: "AUDIO", text: "soon"),
        Alarm(trigger: .absolute(try #require(Timestamp(iso: "2026-12-01T00:00:00.250Z")))),
      ])
  }

  @Test func theJSONFormReadsBackTheSame() throws {
    let reminder = try Self.sample()
    let recurrence = try #require(reminder.recurrence)
    let text = JSONText.encode(ScheduleJSON.value(recurrence))
    #expect(try ScheduleJSON.recurrence(JSONParser.parse(text)) == recurrence)
    let alarms = JSONText.encode(ScheduleJSON.value(reminder.alarms))
    #expect(try ScheduleJSON.alarms(JSONParser.parse(alarms)) == reminder.alarms)
  }

  @Test(arguments: [
    #"{"basis":"due"}"#, #"{"rule":""}"#, #"{"rule":"FREQ=DAILY","basis":"sometimes"}"#,
    #"{"rule":"FREQ=DAILY","exceptionDates":["2026-12-01"]}"#,
    #"{"rule":"FREQ=DAILY","exceptionDates":[{"date":"2026-12-01","timeZone":"Europe/Berlin"}]}"#, "[]",
  ])
  func aRecurrenceOfAnotherShapeIsRefused(text: String) throws {
    #expect(throws: ScheduleJSONError.self) { try ScheduleJSON.recurrence(JSONParser.parse(text)) }
  }

  @Test(arguments: [
    #"[{"action":"DISPLAY"}]"#, #"[{"at":"2026-12-01T09:00:00"}]"#, #"[{"offset":-60,"relatedTo":"end"}]"#, "{}",
  ])
  func anAlarmOfAnotherShapeIsRefused(text: String) throws {
    #expect(throws: ScheduleJSONError.self) { try ScheduleJSON.alarms(JSONParser.parse(text)) }
  }

  @Test func theStoreKeepsEveryField() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let reminder = try Self.sample()
    let list = try store.insertList(ReminderList(id: "L", name: "Team"))
    let row = try store.insertReminder(reminder, listRowID: list, parentRowID: nil)
    #expect(try store.reminder(rowID: row)?.reminder == reminder)
    #expect(try store.database.scalar("SELECT start_kind FROM reminders") == .text("date"))
    #expect(try store.database.scalar("SELECT start FROM reminders") == .text("2026-11-30"))
  }

  @Test func aStoredValueThatDoesNotParseIsKeptInInvalid() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let list = try store.insertList(ReminderList(id: "L", name: "Team"))
    let row = try store.insertReminder(Reminder(id: "R", listID: "L", title: "t"), listRowID: list, parentRowID: nil)
    try store.database.run(
      "UPDATE reminders SET recurrence = '{\"rule\":1}', alarms = 'not json', start = 'soon' WHERE id = ?",
      [.integer(row)])
    let read = try #require(try store.reminder(rowID: row)).reminder
    #expect(read.recurrence == nil && read.alarms.isEmpty && read.startDate == nil)
    #expect(
      read.extra["invalid"]
        == .object([
          "recurrence": .string(#"{"rule":1}"#), "alarms": .string("not json"), "startDate": .string("soon"),
        ]))
  }

  @Test func theTextRuleCleansAnAlarmsText() throws {
    var reminder = try Self.sample()
    reminder.alarms[0].text = "so\u{7}on"
    let cleaned = try #require(TextRule.cleaned(reminder))
    #expect(cleaned.0.alarms[0].text == "soon")
    #expect(cleaned.fields == ["alarms"])
  }
}

import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Taskwarrior's `recur`, `until` and `scheduled` as `recurrence` and `startDate`, and what
/// `task` cannot hold of them (or of alarms) reported and kept for the way back.
@Suite struct TaskwarriorRepeatsTests {
  let format = TaskwarriorFormat.descriptor
  let list = ReminderList(id: "L1", name: "Home")

  @Test func aTemplatesRecurAndUntilAreItsRuleAndScheduledIsTheStart() throws {
    let text = """
      [
      {"description":"Water plants","due":"20261201T080000Z","until":"20270131T230000Z","recur":"2w","mask":"-","rtype":"periodic","scheduled":"20261130T080000Z","status":"recurring","uuid":"81421bc8-4791-4947-ad50-e73c1bd19e7a"},
      {"description":"Water plants","due":"20261201T080000Z","until":"20270131T230000Z","imask":0,"parent":"81421bc8-4791-4947-ad50-e73c1bd19e7a","recur":"2w","status":"pending","uuid":"6854127d-9891-4874-abc2-dc3dc528079f"},
      {"description":"Expires","until":"20270131T230000Z","status":"pending","uuid":"0e0e0e0e-0000-4000-8000-000000000001"}
      ]
      """
    let outcome = try Dialects.read(format, text: text)
    #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
    let plants = try #require(outcome.reminder("81421bc8-4791-4947-ad50-e73c1bd19e7a"))
    #expect(plants.recurrence?.rule == "FREQ=WEEKLY;INTERVAL=2;UNTIL=20270131T230000Z")
    #expect(plants.recurrence?.basis == .dueDate)
    #expect(plants.startDate == .utc(try Dialects.localDateTime("2026-11-30T08:00:00")))
    let kept = try #require(plants.extra["taskwarrior"]?.objectValue)
    #expect(kept["recur"] == nil && kept["until"] == nil && kept["scheduled"] == nil, "now fields, not extra")
    #expect(kept["mask"] == .string("-") && kept["status"] == .string("recurring"))
    // The instance stays whole with its template; its `recur` is its template's.
    let instance = try #require(kept[TaskwarriorFormat.instancesKey]?.arrayValue?.first)
    #expect(instance["recur"] == .string("2w"))
    // `until` without `recur` is when `task` deletes a task: kept as it is.
    let expires = try #require(outcome.reminder(titled: "Expires"))
    #expect(expires.recurrence == nil)
    #expect(expires.extra["taskwarrior"]?["until"] == .string("20270131T230000Z"))
  }

  @Test func aRecurTaskDoesNotTakeIsKeptAndReported() throws {
    let text = """
      [{"description":"Odd","due":"20261201T080000Z","recur":"P1M2D","status":"recurring","uuid":"0e0e0e0e-0000-4000-8000-000000000002"}]
      """
    let outcome = try Dialects.read(format, text: text)
    let odd = try #require(outcome.reminders.first)
    #expect(odd.recurrence == nil)
    #expect(odd.extra["taskwarrior"]?["recur"] == .string("P1M2D"))
    #expect(outcome.warnings("unmapped-value").first?.message.contains("recur 'P1M2D' is no period") == true)
    let badEnd = try Dialects.read(
      format, text: text.replacingOccurrences(of: #""recur":"P1M2D""#, with: #""recur":"weekly","until":"soon""#))
    #expect(badEnd.reminders.first?.extra["taskwarrior"]?["until"] == .string("soon"))
    #expect(badEnd.warnings("unmapped-value").first?.message.contains("until 'soon' is not a Taskwarrior date") == true)
    // Written back as it came.
    let written = try Dialects.write(format, [(list, [odd])])
    let task = try #require(try JSONParser.parse(written.text).arrayValue?.first)
    #expect(task["recur"] == .string("P1M2D") && task["status"] == .string("recurring"))
  }

  /// Tuesday 09:00 in Berlin, weekly on Tuesday until the end of January, one Tuesday left
  /// out, an alarm 15 minutes before and a start the day before.
  func richReminder() throws -> Reminder {
    var reminder = Reminder(
      id: "b1a7e0c2-0001-4f00-8000-000000000022", listID: "L1", title: "Team call",
      dueDate: .zoned(try Dialects.localDateTime("2026-12-01T09:00:00"), timeZone: "Europe/Berlin"))
    reminder.startDate = .zoned(try Dialects.localDateTime("2026-11-30T09:00:00"), timeZone: "Europe/Berlin")
    reminder.recurrence = Recurrence(
      rule: "FREQ=WEEKLY;BYDAY=TU;UNTIL=20270131T230000Z",
      exceptionDates: [.zoned(try Dialects.localDateTime("2026-12-22T09:00:00"), timeZone: "Europe/Berlin")],
      additionalDates: [], basis: .dueDate)
    reminder.alarms = [Alarm(trigger: .relative(seconds: -900, to: .due), action: "DISPLAY", text: "Call")]
    return reminder
  }

  @Test func aRecurringReminderIsATemplateTaskRepeats() throws {
    let reminder = try richReminder()
    let written = try Dialects.write(format, [(list, [reminder])])
    let task = try #require(try JSONParser.parse(written.text).arrayValue?.first)
    #expect(task["status"] == .string("recurring"))
    #expect(task["recur"] == .string("weekly"))
    #expect(task["until"] == .string("20270131T230000Z"))
    #expect(task["due"] == .string("20261201T080000Z"))
    #expect(task["scheduled"] == .string("20261130T080000Z"))
    #expect(task["remconv_scheduled"] == .string("2026-11-30T09:00:00 Europe/Berlin"))
    #expect(task["remconv_recurrence"] != nil, "the exception rides along")
    #expect(task["remconv_alarms"] != nil)
    let reported = written.diagnostics.filter { $0.code == "cannot-carry" }.map(\.message)
    #expect(
      reported.contains { $0.contains("EXDATE 2026-12-22T09:00:00 Europe/Berlin") && $0.contains("recur:weekly") })
    #expect(reported.contains { $0.contains("Taskwarrior has no alarms: 1 alarm rides in remconv_alarms") })

    // Read back: the rule with its exception, the alarm and the start as they were.
    let again = try #require(try Dialects.read(format, text: written.text).reminders.first)
    #expect(again.recurrence == reminder.recurrence)
    #expect(again.alarms == reminder.alarms)
    #expect(again.startDate == reminder.startDate)
    #expect(again.dueDate == reminder.dueDate)
  }

  @Test func aRuleTaskCarriesWholeNeedsNothingKept() throws {
    var reminder = Reminder(
      id: "b1a7e0c2-0001-4f00-8000-000000000023", listID: "L1", title: "Rent",
      dueDate: .date(try Dialects.localDate("2026-12-01")))
    reminder.recurrence = Recurrence(
      rule: "FREQ=MONTHLY;UNTIL=20270601", exceptionDates: [], additionalDates: [], basis: .dueDate)
    let written = try Dialects.write(format, [(list, [reminder])])
    #expect(written.diagnostics.isEmpty, "\(written.diagnostics)")
    let task = try #require(try JSONParser.parse(written.text).arrayValue?.first)
    #expect(task["recur"] == .string("monthly"))
    #expect(task["until"] == .string("20270601T215959Z"), "the last second of that day in Berlin")
    #expect(task["remconv_recurrence"] == nil)
    let again = try #require(try Dialects.read(format, text: written.text).reminders.first)
    #expect(again.recurrence == reminder.recurrence, "UNTIL is a day again, as the due is")
  }

  @Test func aRuleTaskCannotFollowIsAPlainTaskWithTheRuleKept() throws {
    var reminder = try richReminder()
    reminder.recurrence = Recurrence(
      rule: "FREQ=MONTHLY;BYDAY=TU;BYSETPOS=1", exceptionDates: [], additionalDates: [], basis: .completion)
    reminder.alarms = []
    let written = try Dialects.write(format, [(list, [reminder])])
    let task = try #require(try JSONParser.parse(written.text).arrayValue?.first)
    #expect(task["recur"] == nil && task["until"] == nil)
    #expect(task["status"] == .string("pending"))
    let reported = written.diagnostics.filter { $0.code == "cannot-carry" }.map(\.message)
    #expect(reported.contains { $0.contains("cannot repeat by the rule FREQ=MONTHLY;BYDAY=TU;BYSETPOS=1") })
    let again = try #require(try Dialects.read(format, text: written.text).reminders.first)
    #expect(again.recurrence == reminder.recurrence)

    // Without a due, `task` repeats nothing.
    reminder.dueDate = nil
    reminder.recurrence?.rule = "FREQ=DAILY"
    let undated = try Dialects.write(format, [(list, [reminder])])
    #expect(undated.diagnostics.contains { $0.message.contains("repeats only a task with a due date") })
    let back = try #require(try Dialects.read(format, text: undated.text).reminders.first)
    #expect(back.recurrence == reminder.recurrence)
  }

  @Test func aRecurChangedInTaskwarriorWinsOverTheKeptRule() throws {
    let written = try Dialects.write(format, [(list, [try richReminder()])])
    let changed = written.text.replacingOccurrences(of: #""recur":"weekly""#, with: #""recur":"daily""#)
    #expect(changed != written.text)
    let reminder = try #require(try Dialects.read(format, text: changed).reminders.first)
    #expect(reminder.recurrence?.rule == "FREQ=DAILY;UNTIL=20270131T230000Z")
    #expect(reminder.recurrence?.exceptionDates == [])
    #expect(reminder.extra["taskwarrior"]?["remconv_recurrence"] == nil, "the stale rule is dropped")
  }

  @Test func aDoneRecurringReminderIsACompletedTask() throws {
    var reminder = try richReminder()
    reminder.isDone = true
    let written = try Dialects.write(format, [(list, [reminder])])
    let task = try #require(try JSONParser.parse(written.text).arrayValue?.first)
    #expect(task["status"] == .string("completed"))
    #expect(task["recur"] == .string("weekly"))
  }

  /// Stores of earlier versions kept `recur`, `until` and `scheduled` only in extra.
  @Test func whatAnEarlierVersionKeptInExtraIsLifted() throws {
    var reminder = Reminder(
      id: "81421bc8-4791-4947-ad50-e73c1bd19e7a", listID: "L1", title: "Water plants",
      dueDate: .utc(try Dialects.localDateTime("2026-12-01T23:00:00")))
    reminder.extra = [
      "taskwarrior": .object([
        "recur": .string("weekly"), "until": .string("20270131T230000Z"), "mask": .string("-"),
        "status": .string("recurring"), "scheduled": .string("20261130T080000Z"),
      ])
    ]
    let lifted = try #require(ExtraScheduleLifting.lifted(reminder), "the hook every read goes through")
    #expect(lifted.recurrence?.rule == "FREQ=WEEKLY;UNTIL=20270131T230000Z")
    #expect(lifted.startDate == .utc(try Dialects.localDateTime("2026-11-30T08:00:00")))
    #expect(lifted.extra["taskwarrior"] == .object(["mask": .string("-"), "status": .string("recurring")]))
    #expect(ExtraScheduleLifting.lifted(lifted) == lifted, "lifting twice changes nothing")
    // Reading the same task today gives the same reminder.
    let written = try Dialects.write(format, [(list, [lifted])])
    #expect(try Dialects.read(format, text: written.text).reminders.first?.recurrence == lifted.recurrence)
  }
}

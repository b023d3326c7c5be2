import Foundation
import Testing

@testable import RemconvCore

/// `done` on a repeating reminder (`RecurringCompletion`): the occurrence kept as a completed
/// copy, the reminder moved to its next occurrence by libical's rule.
@Suite struct RecurringCompletionTests {
  static let berlin = TimeZone(identifier: "Europe/Berlin")!
  static let now = Timestamp(iso: "2026-11-29T10:00:00Z")!

  private func date(_ text: String) throws -> DueDate { .date(try #require(LocalDate(iso: text))) }
  private func zoned(_ text: String, _ zone: String = "Europe/Berlin") throws -> DueDate {
    .zoned(try #require(LocalDateTime(iso: text)), timeZone: zone)
  }

  private func reminder(
    due: DueDate?, start: DueDate? = nil, rule: String, basis: Recurrence.Basis = .dueDate,
    exceptions: [DueDate] = [], alarms: [Alarm] = []
  ) -> Reminder {
    Reminder(
      id: "SERIES", listID: "L", title: "Water the plants", dueDate: due, startDate: start,
      recurrence: Recurrence(rule: rule, exceptionDates: exceptions, basis: basis), alarms: alarms)
  }

  private func done(_ reminder: Reminder, at moment: Timestamp = now) throws -> RecurringCompletion {
    try #require(RecurringCompletion.complete(reminder, at: moment, in: Self.berlin, historyID: "COPY"))
  }

  @Test func theOccurrenceIsKeptAndTheReminderMovesOn() throws {
    let weekly = reminder(
      due: try zoned("2026-12-01T09:00"), start: try zoned("2026-12-01T08:00"), rule: "FREQ=WEEKLY;BYDAY=TU",
      exceptions: [try zoned("2026-12-08T09:00")],
      alarms: [
        Alarm(trigger: .relative(seconds: -900, to: .due)),
        Alarm(trigger: .absolute(try #require(Timestamp(iso: "2026-12-01T07:30:00Z")))),
      ])
    let completion = try done(weekly)
    // The 8th is an exception: the next occurrence is the 15th, the start moves with it.
    #expect(completion.advanced.dueDate == (try zoned("2026-12-15T09:00")))
    #expect(completion.advanced.startDate == (try zoned("2026-12-15T08:00")))
    #expect(completion.advanced.isDone == false && completion.advanced.completedAt == nil)
    #expect(completion.advanced.recurrence == weekly.recurrence)
    #expect(completion.advanced.editedAt == Self.now)
    // The relative alarm follows by itself; the absolute one moves two weeks.
    #expect(
      completion.advanced.alarms == [
        Alarm(trigger: .relative(seconds: -900, to: .due)),
        Alarm(trigger: .absolute(try #require(Timestamp(iso: "2026-12-15T07:30:00Z")))),
      ])

    let copy = completion.history
    #expect(copy.id == "COPY")
    #expect(copy.isDone && copy.completedAt == Self.now)
    #expect(copy.dueDate == weekly.dueDate && copy.startDate == weekly.startDate)
    #expect(copy.recurrence == nil)
    #expect(copy.alarms == weekly.alarms)
    #expect(copy.extra[RecurringCompletion.seriesKey] == .string("SERIES"))
    #expect(copy.listID == weekly.listID && copy.title == weekly.title)
  }

  @Test(arguments: [
    ("FREQ=MONTHLY", "2026-01-31", "2026-03-31"),
    ("FREQ=MONTHLY;BYMONTHDAY=31", "2026-03-31", "2026-05-31"),
    ("FREQ=MONTHLY;BYMONTHDAY=-1", "2026-01-31", "2026-02-28"),
    ("FREQ=MONTHLY;BYMONTHDAY=-1", "2028-01-31", "2028-02-29"),
    ("FREQ=YEARLY", "2024-02-29", "2028-02-29"),
  ])
  func monthEndsAndTheLeapDay(rule: String, due: String, next: String) throws {
    #expect(try done(reminder(due: date(due), rule: rule)).advanced.dueDate == (try date(next)))
  }

  /// A daily 02:30 in Berlin done on the day before the clocks go forward is due at 02:30 on
  /// the day 02:30 does not exist (read as 01:30 UTC, the offset before the gap), and at 02:30
  /// the day after (00:30 UTC in summer time). An absolute alarm moves by the real time
  /// between the occurrences: 24 hours, then 23.
  @Test func dstInBerlin() throws {
    let alarm = Alarm(trigger: .absolute(try #require(Timestamp(iso: "2026-03-28T01:00:00Z"))))
    let daily = reminder(due: try zoned("2026-03-28T02:30"), rule: "FREQ=DAILY", alarms: [alarm])
    let first = try done(daily)
    #expect(first.advanced.dueDate == (try zoned("2026-03-29T02:30")))
    #expect(first.advanced.alarms.first?.trigger == .absolute(try #require(Timestamp(iso: "2026-03-29T01:00:00Z"))))
    let second = try done(first.advanced)
    #expect(second.advanced.dueDate == (try zoned("2026-03-30T02:30")))
    #expect(second.advanced.alarms.first?.trigger == .absolute(try #require(Timestamp(iso: "2026-03-30T00:00:00Z"))))
  }

  @Test func dstInNewYork() throws {
    let daily = reminder(due: try zoned("2026-03-07T02:30", "America/New_York"), rule: "FREQ=DAILY")
    #expect(try done(daily).advanced.dueDate == (try zoned("2026-03-08T02:30", "America/New_York")))
    let autumn = reminder(due: try zoned("2026-10-31T01:30", "America/New_York"), rule: "FREQ=DAILY")
    #expect(try done(autumn).advanced.dueDate == (try zoned("2026-11-01T01:30", "America/New_York")))
  }

  /// COUNT is lowered as occurrences pass, so the rule read from the new due date makes the
  /// occurrences still to come; the last occurrence is completed like any reminder.
  @Test func countEndsTheSeries() throws {
    let three = reminder(due: try date("2026-12-01"), rule: "FREQ=DAILY;COUNT=3")
    let first = try done(three)
    #expect(first.advanced.dueDate == (try date("2026-12-02")))
    #expect(try RecurrenceRule(try #require(first.advanced.recurrence?.rule)).count == 2)
    let second = try done(first.advanced)
    #expect(second.advanced.dueDate == (try date("2026-12-03")))
    #expect(try RecurrenceRule(try #require(second.advanced.recurrence?.rule)).count == 1)
    #expect(RecurringCompletion.complete(second.advanced, at: Self.now, in: Self.berlin, historyID: "C") == nil)
  }

  @Test func countCountsASkippedOccurrence() throws {
    // The 2nd is an exception: done on the 1st moves to the 3rd, two of the four used up.
    let four = reminder(
      due: try date("2026-12-01"), rule: "FREQ=DAILY;COUNT=4", exceptions: [try date("2026-12-02")])
    let first = try done(four)
    #expect(first.advanced.dueDate == (try date("2026-12-03")))
    #expect(try RecurrenceRule(try #require(first.advanced.recurrence?.rule)).count == 2)
  }

  @Test func untilEndsTheSeries() throws {
    let weekly = reminder(due: try date("2026-12-08"), rule: "FREQ=WEEKLY;UNTIL=20261215")
    let first = try done(weekly)
    #expect(first.advanced.dueDate == (try date("2026-12-15")))
    #expect(RecurringCompletion.complete(first.advanced, at: Self.now, in: Self.berlin, historyID: "C") == nil)
  }

  /// From completion: the series starts again on the day it was done (in Berlin), at the due
  /// date's time of day.
  @Test func fromCompletion() throws {
    let every3 = reminder(
      due: try zoned("2026-11-20T18:00"), start: try zoned("2026-11-20T17:00"), rule: "FREQ=DAILY;INTERVAL=3",
      basis: .completion)
    let completion = try done(every3, at: try #require(Timestamp(iso: "2026-11-29T23:30:00Z")))
    // 23:30 UTC on the 29th is the 30th in Berlin: three days on is 3 December.
    #expect(completion.advanced.dueDate == (try zoned("2026-12-03T18:00")))
    #expect(completion.advanced.startDate == (try zoned("2026-12-03T17:00")))
    let dated = reminder(due: try date("2026-11-20"), rule: "FREQ=WEEKLY", basis: .completion)
    #expect(try done(dated).advanced.dueDate == (try date("2026-12-06")))
  }

  @Test func withoutADueDateTheStartDateRepeats() throws {
    let started = reminder(due: nil, start: try date("2026-12-01"), rule: "FREQ=WEEKLY")
    let completion = try done(started)
    #expect(completion.advanced.startDate == (try date("2026-12-08")))
    #expect(completion.advanced.dueDate == nil)
  }

  @Test func whatCannotRepeatIsCompletedAsAnyReminder() throws {
    let invalid = reminder(due: try date("2026-12-01"), rule: "FREQ=FORTNIGHTLY")
    #expect(RecurringCompletion.complete(invalid, at: Self.now, in: Self.berlin, historyID: "C") == nil)
    let undated = reminder(due: nil, rule: "FREQ=DAILY")
    #expect(RecurringCompletion.complete(undated, at: Self.now, in: Self.berlin, historyID: "C") == nil)
  }

  @Test func theCopysUIDIsDerivedFromTheOccurrence() throws {
    let weekly = reminder(due: try date("2026-12-01"), rule: "FREQ=WEEKLY")
    let first = RecurringCompletion.historyID(of: weekly, attempt: 0)
    #expect(first == RecurringCompletion.historyID(of: weekly, attempt: 0))
    #expect(first != RecurringCompletion.historyID(of: weekly, attempt: 1))
    var later = weekly
    later.dueDate = try date("2026-12-08")
    #expect(first != RecurringCompletion.historyID(of: later, attempt: 0))
  }
}

extension RecurringCompletion: Equatable {
  public static func == (lhs: RecurringCompletion, rhs: RecurringCompletion) -> Bool {
    lhs.advanced == rhs.advanced && lhs.history == rhs.history
  }
}

import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Repeating reminders, alarms and start dates in the app commands: `add`/`edit` with
/// `--repeat`, `--alarm`, `--start`; `done` moving a repeating reminder to its next occurrence
/// and keeping the occurrence done; `show` marking them; the smart lists following the move.
/// The clock is 2026-11-29T10:00:00Z, the zone Europe/Berlin.
@Suite struct AppRecurrenceTests {
  static let now = "2026-11-29T10:00:00Z"

  private func add(_ bench: TestBench, _ options: [String]) throws -> String {
    let result = bench.run(["add", "Team meeting", "--list", "Work"] + options)
    try #require(result.status == .ok, "\(result.errors)")
    return result.output.trimmingCharacters(in: .newlines)
  }

  /// The reminders of the Work list as the store reads them (the JSON contract's keys for the
  /// schedule are i22-core's: these tests read the model).
  private func work(_ bench: TestBench) throws -> [Reminder] {
    let store = try Store(path: bench.storePath)
    defer { store.close() }
    let list = try #require(try store.list(named: "Work"))
    var reminders: [Reminder] = []
    try store.forEachReminder(inListRow: list.rowID) { reminder, _ in reminders.append(reminder) }
    return reminders
  }

  private func stored(_ id: String, _ bench: TestBench) throws -> Reminder {
    try #require(try work(bench).first { $0.id == id })
  }

  private func zoned(_ text: String) throws -> DueDate {
    .zoned(try #require(LocalDateTime(iso: text)), timeZone: "Europe/Berlin")
  }

  private func instant(_ text: String) throws -> Alarm.Trigger { .absolute(try #require(Timestamp(iso: text))) }

  private func reminders(_ bench: TestBench) throws -> [[String: Any]] {
    try bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n").map {
      try JSONOutput.object(String($0))
    }
  }

  @Test func addTakesARuleAnAlarmAndAStart() throws {
    let bench = try AppFixture.bench()
    let id = try add(
      bench,
      [
        "--due", "2026-12-01T09:00", "--tz", "Europe/Berlin", "--start", "2026-12-01T08:00", "--repeat",
        "FREQ=WEEKLY;BYDAY=TU", "--alarm", "-15m", "--alarm", "2026-12-01T08:30",
      ])
    let reminder = try stored(id, bench)
    #expect(reminder.startDate == (try zoned("2026-12-01T08:00")))
    #expect(reminder.recurrence == Recurrence(rule: "FREQ=WEEKLY;BYDAY=TU", basis: .dueDate))
    // A wall time is read in the machine's zone: 08:30 in Berlin is 07:30 UTC.
    #expect(
      reminder.alarms.map(\.trigger) == [.relative(seconds: -900, to: .due), try instant("2026-12-01T07:30:00Z")])
  }

  @Test(arguments: [
    ("daily", "FREQ=DAILY"), ("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
    ("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2"),
  ])
  func repeatTakesTheCommonWords(words: String, rule: String) throws {
    let bench = try AppFixture.bench()
    let id = try add(bench, ["--due", "2026-12-01", "--repeat", words])
    #expect(try stored(id, bench).recurrence?.rule == rule)
  }

  @Test(arguments: [
    (["--due", "2026-12-01", "--repeat", "fortnightly"], "invalid for '--repeat'"),
    (["--due", "2026-12-01", "--repeat", "FREQ=WEEKLY;BYDAY=XX"], "libical cannot read it"),
    (["--due", "2026-12-01", "--alarm", "soon"], "invalid for '--alarm'"),
    (["--due", "2026-12-01", "--repeat-from", "completion"], "'--repeat-from' needs '--repeat'"),
  ])
  func badScheduleOptionsAreUsageErrors(options: [String], message: String) throws {
    let bench = try AppFixture.bench()
    let before = bench.snapshot()
    let result = bench.run(["add", "X", "--list", "Work"] + options)
    #expect(result.status == .usage, "\(result.errors)")
    #expect(result.errors.contains(message), "\(result.errors)")
    #expect(bench.snapshot() == before)
  }

  @Test(arguments: [
    (["--repeat", "daily"], "a repeating reminder needs a due date"),
    (["--alarm", "-15m"], "an alarm before or after the due date needs a due date"),
    (["--due", "2026-12-01", "--alarm", "start-10m"], "an alarm before or after the start date needs a start date"),
    (["--due", "2026-12-01", "--start", "2026-12-02"], "the start date 2026-12-02 is after the due date 2026-12-01"),
  ])
  func scheduleThatCannotBeIsRefused(options: [String], message: String) throws {
    let bench = try AppFixture.bench()
    let before = bench.snapshot()
    let result = bench.run(["add", "X", "--list", "Work"] + options)
    #expect(result.status == .dataError, "\(result.errors)")
    #expect(result.errors.contains(message), "\(result.errors)")
    #expect(bench.snapshot() == before)
  }

  /// A reminder that came with a start after its due date (an import) can still be edited;
  /// an edit of its dates answers for them.
  @Test func onlyAnEditOfTheDatesAnswersForThem() throws {
    let bench = try AppFixture.bench()
    let id = try add(bench, ["--due", "2026-12-01", "--start", "2026-11-30"])
    let store = try Store(path: bench.storePath)
    try store.database.run("UPDATE reminders SET start = '2026-12-05' WHERE uid = ?", [.text(id)])
    store.close()
    #expect(bench.run(["edit", id, "--title", "Renamed"]).status == .ok)
    let refused = bench.run(["edit", id, "--due", "2026-12-02"])
    #expect(refused.status == .dataError)
    #expect(refused.errors.contains("the start date 2026-12-05 is after the due date 2026-12-02"))
    #expect(bench.run(["edit", id, "--due", "2026-12-06"]).status == .ok)
  }

  @Test func editSetsAndClearsTheSchedule() throws {
    let bench = try AppFixture.bench()
    let id = try add(bench, ["--due", "2026-12-01", "--repeat", "weekly", "--alarm", "-1h"])
    #expect(bench.run(["edit", id, "--alarm", "09:00", "--repeat-from", "completion"]).status == .ok)
    var reminder = try stored(id, bench)
    // 09:00 of an all-day due: nine hours after its start, kept relative so it follows.
    #expect(
      reminder.alarms.map(\.trigger) == [.relative(seconds: -3600, to: .due), .relative(seconds: 32400, to: .due)])
    #expect(reminder.recurrence == Recurrence(rule: "FREQ=WEEKLY", basis: .completion))
    #expect(bench.run(["edit", id, "--start", "2026-11-30", "--alarm", "start-1d"]).status == .ok)
    #expect(try stored(id, bench).alarms.count == 3)
    #expect(bench.run(["edit", id, "--repeat", "none", "--alarm", "none", "--no-start"]).status == .ok)
    reminder = try stored(id, bench)
    #expect(reminder.recurrence == nil && reminder.alarms.isEmpty && reminder.startDate == nil)
    #expect(reminder.dueDate == .date(try #require(LocalDate(iso: "2026-12-01"))))
  }

  /// `done` keeps the occurrence as a completed copy and moves the reminder on: due, start
  /// and absolute alarm by a week, the relative alarm with the due date by itself.
  @Test func doneMovesARepeatingReminderToItsNextOccurrence() throws {
    let bench = try AppFixture.bench()
    let id = try add(
      bench,
      [
        "--due", "2026-12-01T09:00", "--tz", "Europe/Berlin", "--start", "2026-12-01T08:00", "--repeat",
        "FREQ=WEEKLY;BYDAY=TU", "--alarm", "-15m", "--alarm", "2026-12-01T08:30",
      ])
    let countBefore = try reminders(bench).count
    let result = bench.run(["done", id, "--json"])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.errors.contains("next: 2026-12-08 09:00 Europe/Berlin"), "\(result.errors)")

    let all = try reminders(bench)
    #expect(all.count == countBefore + 1)
    let series = try stored(id, bench)
    #expect(series.isDone == false && series.completedAt == nil)
    #expect(series.dueDate == (try zoned("2026-12-08T09:00")))
    #expect(series.startDate == (try zoned("2026-12-08T08:00")))
    #expect(series.recurrence?.rule == "FREQ=WEEKLY;BYDAY=TU")
    #expect(
      series.alarms.map(\.trigger) == [.relative(seconds: -900, to: .due), try instant("2026-12-08T07:30:00Z")])

    let copy = try #require(all.first { ($0["extra"] as? [String: Any])?["completedOccurrenceOf"] as? String == id })
    #expect(copy["isDone"] as? Bool == true)
    #expect(copy["completedAt"] as? String == Self.now)
    #expect(copy["dueDate"] as? String == "2026-12-01T09:00:00")
    #expect(copy["list"] as? String == "Work")
    let copyID = try #require(copy["id"] as? String)
    let copied = try stored(copyID, bench)
    let copiedStart = try zoned("2026-12-01T08:00")
    #expect(copied.recurrence == nil)
    #expect(copied.startDate == copiedStart)

    // --json prints the reminder moved on, with the copy.
    let printed = try JSONOutput.object(result.output)
    #expect(printed["dueDate"] as? String == "2026-12-08T09:00:00")
    #expect((printed["completedOccurrence"] as? [String: Any])?["id"] as? String == copy["id"] as? String)
  }

  @Test func theLastOccurrenceIsCompletedLikeAnyReminder() throws {
    let bench = try AppFixture.bench()
    let id = try add(bench, ["--due", "2026-12-01", "--repeat", "FREQ=DAILY;COUNT=2"])
    #expect(bench.run(["done", id]).status == .ok)
    var stored = try JSONOutput.reminder(id, in: bench)
    #expect(stored["dueDate"] as? String == "2026-12-02")
    #expect(stored["isDone"] as? Bool == false)
    let countBefore = try reminders(bench).count
    #expect(bench.run(["done", id]).status == .ok)
    stored = try JSONOutput.reminder(id, in: bench)
    #expect(stored["isDone"] as? Bool == true)
    #expect(stored["dueDate"] as? String == "2026-12-02")
    #expect(try reminders(bench).count == countBefore)
  }

  /// Today and Scheduled, their counts and the day groups follow the occurrence the reminder
  /// is at (the write path keeps `due_day`).
  @Test func theSmartListsFollowTheNextOccurrence() throws {
    let bench = try AppFixture.bench()
    let id = try add(bench, ["--due", "2026-11-29", "--repeat", "daily"])
    var today = try JSONOutput.ids(bench.run(["show", "--scope", "today", "--json"]).output)
    #expect(today.contains(id))
    var counts = try #require(try JSONOutput.object(bench.run(["lists", "--json"]).output)["counts"] as? [String: Int])
    #expect(counts["today"] == 5 && counts["scheduled"] == 8)

    #expect(bench.run(["done", id]).status == .ok)
    today = try JSONOutput.ids(bench.run(["show", "--scope", "today", "--json"]).output)
    #expect(!today.contains(id))
    counts = try #require(try JSONOutput.object(bench.run(["lists", "--json"]).output)["counts"] as? [String: Int])
    // The reminder is due tomorrow now; its copy for today is done: Completed, not counted.
    #expect(counts["today"] == 4 && counts["scheduled"] == 8)
    let scheduled = try JSONOutput.object(
      bench.run(["show", "--scope", "scheduled", "--group", "day", "--json"]).output)
    let row = try #require(try JSONOutput.array(scheduled, "reminders").first { $0["id"] as? String == id })
    #expect(row["day"] as? String == "2026-11-30")
    #expect(try JSONOutput.ids(bench.run(["show", "--scope", "today", "--json"]).output, "completed").count == 2)
  }

  @Test func showMarksRepeatingRemindersAndAlarms() throws {
    let bench = try AppFixture.bench()
    let repeating = try add(bench, ["--due", "2026-12-01", "--repeat", "weekly"])
    let alarmed = try add(bench, ["--due", "2026-12-01", "--alarm", "-1d"])
    let output = bench.run(["show", "Work"]).output
    let lines = output.split(separator: "\n")
    let repeatingLine = try #require(lines.first { $0.contains(repeating.prefix(8)) })
    let alarmedLine = try #require(lines.first { $0.contains(alarmed.prefix(8)) })
    #expect(repeatingLine.contains("↻") && !repeatingLine.contains("⏰"))
    #expect(alarmedLine.contains("⏰") && !alarmedLine.contains("↻"))
    #expect(!output.split(separator: "\n").contains { $0.contains("Call") && $0.contains("↻") })

    // --json carries the fields themselves (the JSON contract's keys).
    let json = try JSONOutput.array(JSONOutput.object(bench.run(["show", "Work", "--json"]).output), "reminders")
    let row = try #require(json.first { $0["id"] as? String == repeating })
    #expect((row["recurrence"] as? [String: Any])?["rule"] as? String == "FREQ=WEEKLY")
    let alarmedRow = try #require(json.first { $0["id"] as? String == alarmed })
    #expect((alarmedRow["alarms"] as? [[String: Any]])?.first?["offset"] as? Int == -86_400)

    // Scheduled, streamed by day, marks them too.
    let scheduled = bench.run(["show", "--scope", "scheduled"]).output
    #expect(scheduled.split(separator: "\n").contains { $0.contains(repeating.prefix(8)) && $0.contains("↻") })
  }
}

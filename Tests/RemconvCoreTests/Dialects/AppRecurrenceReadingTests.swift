import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Issue 22: the app dialects read repeats, alarms and start dates into the model's fields,
/// not also into `extra`, and keep (and report) what is no rule or alarm.
@Suite struct AppRecurrenceReadingTests {
  // MARK: TickTick

  static let tickTickHeader = """
    "Folder Name","List Name","Title","Kind","Tags","Content","Is Check list","Start Date","Due Date","Reminder",\
    "Repeat","Priority","Status","Created Time","Completed Time","Order","Timezone","Is All Day","Is Floating",\
    "Column Name","Column Order","View Mode","taskId","parentId"

    """

  static func tickTickRow(
    _ title: String, start: String = "", due: String = "", reminder: String = "", repeat rule: String = "",
    allDay: String = "false", id: String
  ) -> String {
    #""","Work","\#(title)","TEXT","","","N","\#(start)","\#(due)","\#(reminder)","\#(rule)","0","0","","","0","Europe/Berlin","\#(allDay)","false",,,"list","\#(id)",""\#n"#
  }

  @Test func aTickTickRowRepeatsWithItsAlarmsAndStart() throws {
    let text =
      Self.tickTickHeader
      + Self.tickTickRow(
        "Standup", start: "2026-12-01T08:00:00+0000", due: "2026-12-01T09:00:00+0000",
        reminder: "TRIGGER:-PT15M,TRIGGER:PT0S", repeat: "RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU", id: "1")
      + Self.tickTickRow(
        "Bins", start: "2026-11-30T23:00:00+0000", due: "2026-11-30T23:00:00+0000", reminder: "TRIGGER:P0DT9H0M0S",
        repeat: "FREQ=MONTHLY;BYMONTHDAY=1", allDay: "true", id: "2")
    let outcome = try Dialects.read(TickTickCSVFormat.descriptor, text: text, name: "backup.csv")
    #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
    let standup = try #require(outcome.reminder(titled: "Standup"))
    let wall = try #require(LocalDateTime(iso: "2026-12-01T10:00:00"))
    #expect(standup.dueDate == .zoned(wall, timeZone: "Europe/Berlin"))
    #expect(
      standup.startDate == .zoned(try #require(LocalDateTime(iso: "2026-12-01T09:00:00")), timeZone: "Europe/Berlin"))
    #expect(
      standup.recurrence
        == Recurrence(rule: "FREQ=WEEKLY;BYDAY=TU", exceptionDates: [], additionalDates: [], basis: .dueDate))
    #expect(
      standup.alarms == [
        Alarm(trigger: .relative(seconds: -900, to: .start), action: "DISPLAY", text: nil),
        Alarm(trigger: .relative(seconds: 0, to: .start), action: "DISPLAY", text: nil),
      ], "TickTick reminds from a task's start")
    let kept = standup.extra["ticktick"]?.objectValue ?? [:]
    #expect(kept["Repeat"] == nil && kept["Reminder"] == nil && kept["Start Date"] == nil, "fields, not also extra")

    let bins = try #require(outcome.reminder(titled: "Bins"))
    #expect(bins.dueDate == .date(try #require(LocalDate(iso: "2026-12-01"))))
    #expect(bins.startDate == nil, "a start equal to the due is TickTick's default, no start")
    #expect(bins.recurrence?.rule == "FREQ=MONTHLY;BYMONTHDAY=1")
    #expect(bins.alarms == [Alarm(trigger: .relative(seconds: 32_400, to: .due), action: "DISPLAY", text: nil)])
  }

  @Test func aTickTickRepeatOrReminderNoOtherAppReadsIsKeptAndReported() throws {
    let text =
      Self.tickTickHeader
      + Self.tickTickRow(
        "Review", due: "2026-12-01T09:00:00+0000", reminder: "at nine",
        repeat: "ERULE:NAME=CUSTOM;BYDATE=20261201,20261215", id: "3")
    let outcome = try Dialects.read(TickTickCSVFormat.descriptor, text: text, name: "backup.csv")
    let review = try #require(outcome.reminder(titled: "Review"))
    #expect(review.recurrence == nil && review.alarms.isEmpty)
    #expect(review.extra["ticktick"]?["Repeat"] == .string("ERULE:NAME=CUSTOM;BYDATE=20261201,20261215"))
    #expect(review.extra["ticktick"]?["Reminder"] == .string("at nine"))
    let repeats = outcome.warnings("unmapped-recurrence")
    #expect(repeats.count == 1 && repeats[0].message.contains("'ERULE:NAME=CUSTOM;BYDATE=20261201,20261215'"))
    #expect(repeats.first?.location?.line == 2 && repeats.first?.uid == review.id)
    #expect(outcome.warnings("unmapped-alarm").first?.message.contains("'at nine'") == true)
  }

  // MARK: Microsoft To Do

  static func graphTask(_ members: String) -> String {
    #"{"value":[{"id":"T1","title":"Task","importance":"normal",\#(members)}]}"#
  }

  @Test func aToDoTaskRepeatsWithItsReminderAndStart() throws {
    let text = Self.graphTask(
      #"""
      "isReminderOn":true,"reminderDateTime":{"dateTime":"2026-12-01T14:45:00.0000000","timeZone":"UTC"},
      "dueDateTime":{"dateTime":"2026-12-01T06:00:00.0000000","timeZone":"UTC"},
      "startDateTime":{"dateTime":"2026-11-24T06:00:00.0000000","timeZone":"UTC"},
      "recurrence":{"pattern":{"type":"relativeMonthly","interval":1,"month":0,"dayOfMonth":0,"daysOfWeek":["tuesday"],
        "firstDayOfWeek":"sunday","index":"first"},
        "range":{"type":"endDate","startDate":"2026-12-01","endDate":"2027-06-01","recurrenceTimeZone":"UTC",
        "numberOfOccurrences":0}}
      """#)
    let outcome = try Dialects.read(MicrosoftToDoFormat.descriptor, text: text, timeZone: Dialects.chicago)
    #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
    let task = try #require(outcome.reminders.first)
    #expect(task.dueDate == .date(try #require(LocalDate(iso: "2026-12-01"))))
    #expect(task.startDate == .date(try #require(LocalDate(iso: "2026-11-24"))))
    #expect(task.recurrence?.rule == "FREQ=MONTHLY;UNTIL=20270601;BYDAY=1TU")
    #expect(task.recurrence?.basis == .dueDate)
    #expect(
      task.alarms == [
        Alarm(trigger: .absolute(try Dialects.timestamp("2026-12-01T14:45:00Z")), action: "DISPLAY", text: nil)
      ])
    #expect(task.extra["mstodo"] == nil, "every member is a field: \(String(describing: task.extra["mstodo"]))")
  }

  @Test func aReminderSwitchedOffAndAPatternThatIsNoRuleAreKept() throws {
    let text = Self.graphTask(
      #"""
      "isReminderOn":false,"reminderDateTime":{"dateTime":"2026-12-01T14:45:00.0000000","timeZone":"UTC"},
      "recurrence":{"pattern":{"type":"hourly","interval":4},"range":{"type":"noEnd"}}
      """#)
    let outcome = try Dialects.read(MicrosoftToDoFormat.descriptor, text: text, timeZone: Dialects.chicago)
    let task = try #require(outcome.reminders.first)
    #expect(task.alarms.isEmpty && task.recurrence == nil)
    #expect(task.extra["mstodo"]?["isReminderOn"] == .bool(false))
    #expect(task.extra["mstodo"]?["reminderDateTime"]?["dateTime"] == .string("2026-12-01T14:45:00.0000000"))
    #expect(task.extra["mstodo"]?["recurrence"]?["pattern"]?["type"] == .string("hourly"))
    let warning = try #require(outcome.warnings("unmapped-recurrence").first)
    #expect(warning.message.contains("'hourly'") && warning.uid == "T1")
  }

  @Test func aRangeStartingOnAnotherDayThanTheDueKeepsItsStart() throws {
    let text = Self.graphTask(
      #"""
      "dueDateTime":{"dateTime":"2026-12-08T06:00:00.0000000","timeZone":"UTC"},
      "recurrence":{"pattern":{"type":"weekly","interval":1,"daysOfWeek":["tuesday"]},
        "range":{"type":"numbered","startDate":"2026-12-01","numberOfOccurrences":5}}
      """#)
    let task = try #require(
      try Dialects.read(MicrosoftToDoFormat.descriptor, text: text, timeZone: Dialects.chicago).reminders.first)
    #expect(task.recurrence?.rule == "FREQ=WEEKLY;COUNT=5;BYDAY=TU")
    #expect(task.extra["mstodo"]?["recurrence"] == .object(["range": .object(["startDate": .string("2026-12-01")])]))
  }

  // MARK: Todoist

  @Test func aTodoistEveryPhraseIsTheRecurrenceAndWritesBack() throws {
    let text = """
      TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE
      task,Standup,,4,1,,,every tuesday,en,
      task,Water plants,,4,1,,,every! 3 days,,
      task,Gym,,4,1,,,every day at 7am,en,
      task,Montag,,4,1,,,jeden Montag,de,

      """
    let outcome = try Dialects.read(TodoistCSVFormat.descriptor, text: text, name: "Home.csv")
    let standup = try #require(outcome.reminder(titled: "Standup"))
    #expect(
      standup.recurrence
        == Recurrence(rule: "FREQ=WEEKLY;BYDAY=TU", exceptionDates: [], additionalDates: [], basis: .dueDate))
    #expect(standup.dueDate == nil && standup.extra["todoist"]?["DATE"] == nil)
    let plants = try #require(outcome.reminder(titled: "Water plants"))
    #expect(plants.recurrence?.rule == "FREQ=DAILY;INTERVAL=3" && plants.recurrence?.basis == .completion)
    for title in ["Gym", "Montag"] {
      let kept = try #require(outcome.reminder(titled: title))
      #expect(kept.recurrence == nil && kept.extra["todoist"]?["DATE"] != nil, "\(title)")
    }
    #expect(outcome.warnings("unparsed-date").count == 2)
    #expect(outcome.warnings("unparsed-date").first?.message.contains("'every day at 7am'") == true)

    let list = try #require(outcome.lists.first)
    let written = try Dialects.write(TodoistCSVFormat.descriptor, [(list, outcome.reminders)])
    #expect(written.text.contains("task,Standup,,4,1,,,every tuesday,en,"))
    #expect(written.text.contains("task,Water plants,,4,1,,,every! 3 days,en,"))
    #expect(written.text.contains("task,Gym,,4,1,,,every day at 7am,en,"))
    #expect(written.text.contains("task,Montag,,4,1,,,jeden Montag,de,"))
  }

  @Test func aTodoistExportReportsWhatTheTemplateCannotSay() throws {
    let list = ReminderList(id: "L", name: "Work")
    var due = Reminder(
      id: "A", listID: "L", title: "Pay rent", dueDate: .date(try #require(LocalDate(iso: "2026-12-01"))))
    due.recurrence = Recurrence(
      rule: "FREQ=MONTHLY;BYMONTHDAY=1", exceptionDates: [.date(try #require(LocalDate(iso: "2027-01-01")))],
      additionalDates: [], basis: .dueDate)
    due.alarms = [Alarm(trigger: .relative(seconds: -900, to: .due), action: "DISPLAY", text: nil)]
    due.startDate = .date(try #require(LocalDate(iso: "2026-11-28")))
    var unsaid = Reminder(
      id: "B", listID: "L", title: "Board", dueDate: .date(try #require(LocalDate(iso: "2026-12-04"))))
    unsaid.recurrence = Recurrence(
      rule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", exceptionDates: [], additionalDates: [], basis: .dueDate)
    let written = try Dialects.write(TodoistCSVFormat.descriptor, [(list, [due, unsaid])])
    #expect(written.text.contains("task,Pay rent,,4,1,,,every 1st,en,"))
    #expect(written.text.contains("task,Board,,4,1,,,2026-12-04,en,"), "no phrase: the due date is written")
    let reports = written.diagnostics.filter { $0.code == "cannot-carry" }
    func reported(_ uid: String, _ text: String) -> Bool {
      reports.contains { $0.uid == uid && $0.message.contains(text) }
    }
    #expect(reported("A", "writes the repeat as 'every 1st' in DATE, which leaves no room for the due date 2026-12-01"))
    #expect(reported("A", "cannot carry a repeat's exception and added dates: 1 and 0 not written"))
    #expect(reported("B", "has no phrase for the repeat 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1'"))
    let counts = reports.filter { $0.uid == nil }.map(\.message)
    #expect(
      counts.contains { $0.hasSuffix("alarms: 1") } && counts.contains { $0.hasSuffix("start dates: 1") }, "\(counts)")
  }

  // MARK: Google Tasks

  @Test func googleTasksReadsNoRepeatAlarmOrStart() throws {
    let text =
      #"{"kind":"tasks#tasks","items":[{"kind":"tasks#task","id":"G1","title":"Call","due":"2026-12-01T00:00:00.000Z"}]}"#
    let task = try #require(try Dialects.read(GoogleTasksFormat.descriptor, text: text).reminders.first)
    #expect(task.recurrence == nil && task.alarms.isEmpty && task.startDate == nil)
  }

  // MARK: What the read-only formats make of a stored reminder

  @Test func theReadOnlyDialectsProjectAStoredReminderToWhatTheyHold() throws {
    let due = DueDate.date(try #require(LocalDate(iso: "2026-12-01")))
    var stored = Reminder(id: "R", listID: "L", title: "Standup", dueDate: due)
    stored.startDate = .zoned(try #require(LocalDateTime(iso: "2026-11-30T09:00:00")), timeZone: "Europe/Berlin")
    stored.recurrence = Recurrence(
      rule: "FREQ=WEEKLY;INTERVAL=1;BYDAY=TU", exceptionDates: [.date(try #require(LocalDate(iso: "2026-12-08")))],
      additionalDates: [], basis: .completion)
    let instant = Alarm(trigger: .absolute(try Dialects.timestamp("2026-12-01T08:45:00Z")), action: "AUDIO", text: "Go")
    let relative = Alarm(trigger: .relative(seconds: -900, to: .start), action: "DISPLAY", text: "Soon")
    stored.alarms = [relative, instant]

    let toDo = MicrosoftToDoFormat.carried(stored)
    #expect(toDo.startDate == .date(try #require(LocalDate(iso: "2026-11-30"))))
    #expect(
      toDo.recurrence
        == Recurrence(rule: "FREQ=WEEKLY;BYDAY=TU", exceptionDates: [], additionalDates: [], basis: .dueDate))
    #expect(toDo.alarms == [Alarm(trigger: instant.trigger, action: "DISPLAY", text: nil)])

    let tickTick = TickTickRecurrence.carried(stored)
    #expect(tickTick.startDate == stored.startDate)
    #expect(tickTick.recurrence == toDo.recurrence)
    #expect(tickTick.alarms == [Alarm(trigger: relative.trigger, action: "DISPLAY", text: nil)])

    stored.recurrence?.rule = "FREQ=HOURLY;INTERVAL=4"
    #expect(MicrosoftToDoFormat.carried(stored).recurrence == nil, "no Graph pattern is hourly")
  }

  @Test(arguments: [
    ("FREQ=WEEKLY;BYDAY=TU", "FREQ=WEEKLY;BYDAY=TU"), ("FREQ=DAILY;INTERVAL=1;COUNT=3", "FREQ=DAILY;COUNT=3"),
    ("FREQ=WEEKLY;UNTIL=20270101T000000Z;BYDAY=MO", "FREQ=WEEKLY;UNTIL=20270101;BYDAY=MO"),
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;WKST=SU", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO"),
    ("FREQ=MONTHLY;BYDAY=-1FR", "FREQ=MONTHLY;BYDAY=-1FR"),
    ("FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=2", "FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=2"),
    ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "FREQ=YEARLY;BYMONTHDAY=29;BYMONTH=2"),
  ])
  func aRuleAGraphPatternSaysIsCarriedAsTheReaderGivesIt(rule: String, carried: String) {
    #expect(GraphRecurrence.carried(rule: rule) == carried)
  }

  @Test(arguments: [
    "FREQ=WEEKLY", "FREQ=MONTHLY;BYMONTHDAY=-1", "FREQ=MONTHLY;BYDAY=5MO", "FREQ=YEARLY;BYWEEKNO=20",
    "FREQ=DAILY;BYHOUR=9", "FREQ=MINUTELY", "FREQ=DAILY;COUNT=2;UNTIL=20270101",
  ])
  func aRuleNoGraphPatternSaysIsNotCarried(rule: String) {
    #expect(GraphRecurrence.carried(rule: rule) == nil)
  }

  // MARK: Lifting what earlier versions kept in extra

  @Test func whatEarlierVersionsKeptOfTickTickIsLifted() throws {
    let wall = try #require(LocalDateTime(iso: "2026-12-01T10:00:00"))
    var reminder = Reminder(id: "T", listID: "L", title: "Standup", dueDate: .zoned(wall, timeZone: "Europe/Berlin"))
    reminder.extra["ticktick"] = .object([
      "Repeat": .string("RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU"), "Reminder": .string("TRIGGER:-PT15M"),
      "Start Date": .string("2026-12-01T08:00:00+0000"), "Kind": .string("TEXT"),
    ])
    ExtraScheduleLifting.lift(&reminder)
    #expect(reminder.recurrence == Recurrence(rule: "FREQ=WEEKLY;BYDAY=TU"))
    #expect(
      reminder.startDate == .zoned(try #require(LocalDateTime(iso: "2026-12-01T09:00:00")), timeZone: "Europe/Berlin"))
    #expect(reminder.alarms == [Alarm(trigger: .relative(seconds: -900, to: .start))])
    #expect(reminder.extra["ticktick"] == .object(["Kind": .string("TEXT")]), "nothing held twice")

    var allDay = Reminder(
      id: "D", listID: "L", title: "Bins", dueDate: .date(try #require(LocalDate(iso: "2026-12-01"))))
    allDay.extra["ticktick"] = .object([
      "Start Date": .string("2026-11-30T23:00:00+0000"), "Timezone": .string("Europe/Berlin"),
      "Repeat": .string("ERULE:NAME=FORGETTINGCURVE;CYCLE=0"),
    ])
    ExtraScheduleLifting.lift(&allDay)
    #expect(allDay.startDate == nil, "the start was the due")
    #expect(allDay.recurrence == nil)
    #expect(
      allDay.extra["ticktick"]
        == .object(["Timezone": .string("Europe/Berlin"), "Repeat": .string("ERULE:NAME=FORGETTINGCURVE;CYCLE=0")]))
  }

  @Test func whatEarlierVersionsKeptOfToDoAndTodoistIsLifted() throws {
    var task = Reminder(
      id: "M", listID: "L", title: "Recycling", dueDate: .date(try #require(LocalDate(iso: "2026-11-04"))))
    task.extra["mstodo"] = try JSONParser.parse(
      #"""
      {"isReminderOn":true,"reminderDateTime":{"dateTime":"2026-11-04T07:00:00.0000000","timeZone":"UTC"},
       "recurrence":{"pattern":{"type":"weekly","interval":1,"daysOfWeek":["wednesday"],"firstDayOfWeek":"sunday"},
       "range":{"type":"noEnd","startDate":"2026-11-04","endDate":"0001-01-01"}},"hasAttachments":false}
      """#)
    ExtraScheduleLifting.lift(&task)
    #expect(task.recurrence == Recurrence(rule: "FREQ=WEEKLY;BYDAY=WE"))
    #expect(task.alarms == [Alarm(trigger: .absolute(try Dialects.timestamp("2026-11-04T07:00:00Z")))])
    #expect(task.extra["mstodo"] == .object(["hasAttachments": .bool(false)]))

    var todo = Reminder(id: "S", listID: "L", title: "Plants")
    todo.extra["todoist"] = .object(["DATE": .string("every! 3 days"), "DATE_LANG": .string("en")])
    ExtraScheduleLifting.lift(&todo)
    #expect(todo.recurrence == Recurrence(rule: "FREQ=DAILY;INTERVAL=3", basis: .completion))
    #expect(todo.extra["todoist"] == .object(["DATE_LANG": .string("en")]))

    var kept = Reminder(id: "K", listID: "L", title: "Gym")
    kept.extra["todoist"] = .object(["DATE": .string("every day at 7am")])
    kept.recurrence = nil
    ExtraScheduleLifting.lift(&kept)
    #expect(kept.recurrence == nil && kept.extra["todoist"]?["DATE"] == .string("every day at 7am"))
  }
}

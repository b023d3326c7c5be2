import Foundation

/// Lifts the repeats, alarms and start dates that the app dialects kept in `extra` before 0009
/// (`extra.ticktick`, `extra.mstodo`, `extra.todoist`) into the reminder's fields
/// (`ExtraScheduleLifting`), as their readers read them now. Only fields still empty are
/// filled, and only what is lifted leaves the entry; what the readers would keep (a TickTick
/// `ERULE`, a To Do reminder switched off, `every day at 9am`) stays as it was.
enum AppScheduleLifter {
  /// `Repeat`, `Reminder` and `Start Date` of a TickTick row.
  static func liftTickTick(_ reminder: inout Reminder) {
    guard var entry = reminder.extra[TickTickCSVFormat.extraKey]?.objectValue else { return }
    if reminder.startDate == nil, let text = entry["Start Date"]?.stringValue,
      let start = tickTickStart(text, due: reminder.dueDate, zoneName: entry["Timezone"]?.stringValue)
    {
      // A start equal to the due is TickTick's default: no start, as the reader has it.
      if start != reminder.dueDate { reminder.startDate = start }
      entry["Start Date"] = nil
    }
    if reminder.recurrence == nil, let text = entry["Repeat"]?.stringValue,
      let rule = TickTickRecurrence.rule(ofRepeat: text)
    {
      reminder.recurrence = Recurrence(rule: rule)
      entry["Repeat"] = nil
    }
    if reminder.alarms.isEmpty, let text = entry["Reminder"]?.stringValue,
      let offsets = TickTickRecurrence.offsets(ofReminder: text)
    {
      let anchor: Alarm.Anchor = reminder.startDate == nil ? .due : .start
      reminder.alarms = offsets.map { Alarm(trigger: .relative(seconds: $0, to: anchor)) }
      entry["Reminder"] = nil
    }
    reminder.extra[TickTickCSVFormat.extraKey] = entry.isEmpty ? nil : .object(entry)
  }

  /// A kept `Start Date` read as the reader reads it beside the due it had: in the due's zone,
  /// or, for a whole-day due, as a day in the row's `Timezone` (kept with such a due).
  private static func tickTickStart(_ text: String, due: DueDate?, zoneName: String?) -> DueDate? {
    switch (TickTickCSVFormat.Time(text), due) {
    case (.instant(let instant), .zoned(_, let name)?):
      return TimeZone(identifier: name).map {
        .zoned(TickTickCSVFormat.Reader.wallTime(of: instant, in: $0), timeZone: name)
      }
    case (.instant(let instant), .utc?):
      return .utc(instant.utcWallTime)
    case (.instant(let instant), .date?):
      guard let zoneName, let zone = TimeZone(identifier: zoneName) else { return nil }
      return .date(TickTickCSVFormat.Reader.wallTime(of: instant, in: zone).date)
    case (.wall(let wall), .floating?):
      return .floating(wall)
    default:
      return nil
    }
  }

  /// `recurrence`, `reminderDateTime` with `isReminderOn`, and `startDateTime` of a To Do task.
  static func liftMicrosoftToDo(_ reminder: inout Reminder) {
    guard var entry = reminder.extra[MicrosoftToDoFormat.extraKey]?.objectValue else { return }
    if reminder.recurrence == nil, let value = entry["recurrence"],
      case .success(let translation) = GraphRecurrence.rule(of: value)
    {
      reminder.recurrence = Recurrence(rule: translation.rule)
      entry["recurrence"] = nil
      if let seriesStart = translation.seriesStart, case .date(let day) = reminder.dueDate, day != seriesStart {
        entry["recurrence"] = .object(["range": .object(["startDate": .string(seriesStart.description)])])
      }
    }
    if reminder.alarms.isEmpty, entry["isReminderOn"]?.boolValue == true, let value = entry["reminderDateTime"],
      case .success(let dateTime) = GraphDateTime.parse(value)
    {
      reminder.alarms = [Alarm(trigger: .absolute(dateTime.timestamp))]
      entry["isReminderOn"] = nil
      entry["reminderDateTime"] = nil
    } else if entry["isReminderOn"] == .bool(false), entry["reminderDateTime"] == nil {
      entry["isReminderOn"] = nil
    }
    // The day To Do meant, where it does not depend on the zone it is read in (as the reader
    // would warn there); else it stays.
    if reminder.startDate == nil, let value = entry["startDateTime"],
      case .success(let dateTime) = GraphDateTime.parse(value)
    {
      let day = dateTime.day(in: .current)
      if day.exact {
        reminder.startDate = .date(day.date)
        entry["startDateTime"] = nil
      }
    }
    reminder.extra[MicrosoftToDoFormat.extraKey] = entry.isEmpty ? nil : .object(entry)
  }

  /// An `every` phrase kept in a Todoist task's `DATE`.
  static func liftTodoist(_ reminder: inout Reminder) {
    guard var entry = reminder.extra[TodoistCSVFormat.extraKey]?.objectValue, reminder.recurrence == nil,
      let text = entry["DATE"]?.stringValue
    else { return }
    let language = entry["DATE_LANG"]?.stringValue?.lowercased() ?? ""
    guard language.isEmpty || language == "en", let reading = TodoistRecurrence.reading(of: text) else { return }
    reminder.recurrence = Recurrence(rule: reading.rule, basis: reading.fromCompletion ? .completion : .dueDate)
    entry["DATE"] = nil
    reminder.extra[TodoistCSVFormat.extraKey] = entry.isEmpty ? nil : .object(entry)
  }
}

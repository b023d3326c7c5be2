/// Lifts DTSTART, RRULE, EXDATE, RDATE and VALARM out of `extra.ical.lines`, where remconv
/// before 0009 kept them, into the reminder's fields (`ExtraScheduleLifting`).
enum ICSScheduleLifter {
  static func lift(_ reminder: inout Reminder, namespace: String) {
    guard var entry = reminder.extra[namespace]?.objectValue, let items = entry["lines"]?.arrayValue else { return }
    let lines = items.compactMap(\.stringValue)
    guard lines.count == items.count else { return }
    let schedule = ICSSchedule(
      lines: lines, takeStart: reminder.startDate == nil, takeRecurrence: reminder.recurrence == nil,
      takeAlarms: reminder.alarms.isEmpty)
    guard schedule.kept.count < lines.count else { return }
    if let start = schedule.start { reminder.startDate = start }
    if let recurrence = schedule.recurrence { reminder.recurrence = recurrence }
    reminder.alarms += schedule.alarms
    entry["lines"] = schedule.kept.isEmpty ? nil : .array(schedule.kept.map(JSONValue.string))
    if !schedule.alarmLines.isEmpty {
      entry[ICSSchedule.alarmLinesKey] = .array(schedule.alarmLines.map { .array($0.map(JSONValue.string)) })
    }
    reminder.extra[namespace] = entry.isEmpty ? nil : .object(entry)
  }
}

import Foundation

/// A recurring task's rule as remconv reads it, and what remconv keeps in a task of the
/// recurrence and alarms `task` cannot hold, for the way back.
enum TaskwarriorRepeats {
  /// The recurrence of a template's `recur` and `until`, nil for a `recur` `task` would not
  /// take. UNTIL is a day when the due is one (RFC 5545 wants UNTIL of DTSTART's kind): the day
  /// of `until` in `timeZone`.
  static func recurrence(recur: String, until: String?, due: DueDate?, timeZone: TimeZone) -> Recurrence? {
    guard var rule = TaskwarriorRecur.rule(forRecur: recur) else { return nil }
    if let until {
      guard let instant = TaskwarriorDate.parse(until) else { return nil }
      if case .date = due {
        let seconds = instant.millisecondsSinceEpoch.floorDivided(by: 1000)
        rule += ";UNTIL=" + DueDate.localDay(ofUTCSeconds: seconds, in: timeZone).basicString
      } else {
        rule += ";UNTIL=" + TaskwarriorRecur.untilText(instant)
      }
    }
    return Recurrence(rule: rule)
  }

  /// `remconv_recurrence`: the recurrence as remconv had it (the JSON contract's shape, see
  /// `ScheduleJSON`) with the `recur` and `until` written for it (absent when none was). Reading
  /// restores it while the task's `recur` and `until` are still those.
  struct Kept: Equatable {
    var recurrence: Recurrence
    var recur: String?
    var until: String?

    init(recurrence: Recurrence, recur: String?, until: String?) {
      self.recurrence = recurrence
      self.recur = recur
      self.until = until
    }

    init?(udaText: String) {
      guard let value = try? JSONParser.parse(udaText), let recurrence = try? ScheduleJSON.recurrence(value) else {
        return nil
      }
      self.recurrence = recurrence
      recur = value["recur"]?.stringValue
      until = value["until"]?.stringValue
    }

    var udaText: String {
      var object = ScheduleJSON.value(recurrence).objectValue ?? [:]
      if let recur { object["recur"] = .string(recur) }
      if let until { object["until"] = .string(until) }
      return JSONText.encode(.object(object))
    }
  }

  /// `remconv_alarms`: the alarms in the JSON contract's shape.
  static func udaText(alarms: [Alarm]) -> String {
    ScheduleJSON.text(alarms)
  }

  static func alarms(fromUDA text: String) -> [Alarm]? {
    guard let value = try? JSONParser.parse(text) else { return nil }
    return try? ScheduleJSON.alarms(value)
  }
}

extension TaskwarriorRepeats {
  /// The lifter of `ExtraScheduleLifting`: a reminder an earlier remconv read from Taskwarrior
  /// kept a template's `recur` and `until` and a task's `scheduled` only in
  /// `extra.taskwarrior`; they become `recurrence` and `startDate` (when still empty), as reading
  /// the task today makes them. A `recur` `task` would not take, an instance's, and an `until`
  /// without `recur` stay. A date due's UNTIL is the day of `until` in this machine's zone.
  static func lift(_ reminder: inout Reminder) {
    guard var kept = reminder.extra[TaskwarriorFormat.extraKey]?.objectValue, kept["parent"] == nil else { return }
    if reminder.startDate == nil, let text = kept["scheduled"]?.stringValue, let instant = TaskwarriorDate.parse(text) {
      reminder.startDate = .utc(instant.utcWallTime)
      kept["scheduled"] = nil
    }
    if reminder.recurrence == nil, let recur = kept["recur"]?.stringValue,
      let recurrence = recurrence(
        recur: recur, until: kept["until"]?.stringValue, due: reminder.dueDate, timeZone: .current)
    {
      reminder.recurrence = recurrence
      kept["recur"] = nil
      kept["until"] = nil
    }
    reminder.extra[TaskwarriorFormat.extraKey] = kept.isEmpty ? nil : .object(kept)
  }
}

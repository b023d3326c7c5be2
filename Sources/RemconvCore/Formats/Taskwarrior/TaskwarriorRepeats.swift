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
    return Recurrence(rule: rule, exceptionDates: [], additionalDates: [], basis: .dueDate)
  }

  /// `remconv_recurrence`: the recurrence as remconv had it and the `recur` and `until` written
  /// for it (nil when none was written). Reading restores it while the task's `recur` and
  /// `until` are still those.
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
      guard let object = (try? JSONParser.parse(udaText))?.objectValue, let rule = object["rule"]?.stringValue,
        let basis = Recurrence.Basis(rawValue: object["basis"]?.stringValue ?? Recurrence.Basis.dueDate.rawValue),
        let exceptions = Self.dates(object["exceptionDates"]), let additions = Self.dates(object["additionalDates"])
      else { return nil }
      recurrence = Recurrence(rule: rule, exceptionDates: exceptions, additionalDates: additions, basis: basis)
      recur = object["recur"]?.stringValue
      until = object["until"]?.stringValue
    }

    var udaText: String {
      var object: [String: JSONValue] = ["rule": .string(recurrence.rule)]
      if !recurrence.exceptionDates.isEmpty {
        object["exceptionDates"] = .array(recurrence.exceptionDates.map { .string($0.description) })
      }
      if !recurrence.additionalDates.isEmpty {
        object["additionalDates"] = .array(recurrence.additionalDates.map { .string($0.description) })
      }
      if recurrence.basis != .dueDate { object["basis"] = .string(recurrence.basis.rawValue) }
      if let recur { object["recur"] = .string(recur) }
      if let until { object["until"] = .string(until) }
      return JSONText.encode(.object(object))
    }

    /// Dates as remconv's text (`2026-12-08`, `2026-12-08T09:00:00 Europe/Berlin`); absent is none.
    private static func dates(_ value: JSONValue?) -> [DueDate]? {
      guard let value else { return [] }
      guard let items = value.arrayValue else { return nil }
      let dates = items.compactMap { $0.stringValue.flatMap(TaskwarriorReader.dueDate(fromRemconvText:)) }
      return dates.count == items.count ? dates : nil
    }
  }

  // MARK: Alarms

  /// `remconv_alarms`: each alarm as `{"at": instant}` or `{"seconds": -900, "to": "due" |
  /// "start"}`, with its `action` and `text`.
  static func udaText(alarms: [Alarm]) -> String {
    JSONText.encode(
      .array(
        alarms.map { alarm in
          var object: [String: JSONValue] = ["action": .string(alarm.action)]
          switch alarm.trigger {
          case .absolute(let instant): object["at"] = .string(instant.description)
          case .relative(let seconds, let anchor):
            object["seconds"] = .number(String(seconds))
            object["to"] = .string(anchor.rawValue)
          }
          if let text = alarm.text { object["text"] = .string(text) }
          return .object(object)
        }))
  }

  static func alarms(fromUDA text: String) -> [Alarm]? {
    guard let items = (try? JSONParser.parse(text))?.arrayValue else { return nil }
    var alarms: [Alarm] = []
    for item in items {
      guard let action = item["action"]?.stringValue else { return nil }
      let value: Alarm.Trigger
      if let at = item["at"]?.stringValue, let instant = Timestamp(iso: at) {
        value = .absolute(instant)
      } else if let seconds = item["seconds"]?.intValue, let anchor = item["to"]?.stringValue.flatMap(Alarm.Anchor.init)
      {
        value = .relative(seconds: seconds, to: anchor)
      } else {
        return nil
      }
      alarms.append(Alarm(trigger: value, action: action, text: item["text"]?.stringValue))
    }
    return alarms
  }
}

extension TaskwarriorRepeats {
  /// A reminder an earlier remconv read from Taskwarrior, which kept a template's `recur` and
  /// `until` and a task's `scheduled` only in `extra.taskwarrior`: they become `recurrence` and
  /// `startDate` (when the reminder has none yet), as reading the task today would make them.
  /// A `recur` `task` would not take, an instance's, and an `until` without `recur` stay.
  static func lifted(_ reminder: Reminder, timeZone: TimeZone) -> Reminder {
    guard var kept = reminder.extra[TaskwarriorFormat.extraKey]?.objectValue, kept["parent"] == nil else {
      return reminder
    }
    var result = reminder
    if result.startDate == nil, let text = kept["scheduled"]?.stringValue, let instant = TaskwarriorDate.parse(text) {
      result.startDate = .utc(instant.utcWallTime)
      kept["scheduled"] = nil
    }
    if result.recurrence == nil, let recur = kept["recur"]?.stringValue,
      let recurrence = recurrence(
        recur: recur, until: kept["until"]?.stringValue, due: reminder.dueDate, timeZone: timeZone)
    {
      result.recurrence = recurrence
      kept["recur"] = nil
      kept["until"] = nil
    }
    result.extra[TaskwarriorFormat.extraKey] = .object(kept)
    return result
  }
}

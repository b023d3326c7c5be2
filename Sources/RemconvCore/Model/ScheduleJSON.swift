/// The JSON form of a start date's kin (exception and additional dates), a recurrence and an
/// alarm: the values of the JSON contract's `recurrence` and `alarms` keys, and what the store
/// keeps in its `recurrence` and `alarms` columns, so both read and write one shape.
///
///     "recurrence": {"rule": "FREQ=WEEKLY;BYDAY=TU", "basis": "due",
///                    "exceptionDates": [{"date": "2026-12-08T09:00:00", "timeZone": "Europe/Berlin"}],
///                    "additionalDates": []}
///     "alarms": [{"action": "DISPLAY", "text": "Gleich", "offset": -900, "relatedTo": "due"},
///                {"action": "DISPLAY", "text": null, "at": "2026-12-08T07:45:00Z"}]
public enum ScheduleJSON {
  /// A date of a recurrence's lists: `{"date": …}` with `"timeZone"` when it is zoned, the
  /// pair of `dueDate` and `dueTimeZone`.
  public static func value(_ date: DueDate) -> JSONValue {
    var members: [String: JSONValue] = ["date": .string(date.isoText)]
    if let zone = date.timeZoneIdentifier { members["timeZone"] = .string(zone) }
    return .object(members)
  }

  public static func value(_ recurrence: Recurrence) -> JSONValue {
    .object([
      "rule": .string(recurrence.rule),
      "basis": .string(recurrence.basis.rawValue),
      "exceptionDates": .array(recurrence.exceptionDates.map(value)),
      "additionalDates": .array(recurrence.additionalDates.map(value)),
    ])
  }

  public static func value(_ alarm: Alarm) -> JSONValue {
    var members: [String: JSONValue] = [
      "action": .string(alarm.action), "text": alarm.text.map(JSONValue.string) ?? .null,
    ]
    switch alarm.trigger {
    case .absolute(let instant): members["at"] = .string(instant.description)
    case .relative(let seconds, let anchor):
      members["offset"] = .number(String(seconds))
      members["relatedTo"] = .string(anchor.rawValue)
    }
    return .object(members)
  }

  public static func value(_ alarms: [Alarm]) -> JSONValue { .array(alarms.map(value)) }

  public static func date(_ value: JSONValue) throws(ScheduleJSONError) -> DueDate {
    guard let members = value.objectValue, let text = members["date"]?.stringValue else {
      throw .shape("a date is an object with a \"date\" string")
    }
    let zone = members["timeZone"]
    guard zone == nil || zone == .null || zone?.stringValue != nil else {
      throw .shape("\"timeZone\" is a string")
    }
    do {
      return try DueDate(isoText: text, timeZone: zone?.stringValue)
    } catch {
      throw .shape(error.description)
    }
  }

  public static func recurrence(_ value: JSONValue) throws(ScheduleJSONError) -> Recurrence {
    guard let members = value.objectValue else { throw .shape("a recurrence is an object") }
    guard let rule = members["rule"]?.stringValue, !rule.isEmpty else {
      throw .shape("a recurrence has a \"rule\" string (an RRULE value)")
    }
    var basis = Recurrence.Basis.dueDate
    if let text = members["basis"], text != .null {
      guard let name = text.stringValue, let parsed = Recurrence.Basis(rawValue: name) else {
        throw .shape("\"basis\" is \"due\" or \"completion\"")
      }
      basis = parsed
    }
    func dates(_ key: String) throws(ScheduleJSONError) -> [DueDate] {
      guard let list = members[key], list != .null else { return [] }
      guard let items = list.arrayValue else { throw .shape("\"\(key)\" is an array") }
      var result: [DueDate] = []
      for item in items { result.append(try date(item)) }
      return result
    }
    return Recurrence(
      rule: rule, exceptionDates: try dates("exceptionDates"), additionalDates: try dates("additionalDates"),
      basis: basis)
  }

  public static func alarm(_ value: JSONValue) throws(ScheduleJSONError) -> Alarm {
    guard let members = value.objectValue else { throw .shape("an alarm is an object") }
    let action = members["action"]?.stringValue ?? "DISPLAY"
    let text = members["text"]?.stringValue
    if let at = members["at"], at != .null {
      guard let instant = at.stringValue.flatMap(Timestamp.init(iso:)) else {
        throw .shape("an alarm's \"at\" is an instant (2026-12-08T07:45:00Z)")
      }
      return Alarm(trigger: .absolute(instant), action: action, text: text)
    }
    guard let seconds = members["offset"]?.intValue else {
      throw .shape("an alarm has \"at\" (an instant) or \"offset\" (seconds, negative before)")
    }
    var anchor = Alarm.Anchor.due
    if let related = members["relatedTo"], related != .null {
      guard let name = related.stringValue, let parsed = Alarm.Anchor(rawValue: name) else {
        throw .shape("an alarm's \"relatedTo\" is \"due\" or \"start\"")
      }
      anchor = parsed
    }
    return Alarm(trigger: .relative(seconds: seconds, to: anchor), action: action, text: text)
  }

  public static func alarms(_ value: JSONValue) throws(ScheduleJSONError) -> [Alarm] {
    guard let items = value.arrayValue else { throw .shape("alarms are an array") }
    var result: [Alarm] = []
    for item in items { result.append(try alarm(item)) }
    return result
  }
}

/// Why a recurrence, alarm or date in JSON could not be read.
public enum ScheduleJSONError: Error, Equatable, Sendable, CustomStringConvertible {
  case shape(String)

  public var description: String {
    switch self {
    case .shape(let text): text
    }
  }
}

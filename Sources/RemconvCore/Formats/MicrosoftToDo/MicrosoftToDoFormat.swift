import Foundation

/// `--format mstodo`: Microsoft To Do as Microsoft Graph returns it (`todoTask`), read only.
///
/// Accepted shapes: a page `{"@odata.context":…,"value":[todoTask…]}`, a bare array of
/// tasks, a list `{"displayName":…,"tasks":[…]}` (a `todoTaskList` with its tasks expanded),
/// and a page or array of such lists. Tasks outside a list go to the import's default list.
/// The mapping is in `docs/formats-apps.md`; what it does not use is kept in `extra.mstodo`.
public enum MicrosoftToDoFormat {
  public static let descriptor = FormatDescriptor(
    name: "mstodo", summary: "Microsoft To Do: Graph todoTask JSON (read only)", extensions: [],
    isDirectory: false,
    makeReader: { context in try MicrosoftToDoReader(context: context) },
    makeWriter: nil,
    sniff: { head in
      let json = JSONHead(head)
      guard json.startsAsJSON else { return false }
      let odata = json.values(of: "@odata.context") + json.values(of: "@odata.type")
      if odata.contains(where: { $0.contains("todoTask") || $0.contains("/todo/lists") }) { return true }
      let graphTaskKeys = ["importance", "isReminderOn", "checklistItems", "wellknownListName"]
      return graphTaskKeys.contains(where: json.hasKey)
    })

  static let extraKey = "mstodo"

  /// What To Do holds of a stored reminder's start, repeat and alarms (`FormatCarriage`): a
  /// day; a rule a Graph pattern says, from the due date, without exceptions or added dates;
  /// one alarm at an instant, with no text of its own.
  static func carried(_ reminder: Reminder) -> Reminder {
    var carried = reminder
    carried.startDate = reminder.startDate.map { start in
      switch start {
      case .date: start
      case .floating(let time), .utc(let time), .zoned(let time, _): .date(time.date)
      }
    }
    carried.recurrence = reminder.recurrence.flatMap { recurrence in
      GraphRecurrence.carried(rule: recurrence.rule).map {
        Recurrence(rule: $0, exceptionDates: [], additionalDates: [], basis: .dueDate)
      }
    }
    carried.alarms =
      reminder.alarms.first { alarm in
        if case .absolute = alarm.trigger { return true }
        return false
      }.map { [Alarm(trigger: $0.trigger, action: "DISPLAY", text: nil)] } ?? []
    return carried
  }
}

/// Graph's `dateTimeTimeZone`: a wall time without an offset (`2023-07-19T05:00:00.0000000`)
/// and the zone it is in (`UTC`, or an IANA name).
struct GraphDateTime {
  let wallTime: LocalDateTime
  let milliseconds: Int64
  let zone: TimeZone
  let zoneName: String

  /// Reads `{"dateTime":…,"timeZone":…}`, or says what is wrong with it.
  static func parse(_ value: JSONValue) -> Result<GraphDateTime, GraphDateTimeError> {
    guard let text = value["dateTime"]?.stringValue else { return .failure(.shape) }
    let zoneName = value["timeZone"]?.stringValue ?? "UTC"
    let parts = text.split(separator: ".", maxSplits: 1)
    guard let first = parts.first, let wallTime = LocalDateTime(iso: String(first)) else {
      return .failure(.dateTime(text))
    }
    var milliseconds: Int64 = 0
    if parts.count == 2 {
      let digits = Array(parts[1].utf8)
      guard !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return .failure(.dateTime(text)) }
      for (index, digit) in digits.prefix(3).enumerated() {
        milliseconds += Int64(digit - 0x30) * [100, 10, 1][index]
      }
    }
    guard let zone = TimeZone(identifier: zoneName), TimeZoneNames.isKnown(zoneName) else {
      return .failure(.zone(zoneName))
    }
    return .success(GraphDateTime(wallTime: wallTime, milliseconds: milliseconds, zone: zone, zoneName: zoneName))
  }

  var utcSeconds: Int64 { DueDate.utcSeconds(ofWallTime: wallTime, in: zone) }

  var timestamp: Timestamp { Timestamp(millisecondsSinceEpoch: utcSeconds * 1000 + milliseconds) }

  var isMidnight: Bool { wallTime.hour == 0 && wallTime.minute == 0 && wallTime.second == 0 && milliseconds == 0 }

  /// The day To Do meant. To Do keeps due dates as the user's local midnight, usually
  /// expressed in UTC: that instant is turned back into a day in `userZone`. `exact` is false
  /// when the instant is not a midnight there (then `userZone` is likely not the user's).
  func day(in userZone: TimeZone) -> (date: LocalDate, exact: Bool) {
    if isMidnight, zoneName != "UTC" { return (wallTime.date, true) }
    let seconds = utcSeconds
    let offset = Int64(userZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    let local = LocalDateTime(secondsSinceEpoch: seconds + offset)
    let exact = local.hour == 0 && local.minute == 0 && local.second == 0 && milliseconds == 0
    return (local.date, exact)
  }
}

enum GraphDateTimeError: Error, CustomStringConvertible {
  case shape
  case dateTime(String)
  case zone(String)

  var description: String {
    switch self {
    case .shape: "should be an object with dateTime and timeZone"
    case .dateTime(let text): "'\(text)' is not a date-time"
    case .zone(let name): "the time zone '\(name)' is not an IANA zone or UTC"
    }
  }
}

import Foundation

/// Apple Reminders' recurrence rules and alarms as the model's `recurrence` and `alarms`.
///
/// Both are rows of `ZREMCDOBJECT` (see `docs/formats-apple.md`). A recurrence rule
/// (`REMCDRecurrenceRule`) holds EventKit's `EKRecurrenceRule` in columns: `ZFREQUENCY` (0
/// daily, 1 weekly, 2 monthly, 3 yearly), `ZINTERVAL`, `ZOCCURRENCECOUNT` (0: none),
/// `ZENDDATE`, `ZFIRSTDAYOFTHEWEEK` (0: the default, else 1 Sunday … 7 Saturday) and JSON
/// arrays `ZDAYSOFTHEWEEK` (`{"dayOfTheWeek": 1…7 from Sunday, "weekNumber": 0 or ±n}`),
/// `ZDAYSOFTHEMONTH`, `ZMONTHSOFTHEYEAR`, `ZDAYSOFTHEYEAR`, `ZWEEKSOFTHEYEAR`, `ZSETPOSITIONS`.
/// An alarm (`REMCDAlarm`) points in `ZTRIGGER` at its trigger: `REMCDAlarmTimeIntervalTrigger`
/// (`ZTIMEINTERVAL`, seconds from the due date), `REMCDAlarmDateTrigger` (`ZDATECOMPONENTSDATA`,
/// the wall time of the alarm) or a location (not mapped). "Early reminders" are the
/// reminder's `ZDUEDATEDELTAALERTSDATA` (`{"dueDateDeltaAlerts": [{"dueDateDeltaUnit": 0
/// minutes … 4 months, "dueDateDeltaCount": -15}]}`).
enum AppleRepeatsAndAlarms {
  static let recurrenceEntity = "REMCDRecurrenceRule"
  static let alarmEntity = "REMCDAlarm"
  static let earlyRemindersColumn = "ZDUEDATEDELTAALERTSDATA"

  /// Why a row is not mapped: it stays in `extra.apple`, reported with this reason.
  struct Unmapped: Error, Equatable {
    var reason: String
  }

  /// What a reminder's rows give: its recurrence and alarms, the rows (or their columns not
  /// read) and early reminders that stay in `extra.apple`, and why each stays.
  struct Mapping {
    var recurrence: Recurrence?
    var alarms: [Alarm] = []
    var keptObjects: [AppleRemindersDatabase.ObjectRow] = []
    /// The early reminders not mapped, as `ZDUEDATEDELTAALERTSDATA` would hold them; nil when
    /// every one was (or there were none).
    var keptEarlyReminders: JSONValue?
    var reasons: [String] = []
  }

  /// Maps a reminder's object rows (alarms with their triggers, recurrence rules) and its
  /// early reminders. Rows of other entities are kept as they are.
  static func map(
    objects: [AppleRemindersDatabase.ObjectRow], triggers: [Int64: AppleRemindersDatabase.ObjectRow],
    earlyReminders: SQLValue?, allDay: Bool, timeZone: String?
  ) -> Mapping {
    var mapping = Mapping()
    for object in objects {
      switch object.entity {
      case recurrenceEntity:
        guard mapping.recurrence == nil else {
          mapping.keptObjects.append(object)
          mapping.reasons.append("a second recurrence rule (the model holds one)")
          continue
        }
        switch rule(object.columns, allDay: allDay) {
        case .success(let rule):
          mapping.recurrence = Recurrence(rule: rule)
          mapping.keep(object, without: ruleColumns)
        case .failure(let unmapped):
          mapping.keptObjects.append(object)
          mapping.reasons.append("a recurrence rule: \(unmapped.reason)")
        }
      case alarmEntity:
        // `ZTRIGGER` (Core Data may number it, `Z16_TRIGGER`).
        let link = object.columns.keys.first { $0.hasSuffix("TRIGGER") }
        let trigger = link.flatMap { ForeignRow(values: object.columns).int($0) }.flatMap { triggers[$0] }
        switch alarm(trigger: trigger.map { ($0.entity, $0.columns) }, timeZone: timeZone) {
        case .success(let alarm):
          mapping.alarms.append(alarm)
          mapping.keep(object, without: Set(link.map { [$0] } ?? []))
          if let trigger { mapping.keep(trigger, without: ["ZTIMEINTERVAL", "ZDATECOMPONENTSDATA", "ZALARM"]) }
        case .failure(let unmapped):
          mapping.keptObjects.append(object)
          if let trigger { mapping.keptObjects.append(trigger) }
          mapping.reasons.append("an alarm: \(unmapped.reason)")
        }
      default:
        mapping.keptObjects.append(object)
      }
    }
    let early = Self.earlyReminders(earlyReminders)
    mapping.alarms += early.alarms
    if !early.unmapped.isEmpty {
      mapping.keptEarlyReminders = .object(["dueDateDeltaAlerts": .array(early.unmapped)])
      mapping.reasons.append("early reminders that are no fixed time before the due date")
    }
    return mapping
  }

  // MARK: Recurrence rules

  /// The columns a recurrence rule is read from.
  static let ruleColumns: Set<String> = [
    "ZFREQUENCY", "ZINTERVAL", "ZOCCURRENCECOUNT", "ZENDDATE", "ZFIRSTDAYOFTHEWEEK", "ZDAYSOFTHEWEEK",
    "ZDAYSOFTHEMONTH", "ZMONTHSOFTHEYEAR", "ZDAYSOFTHEYEAR", "ZWEEKSOFTHEYEAR", "ZSETPOSITIONS",
  ]

  /// The RRULE value of a recurrence rule row. The end date is a date when the reminder is
  /// all-day (RFC 5545 wants UNTIL of the due's kind), else a UTC instant.
  static func rule(_ columns: [String: SQLValue], allDay: Bool) -> Result<String, Unmapped> {
    let row = ForeignRow(values: columns)
    let frequencies = ["DAILY", "WEEKLY", "MONTHLY", "YEARLY"]
    guard let code = row.int("ZFREQUENCY"), frequencies.indices.contains(Int(code)) else {
      return .failure(Unmapped(reason: "ZFREQUENCY \(describe(columns["ZFREQUENCY"])) is no EventKit frequency"))
    }
    var parts = ["FREQ=" + frequencies[Int(code)]]
    let interval = row.int("ZINTERVAL") ?? 1
    guard interval >= 0 else { return .failure(Unmapped(reason: "ZINTERVAL \(interval) is negative")) }
    if interval > 1 { parts.append("INTERVAL=\(interval)") }
    if let count = row.int("ZOCCURRENCECOUNT"), count != 0 {
      guard count > 0 else { return .failure(Unmapped(reason: "ZOCCURRENCECOUNT \(count) is negative")) }
      parts.append("COUNT=\(count)")
    }
    if let end = row.double("ZENDDATE") {
      guard let instant = CoreDataValues.timestamp(end) else {
        return .failure(Unmapped(reason: "ZENDDATE \(end) is no date"))
      }
      let wall = instant.utcWallTime
      parts.append("UNTIL=" + (allDay ? wall.date.basicString : wall.basicString + "Z"))
    }
    let lists: [(column: String, part: String, range: ClosedRange<Int>)] = [
      ("ZMONTHSOFTHEYEAR", "BYMONTH", 1...12), ("ZWEEKSOFTHEYEAR", "BYWEEKNO", -53...53),
      ("ZDAYSOFTHEYEAR", "BYYEARDAY", -366...366), ("ZDAYSOFTHEMONTH", "BYMONTHDAY", -31...31),
    ]
    for list in lists {
      switch numbers(columns[list.column], in: list.range) {
      case .success(let values?): parts.append("\(list.part)=" + values.map(String.init).joined(separator: ","))
      case .success(nil): break
      case .failure(let unmapped): return .failure(unmapped)
      }
    }
    switch days(columns["ZDAYSOFTHEWEEK"]) {
    case .success(let days?): parts.append("BYDAY=" + days.joined(separator: ","))
    case .success(nil): break
    case .failure(let unmapped): return .failure(unmapped)
    }
    switch numbers(columns["ZSETPOSITIONS"], in: -366...366) {
    case .success(let values?): parts.append("BYSETPOS=" + values.map(String.init).joined(separator: ","))
    case .success(nil): break
    case .failure(let unmapped): return .failure(unmapped)
    }
    if let first = row.int("ZFIRSTDAYOFTHEWEEK"), first != 0 {
      guard (1...7).contains(first) else {
        return .failure(Unmapped(reason: "ZFIRSTDAYOFTHEWEEK \(first) is no day of the week"))
      }
      parts.append("WKST=" + weekdayCodes[Int(first) - 1])
    }
    return .success(parts.joined(separator: ";"))
  }

  /// EventKit's days of the week, 1 Sunday … 7 Saturday.
  private static let weekdayCodes = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

  /// `ZDAYSOFTHEWEEK` as BYDAY values (`TU`, `2TU`, `-1FR`); nil when empty.
  private static func days(_ value: SQLValue?) -> Result<[String]?, Unmapped> {
    guard let array = jsonArray(value) else {
      return isEmpty(value) ? .success(nil) : .failure(Unmapped(reason: "ZDAYSOFTHEWEEK is no JSON array"))
    }
    var result: [String] = []
    for item in array {
      let day = item["dayOfTheWeek"]?.intValue ?? item.intValue
      let week = item["weekNumber"]?.intValue ?? 0
      guard let day, (1...7).contains(day), (-53...53).contains(week) else {
        return .failure(Unmapped(reason: "ZDAYSOFTHEWEEK holds \(JSONText.encode(item)), no day of the week"))
      }
      result.append((week == 0 ? "" : String(week)) + weekdayCodes[day - 1])
    }
    return .success(result.isEmpty ? nil : result)
  }

  /// A JSON array of whole numbers within `range`; nil when empty.
  private static func numbers(_ value: SQLValue?, in range: ClosedRange<Int>) -> Result<[Int]?, Unmapped> {
    guard let array = jsonArray(value) else {
      return isEmpty(value) ? .success(nil) : .failure(Unmapped(reason: "\(describe(value)) is no JSON array"))
    }
    var result: [Int] = []
    for item in array {
      guard let number = item.intValue, number != 0, range.contains(number) else {
        return .failure(Unmapped(reason: "\(JSONText.encode(item)) is not within \(range)"))
      }
      result.append(number)
    }
    return .success(result.isEmpty ? nil : result)
  }

  // MARK: Alarms

  /// The alarm of an alarm row and its trigger row.
  static func alarm(trigger: (entity: String, columns: [String: SQLValue])?, timeZone: String?) -> Result<
    Alarm, Unmapped
  > {
    guard let trigger else { return .failure(Unmapped(reason: "the alarm has no trigger")) }
    let row = ForeignRow(values: trigger.columns)
    switch trigger.entity {
    case "REMCDAlarmTimeIntervalTrigger":
      guard let seconds = row.double("ZTIMEINTERVAL"), seconds.isFinite, abs(seconds) < 1e9 else {
        return .failure(Unmapped(reason: "the time interval trigger has no ZTIMEINTERVAL"))
      }
      return .success(Alarm(trigger: .relative(seconds: Int(seconds.rounded()), to: .due)))
    case "REMCDAlarmDateTrigger":
      guard let components = jsonObject(trigger.columns["ZDATECOMPONENTSDATA"]) else {
        return .failure(Unmapped(reason: "ZDATECOMPONENTSDATA is no JSON date components"))
      }
      return absolute(components, timeZone: timeZone).map {
        Alarm(trigger: .absolute($0))
      }
    default:
      return .failure(Unmapped(reason: "a \(trigger.entity) is no time: the model has no such alarm"))
    }
  }

  /// Date components (`year`, `month`, `day`, `hour`, `minute`, `second`, and a `timeZone`
  /// name where Reminders wrote one) as an instant: in their own zone, else the reminder's.
  private static func absolute(_ components: [String: JSONValue], timeZone: String?) -> Result<Timestamp, Unmapped> {
    func number(_ key: String) -> Int? { components[key]?.intValue }
    guard let year = number("year"), let month = number("month"), let day = number("day"),
      let date = LocalDate(year: year, month: month, day: day),
      let time = LocalDateTime(
        date: date, hour: number("hour") ?? 0, minute: number("minute") ?? 0,
        second: number("second") ?? 0)
    else {
      return .failure(Unmapped(reason: "the date components \(JSONText.encode(.object(components))) are no date"))
    }
    let zoneName = components["timeZone"]?.stringValue ?? timeZone
    guard let zoneName, TimeZoneNames.isKnown(zoneName), let zone = TimeZone(identifier: zoneName) else {
      return .failure(Unmapped(reason: "the alarm's wall time \(time) has no known time zone"))
    }
    return .success(Timestamp(millisecondsSinceEpoch: DueDate.utcSeconds(ofWallTime: time, in: zone) * 1000))
  }

  /// Seconds of an early reminder's unit: minutes, hours, days, weeks (months have no length).
  private static let deltaUnits: [Int: (seconds: Int, name: String)] = [
    0: (60, "minute"), 1: (3600, "hour"), 2: (86400, "day"), 3: (604_800, "week"),
  ]

  /// The early reminders of `ZDUEDATEDELTAALERTSDATA` as alarms relative to the due date, and
  /// those that are not (a number of months), which stay in `extra.apple`.
  static func earlyReminders(_ value: SQLValue?) -> (alarms: [Alarm], unmapped: [JSONValue]) {
    guard let alerts = jsonObject(value)?["dueDateDeltaAlerts"]?.arrayValue else {
      return isEmpty(value) ? ([], []) : ([], [jsonValue(value) ?? .null])
    }
    var alarms: [Alarm] = []
    var unmapped: [JSONValue] = []
    for alert in alerts {
      guard let unit = alert["dueDateDeltaUnit"]?.intValue.flatMap({ deltaUnits[$0] }),
        let count = alert["dueDateDeltaCount"]?.intValue, abs(count) < 100_000
      else {
        unmapped.append(alert)
        continue
      }
      alarms.append(Alarm(trigger: .relative(seconds: count * unit.seconds, to: .due)))
    }
    return (alarms, unmapped)
  }

  // MARK: Column values

  /// A text or blob column holding JSON (Reminders writes these columns either way).
  private static func jsonValue(_ value: SQLValue?) -> JSONValue? {
    switch value {
    case .text(let text)?: return try? JSONParser.parse(text)
    case .blob(let bytes)?: return try? JSONParser.parse(String(decoding: bytes, as: UTF8.self))
    default: return nil
    }
  }

  private static func jsonArray(_ value: SQLValue?) -> [JSONValue]? { jsonValue(value)?.arrayValue }

  private static func jsonObject(_ value: SQLValue?) -> [String: JSONValue]? { jsonValue(value)?.objectValue }

  private static func isEmpty(_ value: SQLValue?) -> Bool {
    switch value {
    case nil, .null?: true
    case .text(let text)?: text.isEmpty
    case .blob(let bytes)?: bytes.isEmpty
    default: false
    }
  }

  private static func describe(_ value: SQLValue?) -> String {
    JSONText.encode(value.map(CoreDataValues.json) ?? .null)
  }
}

extension AppleRepeatsAndAlarms.Mapping {
  /// Keeps what the mapping did not read of a mapped row, if anything.
  fileprivate mutating func keep(_ object: AppleRemindersDatabase.ObjectRow, without read: Set<String>) {
    let rest = object.columns.filter { !read.contains($0.key) }
    if !rest.isEmpty { keptObjects.append(.init(key: object.key, entity: object.entity, columns: rest)) }
  }
}

extension AppleRepeatsAndAlarms {
  /// The lifter of `ExtraScheduleLifting`: a reminder an earlier remconv read from Reminders
  /// kept its recurrence rules, alarms and early reminders only in `extra.apple`; those that
  /// map become `recurrence` and `alarms` (when the reminder has neither yet), the rest stays
  /// where it was.
  static func lift(_ reminder: inout Reminder) {
    guard reminder.recurrence == nil, reminder.alarms.isEmpty,
      var apple = reminder.extra[AppleRemindersFormat.extraKey]?.objectValue
    else { return }
    let objects = (apple["objects"]?.arrayValue ?? []).compactMap { item -> AppleRemindersDatabase.ObjectRow? in
      guard var fields = item.objectValue, let entity = fields.removeValue(forKey: "entity")?.stringValue else {
        return nil
      }
      return .init(key: nil, entity: entity, columns: fields.mapValues(sqlValue))
    }
    var columns = apple["columns"]?.objectValue ?? [:]
    let early = columns[earlyRemindersColumn].map(sqlValue)
    guard objects.contains(where: { $0.entity == recurrenceEntity || $0.entity == alarmEntity }) || early != nil else {
      return
    }
    var allDay = false
    if case .date? = reminder.dueDate { allDay = true }
    let mapping = map(
      objects: objects, triggers: [:], earlyReminders: early, allDay: allDay,
      timeZone: reminder.dueDate?.timeZoneIdentifier ?? apple["timeZone"]?.stringValue)
    guard mapping.recurrence != nil || !mapping.alarms.isEmpty else { return }
    reminder.recurrence = mapping.recurrence
    reminder.alarms = mapping.alarms
    columns[earlyRemindersColumn] = mapping.keptEarlyReminders.map { .string(JSONText.encode($0)) }
    apple["columns"] = columns.isEmpty ? nil : .object(columns)
    apple["objects"] = extraObjects(mapping.keptObjects)
    reminder.extra[AppleRemindersFormat.extraKey] = apple.isEmpty ? nil : .object(apple)
  }

  /// Object rows as `extra.apple.objects` keeps them: `{entity, column: value}`; nil for none.
  static func extraObjects(_ rows: [AppleRemindersDatabase.ObjectRow]) -> JSONValue? {
    guard !rows.isEmpty else { return nil }
    return .array(
      rows.map { object in
        var fields = object.columns.mapValues(CoreDataValues.json)
        fields["entity"] = .string(object.entity)
        return .object(fields)
      })
  }

  /// A column value as `CoreDataValues.json` kept it.
  private static func sqlValue(_ value: JSONValue) -> SQLValue {
    switch value {
    case .string(let text): return .text(text)
    case .number(let text):
      if let integer = Int64(text) { return .integer(integer) }
      return Double(text).map(SQLValue.real) ?? .text(text)
    default: return .null
    }
  }
}

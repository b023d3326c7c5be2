/// Writes a JSON array of VCALENDARs, one per list, each VTODO on its own line.
///
/// Zoned due dates name their IANA zone in `tzid`; no VTIMEZONE is generated for them (the
/// VTIMEZONEs a jCal input carried are written back with its list).
final class JCalWriter: ReminderWriter {
  static let inputOrder = WriterInputOrder.groupedByList

  private let output: ByteWriter
  private let diagnostics: DiagnosticLog
  private let stamp: String
  private var listCount = 0
  private var todoCount = 0
  private var subSecondTimestamps = 0

  init(context: WriterContext) throws {
    output = try context.requireStream("jcal")
    diagnostics = context.diagnostics
    stamp = JCalTime.utcText(Timestamp(context.options.now))
    try output.write("[")
  }

  func beginList(_ list: ReminderList) throws {
    try output.write(listCount == 0 ? "\n" : ",\n")
    listCount += 1
    todoCount = 0
    try output.write("[\"vcalendar\",")
    try output.write(JSONText.encode(.array(calendarProperties(for: list))))
    try output.write(",[")
  }

  func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
    try output.write(todoCount == 0 ? "\n" : ",\n")
    todoCount += 1
    try output.write(JSONText.encode(todo(for: reminder).json))
  }

  func endList(_ list: ReminderList) throws {
    let kept = list.extra[JCalFormat.extraKey]?["components"]?.arrayValue ?? []
    for component in kept {
      try output.write(todoCount == 0 ? "\n" : ",\n")
      todoCount += 1
      try output.write(JSONText.encode(component))
    }
    try output.write(todoCount == 0 ? "]]" : "\n]]")
  }

  func finish() throws {
    try output.write(listCount == 0 ? "]\n" : "\n]\n")
    if subSecondTimestamps > 0 {
      diagnostics.warning(
        "cannot-carry",
        "\(subSecondTimestamps) timestamp(s) had fractions of a second; jCal date-times keep whole seconds, so they are cut"
      )
    }
    try output.flush()
  }

  // MARK: Lists

  private func calendarProperties(for list: ReminderList) -> [JSONValue] {
    var properties = [
      JCalProperty("version", text: "2.0"), JCalProperty("prodid", text: JCalFormat.productID),
      JCalProperty("uid", text: list.id), JCalProperty("name", text: list.name),
      JCalProperty("x-wr-calname", text: list.name),
    ]
    if let color = list.color { properties.append(JCalProperty("x-apple-calendar-color", text: color)) }
    if list.symbol != ReminderList.defaultSymbol {
      properties.append(JCalProperty("x-remconv-symbol", text: list.symbol))
    }
    if let createdAt = list.createdAt {
      properties.append(JCalProperty("x-remconv-created", [:], "date-time", [.string(utc(createdAt))]))
    }
    return Self.completed(properties, extra: list.extra)
  }

  // MARK: Reminders

  private func todo(for reminder: Reminder) -> JCalComponent {
    let jcal = reminder.extra[JCalFormat.extraKey]?.objectValue ?? [:]
    var properties = [
      JCalProperty("uid", text: reminder.id), JCalProperty("dtstamp", [:], "date-time", [.string(stamp)]),
    ]
    func instant(_ name: String, _ value: Timestamp?) {
      if let value { properties.append(JCalProperty(name, [:], "date-time", [.string(utc(value))])) }
    }
    instant("created", reminder.createdAt)
    instant("last-modified", reminder.editedAt)
    if !reminder.title.isEmpty { properties.append(JCalProperty("summary", text: reminder.title)) }
    if !reminder.notes.isEmpty { properties.append(JCalProperty("description", text: reminder.notes)) }

    let keptStatus = jcal["status"]?.stringValue?.uppercased()
    if reminder.isDone {
      let cancelled = keptStatus == "CANCELLED"
      properties.append(JCalProperty("status", text: cancelled ? "CANCELLED" : "COMPLETED"))
      instant("completed", reminder.completedAt)
      if !cancelled { properties.append(JCalProperty("percent-complete", [:], "integer", [.number(100)])) }
    } else {
      let open = keptStatus.flatMap { ["COMPLETED", "CANCELLED"].contains($0) ? nil : $0 }
      properties.append(JCalProperty("status", text: open ?? "NEEDS-ACTION"))
      if let percent = jcal["percent"]?.intValue, (1...99).contains(percent) {
        properties.append(JCalProperty("percent-complete", [:], "integer", [.number(percent)]))
      }
      if let completedAt = reminder.completedAt {
        diagnostics.warning(
          "cannot-carry",
          "the reminder is not done but has a completion time (\(completedAt)); a VTODO cannot say both, so COMPLETED is left out",
          uid: reminder.id)
      }
    }

    if let exact = jcal["priority"]?.intValue, Priority(iCalendarNumber: exact) == reminder.priority {
      properties.append(JCalProperty("priority", [:], "integer", [.number(exact)]))
    } else if let number = reminder.priority.iCalendarNumber {
      properties.append(JCalProperty("priority", [:], "integer", [.number(number)]))
    }

    switch reminder.dueDate {
    case .date(let date)?: properties.append(JCalProperty("due", [:], "date", [.string(date.description)]))
    case .floating(let time)?: properties.append(JCalProperty("due", [:], "date-time", [.string(time.description)]))
    case .utc(let time)?: properties.append(JCalProperty("due", [:], "date-time", [.string(time.description + "Z")]))
    case .zoned(let time, let zone)?:
      properties.append(JCalProperty("due", ["tzid": .string(zone)], "date-time", [.string(time.description)]))
    case nil: break
    }

    let tags = reminder.tags.filter { !$0.isEmpty }
    if tags.count < reminder.tags.count {
      diagnostics.warning("cannot-carry", "jCal CATEGORIES cannot carry an empty tag; it is left out", uid: reminder.id)
    }
    if !tags.isEmpty { properties.append(JCalProperty("categories", [:], "text", tags.map(JSONValue.string))) }
    if let url = reminder.url { properties.append(JCalProperty("url", [:], "uri", [.string(url)])) }
    if let parentID = reminder.parentID {
      properties.append(JCalProperty("related-to", ["reltype": .string("PARENT")], "text", [.string(parentID)]))
    }
    if reminder.flagged { properties.append(JCalProperty("x-remconv-flagged", [:], "boolean", [.bool(true)])) }
    return JCalComponent(
      name: "vtodo", properties: Self.completed(properties, extra: reminder.extra),
      components: jcal["components"]?.arrayValue ?? [])
  }

  /// The mapped `properties`, then `x-remconv-extra` for what other formats kept in `extra`,
  /// then what the jCal reader kept: the unreadable properties the model gave no value, and
  /// the unmapped ones.
  private static func completed(_ properties: [JCalProperty], extra: [String: JSONValue]) -> [JSONValue] {
    var properties = properties
    let jcal = extra[JCalFormat.extraKey]?.objectValue ?? [:]
    var passedThrough = extra
    passedThrough[JCalFormat.extraKey] = nil
    if !passedThrough.isEmpty {
      properties.append(JCalProperty("x-remconv-extra", text: JSONText.encode(.object(passedThrough))))
    }
    let written = Set(properties.map(\.name))
    let invalid = jcal["invalid"]?.objectValue ?? [:]
    let keptInvalid = invalid.keys.sorted().filter { !written.contains($0) }.compactMap { invalid[$0] }
    return properties.map(\.json) + keptInvalid + (jcal["properties"]?.arrayValue ?? [])
  }

  private func utc(_ value: Timestamp) -> String {
    if value.millisecondsSinceEpoch % 1000 != 0 { subSecondTimestamps += 1 }
    return JCalTime.utcText(value)
  }
}

import Foundation

/// `--format csv:ticktick`: a TickTick backup (Settings → Backup), read only.
///
/// The file starts with a byte order mark and a preamble (`"Date: …"`, `"Version: 7.1"`, a
/// quoted multi-line status legend) before the header; the header is found by its content (a
/// row naming `List Name` and `Title`), not by counting lines, since the preamble varies.
///
/// - `List Name` is the list (`Folder Name`, its group, is kept in the list's
///   `extra.ticktick`); `Title`, `Content` (notes), `Tags` (split on commas and trimmed).
/// - `Priority` 0 none, 1 low, 3 medium, 5 high. `Status` 0 open, 1 completed, 2 archived
///   (done; the 2 is kept in `extra.ticktick.Status`).
/// - `Due Date` is an instant (`2023-03-28T22:00:00+0000`) with the task's `Timezone`: a
///   zoned due in that zone, or a floating one when `Is Floating` is true. With `Is All Day`
///   it is the instant of local midnight: the date is recovered in `Timezone`
///   (`2023-03-28T22:00:00+0000` in Europe/Berlin is 29 March). Times without an offset
///   (`2026-02-20 10:00:00`) are wall times in `Timezone`.
/// - `taskId` and `parentId` make subtasks, whatever the row order; the UIDs are derived from
///   the ids, which are kept as they were in `extra.ticktick`. Cycles are broken by the import
///   with a warning.
/// - `Start Date` is read as `Due Date` is; TickTick gives every dated task a start equal to
///   its due, which is no start of its own (a start only when it differs).
/// - `Repeat` is the recurrence (an RRULE, `RRULE:` prefix or not, from the due date); a rule
///   only TickTick reads (`ERULE:`, `LUNAR:`, a `TT_SKIP` part) is kept in
///   `extra.ticktick.Repeat` with the warning `unmapped-recurrence`.
/// - `Reminder` (`TRIGGER:-PT15M,TRIGGER:P0D`) is the alarms, each relative to the due (to
///   the start when the task has one of its own); a cell that does not read is kept with the
///   warning `unmapped-alarm`.
/// - Every other column (`Kind`, `Order`, …) is kept in `extra.ticktick` under its header
///   name.
public enum TickTickCSVFormat {
  static let extraKey = "ticktick"
  /// The columns that identify the header row.
  static let headerMarkers = ["List Name", "Title"]
  /// How many records may come before the header.
  static let maximumPreambleRecords = 50
  /// Columns read into the model; the others are kept in `extra.ticktick`.
  static let mappedColumns: Set<String> = Set(
    [
      "List Name", "Folder Name", "Title", "Content", "Tags", "Priority", "Status", "Due Date", "Timezone",
      "Is All Day", "Is Floating", "Created Time", "Completed Time", "Start Date", "Repeat", "Reminder",
    ].map(CSVHeader.key))

  public static let descriptor = FormatDescriptor(
    name: "csv:ticktick", summary: "TickTick backup CSV (Settings → Backup)", extensions: [], isDirectory: false,
    makeReader: { context in try Reader(context: context) },
    makeWriter: nil,
    sniff: { head in
      CSVParser.records(inHead: head, limit: 12).contains { CSVHeader.recordNames($0, contain: headerMarkers) }
    })

  static func priority(_ text: String) -> Priority? {
    switch text {
    case "0", "": Priority.none
    case "1": .low
    case "3": .medium
    case "5": .high
    default: nil
    }
  }

  /// A TickTick time: an instant when it has an offset, else a wall time.
  enum Time {
    case instant(Timestamp)
    case wall(LocalDateTime)

    init?(_ text: String) {
      if let instant = Timestamp(iso: text) {
        self = .instant(instant)
      } else if let wall = LocalDateTime(iso: text) {
        self = .wall(wall)
      } else {
        return nil
      }
    }
  }

  final class Reader: ReminderReader {
    private let context: ReaderContext
    private let rows: CSVRowStream<SourceRecord>
    private let derivedIDs = DerivedIDGenerator()

    init(context: ReaderContext) throws {
      self.context = context
      rows = try CSVRowStream(context: context)
    }

    func next() throws -> SourceRecord? {
      try rows.next(findHeader: findHeader) { row, header in decode(row.record, header: header) }
    }

    /// Skips the preamble up to the header row. Nil for an empty input.
    private func findHeader() throws -> CSVHeader? {
      var count = 0
      while let record = try rows.parser.next() {
        if record.isBlank { continue }
        if CSVHeader.recordNames(record, contain: headerMarkers) { return try CSVHeader(record, context: context) }
        count += 1
        if count >= maximumPreambleRecords { break }
      }
      if count == 0 { return nil }
      throw RemconvError.malformedInput(
        "no TickTick header row (one naming 'List Name' and 'Title') in the first \(count) records",
        at: context.location(line: 1))
    }

    private func decode(_ record: CSVRecord, header: CSVHeader) -> SourceRecord {
      let location = context.location(line: record.line)
      header.reportInvalidUTF8(in: record, context: context)
      var row = Row(record: record, header: header, location: location, context: context)

      let listName = row.trimmed("List Name")
      var listID = ""
      var newList: ReminderList?
      if !listName.isEmpty {
        let key = ListName.key(for: listName)
        (listID, newList) = rows.list(key: key) {
          var list = ReminderList(id: StableID.derived(["list", key]), name: listName)
          let folder = row.trimmed("Folder Name")
          if !folder.isEmpty { list.extra[extraKey] = .object(["Folder Name": .string(folder)]) }
          return list
        }
      }

      let title = row.text("Title")
      let tags = row.text("Tags").split(separator: ",")
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
      let priorityText = row.trimmed("Priority")
      var priority = Priority.none
      if let value = TickTickCSVFormat.priority(priorityText) {
        priority = value
      } else {
        row.invalid("Priority", priorityText, "'\(priorityText)' is not a TickTick priority (0, 1, 3 or 5)")
      }
      let statusText = row.trimmed("Status")
      var isDone = false
      switch statusText {
      case "", "0": break
      case "1": isDone = true
      case "2":
        isDone = true
        row.kept["Status"] = .string(statusText)
      default:
        row.invalid("Status", statusText, "'\(statusText)' is not a TickTick status (0 open, 1 completed, 2 archived)")
      }

      let zoneText = row.trimmed("Timezone")
      let zone = TimeZoneNames.isKnown(zoneText) ? TimeZone(identifier: zoneText) : nil
      if !zoneText.isEmpty, zone == nil {
        row.invalid("Timezone", zoneText, "'\(zoneText)' is not an IANA time zone")
      }
      let due = date(&row, "Due Date", zone: zone, zoneName: zoneText)
      var start = date(&row, "Start Date", zone: zone, zoneName: zoneText)
      if start == due { start = nil }
      if due?.timeZoneIdentifier == nil, start?.timeZoneIdentifier == nil, zone != nil {
        row.kept["Timezone"] = .string(zoneText)
      }

      let taskID = row.trimmed("taskId")
      let parentTaskID = row.trimmed("parentId")
      let id =
        taskID.isEmpty
        ? derivedIDs.next(["ticktick", listName, title, due?.description ?? ""])
        : StableID.derived(["ticktick", taskID])
      var reminder = Reminder(
        id: id, listID: listID,
        parentID: parentTaskID.isEmpty ? nil : StableID.derived(["ticktick", parentTaskID]),
        title: title, notes: row.text("Content"), isDone: isDone,
        completedAt: timestamp(&row, "Completed Time", zone: zone), dueDate: due, priority: priority, tags: tags,
        createdAt: timestamp(&row, "Created Time", zone: zone))
      reminder.startDate = start
      reminder.recurrence = recurrence(&row)
      reminder.alarms = alarms(&row, anchor: start == nil ? .due : .start)
      reminder.extra = row.extra(uid: id)
      return rows.emit(.reminder(reminder, location), after: newList.map(SourceRecord.list))
    }

    /// The `Repeat` of a row: a rule other apps read, or kept with a warning.
    private func recurrence(_ row: inout Row) -> Recurrence? {
      let text = row.trimmed("Repeat")
      guard !text.isEmpty else { return nil }
      guard let rule = TickTickRecurrence.rule(ofRepeat: text) else {
        row.kept["Repeat"] = .string(row.text("Repeat"))
        row.warn(
          "unmapped-recurrence",
          "column 'Repeat': '\(text)' is a repeat only TickTick reads; kept in extra.ticktick, the reminder "
            + "does not repeat")
        return nil
      }
      return Recurrence(rule: rule, exceptionDates: [], additionalDates: [], basis: .dueDate)
    }

    /// The `Reminder` triggers of a row, or none (the cell kept, with a warning).
    private func alarms(_ row: inout Row, anchor: Alarm.Anchor) -> [Alarm] {
      let text = row.trimmed("Reminder")
      guard !text.isEmpty else { return [] }
      guard let offsets = TickTickRecurrence.offsets(ofReminder: text) else {
        row.kept["Reminder"] = .string(row.text("Reminder"))
        row.warn(
          "unmapped-alarm", "column 'Reminder': '\(text)' is not a list of TRIGGER durations; kept in extra.ticktick")
        return []
      }
      return offsets.map { Alarm(trigger: .relative(seconds: $0, to: anchor), action: "DISPLAY", text: nil) }
    }

    /// The due or start date of a row, or nil (with a warning when the column does not parse).
    private func date(_ row: inout Row, _ column: String, zone: TimeZone?, zoneName: String) -> DueDate? {
      let text = row.trimmed(column)
      guard !text.isEmpty else { return nil }
      guard let time = Time(text) else {
        row.invalid(column, text, "'\(text)' is not a date and time")
        return nil
      }
      let allDay = row.trimmed("Is All Day").lowercased() == "true"
      let floating = row.trimmed("Is Floating").lowercased() == "true"
      switch time {
      case .wall(let wall):
        if allDay { return .date(wall.date) }
        guard zone != nil, !floating else { return .floating(wall) }
        return .zoned(wall, timeZone: zoneName)
      case .instant(let instant):
        if allDay || floating {
          let readZone = zone ?? assumedZone(&row, column, text)
          let local = Self.wallTime(of: instant, in: readZone)
          guard allDay else { return .floating(local) }
          if (local.hour, local.minute, local.second) != (0, 0, 0) {
            row.warn(
              "all-day-time",
              "column '\(column)': the all-day \(column == "Start Date" ? "start" : "due") '\(text)' is \(local) in \(readZone.identifier), not midnight; "
                + "its date is kept")
          }
          return .date(local.date)
        }
        guard let zone else { return .utc(instant.utcWallTime) }
        return .zoned(Self.wallTime(of: instant, in: zone), timeZone: zoneName)
      }
    }

    /// What the clocks of `zone` show at `instant` (to the second).
    static func wallTime(of instant: Timestamp, in zone: TimeZone) -> LocalDateTime {
      let seconds = instant.millisecondsSinceEpoch.floorDivided(by: 1000)
      return LocalDateTime(secondsSinceEpoch: seconds + Int64(zone.secondsFromGMT(for: instant.date)))
    }

    /// An instant column; a time without an offset is read in the row's zone.
    private func timestamp(_ row: inout Row, _ column: String, zone: TimeZone?) -> Timestamp? {
      let text = row.trimmed(column)
      guard !text.isEmpty else { return nil }
      switch Time(text) {
      case .instant(let instant):
        return instant
      case .wall(let wall):
        let readZone = zone ?? assumedZone(&row, column, text)
        return Timestamp(millisecondsSinceEpoch: DueDate.utcSeconds(ofWallTime: wall, in: readZone) * 1000)
      case nil:
        row.invalid(column, text, "'\(text)' is not a date and time")
        return nil
      }
    }

    /// The zone used for a time the row gives no zone for: the reader's, with a warning.
    private func assumedZone(_ row: inout Row, _ column: String, _ text: String) -> TimeZone {
      let zone = context.options.timeZone
      row.warn(
        "assumed-time-zone",
        "column '\(column)': '\(text)' needs a time zone and the row has none; read in \(zone.identifier)")
      return zone
    }
  }

  /// One data row: its cells by column name, and what is kept in `extra`.
  struct Row {
    let record: CSVRecord
    let header: CSVHeader
    let location: SourceLocation
    let context: ReaderContext
    /// Cells carried in `extra.ticktick`.
    var kept: [String: JSONValue] = [:]
    /// Values that did not parse, kept in `extra.invalid` by column name.
    var invalidValues: [String: JSONValue] = [:]
    private var warnings: [(code: String, message: String)] = []

    init(record: CSVRecord, header: CSVHeader, location: SourceLocation, context: ReaderContext) {
      self.record = record
      self.header = header
      self.location = location
      self.context = context
      for (index, field) in record.fields.enumerated() where !field.isEmpty {
        let name = header.name(at: index)
        if !mappedColumns.contains(CSVHeader.key(name)) { kept[name] = .string(field) }
      }
    }

    /// A cell as written (titles and notes keep their spaces).
    func text(_ column: String) -> String { header.index(of: column).flatMap { record[$0] } ?? "" }

    func trimmed(_ column: String) -> String { text(column).trimmingCharacters(in: .whitespaces) }

    mutating func invalid(_ column: String, _ value: String, _ message: String) {
      invalidValues[column] = .string(value)
      warn("invalid-value", "column '\(column)': \(message) (kept in extra.invalid)")
    }

    /// Queues a warning; they are reported once the row's UID is known.
    mutating func warn(_ code: String, _ message: String) { warnings.append((code, message)) }

    /// Reports the row's warnings and returns its `extra`.
    func extra(uid: String) -> [String: JSONValue] {
      for warning in warnings {
        context.diagnostics.warning(warning.code, warning.message, at: location, uid: uid)
      }
      var extra: [String: JSONValue] = [:]
      if !kept.isEmpty { extra[extraKey] = .object(kept) }
      if !invalidValues.isEmpty { extra["invalid"] = .object(invalidValues) }
      return extra
    }
  }
}

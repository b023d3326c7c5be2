import Foundation

/// `--format csv:todoist`: a Todoist project template, read and written.
///
/// One file is one project, so one list: named by `--list`, else the file's name. Rows:
/// `task` rows are reminders, `note` rows are comments on the task above (appended to its
/// notes after a blank line, and each kept in `extra.todoist.notes`, so that the writer
/// writes them back as note rows while the notes still end with them), `section` rows start a section (kept in `extra.todoist.section`), `meta` rows
/// (`view_style=list`) are kept on the list, blank separator rows are skipped.
///
/// - `PRIORITY` runs opposite to remconv's: 1 high, 2 medium, 3 low, 4 none. Todoist's own
///   rule for an empty cell is p1 (highest), and reading follows it; writing always writes a
///   number, 4 for none.
/// - `INDENT` 1 is a top-level task, 2 a subtask of the task above at 1, and so on.
/// - Labels are `@label` words in `CONTENT`; they become tags. A `* ` prefix (a task that
///   cannot be completed) is kept in `extra.todoist.uncompletable`.
/// - `DATE` is free text in Todoist. ISO dates (`2026-11-30`) and date-times
///   (`2026-11-30 09:00`) become due dates, with `TIMEZONE` making a date-time zoned (`UTC`:
///   a UTC time). An English `every` phrase (`every tuesday`, `every! 3 days`; `DATE_LANG`
///   empty or `en`) is the recurrence (`TodoistRecurrence`), without a due date: Todoist
///   chooses the first day itself. Anything else (`every day at 9am`, `jeden Montag`) is kept
///   in `extra.todoist.DATE` with a warning.
/// - Writing, a rule Todoist has a phrase for is written as that phrase in `DATE`, in place of
///   the due date; other rules, exceptions, added dates, start dates and alarms are reported
///   (`cannot-carry`), as Todoist's template has no place for them.
/// - `AUTHOR`, `RESPONSIBLE`, `DATE_LANG`, the newer `DURATION`, `DURATION_UNIT`, `DEADLINE`,
///   `DEADLINE_LANG` and any other column are kept in `extra.todoist` under their names.
public enum TodoistCSVFormat {
  static let extraKey = "todoist"
  /// The columns written: the current template's.
  static let columns = [
    "TYPE", "CONTENT", "DESCRIPTION", "PRIORITY", "INDENT", "AUTHOR", "RESPONSIBLE", "DATE", "DATE_LANG",
    "TIMEZONE", "DURATION", "DURATION_UNIT", "DEADLINE", "DEADLINE_LANG",
  ]
  /// Columns read into the model (the others are kept in `extra.todoist`).
  static let mappedColumns: Set<String> = ["TYPE", "CONTENT", "DESCRIPTION", "PRIORITY", "INDENT", "DATE", "TIMEZONE"]
  /// The keys of `extra.todoist` the writer writes back.
  static let writtenKeys: Set<String> = [
    "AUTHOR", "RESPONSIBLE", "DATE", "DATE_LANG", "TIMEZONE", "DURATION", "DURATION_UNIT", "DEADLINE",
    "DEADLINE_LANG", "section", "uncompletable", "notes",
  ]

  public static let descriptor = FormatDescriptor(
    name: "csv:todoist", summary: "Todoist project template CSV (one file is one list)", extensions: [],
    isDirectory: false,
    makeReader: { context in try Reader(context: context) },
    makeWriter: { context in try Writer(context: context) },
    sniff: { head in
      guard let header = CSVParser.records(inHead: head, limit: 1).first else { return false }
      return header.fields.first.map(CSVHeader.key) == "type" && CSVHeader.recordNames(header, contain: ["CONTENT"])
    })

  /// Todoist's priority number for a priority (1 is p1, the highest).
  static func number(for priority: Priority) -> String {
    switch priority {
    case .high: "1"
    case .medium: "2"
    case .low: "3"
    case .none: "4"
    }
  }

  static func priority(number text: String) -> Priority? {
    switch text {
    case "1", "": .high  // Todoist: "Leaving this cell empty will automatically add p1"
    case "2": .medium
    case "3": .low
    case "4": Priority.none
    default: nil
    }
  }

  /// The due date in `DATE` and `TIMEZONE`, when `DATE` is an ISO date or date-time.
  static func dueDate(date: String, timeZone: String) -> DueDate? {
    if let day = LocalDate(iso: date) { return .date(day) }
    guard let time = LocalDateTime(iso: date) else { return nil }
    if timeZone.isEmpty { return .floating(time) }
    if timeZone == "UTC" { return .utc(time) }
    return TimeZoneNames.isKnown(timeZone) ? .zoned(time, timeZone: timeZone) : nil
  }

  /// `DATE` and `TIMEZONE` for a due date: `2026-11-30`, `2026-11-30 09:00` (seconds only
  /// when not zero), the zone for zoned times and `UTC` for UTC ones.
  static func cells(for due: DueDate) -> (date: String, timeZone: String?) {
    func wall(_ time: LocalDateTime) -> String {
      time.date.description + " " + pad(time.hour, 2) + ":" + pad(time.minute, 2)
        + (time.second == 0 ? "" : ":" + pad(time.second, 2))
    }
    switch due {
    case .date(let day): return (day.description, nil)
    case .floating(let time): return (wall(time), nil)
    case .utc(let time): return (wall(time), "UTC")
    case .zoned(let time, let zone): return (wall(time), zone)
    }
  }

  /// Splits `@label` words off a task's content: the title and the labels. A label is a word
  /// (between single spaces) of more than an `@`.
  static func splitLabels(_ content: String) -> (title: String, labels: [String]) {
    var words: [Substring] = []
    var labels: [String] = []
    for word in content.split(separator: " ", omittingEmptySubsequences: false) {
      if isLabel(word) {
        labels.append(String(word.dropFirst()))
      } else {
        words.append(word)
      }
    }
    return (words.joined(separator: " "), labels)
  }

  static func isLabel(_ word: Substring) -> Bool {
    word.count > 1 && word.first == "@" && !word.contains(where: \.isWhitespace)
  }

  final class Reader: ReminderReader {
    private let context: ReaderContext
    private let parser: CSVParser
    private let derivedIDs = DerivedIDGenerator()
    private var header: CSVHeader?
    private let list: ReminderList
    /// `extra.todoist` of the list, from meta rows read before the first task.
    private var listExtra: [String: JSONValue] = [:]
    private var listEmitted = false
    private var queue: [SourceRecord] = []
    /// The last task read: its note rows may follow.
    private var pendingTask: (reminder: Reminder, location: SourceLocation)?
    /// The ids of the last task at each depth, for `INDENT`.
    private var parents: [String] = []
    private var section: (name: String, location: SourceLocation, hasTasks: Bool)?
    private var finished = false

    init(context: ReaderContext) throws {
      self.context = context
      parser = try CSVParser(context: context)
      let name = context.options.listName ?? context.source.baseName ?? "Reminders"
      list = ReminderList(id: StableID.derived(["list", ListName.key(for: name)]), name: name)
    }

    func next() throws -> SourceRecord? {
      while true {
        if !queue.isEmpty { return queue.removeFirst() }
        if finished { return nil }
        guard let record = try parser.next() else {
          finished = true
          flushPendingTask()
          endSection()
          // A template without tasks is an empty project: still a list.
          if header != nil { emitListIfNeeded() }
          continue
        }
        if record.isBlank { continue }
        guard let header else {
          let header = try CSVHeader(record, context: context)
          try header.require(["TYPE", "CONTENT"], format: "Todoist", context: context)
          self.header = header
          continue
        }
        try read(record, header: header)
      }
    }

    private func cell(_ record: CSVRecord, _ column: String, in header: CSVHeader) -> String {
      header.index(of: column).flatMap { record[$0] } ?? ""
    }

    private func read(_ record: CSVRecord, header: CSVHeader) throws {
      let location = context.location(line: record.line)
      header.reportInvalidUTF8(in: record, context: context)
      let type = cell(record, "TYPE", in: header).trimmingCharacters(in: .whitespaces)
      let content = cell(record, "CONTENT", in: header)
      switch type.lowercased() {
      case "task":
        flushPendingTask()
        emitListIfNeeded()
        pendingTask = (task(from: record, header: header, at: location), location)
        section?.hasTasks = true
      case "note":
        guard var task = pendingTask else {
          queue.append(.rejected(reason: "a note row with no task above it", location, uid: nil))
          return
        }
        if !content.isEmpty {
          task.reminder.notes += (task.reminder.notes.isEmpty ? "" : "\n\n") + content
        }
        // Every comment is remembered, so the writer can tell it from the description and
        // write it back as a note row.
        let details = carriedCells(of: record, header: header, skipping: ["TYPE"])
        if !details.isEmpty {
          var bag = task.reminder.extra[extraKey]?.objectValue ?? [:]
          bag["notes"] = .array((bag["notes"]?.arrayValue ?? []) + [.object(details)])
          task.reminder.extra[extraKey] = .object(bag)
        }
        pendingTask = task
      case "section":
        flushPendingTask()
        endSection()
        parents = []
        section = (content, location, false)
      case "meta":
        if listEmitted {
          context.diagnostics.warning(
            "late-meta", "a meta row after the first task cannot be kept on the list: '\(content)' is not imported",
            at: location)
        } else {
          listExtra["meta"] = .array((listExtra["meta"]?.arrayValue ?? []) + [.string(content)])
        }
      default:
        queue.append(.rejected(reason: "the TYPE '\(type)' is not task, note, section or meta", location, uid: nil))
      }
    }

    private func emitListIfNeeded() {
      guard !listEmitted else { return }
      listEmitted = true
      var emitted = list
      if !listExtra.isEmpty { emitted.extra[extraKey] = .object(listExtra) }
      queue.append(.list(emitted))
    }

    private func flushPendingTask() {
      guard let pendingTask else { return }
      queue.append(.reminder(pendingTask.reminder, pendingTask.location))
      self.pendingTask = nil
    }

    private func endSection() {
      guard let section, !section.hasTasks else { return }
      context.diagnostics.warning(
        "empty-section",
        "the section '\(section.name)' has no tasks; remconv keeps sections only on tasks, so it is not imported",
        at: section.location)
    }

    /// The non-empty cells of a row that the model does not hold, by column name.
    private func carriedCells(of record: CSVRecord, header: CSVHeader, skipping: Set<String>) -> [String: JSONValue] {
      var cells: [String: JSONValue] = [:]
      for (index, field) in record.fields.enumerated() where !field.isEmpty {
        let name = header.name(at: index)
        if !skipping.contains(name.uppercased()) { cells[name] = .string(field) }
      }
      return cells
    }

    private func task(from record: CSVRecord, header: CSVHeader, at location: SourceLocation) -> Reminder {
      var kept = carriedCells(of: record, header: header, skipping: TodoistCSVFormat.mappedColumns)
      var invalid: [String: JSONValue] = [:]
      func warn(_ column: String, _ value: String, _ message: String) {
        invalid[column] = .string(value)
        context.diagnostics.warning(
          "invalid-value", "column '\(column)': \(message) (kept in extra.invalid)", at: location)
      }

      var title = cell(record, "CONTENT", in: header)
      if title.hasPrefix("* ") {
        title.removeFirst(2)
        kept["uncompletable"] = .bool(true)
      }
      let (name, labels) = TodoistCSVFormat.splitLabels(title)

      let priorityText = cell(record, "PRIORITY", in: header).trimmingCharacters(in: .whitespaces)
      var priority = Priority.none
      if let value = TodoistCSVFormat.priority(number: priorityText) {
        priority = value
      } else {
        warn("PRIORITY", priorityText, "'\(priorityText)' is not a Todoist priority (1 highest to 4 none)")
      }

      let indentText = cell(record, "INDENT", in: header).trimmingCharacters(in: .whitespaces)
      var depth = 0
      if let indent = Int(indentText), indent >= 1 {
        depth = indent - 1
      } else if !indentText.isEmpty {
        warn("INDENT", indentText, "'\(indentText)' is not an indent level (1, 2, …); the task is top-level")
      }
      if depth > parents.count {
        context.diagnostics.warning(
          "indent-jump",
          "column 'INDENT': level \(depth + 1) follows a task at level \(parents.count); "
            + "the task is placed at level \(parents.count + 1)",
          at: location)
        depth = parents.count
      }
      let parentID = depth > 0 ? parents[depth - 1] : nil

      let dateText = cell(record, "DATE", in: header).trimmingCharacters(in: .whitespaces)
      let zoneText = cell(record, "TIMEZONE", in: header).trimmingCharacters(in: .whitespaces)
      var due: DueDate?
      var recurrence: Recurrence?
      let language = cell(record, "DATE_LANG", in: header).trimmingCharacters(in: .whitespaces).lowercased()
      if !dateText.isEmpty {
        due = TodoistCSVFormat.dueDate(date: dateText, timeZone: zoneText)
        if due == nil, language.isEmpty || language == "en", let reading = TodoistRecurrence.reading(of: dateText) {
          recurrence = Recurrence(
            rule: reading.rule, exceptionDates: [], additionalDates: [],
            basis: reading.fromCompletion ? .completion : .dueDate)
        } else if due == nil {
          kept["DATE"] = .string(dateText)
          context.diagnostics.warning(
            "unparsed-date",
            "column 'DATE': '\(dateText)'\(zoneText.isEmpty ? "" : " in '\(zoneText)'") is not an ISO date or "
              + "date-time with a known zone, nor an every phrase remconv reads; kept in extra.todoist, no due date "
              + "and no repeat",
            at: location)
        }
      }
      if !zoneText.isEmpty, due?.timeZoneIdentifier == nil, due?.kind != .utc { kept["TIMEZONE"] = .string(zoneText) }
      if let section { kept["section"] = .string(section.name) }

      let id = derivedIDs.next(["todoist", ListName.key(for: list.name), parentID ?? "", name, due?.description ?? ""])
      parents = Array(parents.prefix(depth)) + [id]
      var extra: [String: JSONValue] = [:]
      if !kept.isEmpty { extra[extraKey] = .object(kept) }
      if !invalid.isEmpty { extra["invalid"] = .object(invalid) }
      var reminder = Reminder(
        id: id, listID: list.id, parentID: parentID, title: name,
        notes: cell(record, "DESCRIPTION", in: header), dueDate: due, priority: priority, tags: labels, extra: extra)
      reminder.recurrence = recurrence
      return reminder
    }
  }

  final class Writer: ReminderWriter {
    static let inputOrder = WriterInputOrder.groupedByList
    private let rows: CSVRowWriter
    private let diagnostics: DiagnosticLog
    private var listCount = 0
    private var currentSection: String?
    /// While skipping a completed task, its depth: its subtasks are skipped with it.
    private var skippingBelow: Int?
    /// What could not be written, by what it is, with how many reminders it concerns.
    private var uncarried = UncarriedTally()
    /// Completed reminders and their subtasks, which a template cannot hold.
    private(set) var skippedCount = 0

    init(context: WriterContext) throws {
      rows = try CSVRowWriter(output: try context.requireStream("csv:todoist"), options: context.options)
      diagnostics = context.diagnostics
      try rows.writeRow(TodoistCSVFormat.columns)
    }

    func beginList(_ list: ReminderList) throws {
      listCount += 1
      skippingBelow = nil
      if listCount == 1 {
        for meta in list.extra[extraKey]?["meta"]?.arrayValue ?? [] {
          if let text = meta.stringValue { try writeRow(type: "meta", content: text) }
        }
      } else {
        // One file is one project: later lists become its sections.
        try writeRow(type: "section", content: list.name)
        currentSection = list.name
        uncarried.count("lists after the first (written as sections)")
      }
    }

    func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
      if let skipping = skippingBelow, depth > skipping {
        uncarried.count("subtasks of completed reminders (not written)")
        skippedCount += 1
        return
      }
      skippingBelow = nil
      if reminder.isDone {
        // A template holds open tasks only; writing a done one would reopen it in Todoist.
        skippingBelow = depth
        uncarried.count("completed reminders (not written)")
        skippedCount += 1
        return
      }
      let todoist = reminder.extra[extraKey]?.objectValue ?? [:]
      if listCount > 1 {
        if todoist["section"] != nil { uncarried.count("Todoist sections of lists after the first") }
      } else if depth == 0 {
        let section = todoist["section"]?.stringValue
        if let section, section != currentSection {
          try writeRow(type: "section", content: section)
          currentSection = section
        } else if section == nil, currentSection != nil {
          uncarried.count("tasks without a section after a section (written in the section above)")
        }
      }
      let (description, comments) = split(reminder.notes, comments: todoist["notes"]?.arrayValue ?? [])
      try rows.writeRow(cells(for: reminder, description: description, todoist: todoist, depth: depth))
      for comment in comments {
        let details = comment.objectValue ?? [:]
        if details.keys.contains(where: { !TodoistCSVFormat.columns.contains($0) }) {
          uncarried.count("Todoist comment details the template does not have")
        }
        try rows.writeRow(
          ["note"] + TodoistCSVFormat.columns.dropFirst().map { column in details[column]?.stringValue })
      }
    }

    /// The description and the comments of a task whose notes were read with its comments
    /// appended (after a blank line each). While the notes still end with those comments,
    /// they are written back as note rows; once edited, the notes are written whole as the
    /// description and the comments are reported.
    private func split(_ notes: String, comments: [JSONValue]) -> (description: String, comments: [JSONValue]) {
      guard !comments.isEmpty else { return (notes, []) }
      let appended = comments.compactMap { $0["CONTENT"]?.stringValue }.filter { !$0.isEmpty }
        .joined(separator: "\n\n")
      if appended.isEmpty { return (notes, comments) }
      if notes == appended { return ("", comments) }
      let suffix = "\n\n" + appended
      if notes.utf8.count > suffix.utf8.count, notes.utf8.reversed().starts(with: suffix.utf8.reversed()) {
        return (String(decoding: notes.utf8.dropLast(suffix.utf8.count), as: UTF8.self), comments)
      }
      uncarried.count("comments edited since import (written in the description, not as note rows)")
      return (notes, [])
    }

    private func cells(
      for reminder: Reminder, description: String, todoist: [String: JSONValue], depth: Int
    ) -> [String?] {
      var content = todoist["uncompletable"]?.boolValue == true ? "* " : ""
      content += reminder.title
      let words = reminder.title.split(separator: " ", omittingEmptySubsequences: false)
      if reminder.title.hasPrefix("* ") || words.contains(where: TodoistCSVFormat.isLabel) {
        uncarried.count("titles Todoist would read as labels or an uncompletable mark")
      }
      for tag in reminder.tags {
        let label = String(tag.map { $0.isWhitespace ? "_" : $0 })
        if label != tag || label.isEmpty {
          uncarried.count("tags that are empty or hold spaces (spaces written as _)")
        }
        if !label.isEmpty { content += " @" + label }
      }
      var date = todoist["DATE"]?.stringValue
      var zone = todoist["TIMEZONE"]?.stringValue
      let phrase = reminder.recurrence.flatMap { recurrence in
        TodoistRecurrence.phrase(for: recurrence.rule, fromCompletion: recurrence.basis == .completion)
      }
      if let phrase {
        date = phrase
        if let due = reminder.dueDate {
          diagnostics.warning(
            "cannot-carry",
            "csv:todoist writes the repeat as '\(phrase)' in DATE, which leaves no room for the due date \(due): "
              + "Todoist starts the repeat on the day of import",
            uid: reminder.id)
        }
      } else if let due = reminder.dueDate {
        let written = TodoistCSVFormat.cells(for: due)
        date = written.date
        // A whole-day due keeps the task's TIMEZONE as read; a time carries its own.
        if written.timeZone != nil || due.kind != .date { zone = written.timeZone }
      }
      if let recurrence = reminder.recurrence {
        if phrase == nil {
          diagnostics.warning(
            "cannot-carry",
            "csv:todoist has no phrase for the repeat '\(recurrence.rule)'; the reminder does not repeat in Todoist",
            uid: reminder.id)
        }
        if !recurrence.exceptionDates.isEmpty || !recurrence.additionalDates.isEmpty {
          diagnostics.warning(
            "cannot-carry",
            "csv:todoist cannot carry a repeat's exception and added dates: \(recurrence.exceptionDates.count) and "
              + "\(recurrence.additionalDates.count) not written",
            uid: reminder.id)
        }
      }
      if reminder.startDate != nil { uncarried.count("start dates") }
      if !reminder.alarms.isEmpty { uncarried.count("alarms") }
      // A re-import finds them by their fallback identity instead (docs/formats.md).
      uncarried.count("UIDs (a re-import matches by list, parent, title and due date)")
      if reminder.flagged { uncarried.count("flags") }
      if reminder.url != nil { uncarried.count("URLs") }
      if reminder.createdAt != nil || reminder.editedAt != nil {
        uncarried.count("creation and edit times")
      }
      if reminder.extra.keys.contains(where: { $0 != extraKey }) {
        uncarried.count("extra data of other formats")
      }
      if todoist.keys.contains(where: { !TodoistCSVFormat.writtenKeys.contains($0) }) {
        uncarried.count("Todoist columns and comment details the template does not have")
      }
      let language = phrase != nil ? "en" : todoist["DATE_LANG"]?.stringValue ?? (date == nil ? nil : "en")
      var cells: [String?] = [
        "task", content, description.isEmpty ? nil : description,
        TodoistCSVFormat.number(for: reminder.priority), String(depth + 1),
        todoist["AUTHOR"]?.stringValue, todoist["RESPONSIBLE"]?.stringValue, date, language, zone,
      ]
      for column in ["DURATION", "DURATION_UNIT", "DEADLINE", "DEADLINE_LANG"] {
        cells.append(todoist[column]?.stringValue)
      }
      return cells
    }

    /// A `meta` or `section` row: its type and content, the other columns empty.
    private func writeRow(type: String, content: String) throws {
      try rows.writeRow([type, content] + [String?](repeating: nil, count: TodoistCSVFormat.columns.count - 2))
    }

    func finish() throws {
      uncarried.report(format: "csv:todoist", to: diagnostics)
      try rows.flush()
    }
  }
}

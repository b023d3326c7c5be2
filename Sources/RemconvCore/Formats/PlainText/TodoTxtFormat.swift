import Foundation

/// `--format todotxt`: todo.txt, one task a line, by the spec of `todotxt/todo.txt`.
///
/// See `docs/formats-text.md` for the mapping. In short: `x` and the completion date are done
/// and `completedAt`; the creation date is `createdAt`; `(A)`–`(Z)` is the priority (A high,
/// B medium, C–Z low; the letter kept in `extra.todotxt.priority` when it is not A, B or C);
/// `+project` and `@context` words are tags (which were projects kept in
/// `extra.todotxt.projects`); `due:` is the due date; remconv's own keys carry what the spec
/// lacks (`uid:`, `parent:`, `list:`, `flag:`, `url:`, `time:` and `tz:` of a due time);
/// other `key:value` extensions are kept in `extra.todotxt.keys` and written back.
public enum TodoTxtFormat {
  static let extraKey = "todotxt"

  public static let descriptor = FormatDescriptor(
    name: "todotxt", summary: "todo.txt: one task a line, with due:, t:, rec: and remconv's keys (uid:, list:, …)",
    extensions: [], isDirectory: false,
    makeReader: { context in try TodoTxtReader(context: context) },
    makeWriter: { context in try TodoTxtWriter(context: context) },
    sniff: { head in looksLikeTodoTxt(head) },
    fileNames: ["todo.txt", "done.txt"])

  /// The level of a priority letter: A high, B medium, C to Z low.
  static func priority(letter: Character) -> Priority {
    switch letter {
    case "A": .high
    case "B": .medium
    default: .low
    }
  }

  /// The letter written for a level; nil for none.
  static func letter(for priority: Priority) -> Character? {
    switch priority {
    case .high: "A"
    case .medium: "B"
    case .low: "C"
    case .none: nil
    }
  }

  /// True when the first lines of `head` are todo.txt: none looks like another format, and
  /// one starts as a todo.txt task does (`x 2026-…`, `(A) `, a creation date) or holds `due:`.
  static func looksLikeTodoTxt(_ head: [UInt8]) -> Bool {
    let lines = String(decoding: head, as: UTF8.self).split(whereSeparator: \.isNewline).prefix(20)
    var marked = false
    for line in lines {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if let first = trimmed.first, "{[<#-*|\u{FEFF}".contains(first) || trimmed.hasPrefix("BEGIN:") { return false }
      let parsed = TodoTxtLine(parsing: String(line))
      if parsed.isDone && parsed.completionDate != nil || parsed.priority != nil || parsed.creationDate != nil
        || parsed.extensions.contains(where: { $0.key == "due" && LocalDate(iso: $0.value) != nil })
      {
        marked = true
      }
    }
    return marked
  }
}

/// Reads todo.txt one line at a time. Blank lines are passed over; every other line is a task.
final class TodoTxtReader: ReminderReader {
  private let context: ReaderContext
  private let bytes: ByteReader
  private let derivedIDs = DerivedIDGenerator()
  private var lineNumber = 0
  private var announcedLists: Set<String> = []
  private var queue: [SourceRecord] = []

  init(context: ReaderContext) throws {
    self.context = context
    bytes = try context.openByteReader()
  }

  func next() throws -> SourceRecord? {
    while queue.isEmpty {
      guard var line = try bytes.readLine() else { return nil }
      lineNumber += 1
      if lineNumber == 1, line.starts(with: [0xEF, 0xBB, 0xBF]) { line.removeFirst(3) }
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      let location = context.location(line: lineNumber)
      let text: String
      if let valid = String(validUTF8: line) {
        text = valid
      } else {
        text = String(decoding: line, as: UTF8.self)
        context.diagnostics.warning(
          "invalid-utf8", "the line is not valid UTF-8; the bad bytes read as U+FFFD", at: location)
      }
      decode(TodoTxtLine(parsing: text), at: location)
    }
    return queue.removeFirst()
  }

  private func decode(_ line: TodoTxtLine, at location: SourceLocation) {
    var kept: [String: JSONValue] = [:]
    var invalid: [String: JSONValue] = [:]
    var unknownKeys: [JSONValue] = []
    var uid: String?
    var parentID: String?
    var listName: String?
    var flagged = false
    var url: String?
    var dueDay: LocalDate?
    var dueTime: (hour: Int, minute: Int, second: Int, isUTC: Bool)?
    var zone: String?
    var startDay: LocalDate?
    var recurrence: Recurrence?
    var letter = line.priority
    func warn(_ key: String, _ value: String, _ message: String) {
      invalid[key] = .string(value)
      context.diagnostics.warning(
        "invalid-value", "'\(key):\(value)': \(message) (kept in extra.invalid)", at: location)
    }
    for (key, value) in line.extensions {
      switch key {
      case "due":
        if let day = LocalDate(iso: value) { dueDay = day } else { warn(key, value, "not a date (YYYY-MM-DD)") }
      case TodoTxtKey.time:
        if let time = Self.time(value) {
          dueTime = time
        } else {
          warn(key, value, "not a time (HHMM, HHMMSS, Z for UTC)")
        }
      case TodoTxtKey.zone:
        let name = KeyValueText.decode(value)
        if TimeZoneNames.isKnown(name) { zone = name } else { warn(key, value, "not an IANA time zone") }
      case TodoTxtKey.uid: uid = KeyValueText.decode(value)
      case TodoTxtKey.parent: parentID = KeyValueText.decode(value)
      case TodoTxtKey.list: listName = KeyValueText.decode(value)
      case TodoTxtKey.url: url = KeyValueText.decode(value)
      case TodoTxtKey.flag:
        switch value {
        case "yes": flagged = true
        case "no": flagged = false
        default: warn(key, value, "not yes or no")
        }
      case "t":
        if let day = LocalDate(iso: value) { startDay = day } else { warn(key, value, "not a date (YYYY-MM-DD)") }
      case "rec":
        if let rule = SimpleRecurrence(todoTxt: value) {
          recurrence = rule.recurrence
        } else {
          unknownKeys.append(.string(key + ":" + value))
          context.diagnostics.warning(
            "unmapped-recurrence",
            "'rec:\(value)' is no recurrence remconv can map ([+]N followed by d, w, m, y, or 1b); kept as it is "
              + "in extra.todotxt", at: location)
        }
      case "pri":
        if value.count == 1, let first = value.first, first.isASCII, first.isUppercase {
          letter = letter ?? first
        } else {
          warn(key, value, "not a priority letter A–Z")
        }
      default:
        unknownKeys.append(.string(key + ":" + value))
      }
    }

    var due: DueDate?
    if let dueDay {
      if let dueTime,
        let time = LocalDateTime(date: dueDay, hour: dueTime.hour, minute: dueTime.minute, second: dueTime.second)
      {
        if dueTime.isUTC {
          due = .utc(time)
        } else if let zone {
          due = .zoned(time, timeZone: zone)
        } else {
          due = .floating(time)
        }
      } else {
        due = .date(dueDay)
      }
    } else if dueTime != nil {
      context.diagnostics.warning("invalid-value", "'time:' without 'due:': no due date to give it to", at: location)
    }

    var priority = Priority.none
    if let letter {
      priority = TodoTxtFormat.priority(letter: letter)
      if TodoTxtFormat.letter(for: priority) != letter { kept["priority"] = .string(String(letter)) }
    }
    let projects = line.tags.filter(\.isProject).map { JSONValue.string($0.name) }
    if !projects.isEmpty { kept["projects"] = .array(projects) }
    if !unknownKeys.isEmpty { kept["keys"] = .array(unknownKeys) }

    if let forced = context.options.listName { listName = forced }
    var listID = ""
    if let listName {
      listID = StableID.derived(["list", ListName.key(for: listName)])
      if announcedLists.insert(listID).inserted { queue.append(.list(ReminderList(id: listID, name: listName))) }
    }
    let listKey = ListName.key(for: listName ?? context.source.baseName ?? "")
    let id = uid ?? derivedIDs.next(["todotxt", listKey, parentID ?? "", line.title, due?.description ?? ""])
    var extra: [String: JSONValue] = [:]
    if !kept.isEmpty { extra[TodoTxtFormat.extraKey] = .object(kept) }
    if !invalid.isEmpty { extra["invalid"] = .object(invalid) }
    let zoneOfDates = context.options.timeZone
    let reminder = Reminder(
      id: id, listID: listID, parentID: parentID, title: line.title, isDone: line.isDone,
      completedAt: line.completionDate.map { PlainTextDates.midnight(of: $0, in: zoneOfDates) }, flagged: flagged,
      dueDate: due, startDate: startDay.map(DueDate.date), recurrence: recurrence, priority: priority,
      tags: line.tags.map(\.name), url: url,
      createdAt: line.creationDate.map { PlainTextDates.midnight(of: $0, in: zoneOfDates) }, extra: extra)
    queue.append(.reminder(reminder, location))
  }

  /// `HHMM` or `HHMMSS`, then `Z` for a UTC time.
  static func time(_ text: String) -> (hour: Int, minute: Int, second: Int, isUTC: Bool)? {
    var digits = Substring(text)
    let isUTC = digits.last == "Z"
    if isUTC { digits = digits.dropLast() }
    guard digits.count == 4 || digits.count == 6, digits.allSatisfy(\.isASCII), let number = Int(digits), number >= 0
    else { return nil }
    let values =
      digits.count == 4 ? (number / 100, number % 100, 0) : (number / 10000, number / 100 % 100, number % 100)
    guard values.0 < 24, values.1 < 60, values.2 < 60 else { return nil }
    return (values.0, values.1, values.2, isUTC)
  }
}

/// Dates of the plain-text formats, which give days where the model keeps instants (the
/// completion and creation of a task): a day is midnight where the user is.
enum PlainTextDates {
  static func midnight(of day: LocalDate, in zone: TimeZone) -> Timestamp {
    let wall = LocalDateTime(date: day, hour: 0, minute: 0, second: 0)!
    return Timestamp(millisecondsSinceEpoch: DueDate.utcSeconds(ofWallTime: wall, in: zone) * 1000)
  }

  static func day(of instant: Timestamp, in zone: TimeZone) -> LocalDate {
    DueDate.localDay(ofUTCSeconds: Int64((Double(instant.millisecondsSinceEpoch) / 1000).rounded(.down)), in: zone)
  }

  /// True when `instant` is the midnight of its day in `zone`: a day says all of it.
  static func isMidnight(_ instant: Timestamp, in zone: TimeZone) -> Bool {
    midnight(of: day(of: instant, in: zone), in: zone) == instant
  }
}

/// Writes todo.txt: one line a reminder, lists one after another (each line names its list).
final class TodoTxtWriter: ReminderWriter {
  static let inputOrder = WriterInputOrder.groupedByList

  private let output: ByteWriter
  private let diagnostics: DiagnosticLog
  private let timeZone: TimeZone
  private var uncarried = UncarriedTally()
  private var listHasReminders = false

  init(context: WriterContext) throws {
    output = try context.requireStream("todotxt")
    diagnostics = context.diagnostics
    timeZone = context.options.timeZone
  }

  func beginList(_ list: ReminderList) throws {
    listHasReminders = false
    uncarried.countListMetadata(of: list)
  }

  func endList(_ list: ReminderList) throws {
    if !listHasReminders { uncarried.count("empty lists (a list exists only through its tasks)") }
  }

  func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
    listHasReminders = true
    let kept = reminder.extra[TodoTxtFormat.extraKey]?.objectValue ?? [:]
    var line = TodoTxtLine()
    line.isDone = reminder.isDone
    var title = reminder.title
    if title.contains(where: \.isNewline) {
      title = String(title.map { $0.isNewline ? " " : $0 })
    }
    line.title = title

    var letter = TodoTxtFormat.letter(for: reminder.priority)
    if let keptLetter = kept["priority"]?.stringValue?.first,
      TodoTxtFormat.priority(letter: keptLetter) == reminder.priority,
      reminder.priority != .none
    {
      letter = keptLetter
    }
    if reminder.isDone {
      if let completedAt = reminder.completedAt {
        line.completionDate = PlainTextDates.day(of: completedAt, in: timeZone)
        line.creationDate = reminder.createdAt.map { PlainTextDates.day(of: $0, in: timeZone) }
      }
      if let letter { line.extensions.append(("pri", String(letter))) }
    } else {
      line.priority = letter
      line.creationDate = reminder.createdAt.map { PlainTextDates.day(of: $0, in: timeZone) }
    }
    checkDay(reminder.completedAt, written: line.completionDate != nil, what: "completion time", uid: reminder.id)
    checkDay(reminder.createdAt, written: line.creationDate != nil, what: "creation time", uid: reminder.id)

    let projects = Set((kept["projects"]?.arrayValue ?? []).compactMap(\.stringValue))
    for tag in reminder.tags {
      let name = String(tag.map { $0.isWhitespace ? "_" : $0 })
      if name != tag || name.isEmpty {
        diagnostics.warning(
          "cannot-carry", "todo.txt cannot carry the tag '\(tag)': a tag is one word; written as '\(name)'",
          uid: reminder.id)
      }
      if !name.isEmpty { line.tags.append(.init(name: name, isProject: projects.contains(tag))) }
    }

    if let due = reminder.dueDate { line.extensions += Self.dueExtensions(due) }
    if let start = reminder.startDate {
      line.extensions.append(("t", Self.wallDay(of: start).description))
      if start.kind != .date {
        diagnostics.warning(
          "cannot-carry", "todo.txt's threshold t: is a day: the start \(start) is written as its day", uid: reminder.id
        )
      }
    }
    if let recurrence = reminder.recurrence {
      if let value = SimpleRecurrence(recurrence)?.todoTxtValue {
        line.extensions.append(("rec", value))
      } else {
        diagnostics.warning(
          "cannot-carry",
          "todo.txt's rec: says every N days, weeks, months or years: the rule \(recurrence.rule)"
            + (recurrence.exceptionDates.isEmpty && recurrence.additionalDates.isEmpty ? "" : " with its dates")
            + " is not written", uid: reminder.id)
      }
    }
    if !reminder.alarms.isEmpty { uncarried.count("alarms") }
    if reminder.flagged { line.extensions.append((TodoTxtKey.flag, "yes")) }
    if let url = reminder.url {
      if url.isEmpty {
        diagnostics.warning("cannot-carry", "todo.txt cannot carry an empty URL; it is left out", uid: reminder.id)
      } else {
        line.extensions.append((TodoTxtKey.url, KeyValueText.encode(url)))
      }
    }
    if let parentID = reminder.parentID { line.extensions.append((TodoTxtKey.parent, KeyValueText.encode(parentID))) }
    line.extensions.append((TodoTxtKey.list, KeyValueText.encode(list.name)))
    line.extensions.append((TodoTxtKey.uid, KeyValueText.encode(reminder.id)))
    for key in kept["keys"]?.arrayValue ?? [] {
      if let pair = key.stringValue.flatMap({ TodoTxtLine.extensionPair(Substring($0)) }) {
        line.extensions.append(pair)
      }
    }

    if !reminder.notes.isEmpty { uncarried.count("notes") }
    if reminder.editedAt != nil { uncarried.count("edit times") }
    if reminder.extra.keys.contains(where: { $0 != TodoTxtFormat.extraKey && $0 != "invalid" }) {
      uncarried.count("extra data of other formats")
    }

    let text = line.text
    let back = TodoTxtLine(parsing: text)
    if back.title != reminder.title {
      diagnostics.warning(
        "cannot-carry",
        "todo.txt reads the title back as '\(back.title)': a title cannot hold line breaks, end in spaces or in a "
          + "+project, @context or key:value word, or start as a completion mark, priority or date",
        uid: reminder.id)
    }
    try output.write(text)
    try output.write(byte: 0x0A)
  }

  /// The `due:` word, and `time:` and `tz:` for a due with a time.
  static func dueExtensions(_ due: DueDate) -> [(key: String, value: String)] {
    func time(_ value: LocalDateTime, utc: Bool) -> String {
      pad(value.hour, 2) + pad(value.minute, 2) + (value.second == 0 ? "" : pad(value.second, 2)) + (utc ? "Z" : "")
    }
    switch due {
    case .date(let day): return [("due", day.description)]
    case .floating(let value): return [("due", value.date.description), (TodoTxtKey.time, time(value, utc: false))]
    case .utc(let value): return [("due", value.date.description), (TodoTxtKey.time, time(value, utc: true))]
    case .zoned(let value, let zone):
      return [
        ("due", value.date.description), (TodoTxtKey.time, time(value, utc: false)),
        (TodoTxtKey.zone, KeyValueText.encode(zone)),
      ]
    }
  }

  /// The day a date or date-time is written on: the wall day as the source gave it.
  static func wallDay(of date: DueDate) -> LocalDate {
    switch date {
    case .date(let day): day
    case .floating(let time), .utc(let time), .zoned(let time, _): time.date
    }
  }

  /// Reports an instant written as a day (or not at all) that a day does not say whole.
  private func checkDay(_ instant: Timestamp?, written: Bool, what: String, uid: String) {
    guard let instant else { return }
    if !written {
      diagnostics.warning(
        "cannot-carry",
        "todo.txt has no place for the \(what) \(instant): an open task has no completion date, and a done task "
          + "gives its creation date only after its completion date; not written", uid: uid)
    } else if !PlainTextDates.isMidnight(instant, in: timeZone) {
      diagnostics.warning(
        "cannot-carry", "todo.txt keeps days, not times: the \(what) \(instant) is written as its day", uid: uid)
    }
  }

  func finish() throws {
    uncarried.report(format: "todo.txt", to: diagnostics)
    try output.flush()
  }
}

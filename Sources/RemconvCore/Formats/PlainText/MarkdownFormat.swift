import Foundation

/// `--format markdown`: GitHub-flavoured Markdown task lists, with the Obsidian Tasks plugin's
/// metadata.
///
/// A heading names the list of the tasks below it; a task-list item (`- [ ]`, `- [x]`,
/// `* [X]`, `1. [ ]`) is a reminder; an item nested under another is its subtask; the lines
/// indented under an item that are not task items are its notes. The UID is the item's
/// trailing `^block-id` (Obsidian's block reference). Everything else (prose, other lists,
/// headings without tasks) is not imported, and an export refuses to replace a file that
/// holds any (`FormatDescriptor.existingFileRefusal`). See `docs/formats-text.md`.
public enum MarkdownFormat {
  static let extraKey = "markdown"

  public static let descriptor = FormatDescriptor(
    name: "markdown", summary: "Markdown task lists (GFM), with Obsidian Tasks dates, priorities and recurrence",
    extensions: ["md", "markdown"], isDirectory: false,
    makeReader: { context in try MarkdownReader(context: context) },
    makeWriter: { context in try MarkdownWriter(context: context) },
    sniff: { head in
      String(decoding: head, as: UTF8.self).split(whereSeparator: \.isNewline).contains {
        MarkdownLine(String($0)).taskItem != nil
      }
    },
    existingFileRefusal: { bytes in proseRefusal(bytes) })

  /// Why an export must not replace a Markdown file: the first line it holds that a reader
  /// does not import (prose, another list, a heading without tasks), which the export would
  /// lose. Nil when every line is a task, a note, a heading of tasks or blank.
  static func proseRefusal(_ bytes: [UInt8]) -> String? {
    let context = ReaderContext(
      source: .file("existing.md"), diagnostics: DiagnosticLog(),
      preopened: ByteReader(bytes: bytes, name: "existing.md"))
    guard let reader = try? MarkdownReader(context: context) else { return "it cannot be read as Markdown" }
    do {
      while let record = try reader.next() {
        if case .skipped(let kind, let location) = record {
          return "line \(location.line ?? 0) is \(kind), which remconv does not import and the export would lose; "
            + "export to another file, or move the text out of this one"
        }
      }
    } catch {
      return "it cannot be read as Markdown (\(error))"
    }
    return nil
  }

  /// The model's priority for a sign, and the sign written for a priority.
  static func priority(sign: String) -> Priority {
    switch sign {
    case "🔺", "⏫": .high
    case "🔼": .medium
    default: .low
    }
  }

  static func sign(for priority: Priority) -> String? {
    switch priority {
    case .high: "⏫"
    case .medium: "🔼"
    case .low: "🔽"
    case .none: nil
    }
  }
}

/// One line of Markdown, classified for task lists.
struct MarkdownLine {
  /// Columns of leading white space (a tab to the next multiple of 4).
  let indent: Int
  /// The text after the indent.
  let content: Substring
  let raw: String

  init(_ raw: String) {
    self.raw = raw
    var columns = 0
    var start = raw.startIndex
    while start < raw.endIndex, raw[start] == " " || raw[start] == "\t" {
      columns = raw[start] == "\t" ? (columns / 4 + 1) * 4 : columns + 1
      start = raw.index(after: start)
    }
    indent = columns
    content = raw[start...]
  }

  var isBlank: Bool { content.isEmpty }

  /// An ATX heading (`# Groceries`, up to three spaces of indent): its text.
  var heading: String? {
    guard indent <= 3, content.first == "#" else { return nil }
    let hashes = content.prefix { $0 == "#" }
    guard hashes.count <= 6 else { return nil }
    let rest = content.dropFirst(hashes.count)
    guard rest.isEmpty || rest.first == " " || rest.first == "\t" else { return nil }
    var text = rest.trimmingCharacters(in: .whitespaces)
    // A closing run of #s after a space is not part of the heading.
    if let space = text.lastIndex(of: " "), text[text.index(after: space)...].allSatisfy({ $0 == "#" }) {
      text = String(text[..<space]).trimmingCharacters(in: .whitespaces)
    } else if text.allSatisfy({ $0 == "#" }) {
      text = ""
    }
    return text
  }

  /// A fence (three or more backticks or tildes) opening or closing a code block.
  var fence: Substring? {
    guard indent <= 3, let first = content.first, first == "`" || first == "~" else { return nil }
    let run = content.prefix { $0 == first }
    return run.count >= 3 ? run : nil
  }

  /// A task-list item: its marker (`-`, `*`, `+`, `1.`, `1)`), the box's character, the
  /// column its content starts at, and the text after the box.
  var taskItem: (marker: String, box: Character, contentIndent: Int, text: Substring)? {
    var rest = content
    var marker: Substring
    if let first = rest.first, first == "-" || first == "*" || first == "+" {
      marker = rest.prefix(1)
    } else {
      let digits = rest.prefix { $0.isASCII && $0.isNumber }
      guard (1...9).contains(digits.count) else { return nil }
      let after = rest.dropFirst(digits.count)
      guard let close = after.first, close == "." || close == ")" else { return nil }
      marker = rest.prefix(digits.count + 1)
    }
    rest = rest.dropFirst(marker.count)
    let spaces = rest.prefix { $0 == " " }
    guard (1...4).contains(spaces.count) else { return nil }
    rest = rest.dropFirst(spaces.count)
    guard rest.count >= 3, rest.first == "[", let box = rest.dropFirst().first, rest.dropFirst(2).first == "]",
      box != "\n"
    else { return nil }
    let after = rest.dropFirst(3)
    guard after.isEmpty || after.first == " " || after.first == "\t" else { return nil }
    return (String(marker), box, indent + marker.count + spaces.count, after.drop { $0 == " " || $0 == "\t" })
  }
}

/// Reads Markdown task lists one line at a time, holding only the items still open (a task
/// is emitted when the lines under it end, after its subtasks).
final class MarkdownReader: ReminderReader {
  private struct OpenItem {
    var reminder: Reminder
    let contentIndent: Int
    let location: SourceLocation
    var noteLines: [Substring] = []
    /// Blank lines seen after the last note line: notes only if more notes follow.
    var pendingBlankLines = 0
  }

  private let context: ReaderContext
  private let bytes: ByteReader
  private let derivedIDs = DerivedIDGenerator()
  private var lineNumber = 0
  private var open: [OpenItem] = []
  private var queue: [SourceRecord] = []
  /// The list of the current heading: its name, id, where it is, whether a task came under it.
  private var heading: (name: String, id: String, location: SourceLocation, hasTasks: Bool)?
  private var announcedLists: Set<String> = []
  /// The fence of the open code block outside any item, if any.
  private var proseFence: Substring?
  /// The fence of a code block inside an item's notes.
  private var noteFence: Substring?
  private var finished = false

  init(context: ReaderContext) throws {
    self.context = context
    bytes = try context.openByteReader()
  }

  func next() throws -> SourceRecord? {
    while queue.isEmpty {
      if finished { return nil }
      guard var raw = try bytes.readLine() else {
        finished = true
        close(downTo: 0)
        endHeading()
        continue
      }
      lineNumber += 1
      if lineNumber == 1, raw.starts(with: [0xEF, 0xBB, 0xBF]) { raw.removeFirst(3) }
      let location = context.location(line: lineNumber)
      let text: String
      if let valid = String(validUTF8: raw) {
        text = valid
      } else {
        text = String(decoding: raw, as: UTF8.self)
        context.diagnostics.warning(
          "invalid-utf8", "the line is not valid UTF-8; the bad bytes read as U+FFFD", at: location)
      }
      read(MarkdownLine(text), at: location)
    }
    return queue.removeFirst()
  }

  private func read(_ line: MarkdownLine, at location: SourceLocation) {
    if let fence = proseFence {
      if line.fence.map({ $0.first == fence.first && $0.count >= fence.count }) == true { proseFence = nil }
      queue.append(.skipped(kind: "prose (a code block)", location))
      return
    }
    if line.isBlank {
      if !open.isEmpty { open[open.count - 1].pendingBlankLines += 1 }
      return
    }
    if let fence = noteFence {
      // Inside a code block of an item's notes every line is a note, whatever it looks like.
      if let top = open.last, line.indent >= top.contentIndent {
        addNote(line)
        if let closing = MarkdownLine(String(noteText(line))).fence, closing.first == fence.first,
          closing.count >= fence.count
        {
          noteFence = nil
        }
        return
      }
      noteFence = nil
    }
    if let item = line.taskItem {
      close(whereContentIndentExceeds: line.indent)
      startItem(item, at: location)
      return
    }
    close(whereContentIndentExceeds: line.indent)
    if !open.isEmpty {
      addNote(line)
      noteFence = MarkdownLine(String(noteText(line))).fence
      return
    }
    if let name = line.heading {
      endHeading()
      let id = StableID.derived(["list", ListName.key(for: name)])
      heading = (name, id, location, false)
      return
    }
    if let fence = line.fence { proseFence = fence }
    queue.append(.skipped(kind: "prose (not a task-list item)", location))
  }

  /// The line as a note of the innermost open item: without that item's content indent.
  private func noteText(_ line: MarkdownLine) -> Substring {
    let indent = open.last?.contentIndent ?? 0
    var removed = 0
    var index = line.raw.startIndex
    while index < line.raw.endIndex, removed < indent, line.raw[index] == " " || line.raw[index] == "\t" {
      removed = line.raw[index] == "\t" ? (removed / 4 + 1) * 4 : removed + 1
      index = line.raw.index(after: index)
    }
    return line.raw[index...]
  }

  private func addNote(_ line: MarkdownLine) {
    let text = noteText(line)
    let last = open.count - 1
    if !open[last].noteLines.isEmpty {
      open[last].noteLines += Array(repeating: "", count: open[last].pendingBlankLines)
    }
    open[last].pendingBlankLines = 0
    open[last].noteLines.append(text)
  }

  private func startItem(
    _ item: (marker: String, box: Character, contentIndent: Int, text: Substring), at location: SourceLocation
  ) {
    let parsed = TaskLineText(parsing: String(item.text))
    var kept: [String: JSONValue] = [:]
    var isDone = false
    switch item.box {
    case " ": break
    case "x", "X": isDone = true
    case "-":
      // Obsidian's cancelled task: done, and kept as cancelled.
      isDone = true
      kept["status"] = .string("-")
    default:
      kept["status"] = .string(String(item.box))
    }
    if item.marker != "-" { kept["marker"] = .string(item.marker) }
    var priority = Priority.none
    if let sign = parsed.prioritySign {
      priority = MarkdownFormat.priority(sign: sign)
      if MarkdownFormat.sign(for: priority) != sign { kept["priority"] = .string(sign) }
    }
    var recurrence: Recurrence?
    if let phrase = parsed.recurrence {
      if let rule = SimpleRecurrence(obsidianPhrase: phrase) {
        recurrence = rule.recurrence
      } else {
        kept["recurrence"] = .string(phrase)
        context.diagnostics.warning(
          "unmapped-recurrence",
          "'🔁 \(phrase)' is no recurrence remconv can map (every N days, weeks, months or years, every weekday, "
            + "every week on named days); kept as it is in extra.markdown", at: location)
      }
    }
    for sign in [TaskLineText.Sign.scheduled, TaskLineText.Sign.cancelled] {
      if let date = parsed.dates[sign] { kept[sign] = .string(date.description) }
    }
    let zone = context.options.timeZone
    let due = parsed.dates[TaskLineText.Sign.due].map(DueDate.date)
    let parentID = open.last?.reminder.id
    let listID = currentListID()
    let listKey = ListName.key(for: heading?.name ?? context.options.listName ?? context.source.baseName ?? "")
    let id =
      parsed.blockID ?? derivedIDs.next(["markdown", listKey, parentID ?? "", parsed.title, due?.description ?? ""])
    var extra: [String: JSONValue] = [:]
    if !kept.isEmpty { extra[MarkdownFormat.extraKey] = .object(kept) }
    if !parsed.invalidDates.isEmpty {
      extra["invalid"] = .object(parsed.invalidDates.mapValues(JSONValue.string))
      for (sign, text) in parsed.invalidDates.sorted(by: { $0.key < $1.key }) {
        context.diagnostics.warning(
          "invalid-value", "'\(sign) \(text)' is not a date (YYYY-MM-DD) (kept in extra.invalid)", at: location, uid: id
        )
      }
    }
    let reminder = Reminder(
      id: id, listID: listID, parentID: parentID, title: parsed.title, isDone: isDone,
      completedAt: parsed.dates[TaskLineText.Sign.done].map { PlainTextDates.midnight(of: $0, in: zone) },
      dueDate: due, startDate: parsed.dates[TaskLineText.Sign.start].map(DueDate.date), recurrence: recurrence,
      priority: priority, tags: parsed.tags,
      createdAt: parsed.dates[TaskLineText.Sign.created].map { PlainTextDates.midnight(of: $0, in: zone) },
      extra: extra)
    open.append(OpenItem(reminder: reminder, contentIndent: item.contentIndent, location: location))
  }

  /// The list of the current heading, announced before its first task; "" (the import's
  /// default list) before any heading or under `--list`.
  private func currentListID() -> String {
    guard context.options.listName == nil, var heading else { return "" }
    if !heading.hasTasks {
      heading.hasTasks = true
      self.heading = heading
    }
    if announcedLists.insert(heading.id).inserted {
      queue.append(.list(ReminderList(id: heading.id, name: heading.name)))
    }
    return heading.id
  }

  private func endHeading() {
    if let heading, !heading.hasTasks, context.options.listName == nil {
      queue.append(.skipped(kind: "a heading without tasks", heading.location))
    }
    heading = nil
  }

  private func close(whereContentIndentExceeds indent: Int) {
    var keep = open.count
    while keep > 0, open[keep - 1].contentIndent > indent { keep -= 1 }
    close(downTo: keep)
  }

  private func close(downTo count: Int) {
    while open.count > count {
      var item = open.removeLast()
      item.reminder.notes = item.noteLines.joined(separator: "\n")
      queue.append(.reminder(item.reminder, item.location))
    }
  }
}

/// Writes Markdown: a heading per list, a task-list item per reminder, subtasks nested two
/// spaces deeper, notes indented under their item.
final class MarkdownWriter: ReminderWriter {
  static let inputOrder = WriterInputOrder.groupedByList

  private let output: ByteWriter
  private let diagnostics: DiagnosticLog
  private let timeZone: TimeZone
  private var uncarried = UncarriedTally()
  private var wroteAnything = false
  private var headingWritten = false

  init(context: WriterContext) throws {
    output = try context.requireStream("markdown")
    diagnostics = context.diagnostics
    timeZone = context.options.timeZone
  }

  func beginList(_ list: ReminderList) throws {
    headingWritten = false
    uncarried.countListMetadata(of: list)
  }

  func endList(_ list: ReminderList) throws {
    if !headingWritten { uncarried.count("empty lists (a heading without tasks is not a list)") }
  }

  /// The list's heading, before its first task: a heading without tasks would be read as
  /// prose, and an export into that file refused.
  private func writeHeading(_ list: ReminderList) throws {
    headingWritten = true
    if wroteAnything { try output.write("\n") }
    wroteAnything = true
    let name = list.name.replacingOccurrences(of: "\n", with: " ")
    try output.write("# \(name)\n\n")
    if MarkdownLine("# " + name).heading != list.name {
      diagnostics.warning(
        "cannot-carry",
        "a Markdown heading reads the list name '\(list.name)' back as '\(MarkdownLine("# " + name).heading ?? "")'",
        uid: list.id)
    }
  }

  func write(_ reminder: Reminder, in list: ReminderList, depth: Int) throws {
    if !headingWritten { try writeHeading(list) }
    let kept = reminder.extra[MarkdownFormat.extraKey]?.objectValue ?? [:]
    var item = TaskLineText()
    item.title = String(reminder.title.map { $0.isNewline ? " " : $0 })
    for tag in reminder.tags {
      let name = String(tag.map { $0.isWhitespace || $0 == "#" ? "_" : $0 })
      if name != tag || name.isEmpty || name.allSatisfy(\.isNumber) {
        diagnostics.warning(
          "cannot-carry", "a Markdown #tag is one word: the tag '\(tag)' is written as '#\(name)'", uid: reminder.id)
      }
      if !name.isEmpty { item.tags.append(name) }
    }
    if let sign = MarkdownFormat.sign(for: reminder.priority) {
      let keptSign = kept["priority"]?.stringValue
      item.prioritySign =
        keptSign.map { MarkdownFormat.priority(sign: $0) == reminder.priority ? $0 : sign } ?? sign
    }
    if let recurrence = reminder.recurrence {
      if let rule = SimpleRecurrence(recurrence) {
        item.recurrence = rule.obsidianPhrase
      } else {
        diagnostics.warning(
          "cannot-carry",
          "Obsidian Tasks' 🔁 says every N days, weeks, months or years, or weekly on named days: the rule "
            + "\(recurrence.rule)"
            + (recurrence.exceptionDates.isEmpty && recurrence.additionalDates.isEmpty ? "" : " with its dates")
            + " is not written", uid: reminder.id)
      }
    } else {
      item.recurrence = kept["recurrence"]?.stringValue
    }
    for sign in [TaskLineText.Sign.scheduled, TaskLineText.Sign.cancelled] {
      if let date = kept[sign]?.stringValue.flatMap(LocalDate.init(iso:)) { item.dates[sign] = date }
    }
    if let start = reminder.startDate {
      item.dates[TaskLineText.Sign.start] = TodoTxtWriter.wallDay(of: start)
      if start.kind != .date {
        diagnostics.warning(
          "cannot-carry", "Obsidian Tasks keeps start days, not times: the start \(start) is written as its day",
          uid: reminder.id)
      }
    }
    if !reminder.alarms.isEmpty { uncarried.count("alarms") }
    if let created = reminder.createdAt {
      item.dates[TaskLineText.Sign.created] = PlainTextDates.day(of: created, in: timeZone)
      reportDay(created, what: "creation time", uid: reminder.id)
    }
    if let completed = reminder.completedAt {
      if reminder.isDone {
        item.dates[TaskLineText.Sign.done] = PlainTextDates.day(of: completed, in: timeZone)
        reportDay(completed, what: "completion time", uid: reminder.id)
      } else {
        diagnostics.warning(
          "cannot-carry", "an open Markdown task has no done date: \(completed) is not written", uid: reminder.id)
      }
    }
    if let due = reminder.dueDate {
      // The day of the due as written (a UTC time's UTC day): no zone moves it, even at 9999-12-31.
      item.dates[TaskLineText.Sign.due] = TodoTxtWriter.wallDay(of: due)
      if due.kind != .date {
        diagnostics.warning(
          "cannot-carry", "Obsidian Tasks keeps due days, not times: the due \(due) is written as its day",
          uid: reminder.id)
      }
    }
    if TaskLineText.isBlockID(Substring(reminder.id)) {
      item.blockID = reminder.id
    } else {
      uncarried.count("UIDs that are not block ids (a re-import matches by list, parent, title and due date)")
    }
    if reminder.flagged { uncarried.count("flags") }
    if reminder.url != nil { uncarried.count("URLs") }
    if reminder.editedAt != nil { uncarried.count("edit times") }
    if reminder.extra.keys.contains(where: { $0 != MarkdownFormat.extraKey && $0 != "invalid" }) {
      uncarried.count("extra data of other formats")
    }

    let box: Character
    if let status = kept["status"]?.stringValue?.first, (status == "-") == reminder.isDone, status != "x" {
      box = status
    } else {
      box = reminder.isDone ? "x" : " "
    }
    let marker = kept["marker"]?.stringValue.flatMap { MarkdownLine($0 + " [ ]").taskItem?.marker } ?? "-"
    let indent = String(repeating: " ", count: depth * 2)
    let text = item.text
    let line = indent + marker + " [" + String(box) + "]" + (text.isEmpty ? "" : " " + text)
    if TaskLineText(parsing: text).title != reminder.title {
      diagnostics.warning(
        "cannot-carry",
        "a Markdown task reads the title back as '\(TaskLineText(parsing: text).title)': a title cannot hold line "
          + "breaks or end in spaces, a #tag, a ^block-id or Obsidian Tasks' signs",
        uid: reminder.id)
    }
    try output.write(line + "\n")
    try writeNotes(reminder, contentIndent: indent.count + marker.count + 1)
  }

  /// Notes as lines indented under the item. A line that would read back as something else (a
  /// task item, the end of the notes) is reported.
  private func writeNotes(_ reminder: Reminder, contentIndent: Int) throws {
    guard !reminder.notes.isEmpty else { return }
    let prefix = String(repeating: " ", count: contentIndent)
    var lines: [Substring] = []
    var changed = reminder.notes.contains("\r")
    for line in reminder.notes.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      lines.append(line)
      if MarkdownLine(String(line)).taskItem != nil { changed = true }
    }
    if lines.first?.isEmpty == true || lines.last?.isEmpty == true || lines.allSatisfy(\.isEmpty) { changed = true }
    for line in lines {
      try output.write(line.isEmpty ? "\n" : prefix + line + "\n")
    }
    if changed {
      diagnostics.warning(
        "cannot-carry",
        "Markdown notes are the lines under a task: carriage returns become line feeds, blank lines around them "
          + "and lines that read as tasks do not come back as they were",
        uid: reminder.id)
    }
  }

  private func reportDay(_ instant: Timestamp, what: String, uid: String) {
    if !PlainTextDates.isMidnight(instant, in: timeZone) {
      diagnostics.warning(
        "cannot-carry", "Obsidian Tasks keeps days, not times: the \(what) \(instant) is written as its day", uid: uid)
    }
  }

  func finish() throws {
    uncarried.report(format: "Markdown", to: diagnostics)
    try output.flush()
  }
}

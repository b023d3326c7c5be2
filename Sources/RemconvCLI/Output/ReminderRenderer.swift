import Foundation
import RemconvCore

/// How views, reminders and lists look on a terminal, and their `--json` form.
///
/// Text is plain and aligned: a short ID (the shortest prefix of the UID that names the
/// reminder alone, at least 8 characters), a check box indented by subtask depth, the title, then the due
/// date, the priority (`!`, `!!`, `!!!`), a flag (`⚑`) and, where a section mixes lists,
/// the list's name. Colour adds nothing but escapes around the same characters.
struct ReminderRenderer {
  let style: TextStyle
  let today: Today
  /// How many characters of each UID the ID column shows (`minimumIDLength` when absent).
  var idLengths: [String: Int] = [:]

  static let minimumIDLength = 8
  static let titleColumnLimit = 48
  static let emptyView = "No Reminders"

  /// The short IDs of a view's reminders: each the shortest prefix that no other UID in the
  /// store shares, and at least `minimumIDLength` characters.
  static func idLengths(for view: ReminderView, in store: Store) throws -> [String: Int] {
    let uids = Set(view.sections.flatMap(\.rows).map(\.reminder.id) + view.completed.map(\.reminder.id))
    return try store.uniquePrefixLengths(of: uids).mapValues { max(minimumIDLength, $0) }
  }

  func shortID(_ uid: String) -> String { String(uid.prefix(idLengths[uid] ?? Self.minimumIDLength)) }

  // MARK: Views

  /// The text of a view: its title, its sections, "No Reminders" when it has no members, then
  /// the Completed section.
  func lines(for view: ReminderView) -> [String] {
    var lines: [String] = []
    let showsListInRows: Bool
    switch view.subject {
    case .list(let list):
      lines.append(style.bold(style.color(TerminalText.printable(list.name), hex: list.color)))
      showsListInRows = false
    case .scope(let scope):
      lines.append(style.bold(scope.title))
      showsListInRows = true
    case .search(let search):
      lines.append(style.bold("Search: " + TerminalText.printable(search.query)))
      showsListInRows = true
    }
    var table = TextTable(alignments: [.left], maximumWidths: [nil, Self.titleColumnLimit])
    // Headings and rows go through one table so that every section shares its columns.
    var headingRows: [Int: String] = [:]
    var noteLines: [Int: String] = [:]
    func addRows(_ rows: [ViewRow], listColumn: Bool) {
      for row in rows {
        table.add(cells(for: row, listColumn: listColumn), indent: "  ")
        if case .search(let search) = view.subject, !search.contains(row.reminder.title),
          let line = search.matchingLine(in: row.reminder.notes)
        {
          noteLines[table.rows.count - 1] = style.dim("notes: " + TerminalText.printable(line))
        }
      }
    }
    for section in view.sections {
      switch section.heading {
      case .none:
        addRows(section.rows, listColumn: false)
      case .list(let list):
        headingRows[table.rows.count] = style.bold(style.color(TerminalText.printable(list.name), hex: list.color))
        addRows(section.rows, listColumn: false)
      case .day(let day):
        headingRows[table.rows.count] = style.bold(dayHeading(day))
        addRows(section.rows, listColumn: showsListInRows)
      }
    }
    let completedStart = table.rows.count
    addRows(view.completed, listColumn: showsListInRows)
    let rendered = table.lines()
    let idColumnWidth = table.rows.map { $0.cells.first?.width ?? 0 }.max() ?? 0
    let separated = view.sections.contains { $0.heading != .none }
    if view.isEmpty { lines.append("  " + Self.emptyView) }
    for (index, line) in rendered.enumerated() {
      if index == completedStart { lines += ["", style.bold("Completed")] }
      if let heading = headingRows[index] { lines += separated ? ["", heading] : [heading] }
      lines.append(line)
      // Under the title: past the indent, the ID column and the check box.
      if let note = noteLines[index] { lines.append(String(repeating: " ", count: idColumnWidth + 8) + note) }
    }
    return lines
  }

  /// The cells of one reminder: ID, box and title, due, priority, flag, list.
  func cells(for row: ViewRow, listColumn: Bool) -> [TextTable.Cell] {
    let reminder = row.reminder
    let id = shortID(reminder.id)
    let box = reminder.isDone ? "[x]" : "[ ]"
    let outline = String(repeating: "  ", count: row.depth) + box + " " + TerminalText.printable(reminder.title)
    let due = reminder.dueDate.map(Self.text(of:)) ?? ""
    let isOverdue = !reminder.isDone && reminder.dueDate.map { today.day(of: $0) < today.date } == true
    let marks = Self.marks(for: reminder.priority)
    return [
      TextTable.Cell(id, styled: style.dim(TerminalText.printable(id))),
      TextTable.Cell(outline, styled: reminder.isDone ? style.dim(TerminalText.printable(outline)) : nil),
      TextTable.Cell(due, styled: isOverdue ? style.red(due) : nil),
      TextTable.Cell(marks, styled: style.color(marks, hex: row.list.color)),
      TextTable.Cell(reminder.flagged ? "⚑" : "", styled: reminder.flagged ? style.orange("⚑") : nil),
      listColumn
        ? TextTable.Cell(row.list.name, styled: style.color(TerminalText.printable(row.list.name), hex: row.list.color))
        : .empty,
    ]
  }

  /// `Sun 2026-11-29 · Today`; `No Date` for reminders without a due date.
  func dayHeading(_ day: LocalDate?) -> String {
    guard let day else { return "No Date" }
    let names = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // 1970-01-01 was a Thursday
    var text = names[((day.daysSinceEpoch % 7) + 7) % 7] + " " + day.description
    switch day.daysSinceEpoch - today.date.daysSinceEpoch {
    case 0: text += " · Today"
    case 1: text += " · Tomorrow"
    case -1: text += " · Yesterday"
    default: break
    }
    return text
  }

  /// A due date as its kind shows it: `2026-11-29`, `2026-11-29 09:00` (floating),
  /// `2026-11-29 09:00 UTC`, `2026-11-29 09:00 Europe/Paris`.
  static func text(of due: DueDate) -> String {
    func time(_ value: LocalDateTime) -> String {
      let seconds = value.second == 0 ? "" : ":" + twoDigits(value.second)
      return value.date.description + " " + twoDigits(value.hour) + ":" + twoDigits(value.minute) + seconds
    }
    switch due {
    case .date(let date): return date.description
    case .floating(let value): return time(value)
    case .utc(let value): return time(value) + " UTC"
    case .zoned(let value, let zone): return time(value) + " " + zone
    }
  }

  private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

  static func marks(for priority: Priority) -> String {
    String(repeating: "!", count: priority.storedValue)
  }

  // MARK: JSON

  /// A reminder as a JSON object with the keys of `--format json`, plus its list's name and
  /// UID (as `--format jsonl` names them) and `extra` members of the view.
  static func json(_ reminder: Reminder, list: ReminderList, more: [(String, String)] = []) -> String {
    object(
      ReminderJSON.reminderMembers(reminder)
        + [("list", JSONText.quoted(list.name)), ("listId", JSONText.quoted(list.id))] + more)
  }

  /// `{"key":value,…}` from members whose values are JSON text already, in their order.
  static func object(_ members: [(String, String)]) -> String { ReminderJSON.object(members) }

  /// A view as one JSON document:
  /// `{"version":1,"view":…,"today":…,"count":N,"reminders":[…],"completed":[…]}`.
  func writeJSON(_ view: ReminderView, to output: ByteWriter) throws {
    var header: [(String, String)] = [("version", "1")]
    switch view.subject {
    case .list(let list):
      header += [
        ("view", JSONText.quoted("list")), ("list", JSONText.quoted(list.name)), ("listId", JSONText.quoted(list.id)),
      ]
    case .scope(let scope):
      header += [("view", JSONText.quoted("scope")), ("scope", JSONText.quoted(scope.rawValue))]
    case .search(let search):
      header += [("view", JSONText.quoted("search")), ("query", JSONText.quoted(search.query))]
    }
    header += [
      ("today", JSONText.quoted(today.date.description)), ("timeZone", JSONText.quoted(today.timeZone.identifier)),
      ("count", String(view.count)), ("completedCount", String(view.completed.count)),
    ]
    try output.write(String(Self.object(header).dropLast()) + ",\"reminders\":[")
    var first = true
    for section in view.sections {
      for row in section.rows {
        var more = [("depth", String(row.depth))]
        if case .day(let day) = section.heading {
          more.append(("day", day.map { JSONText.quoted($0.description) } ?? "null"))
        }
        try output.write((first ? "" : ",") + json(row, in: view, more: more))
        first = false
      }
    }
    try output.write("],\"completed\":[")
    for (index, row) in view.completed.enumerated() {
      try output.write((index == 0 ? "" : ",") + json(row, in: view, more: [("depth", String(row.depth))]))
    }
    try output.write("]}\n")
  }

  private func json(_ row: ViewRow, in view: ReminderView, more: [(String, String)]) -> String {
    var more = more
    if case .search(let search) = view.subject {
      let fields = search.matchedFields(row.reminder).map { JSONText.quoted($0.rawValue) }
      more.append(("matchedIn", "[" + fields.joined(separator: ",") + "]"))
    }
    return Self.json(row.reminder, list: row.list, more: more)
  }
}

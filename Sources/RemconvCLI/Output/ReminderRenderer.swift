import Foundation
import RemconvCore

/// How views, reminders and lists look on a terminal, and their `--json` form.
///
/// Text is plain and aligned: a short ID (the shortest prefix of the UID that names the
/// reminder alone, at least 8 characters), a check box indented by subtask depth, the title, then the due
/// date, the priority (`!`, `!!`, `!!!`), a flag (`⚑`), `↻` for a repeating reminder and `⏰`
/// for one with alarms and, where a section mixes lists, the list's name. Colour adds nothing but escapes around the same characters.
struct ReminderRenderer {
  let style: TextStyle
  let today: Today

  static let minimumIDLength = 8
  static let titleColumnLimit = 48
  static let emptyView = "No Reminders"
  /// How many rows decide the columns' widths of a streamed view.
  static let firstPageRows = 1000

  // MARK: Views

  /// Prints a view as its rows come: its title, its sections, "No Reminders" when it has no
  /// members, then the Completed section. Returns false, having printed nothing, when the view
  /// shows no row at all and `skipsEmpty`.
  ///
  /// Every row goes through one table so that every section shares its columns. The first
  /// `firstPageRows` rows are held and decide the widths: a view that fits in them is laid out
  /// over all its rows. A later row is printed with those widths at once; a cell wider than its
  /// column pushes the rest of its row right (as a title over `titleColumnLimit` always does),
  /// and a column blank on the first page is printed in the later rows that fill it.
  func write(_ stream: ViewStream, ids: UIDPrefixLengths, to output: ByteWriter, skipsEmpty: Bool = false) throws
    -> Bool
  {
    var page = ViewTable(
      style: style, today: today, firstPageRows: Self.firstPageRows, titleColumnLimit: Self.titleColumnLimit,
      output: output)
    switch stream.subject {
    case .list(let list):
      try page.add(text: style.bold(style.color(TerminalText.printable(list.name), hex: list.color)))
    case .scope(let scope):
      try page.add(text: style.bold(scope.title))
    case .search(let search):
      try page.add(text: style.bold("Search: " + TerminalText.printable(search.query)))
    }
    let showsListInRows: Bool
    if case .list = stream.subject { showsListInRows = false } else { showsListInRows = true }
    var listColumn = false
    var members = 0
    var completed = 0
    // A list's name as its rows show it, made once a list.
    var shownName: (raw: String, name: String, width: Int)?
    func add(_ line: ViewLine) throws {
      let reminder = line.reminder
      let length = max(
        Self.minimumIDLength, try reminder.shortIDLength ?? ids.length(of: reminder.uid, rowID: reminder.rowID))
      var note: String?
      if case .search(let search) = stream.subject, !reminder.notes.isEmpty,
        !(reminder.titleHoldsQuery ?? search.contains(reminder.title)),
        let matching = search.matchingLine(in: reminder.notes)
      {
        note = style.dim("notes: " + TerminalText.printable(matching))
      }
      var listName: String?
      var listNameWidth = 0
      if listColumn {
        if shownName?.raw != line.list.name {
          let name = TerminalText.printable(line.list.name)
          shownName = (line.list.name, name, TerminalText.width(name))
        }
        listName = shownName?.name
        listNameWidth = shownName?.width ?? 0
      }
      let id = Self.shownPrefix(of: reminder.uid, characters: length)
      let title = TerminalText.measured(reminder.title)
      try page.add(
        ViewTextRow(
          id: id.text, idWidth: id.width, depth: line.depth, isDone: reminder.isDone, title: title.text,
          titleWidth: title.width, due: reminder.dueDate, dueWidth: reminder.dueDate.map(ViewTextRow.width(of:)) ?? 0,
          isOverdue: style.enabled && !reminder.isDone
            && reminder.dueDate.map { today.day(of: $0) < today.date } == true,
          priority: reminder.priority, flagged: reminder.flagged,
          schedule: ViewTextRow.ScheduleMarks(repeating: reminder.isRepeating, alarms: reminder.hasAlarms),
          listColor: line.list.color, listName: listName, listNameWidth: listNameWidth, note: note))
    }
    try stream.run(shortIDs: ids) { event in
      switch event {
      case .heading(.none):
        break
      case .heading(.list(let list)):
        listColumn = false
        try page.add(text: "")
        try page.add(text: style.bold(style.color(TerminalText.printable(list.name), hex: list.color)))
      case .heading(.day(let day)):
        listColumn = showsListInRows
        try page.add(text: "")
        try page.add(text: style.bold(dayHeading(day)))
      case .member(let line):
        members += 1
        try add(line)
      case .completed(let line):
        if completed == 0 {
          if members == 0 { try page.add(text: "  " + Self.emptyView) }
          try page.add(text: "")
          try page.add(text: style.bold("Completed"))
          listColumn = showsListInRows
        }
        completed += 1
        try add(line)
      }
    }
    if members == 0, completed == 0 {
      if skipsEmpty { return false }
      try page.add(text: "  " + Self.emptyView)
    }
    try page.finish()
    return true
  }

  /// The first `characters` characters of a UID as a cell shows them, and their width: for
  /// the printable ASCII UIDs most apps make, a slice of the UID itself.
  static func shownPrefix(of uid: String, characters: Int) -> (text: Substring, width: Int) {
    var uid = uid
    let printable = uid.withUTF8 { bytes in
      bytes.prefix(characters).allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? min(characters, bytes.count) : nil
    }
    guard let count = printable else {
      let shown = TerminalText.measured(prefix(of: uid, characters: characters))
      return (Substring(shown.text), shown.width)
    }
    return (uid[..<uid.utf8.index(uid.startIndex, offsetBy: count)], count)
  }

  /// The first `count` characters of `text`; for the ASCII UIDs most apps make, without
  /// breaking the whole UID into characters.
  static func prefix(of text: String, characters count: Int) -> String {
    let head = text.utf8.prefix(count + 1)
    // ASCII bytes are a character each, but for a carriage return before a line feed.
    guard head.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) else { return String(text.prefix(count)) }
    return head.count <= count ? text : String(decoding: head.prefix(count), as: UTF8.self)
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
    let value = priority.storedValue
    return value >= 0 && value < priorityMarks.count ? priorityMarks[value] : String(repeating: "!", count: value)
  }

  private static let priorityMarks = ["", "!", "!!", "!!!"]

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

  /// A view as one JSON document, written as its rows come (`ViewStream.runWhole`):
  /// `{"version":1,"view":…,"today":…,"reminders":[…],"completed":[…],"count":N,"completedCount":M}`.
  /// The counts follow the rows, which are not held to be counted first.
  func writeJSON(_ stream: ViewStream, to output: ByteWriter) throws {
    var header: [(String, String)] = [("version", "1")]
    switch stream.subject {
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
    ]
    try output.write(String(Self.object(header).dropLast()) + ",\"reminders\":[")
    var count = 0
    var completedCount = 0
    var day: LocalDate??
    try stream.runWhole { event in
      switch event {
      case .heading(.day(let heading)): day = heading
      case .heading: day = nil
      case .member(let row):
        var more = [("depth", String(row.depth))]
        if let day { more.append(("day", day.map { JSONText.quoted($0.description) } ?? "null")) }
        try output.write((count == 0 ? "" : ",") + json(row, subject: stream.subject, more: more))
        count += 1
      case .completed(let row):
        if completedCount == 0 { try output.write("],\"completed\":[") } else { try output.write(byte: 0x2C) }
        try output.write(json(row, subject: stream.subject, more: [("depth", String(row.depth))]))
        completedCount += 1
      }
    }
    if completedCount == 0 { try output.write("],\"completed\":[") }
    try output.write("],\"count\":\(count),\"completedCount\":\(completedCount)}\n")
  }

  private func json(_ row: ViewRow, subject: ReminderView.Subject, more: [(String, String)]) -> String {
    var more = more
    if case .search(let search) = subject {
      let fields = search.matchedFields(row.reminder).map { JSONText.quoted($0.rawValue) }
      more.append(("matchedIn", "[" + fields.joined(separator: ",") + "]"))
    }
    return Self.json(row.reminder, list: row.list, more: more)
  }
}

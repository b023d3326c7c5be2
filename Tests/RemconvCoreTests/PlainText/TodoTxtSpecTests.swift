import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// todo.txt, by the rules and examples of its spec (`todotxt/todo.txt`, README: "Incomplete
/// Tasks: 3 Format Rules", "Complete Tasks: 2 Format Rules", "Additional File Format
/// Definitions").
@Suite struct TodoTxtSpecTests {
  @Test func aPriorityComesFirstInUpperCaseInParenthesesAndASpace() {
    #expect(TodoTxtLine(parsing: "(A) Call Mom").priority == "A")
    #expect(TodoTxtLine(parsing: "(A) Call Mom").title == "Call Mom")
    for line in ["Really gotta call Mom (A) @phone @someday", "(b) Get back to the boss", "(B)->Submit TPS report"] {
      #expect(TodoTxtLine(parsing: line).priority == nil, "\(line)")
    }
    #expect(TodoTxtLine(parsing: "(B)->Submit TPS report").title == "(B)->Submit TPS report")
  }

  @Test func aCreationDateFollowsThePriority() {
    let dated = TodoTxtLine(parsing: "2011-03-02 Document +TodoTxt task format")
    #expect(dated.creationDate == LocalDate(year: 2011, month: 3, day: 2))
    #expect(dated.title == "Document +TodoTxt task format")
    #expect(dated.tags == [.init(name: "TodoTxt", isProject: true)])
    let both = TodoTxtLine(parsing: "(A) 2011-03-02 Call Mom")
    #expect(both.priority == "A" && both.creationDate == LocalDate(year: 2011, month: 3, day: 2))
    let inText = TodoTxtLine(parsing: "(A) Call Mom 2011-03-02")
    #expect(inText.creationDate == nil && inText.title == "Call Mom 2011-03-02")
  }

  @Test func projectsAndContextsStandAnywhereAfterThePriorityAndDate() {
    let line = TodoTxtLine(parsing: "(A) Call Mom +Family +PeaceLoveAndHappiness @iphone @phone")
    #expect(line.title == "Call Mom")
    #expect(
      line.tags == [
        .init(name: "Family", isProject: true), .init(name: "PeaceLoveAndHappiness", isProject: true),
        .init(name: "iphone", isProject: false), .init(name: "phone", isProject: false),
      ])
    #expect(TodoTxtLine(parsing: "Email SoAndSo at soandso@example.com").tags.isEmpty)
    #expect(TodoTxtLine(parsing: "Learn how to add 2+2").tags.isEmpty)
    // A project inside the text stays in the title, and is a tag.
    let inside = TodoTxtLine(parsing: "Post signs around the +GarageSale neighborhood")
    #expect(inside.title == "Post signs around the +GarageSale neighborhood")
    #expect(inside.tags == [.init(name: "GarageSale", isProject: true)])
  }

  @Test func aCompleteTaskStartsWithALowerCaseXAndItsDates() {
    let done = TodoTxtLine(parsing: "x 2011-03-03 Call Mom")
    #expect(done.isDone && done.completionDate == LocalDate(year: 2011, month: 3, day: 3) && done.title == "Call Mom")
    for line in ["xylophone lesson", "X 2012-01-01 Make resolutions", "(A) x Find ticket prices"] {
      #expect(!TodoTxtLine(parsing: line).isDone, "\(line)")
    }
    let dates = TodoTxtLine(parsing: "x 2011-03-02 2011-03-01 Review Tim's pull request +TodoTxtTouch @github")
    #expect(dates.completionDate == LocalDate(year: 2011, month: 3, day: 2))
    #expect(dates.creationDate == LocalDate(year: 2011, month: 3, day: 1))
    #expect(dates.title == "Review Tim's pull request")
  }

  @Test func keyValueExtensions() {
    let line = TodoTxtLine(parsing: "Pay the rent due:2010-01-02 +home h:1 rec:+1m")
    #expect(line.title == "Pay the rent")
    #expect(line.extensions.map { "\($0.key):\($0.value)" } == ["due:2010-01-02", "rec:+1m", "h:1"])
    // A time of day is no extension: its value would need a colon.
    #expect(TodoTxtLine(parsing: "Meet at 10:30:00").title == "Meet at 10:30:00")
    #expect(TodoTxtLine(parsing: "Read https://example.com/x").title == "Read https://example.com/x")
  }

  @Test func aLineWrittenIsReadBackTheSame() {
    for line in [
      "(A) 2011-03-02 Call Mom +Family @phone due:2011-03-04 uid:T-1",
      "x 2011-03-02 2011-03-01 Review Tim's pull request +TodoTxtTouch @github pri:B",
      "Email +Bob about the @office move list:Work%20Stuff",
      "  two leading spaces stay",
    ] {
      #expect(TodoTxtLine(parsing: line).text == line, "\(line)")
    }
  }

  @Test func remconvValuesArePercentEncoded() {
    let text = "Work stuff: 100% done\n"
    let encoded = KeyValueText.encode(text)
    #expect(encoded == "Work%20stuff%3A%20100%25%20done%0A")
    #expect(KeyValueText.decode(encoded) == text)
    #expect(KeyValueText.decode("50%") == "50%")
    #expect(KeyValueText.decode("%zz%4") == "%zz%4")
  }

  @Test func sniffing() {
    #expect(TodoTxtFormat.looksLikeTodoTxt(Array("(A) Call Mom\nBuy milk\n".utf8)))
    #expect(TodoTxtFormat.looksLikeTodoTxt(Array("x 2026-11-28 Filed taxes\n".utf8)))
    #expect(!TodoTxtFormat.looksLikeTodoTxt(Array("Dear diary,\ntoday was fine.\n".utf8)))
    #expect(!TodoTxtFormat.looksLikeTodoTxt(Array("# Groceries\n- [ ] Oat milk due:2026-11-30\n".utf8)))
  }
}

/// Markdown task lists by the GFM spec ("Task list items (extension)") and the Obsidian Tasks
/// plugin's documented metadata, read through the format's reader.
@Suite struct MarkdownTaskListTests {
  static func records(_ text: String, list: String? = nil) throws -> [SourceRecord] {
    var options = ReaderOptions()
    options.listName = list
    options.timeZone = TimeZone(identifier: "UTC")!
    let reader = try MarkdownReader(
      context: ReaderContext(
        source: .file("notes.md"), diagnostics: DiagnosticLog(), options: options,
        preopened: ByteReader(bytes: Array(text.utf8), name: "notes.md")))
    var records: [SourceRecord] = []
    while let record = try reader.next() { records.append(record) }
    return records
  }

  static func reminders(_ text: String) throws -> [Reminder] {
    try records(text).compactMap { record in
      if case .reminder(let reminder, _) = record { return reminder }
      return nil
    }
  }

  @Test func theGFMExamples() throws {
    let flat = try Self.reminders("- [ ] foo\n- [x] bar\n")
    #expect(flat.map(\.title) == ["foo", "bar"])
    #expect(flat.map(\.isDone) == [false, true])
    let nested = try Self.reminders("- [x] foo\n  - [ ] bar\n  - [x] baz\n- [ ] bim\n")
    let byTitle = Dictionary(uniqueKeysWithValues: nested.map { ($0.title, $0) })
    #expect(Set(byTitle.keys) == ["foo", "bar", "baz", "bim"])
    #expect(byTitle["bar"]?.parentID == byTitle["foo"]?.id && byTitle["baz"]?.parentID == byTitle["foo"]?.id)
    #expect(byTitle["bim"]?.parentID == nil && byTitle["foo"]?.isDone == true && byTitle["baz"]?.isDone == true)
    // `* [X]` and ordered items are task items too; `[ ]` without a list marker is not.
    #expect(try Self.reminders("* [X] upper\n1. [ ] ordered\n[ ] not an item\n").map(\.title) == ["upper", "ordered"])
  }

  @Test func headingsAreListsAndTextUnderAnItemIsItsNotes() throws {
    let records = try Self.records(
      """
      Some prose first.

      # Groceries

      - [ ] Oat milk
        Barista edition

        if they have it
      - Not a task
      ## Empty heading

      # Work
      1. [ ] Report
      """)
    var lists: [String] = []
    var skipped: [String] = []
    var reminders: [Reminder] = []
    for record in records {
      switch record {
      case .list(let list): lists.append(list.name)
      case .skipped(let kind, let location): skipped.append("\(location.line ?? 0) \(kind)")
      case .reminder(let reminder, _): reminders.append(reminder)
      default: break
      }
    }
    #expect(lists == ["Groceries", "Work"])
    #expect(reminders.map(\.title) == ["Oat milk", "Report"])
    #expect(reminders.first?.notes == "Barista edition\n\nif they have it")
    #expect(
      skipped == ["1 prose (not a task-list item)", "9 prose (not a task-list item)", "10 a heading without tasks"])
  }

  @Test func obsidianTasksMetadata() throws {
    let line = TaskLineText(
      parsing:
        "Take out the trash #home ⏫ 🔁 every week on Sunday ➕ 2021-04-01 🛫 2021-04-02 ⏳ 2021-04-03 📅 2021-04-04 ^abc-123"
    )
    #expect(line.title == "Take out the trash")
    #expect(line.tags == ["home"])
    #expect(line.prioritySign == "⏫")
    #expect(line.recurrence == "every week on Sunday")
    #expect(line.dates[TaskLineText.Sign.created] == LocalDate(year: 2021, month: 4, day: 1))
    #expect(line.dates[TaskLineText.Sign.start] == LocalDate(year: 2021, month: 4, day: 2))
    #expect(line.dates[TaskLineText.Sign.scheduled] == LocalDate(year: 2021, month: 4, day: 3))
    #expect(line.dates[TaskLineText.Sign.due] == LocalDate(year: 2021, month: 4, day: 4))
    #expect(line.blockID == "abc-123")
    #expect(TaskLineText(parsing: line.text) == line)

    let done = try #require(try Self.reminders("- [x] Pay the bills 🔽 ✅ 2021-04-09\n").first)
    #expect(done.isDone && done.priority == .low && done.completedAt?.description == "2021-04-09T00:00:00Z")
    let cancelled = try #require(try Self.reminders("- [-] Book the hall ❌ 2021-04-10\n").first)
    #expect(cancelled.isDone && cancelled.extra["markdown"]?["status"] == .string("-"))
    #expect(cancelled.extra["markdown"]?["❌"] == .string("2021-04-10"))
    let highest = try #require(try Self.reminders("- [ ] Fix the roof 🔺\n").first)
    #expect(highest.priority == .high && highest.extra["markdown"]?["priority"] == .string("🔺"))
    // An emoji with the presentation selector some editors add is the same sign.
    let selector = TaskLineText(parsing: "Plan ⏳\u{FE0F} 2021-04-03")
    #expect(selector.dates[TaskLineText.Sign.scheduled] == LocalDate(year: 2021, month: 4, day: 3))
  }

  @Test func aCodeBlockHoldsNoTasks() throws {
    let reminders = try Self.reminders("```\n- [ ] not a task\n```\n- [ ] a task\n  ```\n  - [ ] a note\n  ```\n")
    #expect(reminders.map(\.title) == ["a task"])
    #expect(reminders.first?.notes == "```\n- [ ] a note\n```")
  }

  @Test func proseStopsAnExportFromReplacingTheFile() {
    #expect(MarkdownFormat.proseRefusal(Array("# Work\n\n- [ ] Report\n  notes\n".utf8)) == nil)
    let refusal = MarkdownFormat.proseRefusal(Array("# Work\n\nMeeting notes.\n- [ ] Report\n".utf8))
    #expect(refusal?.hasPrefix("line 3 is prose") == true, "\(refusal ?? "")")
  }
}

/// Recurrence in the plain-text formats: todo.txt's `rec:` (topydo, SimpleTask, dorecur) and
/// Obsidian Tasks' `🔁 every …`, mapped to RRULEs both ways.
@Suite struct PlainTextRecurrenceTests {
  @Test func todoTxtRec() {
    let cases: [(String, String, Recurrence.Basis)] = [
      ("1w", "FREQ=WEEKLY", .completion), ("+1w", "FREQ=WEEKLY", .dueDate), ("+2d", "FREQ=DAILY;INTERVAL=2", .dueDate),
      ("3", "FREQ=DAILY;INTERVAL=3", .completion), ("+1m", "FREQ=MONTHLY", .dueDate),
      ("1y", "FREQ=YEARLY", .completion),
      ("+1b", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", .dueDate),
    ]
    for (value, rule, basis) in cases {
      let parsed = SimpleRecurrence(todoTxt: value)
      #expect(parsed?.recurrence == Recurrence(rule: rule, basis: basis), "\(value)")
      #expect(parsed?.todoTxtValue == (value == "3" ? "3d" : value), "\(value)")
    }
    for value in ["2b", "0d", "+w", "1x", "-1d", ""] { #expect(SimpleRecurrence(todoTxt: value) == nil, "\(value)") }
    #expect(SimpleRecurrence(Recurrence(rule: "FREQ=MONTHLY;BYMONTHDAY=1")) == nil)
    #expect(SimpleRecurrence(Recurrence(rule: "FREQ=WEEKLY;BYDAY=MO,WE"))?.todoTxtValue == nil)
  }

  @Test func obsidianPhrases() {
    let cases: [(String, String, Recurrence.Basis, String)] = [
      ("every day", "FREQ=DAILY", .dueDate, "every day"),
      ("every 3 days", "FREQ=DAILY;INTERVAL=3", .dueDate, "every 3 days"),
      ("every week when done", "FREQ=WEEKLY", .completion, "every week when done"),
      ("every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", .dueDate, "every weekday"),
      ("every Sunday", "FREQ=WEEKLY;BYDAY=SU", .dueDate, "every week on Sunday"),
      ("every week on Monday, Wednesday", "FREQ=WEEKLY;BYDAY=MO,WE", .dueDate, "every week on Monday, Wednesday"),
      ("every 2 weeks on Tuesday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", .dueDate, "every 2 weeks on Tuesday"),
      ("every month", "FREQ=MONTHLY", .dueDate, "every month"),
      ("every 2 years", "FREQ=YEARLY;INTERVAL=2", .dueDate, "every 2 years"),
    ]
    for (phrase, rule, basis, written) in cases {
      let parsed = SimpleRecurrence(obsidianPhrase: phrase)
      #expect(parsed?.recurrence == Recurrence(rule: rule, basis: basis), "\(phrase)")
      #expect(parsed?.obsidianPhrase == written, "\(phrase)")
    }
    for phrase in ["every month on the 2nd Tuesday", "every 1 days", "each day", "every"] {
      #expect(SimpleRecurrence(obsidianPhrase: phrase) == nil, "\(phrase)")
    }
  }

  @Test func aRuleTheFormatCannotSayIsKeptAndReported() throws {
    let log = DiagnosticLog()
    let reader = try MarkdownReader(
      context: ReaderContext(
        source: .file("t.md"), diagnostics: log,
        preopened: ByteReader(
          bytes: Array("- [ ] Rent 🔁 every month on the 2nd Tuesday 📅 2026-12-08\n".utf8), name: "t.md")))
    guard case .reminder(let reminder, _)? = try reader.next() else {
      Issue.record("no reminder")
      return
    }
    #expect(reminder.recurrence == nil)
    #expect(reminder.extra["markdown"]?["recurrence"] == .string("every month on the 2nd Tuesday"))
    #expect(log.entries.contains { $0.code == "unmapped-recurrence" })
    // Written back as it came.
    let output = ByteWriter()
    let writer = try MarkdownWriter(context: WriterContext(target: .stream(output), diagnostics: DiagnosticLog()))
    let list = ReminderList(id: "L", name: "Home")
    try writer.beginList(list)
    try writer.write(reminder, in: list, depth: 0)
    try writer.finish()
    #expect(output.text.contains("- [ ] Rent 🔁 every month on the 2nd Tuesday 📅 2026-12-08"), "\(output.text)")
  }
}

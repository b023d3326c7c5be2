import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `csv:todoist`: the Todoist project template, both directions.
@Suite struct TodoistCSVFormatTests {
  /// A bench holding the Renovation template (meta row, sections, notes, indents, labels).
  static func renovationBench(list: String? = nil) throws -> TestBench {
    let bench = TestBench()
    let result = bench.run(
      ["import", CSVFixtures.path("todoist/Renovation.csv")] + (list.map { ["--list", $0] } ?? []))
    try #require(result.status == .ok, "\(result.errors)")
    return bench
  }

  @Test func readsTheTemplate() throws {
    let bench = try Self.renovationBench()
    let rows = try CSVFixtures.reminders(in: bench)
    #expect(rows.count == 7)
    #expect(rows.allSatisfy { $0["list"] == .string("Renovation") })
    #expect(rows.first?["listExtra"] == .object(["todoist": .object(["meta": .array([.string("view_style=list")])])]))

    let plumber = try CSVFixtures.reminder("Call the plumber", in: rows)
    #expect(plumber["tags"] == .array([.string("phone"), .string("urgent")]))
    #expect(plumber["priority"] == .string("high"))
    #expect(plumber["dueDate"] == .string("2026-12-01"))
    #expect(plumber["dueTimeZone"] == .null)
    #expect(
      plumber["notes"]
        == .string("Ask about the boiler too\n\nHe prefers calls before 10:00.\nThe number is on the fridge."))
    let plumberExtra = try #require(plumber["extra"]?["todoist"]?.objectValue)
    #expect(plumberExtra["AUTHOR"] == .string("Ada (14781400)"))
    #expect(plumberExtra["TIMEZONE"] == .string("Europe/Berlin"))
    #expect(plumberExtra["notes"]?.arrayValue?.first?["AUTHOR"] == .string("Ada (14781400)"))

    let paint = try CSVFixtures.reminder("Buy paint", in: rows)
    #expect(paint["priority"] == .string("medium"))
    #expect(paint["dueDate"] == .string("2026-12-03T09:30:00"))
    #expect(paint["dueTimeZone"] == .string("Europe/Berlin"))
    #expect(paint["notes"] == .string("Matt white, 5 l"))
    #expect(paint["extra"]?["todoist"]?["DURATION"] == .string("30"))

    let primer = try CSVFixtures.reminder("Primer", in: rows)
    let brushes = try CSVFixtures.reminder("Brushes", in: rows)
    let tape = try CSVFixtures.reminder("Tape", in: rows)
    #expect(primer["parentId"] == paint["id"])
    #expect(brushes["parentId"] == primer["id"])
    #expect(tape["parentId"] == paint["id"])
    #expect(primer["priority"] == .string("low"))
    #expect(brushes["priority"] == .string("none"))
    #expect(tape["dueDate"] == .null)
    #expect(tape["extra"]?["todoist"]?["DATE"] == nil)
    #expect(tape["recurrence"]?["rule"] == .string("FREQ=WEEKLY;BYDAY=MO"), "an every phrase is the repeat")

    let ideas = try CSVFixtures.reminder("Ideas for the hallway", in: rows)
    #expect(ideas["extra"]?["todoist"]?["uncompletable"] == .bool(true))
    #expect(ideas["extra"]?["todoist"]?["section"] == .string("Later"))
    #expect(ideas["extra"]?["todoist"]?["DEADLINE"] == .string("2026-12-24"))
    // An empty PRIORITY is p1 in Todoist's own rules.
    #expect(try CSVFixtures.reminder("Sand the door", in: rows)["priority"] == .string("high"))
  }

  @Test func warnsAboutDatesItCannotReadWithTheLine() {
    let (_, _, result) = CSVFixtures.importing(
      "Chores.csv",
      "TYPE,CONTENT,PRIORITY,INDENT,DATE,DATE_LANG,TIMEZONE\ntask,Gym,4,1,every day at 7am,en,Europe/Berlin\n")
    #expect(
      result.errors.contains(
        "Chores.csv:2: column 'DATE': 'every day at 7am' in 'Europe/Berlin' is not an ISO date or date-time"))
    #expect(result.errors.contains("[unparsed-date]"))
    let renovation = TestBench().run(["import", CSVFixtures.path("todoist/Renovation.csv")])
    #expect(!renovation.errors.contains("[unparsed-date]"), "'every monday' is a repeat")
  }

  @Test func olderTemplateWithoutDescriptionOrTimezone() throws {
    let bench = TestBench()
    #expect(bench.run(["import", CSVFixtures.path("todoist/old-template.csv"), "--list", "Trip"]).status == .ok)
    let rows = try CSVFixtures.reminders(in: bench)
    #expect(rows.map { $0["title"]?.stringValue } == ["Book flights", "Renew passport", "Photos"])
    #expect(rows.allSatisfy { $0["list"] == .string("Trip") })
    let flights = try CSVFixtures.reminder("Book flights", in: rows)
    #expect(flights["notes"] == .string("Window seat, please."))
    #expect(flights["priority"] == .string("none"))
    #expect(flights["tags"] == .array([.string("travel")]))
    let photos = try CSVFixtures.reminder("Photos", in: rows)
    #expect(try photos["parentId"] == CSVFixtures.reminder("Renew passport", in: rows)["id"])
  }

  @Test func exportOfTheTemplateMatchesTheGoldenFile() throws {
    let bench = try Self.renovationBench()
    let result = bench.run(["export", "--format", "csv:todoist"])
    #expect(result.status == .ok)
    CSVFixtures.expectGolden(result.output, "Renovation-todoist.csv")
    // The comment goes back as a note row with its author, not into the description.
    #expect(
      result.output.contains(
        "task,Call the plumber @phone @urgent,Ask about the boiler too,1,1,Ada (14781400),"))
    #expect(
      result.output.contains(
        "note,\"He prefers calls before 10:00.\nThe number is on the fridge.\",,,,Ada (14781400),,,,,,,,\n"))
    #expect(!result.errors.contains("comment details"))
  }

  /// A comment row read, exported and read again is a comment row again: the description
  /// does not grow by it, and `extra.todoist.notes` keeps it, author and all.
  @Test func commentsStayCommentsAcrossARoundTrip() throws {
    let original = try Self.renovationBench()
    let exported = original.run(["export", "--format", "csv:todoist"])
    #expect(exported.status == .ok)
    let copy = TestBench()
    let file = copy.directory.write("Renovation.csv", exported.output)
    #expect(copy.run(["import", file]).status == .ok)
    #expect(try CSVFixtures.reminders(in: copy) == CSVFixtures.reminders(in: original))
    let again = copy.run(["export", "--format", "csv:todoist"])
    #expect(again.output == exported.output)
    let plumber = try CSVFixtures.reminder("Call the plumber", in: try CSVFixtures.reminders(in: copy))
    #expect(
      plumber["extra"]?["todoist"]?["notes"]
        == .array([
          .object([
            "CONTENT": .string("He prefers calls before 10:00.\nThe number is on the fridge."),
            "AUTHOR": .string("Ada (14781400)"),
          ])
        ]))
  }

  /// Notes edited after the import no longer end with the comment: written whole as the
  /// description, and said.
  @Test func editedNotesAreWrittenWholeAndReported() throws {
    let bench = try Self.renovationBench()
    let rows = try CSVFixtures.reminders(in: bench)
    let plumber = try #require(try CSVFixtures.reminder("Call the plumber", in: rows)["id"]?.stringValue)
    #expect(bench.run(["edit", plumber, "--notes", "Only this now"]).status == .ok)
    let result = bench.run(["export", "--format", "csv:todoist"])
    #expect(result.output.contains("task,Call the plumber @phone @urgent,Only this now,"))
    #expect(!result.output.contains("\nnote,"))
    #expect(
      result.errors.contains(
        "csv:todoist cannot carry comments edited since import (written in the description, not as note rows): 1"))
  }

  /// The count said is the rows written: a completed reminder a template cannot hold is not
  /// counted as exported.
  @Test func exportCountsTheTasksWritten() throws {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json"), "--quiet"]).status == .ok)
    let path = bench.directory.file("groceries.csv")
    let result = bench.run(["export", "--format", "csv:todoist", "--list", "Groceries", "-o", path])
    #expect(result.status == .ok)
    let written = try String(contentsOfFile: path, encoding: .utf8)
    let taskRows = written.split(separator: "\n").filter { $0.hasPrefix("task,") }.count
    #expect(taskRows == 3)
    #expect(result.errors.contains("remconv: exported \(taskRows) reminders to \(path)"))
  }

  /// Todoist → store → Todoist → store keeps everything but the comment details.
  @Test func templateRoundTrip() throws {
    let original = try Self.renovationBench()
    let copy = TestBench()
    // Named like the original, so the project (list) gets the same name and UIDs.
    let file = copy.directory.write("Renovation.csv", CSVFixtures.read("golden/Renovation-todoist.csv"))
    let result = copy.run(["import", file])
    #expect(result.status == .ok, "\(result.errors)")
    func withoutCommentDetails(_ rows: [[String: JSONValue]]) -> [[String: JSONValue]] {
      rows.map { row in
        var row = row
        if var todoist = row["extra"]?["todoist"]?.objectValue {
          todoist["notes"] = nil
          row["extra"] = .object(["todoist": .object(todoist)])
        }
        return row
      }
    }
    #expect(
      withoutCommentDetails(try CSVFixtures.reminders(in: copy))
        == withoutCommentDetails(try CSVFixtures.reminders(in: original)))
  }

  @Test func exportOfAListSkipsCompletedTasksAndReportsWhatItCannotCarry() throws {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json"), "--quiet"]).status == .ok)
    let result = bench.run(["export", "--format", "csv:todoist", "--list", "Groceries"])
    #expect(result.status == .ok)
    CSVFixtures.expectGolden(result.output, "groceries-todoist.csv")
    #expect(!result.output.contains("task,Vanilla pods,"))
    for what in ["completed reminders (not written): 1", "URLs: 1", "flags: 1", "creation and edit times: 3"] {
      #expect(result.errors.contains("csv:todoist cannot carry \(what) [cannot-carry]"))
    }
  }

  @Test func laterListsBecomeSections() throws {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json"), "--quiet"]).status == .ok)
    let result = bench.run(["export", "--format", "csv:todoist"])
    #expect(result.status == .ok)
    #expect(result.output.contains("\nsection,Work,,,,,,,,,,,,\n"))
    #expect(result.errors.contains("lists after the first (written as sections): 3"))
    // Read back, those lists are sections of one project.
    let copy = TestBench()
    #expect(copy.run(["import", copy.directory.write("All.csv", result.output), "--quiet"]).status == .ok)
    let rows = try CSVFixtures.reminders(in: copy)
    #expect(rows.allSatisfy { $0["list"] == .string("All") })
    #expect(
      try CSVFixtures.reminder("Send Q4 forecast to Ingrid", in: rows)["extra"]?["todoist"]?["section"]
        == .string("Work"))
  }

  @Test(arguments: [
    (Priority.high, "1"), (Priority.medium, "2"), (Priority.low, "3"), (Priority.none, "4"),
  ])
  func priorityRunsOppositeAndNoneIsFour(_ priority: Priority, _ number: String) {
    #expect(TodoistCSVFormat.number(for: priority) == number)
    #expect(TodoistCSVFormat.priority(number: number) == priority)
  }

  @Test func labelsAreWordsStartingWithAnAt() {
    #expect(TodoistCSVFormat.splitLabels("Buy milk @errands @home").title == "Buy milk")
    #expect(TodoistCSVFormat.splitLabels("Buy milk @errands @home").labels == ["errands", "home"])
    #expect(TodoistCSVFormat.splitLabels("Mail ada@example.com @ now").labels == [])
    #expect(TodoistCSVFormat.splitLabels("@30min @/munich walk").labels == ["30min", "/munich"])
    #expect(TodoistCSVFormat.splitLabels("@30min @/munich walk").title == "walk")
  }

  @Test(arguments: [
    ("2026-11-30", "", DueDate.date(LocalDate(year: 2026, month: 11, day: 30)!)),
    ("2026-11-30 09:00", "", DueDate.floating(LocalDateTime(iso: "2026-11-30T09:00:00")!)),
    ("2026-11-30T09:00:15", "UTC", DueDate.utc(LocalDateTime(iso: "2026-11-30T09:00:15")!)),
    (
      "2026-11-30 09:00", "Asia/Tokyo",
      DueDate.zoned(LocalDateTime(iso: "2026-11-30T09:00:00")!, timeZone: "Asia/Tokyo")
    ),
  ])
  func datesKeepTheirKindBothWays(_ date: String, _ zone: String, _ due: DueDate) {
    #expect(TodoistCSVFormat.dueDate(date: date, timeZone: zone) == due)
    let written = TodoistCSVFormat.cells(for: due)
    #expect(TodoistCSVFormat.dueDate(date: written.date, timeZone: written.timeZone ?? "") == due)
  }

  @Test func naturalLanguageDatesAreNotGuessed() {
    #expect(TodoistCSVFormat.dueDate(date: "every day", timeZone: "") == nil)
    #expect(TodoistCSVFormat.dueDate(date: "4 Jan", timeZone: "") == nil)
    #expect(TodoistCSVFormat.dueDate(date: "2026-11-30 09:00", timeZone: "Mars/Olympus") == nil)
  }

  @Test func noteWithoutATaskIsRejectedWithItsLine() {
    let (bench, _, result) = CSVFixtures.importing(
      "orphan.csv", "TYPE,CONTENT,PRIORITY,INDENT\nnote,Who wrote this?,,\ntask,Real task,4,1\n")
    #expect(result.status == .dataError)
    #expect(result.errors.contains("orphan.csv:2: a note row with no task above it"))
    #expect(!bench.snapshot().contains("Real task"))
  }

  @Test func unknownRowTypeIsRejected() {
    let (_, _, result) = CSVFixtures.importing(
      "odd.csv", "TYPE,CONTENT\ntask,Fine\nmilestone,Launch\n", ["--format", "csv:todoist"])
    #expect(result.status == .dataError)
    #expect(result.errors.contains("odd.csv:3: the TYPE 'milestone' is not task, note, section or meta"))
  }

  @Test func missingContentColumnIsNamed() {
    let (_, _, result) = CSVFixtures.importing("nocontent.csv", "TYPE,TEXT\ntask,Fine\n", ["--format", "csv:todoist"])
    #expect(result.status == .dataError)
    #expect(
      result.errors.contains("nocontent.csv:1: the Todoist header has no 'CONTENT' column (its columns: TYPE, TEXT)"))
  }

  @Test func badPriorityAndIndentJumpWarnWithLineAndColumn() throws {
    let (bench, file, result) = CSVFixtures.importing(
      "warn.csv", "TYPE,CONTENT,PRIORITY,INDENT\ntask,Top,p1,1\ntask,Too deep,4,3\ntask,Odd indent,4,x\n")
    #expect(result.status == .ok)
    #expect(result.errors.contains("warn.csv:2: column 'PRIORITY': 'p1' is not a Todoist priority"))
    #expect(
      result.errors.contains(
        "warn.csv:3: column 'INDENT': level 3 follows a task at level 1; the task is placed at level 2"))
    #expect(result.errors.contains("warn.csv:4: column 'INDENT': 'x' is not an indent level"))
    let rows = try CSVFixtures.reminders(in: bench)
    #expect(try CSVFixtures.reminder("Top", in: rows)["extra"]?["invalid"]?["PRIORITY"] == .string("p1"))
    #expect(try CSVFixtures.reminder("Too deep", in: rows)["parentId"] == CSVFixtures.reminder("Top", in: rows)["id"])
    #expect(try CSVFixtures.reminder("Odd indent", in: rows)["parentId"] == .null)
    #expect(
      bench.run(["import", file, "--strict", "--store", bench.directory.file("strict.sqlite")]).status == .dataError)
  }

  @Test func detectedFromTheHeader() {
    #expect(TodoistCSVFormat.descriptor.sniff?(Array("TYPE,CONTENT,DESCRIPTION\n".utf8)) == true)
    #expect(TodoistCSVFormat.descriptor.sniff?(Array("title,CONTENT\n".utf8)) == false)
    let bench = TestBench()
    let result = bench.run(["import", CSVFixtures.path("todoist/Renovation.csv"), "--report", "json"])
    #expect(result.output.contains("\"format\":\"csv:todoist\""))
  }
}

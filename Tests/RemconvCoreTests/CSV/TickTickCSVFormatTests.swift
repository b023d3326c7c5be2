import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `csv:ticktick`: TickTick backups, on fixtures written after the real files and on the
/// shared corpus when it is there.
@Suite struct TickTickCSVFormatTests {
  /// Imports `path` into a fresh bench, which must succeed, and returns the store's reminders.
  static func imported(
    _ path: String, _ extra: [String] = []
  ) throws -> (TestBench, CLIResult, [[String: JSONValue]]) {
    let bench = TestBench()
    let result = bench.run(["import", path] + extra)
    try #require(result.status == .ok, "\(result.errors)")
    return (bench, result, try CSVFixtures.reminders(in: bench))
  }

  @Test func readsABackupWithBOMAndMultiLinePreamble() throws {
    let (_, result, rows) = try Self.imported(CSVFixtures.path("ticktick/backup.csv"), ["--report", "json"])
    #expect(result.output.contains("\"format\":\"csv:ticktick\""))
    #expect(rows.count == 9)
    #expect(Set(rows.compactMap { $0["list"]?.stringValue }) == ["Chores", "Sprint 12", "Inbox"])
    #expect(
      try CSVFixtures.reminder("Laundry", in: rows)["listExtra"]
        == .object(["ticktick": .object(["Folder Name": .string("Home")])]))

    let laundry = try CSVFixtures.reminder("Laundry", in: rows)
    #expect(laundry["priority"] == .string("medium"))
    #expect(laundry["tags"] == .array([.string("home"), .string("weekly")]))
    #expect(laundry["notes"] == .string("Whites at 60 °C\nColours at 30 °C"))
    // All day: 05:00 UTC is midnight in New York, on the 30th.
    #expect(laundry["dueDate"] == .string("2026-11-30"))
    #expect(laundry["createdAt"] == .string("2026-11-20T07:59:00Z"))
    let kept = try #require(laundry["extra"]?["ticktick"]?.objectValue)
    #expect(kept["Repeat"] == nil && kept["Reminder"] == nil && kept["Start Date"] == nil, "read into the fields")
    #expect(laundry["recurrence"]?["rule"] == .string("FREQ=WEEKLY;BYDAY=SU"))
    #expect(laundry["recurrence"]?["basis"] == .string("due"))
    #expect(
      laundry["alarms"]
        == .array([
          .object(["action": .string("DISPLAY"), "text": .null, "offset": .number(-900), "relatedTo": .string("due")])
        ]))
    #expect(laundry["startDate"] == .null, "a start equal to the due is no start")
    #expect(kept["projectKind"] == .string("TASK"))
    #expect(kept["taskId"] == .string("6540a1b2c3d4e5f600000001"))

    // The subtask came before its parent.
    let towels = try CSVFixtures.reminder("Fold the towels", in: rows)
    #expect(towels["parentId"] == laundry["id"])
    #expect(towels["priority"] == .string("low"))

    let release = try CSVFixtures.reminder("Ship the release", in: rows)
    #expect(release["priority"] == .string("high"))
    #expect(release["dueDate"] == .string("2026-12-02T23:30:00"))
    #expect(release["dueTimeZone"] == .string("Asia/Tokyo"))
    // All day in Tokyo: 15:00 UTC the day before.
    #expect(try CSVFixtures.reminder("Book the retro room", in: rows)["dueDate"] == .string("2026-11-30"))

    let changelog = try CSVFixtures.reminder("Write the changelog", in: rows)
    #expect(changelog["isDone"] == .bool(true))
    #expect(changelog["completedAt"] == .string("2026-11-27T16:45:10Z"))
    let archived = try CSVFixtures.reminder("Old idea", in: rows)
    #expect(archived["isDone"] == .bool(true))
    #expect(archived["extra"]?["ticktick"]?["Status"] == .string("2"))

    let call = try CSVFixtures.reminder("Team call", in: rows)
    #expect(call["dueDate"] == .string("2026-12-05T18:00:00"))
    #expect(call["dueTimeZone"] == .null)
    let dinner = try CSVFixtures.reminder("Christmas Eve dinner", in: rows)
    #expect(dinner["dueDate"] == .string("2026-12-24T20:00:00"))
    #expect(dinner["dueTimeZone"] == .string("Europe/Berlin"))
    #expect(dinner["createdAt"] == .string("2026-11-22T10:00:00Z"))

    let family = try CSVFixtures.reminder("Call \"Mum\", then Dad", in: rows)
    #expect(family["notes"] == .string("▫Ask about Sunday\n\n▪Send photos, too"))
    #expect(family["extra"]?["ticktick"]?["Kind"] == .string("CHECKLIST"))
  }

  @Test func reimportingABackupChangesNothing() throws {
    let (bench, _, _) = try Self.imported(CSVFixtures.path("ticktick/backup.csv"))
    let again = bench.run(["import", CSVFixtures.path("ticktick/backup.csv"), "--report", "json"])
    #expect(again.output.contains("\"unchanged\":9"))
  }

  @Test func parentCyclesAreBrokenWithAWarning() throws {
    let (_, result, rows) = try Self.imported(CSVFixtures.path("ticktick/cycle.csv"))
    #expect(result.errors.contains("cycle.csv:2: making"))
    #expect(result.errors.contains("would form a cycle; the reminder stays top-level"))
    let first = try CSVFixtures.reminder("First", in: rows)
    let second = try CSVFixtures.reminder("Second", in: rows)
    #expect(first["parentId"] == .null)
    #expect(first["extra"]?["brokenParent"] == second["id"])
    #expect(second["parentId"] == first["id"])
  }

  @Test func badValuesWarnWithRowAndColumn() throws {
    let (bench, _, result) = CSVFixtures.importing(
      "bad.csv",
      """
      "Version: 7.1"
      "List Name","Title","Priority","Status","Due Date","Timezone","Is All Day"
      "L","Odd priority","2","0","","Europe/Berlin",""
      "L","Odd status","0","7","","",""
      "L","Odd date","0","0","soon","Mars/Olympus",""

      """)
    #expect(result.status == .ok)
    #expect(result.errors.contains("bad.csv:3: column 'Priority': '2' is not a TickTick priority (0, 1, 3 or 5)"))
    #expect(result.errors.contains("bad.csv:4: column 'Status': '7' is not a TickTick status"))
    #expect(result.errors.contains("bad.csv:5: column 'Timezone': 'Mars/Olympus' is not an IANA time zone"))
    #expect(result.errors.contains("bad.csv:5: column 'Due Date': 'soon' is not a date and time"))
    let rows = try CSVFixtures.reminders(in: bench)
    #expect(
      try CSVFixtures.reminder("Odd date", in: rows)["extra"]?["invalid"]
        == .object([
          "Due Date": .string("soon"), "Timezone": .string("Mars/Olympus"),
        ]))
  }

  @Test func allDayWithoutTimezoneIsReadInTheMachineZoneWithAWarning() throws {
    let bench = TestBench(environment: ["TZ": "America/Los_Angeles"])
    let file = bench.directory.write(
      "nozone.csv", "List Name,Title,Due Date,Is All Day,Timezone\nL,Trip,2026-06-14T07:00:00+0000,true,\n")
    let result = bench.run(["import", file])
    #expect(result.status == .ok)
    #expect(
      result.errors.contains(
        "nozone.csv:2: column 'Due Date': '2026-06-14T07:00:00+0000' needs a time zone and the row has none; "
          + "read in America/Los_Angeles"))
    #expect(
      try CSVFixtures.reminder("Trip", in: try CSVFixtures.reminders(in: bench))["dueDate"] == .string("2026-06-14"))
  }

  @Test func aFileWithoutTheHeaderIsRefused() {
    let (_, _, result) = CSVFixtures.importing(
      "nohead.csv", "\"Date: 2026-11-28+0000\"\n\"Version: 7.1\"\nFolder,Task\n", ["--format", "csv:ticktick"])
    #expect(result.status == .dataError)
    #expect(
      result.errors.contains(
        "nohead.csv:1: no TickTick header row (one naming 'List Name' and 'Title') in the first 3 records"))
  }

  @Test func convertsToRemconvCSVAndBack() throws {
    let (original, _, _) = try Self.imported(CSVFixtures.path("ticktick/backup.csv"))
    let converted = original.run(["convert", CSVFixtures.path("ticktick/backup.csv"), "--to", "csv"])
    #expect(converted.status == .ok, "\(converted.errors)")
    let copy = TestBench()
    #expect(copy.run(["import", copy.directory.write("backup.csv", converted.output), "--quiet"]).status == .ok)
    #expect(copy.snapshot() == original.snapshot())
  }

  @Test func detectedFromThePreambleAndHeader() {
    let head = Array("\u{FEFF}\"Date: 2025\"\n\"Status: \n0 Normal\"\n\"Folder Name\",\"List Name\",\"Title\"\n".utf8)
    #expect(TickTickCSVFormat.descriptor.sniff?(head) == true)
    #expect(RemconvCSVFormat.descriptor.sniff?(head) == false)
    #expect(TickTickCSVFormat.descriptor.sniff?(Array("title,list\n".utf8)) == false)
  }

  // MARK: The shared corpus (real TickTick files)

  @Test(.enabled(if: CSVFixtures.hasCorpus)) func corpusExport() throws {
    let (_, result, rows) = try Self.imported(
      try CSVFixtures.corpusFile("vikunja-ticktick__testdata_ticktick_export.csv"))
    #expect(rows.count == 11)
    #expect(Set(rows.compactMap { $0["list"]?.stringValue }) == ["Project Alpha", "Shopping", "Inbox"])
    let repeating = try CSVFixtures.reminder("Task with repeating schedule", in: rows)
    #expect(repeating["tags"] == .array([.string("urgent"), .string("work")]))
    #expect(repeating["priority"] == .string("none"))
    #expect(repeating["isDone"] == .bool(false))
    #expect(repeating["createdAt"] == .string("2022-10-09T15:09:48Z"))
    let dated = try CSVFixtures.reminder("Task with reminder and dates", in: rows)
    #expect(dated["dueDate"] == .string("2018-12-12"))
    for subtask in ["Subtask example", "Another subtask"] {
      #expect(try CSVFixtures.reminder(subtask, in: rows)["parentId"] == dated["id"])
    }
    for done in ["Long task description example", "Completed task example"] {
      let row = try CSVFixtures.reminder(done, in: rows)
      #expect(row["isDone"] == .bool(true))
      #expect(row["completedAt"] == .string("2025-11-25T10:39:31Z"))
    }
    // The UTC instant of local midnight in Europe/Berlin is the 29th, not the 28th.
    #expect(try CSVFixtures.reminder("Task with due date", in: rows)["dueDate"] == .string("2023-03-29"))
    // No Timezone on this row: read in the machine's zone (Europe/Berlin here), with a warning.
    #expect(try CSVFixtures.reminder("Welcome task", in: rows)["dueDate"] == .string("2023-06-14"))
    #expect(result.errors.contains("[assumed-time-zone]"))
    #expect(
      try CSVFixtures.reminder("Checklist example", in: rows)["extra"]?["ticktick"]?["Kind"] == .string("CHECKLIST"))
  }

  @Test(.enabled(if: CSVFixtures.hasCorpus)) func corpusMultiline() throws {
    let (_, _, rows) = try Self.imported(
      try CSVFixtures.corpusFile("vikunja-ticktick__testdata_ticktick_multiline.csv"))
    #expect(rows.map { $0["title"]?.stringValue } == ["Task with multiline\ndescription", "Regular task"])
    let notes = try #require(rows.first?["notes"]?.stringValue)
    #expect(notes.hasPrefix("This is a task description\nthat spans multiple lines.\n\nIt has paragraphs"))
    #expect(notes.hasSuffix("Including special characters: #, *, @"))
    #expect(rows.first?["tags"] == .array([.string("urgent"), .string("work")]))
  }

  @Test(.enabled(if: CSVFixtures.hasCorpus)) func corpusSpaceDates() throws {
    let (_, _, rows) = try Self.imported(
      try CSVFixtures.corpusFile("vikunja-ticktick__testdata_ticktick_space_dates.csv"))
    let open = try CSVFixtures.reminder("Task with space dates", in: rows)
    #expect(open["dueDate"] == .string("2026-02-27T14:59:52"))
    #expect(open["dueTimeZone"] == .string("Europe/Berlin"))
    #expect(open["createdAt"] == .string("2026-02-15T08:30:00Z"))
    let done = try CSVFixtures.reminder("Completed task with space dates", in: rows)
    #expect(done["isDone"] == .bool(true))
    #expect(done["completedAt"] == .string("2026-02-25T15:45:30Z"))
  }

  @Test(.enabled(if: CSVFixtures.hasCorpus)) func corpusInvalidNumbers() throws {
    let (_, result, rows) = try Self.imported(
      try CSVFixtures.corpusFile("vikunja-ticktick__testdata_ticktick_invalid_numbers.csv"))
    #expect(
      result.errors.contains("ticktick_invalid_numbers.csv:8: column 'Priority': 'p1' is not a TickTick priority"))
    #expect(result.errors.contains("ticktick_invalid_numbers.csv:9: the parent"))
    #expect(result.errors.contains("[missing-parent]"))
    #expect(try CSVFixtures.reminder("Task with non-numeric priority", in: rows)["priority"] == .string("none"))
    let orphan = try CSVFixtures.reminder("Task with non-numeric ids", in: rows)
    #expect(orphan["parentId"] == .null)
    #expect(orphan["extra"]?["ticktick"]?["parentId"] == .string("xyz"))
  }
}

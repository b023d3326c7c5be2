import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// Issue 21, points 1 to 3: a re-import changes only what the source changed, a backup
/// restores its lists, and sources without UIDs find what they wrote before.
@Suite struct SourceAwareMergeTests {
  func report(_ result: CLIResult) throws -> JSONValue {
    #expect(result.status == .ok, "\(result.errors)")
    return try JSONParser.parse(result.output)
  }

  func list(_ name: String, in bench: TestBench) throws -> JSONValue {
    let lists = try #require(try JSONParser.parse(bench.snapshot())["lists"]?.arrayValue)
    return try #require(lists.first { $0["name"] == .string(name) })
  }

  // MARK: 1. What the source cannot carry stays

  @Test func reimportingAGoogleTakeoutKeepsTheColourFlagAndPriorityItCannotCarry() throws {
    let bench = TestBench()
    let takeout = Repository.path("Samples/googletasks/Tasks.json")
    #expect(bench.run(["import", takeout]).status == .ok)
    #expect(bench.run(["list", "edit", "Groceries", "--color", "red"]).status == .ok)
    #expect(bench.run(["flag", "c2FtcGxlLW9hdC1taWxr"]).status == .ok)
    #expect(bench.run(["edit", "c2FtcGxlLW9hdC1taWxr", "--priority", "high"]).status == .ok)
    let before = bench.snapshot()
    let again = try report(bench.run(["import", takeout, "--report", "json"]))
    #expect(again["updated"] == .number(0) && again["listsUpdated"] == .number(0))
    #expect(again["fieldChanges"] == .object([:]))
    #expect(bench.snapshot() == before)
    #expect(try list("Groceries", in: bench)["color"] == .string("#FF3B30"))
    #expect(
      bench.snapshot().contains(
        #""flagged":true,"dueDate":"2026-11-29","dueTimeZone":null,"startDate":null,"startTimeZone":null,"recurrence":null,"alarms":[],"priority":"high""#
      ))
  }

  static let todoist = """
    TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE
    task,Book the van @phone,Two people,1,1,,,2027-02-26 08:00,en,Europe/Berlin
    task,Pack the books,,4,2,,,,,
    task,Call the landlord,,2,1,,,,,

    """

  @Test func reimportingATodoistFileKeepsTheListColourAndTheFlags() throws {
    let bench = TestBench()
    let file = bench.directory.write("Moving.csv", Self.todoist)
    #expect(bench.run(["import", file]).status == .ok)
    #expect(bench.run(["list", "edit", "Moving", "--color", "blue", "--symbol", "house"]).status == .ok)
    let before = bench.snapshot()
    let again = try report(bench.run(["import", file, "--report", "json"]))
    #expect(again["updated"] == .number(0) && again["listsUpdated"] == .number(0) && again["added"] == .number(0))
    #expect(bench.snapshot() == before)
  }

  @Test func aChangeAtTheSourceChangesOnlyThatFieldAndIsCountedByField() throws {
    let bench = TestBench()
    let file = bench.directory.write("Moving.csv", Self.todoist)
    #expect(bench.run(["import", file]).status == .ok)
    #expect(bench.run(["list", "edit", "Moving", "--color", "blue"]).status == .ok)
    let changed = Self.todoist.replacingOccurrences(of: "Two people", with: "Three people")
    let again = try report(bench.run(["import", bench.directory.write("Moving.csv", changed), "--report", "json"]))
    #expect(again["updated"] == .number(1) && again["listsUpdated"] == .number(0))
    #expect(again["fieldChanges"] == .object(["notes": .number(1)]))
    #expect(try list("Moving", in: bench)["color"] == .string("#007AFF"))
  }

  @Test func aListChangeIsCountedAndTheSummarySaysSo() throws {
    let bench = TestBench()
    let first =
      ##"{"format":"remconv","version":1,"lists":[{"id":"L1","name":"Work","color":"#FF0000","reminders":[]}]}"##
    #expect(bench.run(["import", "-", "--format", "json"], input: first).status == .ok)
    let second = first.replacingOccurrences(of: "#FF0000", with: "#00FF00")
    let json = try report(bench.run(["import", "-", "--format", "json", "--report", "json"], input: second))
    #expect(json["listsUpdated"] == .number(1))
    #expect(json["fieldChanges"] == .object(["list.color": .number(1)]))
    let third = second.replacingOccurrences(of: "#00FF00", with: "#0000FF")
    let text = bench.run(["import", "-", "--format", "json", "--report", "text"], input: third)
    #expect(text.output.contains("1 list updated"), "\(text.output)")
  }

  @Test func reimportingTheStoresOwnExportChangesNothing() throws {
    for format in ["ics", "jcal", "taskwarrior", "opml", "csv:todoist", "csv", "jsonl"] {
      let bench = TestBench()
      let rich = """
        {"format":"remconv","version":1,"lists":[{"id":"L1","name":"Work","color":"#FF0000","symbol":"cart",
        "createdAt":"2024-01-02T03:04:05.678Z","extra":{"app":{"k":1}},"reminders":[
        {"id":"R1","title":"Plan","notes":"one\\r\\ntwo","flagged":true,"priority":1,
        "createdAt":"2024-01-02T03:04:05.678Z","due":"2027-03-01","extra":{"invalid":{"x":"y"},"app":{"k":2}}}]}]}
        """
      #expect(bench.run(["import", "-", "--format", "json"], input: rich).status == .ok, "\(format)")
      let before = bench.snapshot()
      let exported = bench.run(["export", "--format", format])
      #expect(exported.status == .ok, "\(format): \(exported.errors)")
      let file = bench.directory.write("Work.\(format.replacingOccurrences(of: ":", with: "-"))", exported.output)
      let again = try report(bench.run(["import", file, "--format", format, "--report", "json"]))
      #expect(again["updated"] == .number(0), "\(format): \(again)")
      #expect(again["added"] == .number(0), "\(format): \(again)")
      #expect(again["listsUpdated"] == .number(0), "\(format): \(again)")
      #expect(bench.snapshot() == before, "\(format)")
    }
  }

  // MARK: 2. A backup restores its lists

  @Test func aBackupRestoresAListThatExistsUnderAnotherUID() throws {
    let bench = TestBench()
    let elsewhere = #"{"format":"remconv","version":1,"lists":[{"id":"LIST-A","name":"Groceries","reminders":[]}]}"#
    #expect(bench.run(["import", "-", "--format", "json"], input: elsewhere).status == .ok)
    let backup = """
      {"format":"remconv","version":1,"lists":[{"id":"LIST-B","name":"Groceries","color":"#34C759","symbol":"cart",
      "createdAt":"2024-01-02T03:04:05.678Z","reminders":[{"id":"R1","title":"Milk"}]}]}
      """
    let first = bench.run(["import", "-", "--format", "json", "--report", "json"], input: backup)
    let json = try report(first)
    #expect(json["listsUpdated"] == .number(1) && json["added"] == .number(1))
    #expect(first.errors.contains("[list-matched-by-name]"), "\(first.errors)")
    let restored = try list("Groceries", in: bench)
    #expect(restored["id"] == .string("LIST-B"))
    #expect(restored["color"] == .string("#34C759") && restored["symbol"] == .string("cart"))
    #expect(restored["createdAt"] == .string("2024-01-02T03:04:05.678Z"))
    #expect(restored["extra"]?["mergedLists"]?.arrayValue?.first?["id"] == .string("LIST-A"))
    // Both UIDs are known now: the backup again changes nothing, and the other source finds
    // the same list by its old UID without a word.
    let before = bench.snapshot()
    let quiet = try report(
      bench.run(["import", "-", "--format", "json", "--report", "json", "--strict"], input: backup))
    #expect(quiet["listsUpdated"] == .number(0) && quiet["updated"] == .number(0), "\(quiet)")
    #expect(bench.snapshot() == before)
    let other = try report(
      bench.run(["import", "-", "--format", "json", "--report", "json", "--strict"], input: elsewhere))
    #expect(other["listsAdded"] == .number(0), "\(other)")
    #expect(try list("Groceries", in: bench)["id"] == .string("LIST-B"))
  }

  // MARK: 3. Identity without UIDs

  @Test func aDuplicateUIDImportedTwiceAddsNothingTheSecondTime() throws {
    let bench = TestBench()
    let lines = """
      {"list":"Inbox","id":"SAME","title":"First"}
      {"list":"Inbox","id":"SAME","title":"Second"}

      """
    let first = try report(bench.run(["import", "-", "--format", "jsonl", "--report", "json"], input: lines))
    #expect(first["added"] == .number(2))
    let before = bench.snapshot()
    let again = try report(bench.run(["import", "-", "--format", "jsonl", "--report", "json"], input: lines))
    #expect(again["added"] == .number(0) && again["updated"] == .number(0), "\(again)")
    #expect(bench.snapshot() == before)
  }

  @Test func aTodoistExportOfAListFindsItsRemindersAgain() throws {
    let bench = TestBench()
    let lines = """
      {"list":"Moving","id":"R-1","title":"Book the van","dueDate":"2027-02-26"}
      {"list":"Moving","id":"R-2","parentId":"R-1","title":"Pack"}
      {"list":"Moving","id":"R-3","title":"Call"}

      """
    #expect(bench.run(["import", "-", "--format", "jsonl"], input: lines).status == .ok)
    let before = bench.snapshot()
    let exported = bench.run(["export", "--format", "csv:todoist"])
    #expect(exported.errors.contains("[cannot-carry]") && exported.errors.contains("UID"), "\(exported.errors)")
    let file = bench.directory.write("Moving.csv", exported.output)
    for _ in 0..<2 {
      let again = try report(bench.run(["import", file, "--format", "csv:todoist", "--report", "json"]))
      #expect(again["added"] == .number(0) && again["updated"] == .number(0), "\(again)")
    }
    #expect(bench.snapshot() == before)
  }

  @Test func anOutlinersOPMLFindsTheStoresRemindersAndLeavesWhatItCannotCarry() throws {
    let bench = TestBench()
    let lines = """
      {"list":"Work","id":"R-1","title":"Plan"}
      {"list":"Work","id":"R-2","parentId":"R-1","title":"Book"}
      {"list":"Work","id":"R-3","title":"Call","flagged":true,"priority":"high","dueDate":"2027-01-04"}

      """
    #expect(bench.run(["import", "-", "--format", "jsonl"], input: lines).status == .ok)
    let before = bench.snapshot()
    // As an outliner writes it: no remconv attributes, the list an outline of its own. It has
    // no place for a flag, a priority or a due date, so the stored ones stay.
    let outline = """
      <?xml version="1.0" encoding="UTF-8"?>
      <opml version="2.0"><head><title>Outline</title></head><body>
      <outline text="Work"><outline text="Plan"><outline text="Book"/></outline><outline text="Call"/></outline>
      </body></opml>
      """
    let file = bench.directory.write("Work.opml", outline)
    let again = try report(bench.run(["import", file, "--report", "json"]))
    #expect(again["added"] == .number(0) && again["updated"] == .number(0), "\(again)")
    #expect(bench.snapshot() == before)
    let noted = outline.replacingOccurrences(
      of: #"<outline text="Book"/>"#, with: #"<outline text="Book" _note="two rooms"/>"#)
    let changed = try report(bench.run(["import", bench.directory.write("Work.opml", noted), "--report", "json"]))
    #expect(changed["added"] == .number(0) && changed["updated"] == .number(1), "\(changed)")
    #expect(changed["fieldChanges"] == .object(["notes": .number(1)]))
  }
}

import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Issue 19, "nothing dropped silently": what a store or an input holds reaches the output or
/// is reported, with the value kept.
@Suite struct NothingDroppedTests {
  /// The reminders of a JSON Lines export, by UID.
  private func lines(_ output: String) throws -> [String: [String: JSONValue]] {
    var result: [String: [String: JSONValue]] = [:]
    for line in output.split(separator: "\n") {
      let object = try #require(try JSONParser.parse(String(line)).objectValue)
      result[object["id"]?.stringValue ?? ""] = object
    }
    return result
  }

  // MARK: Orphans in exports

  @Test func anOrphanOfAnOldStoreIsExportedInRecoveredWithAWarning() throws {
    let bench = TestBench()
    let path = try FixtureStores.copy("v0002-orphan-reminder.sqlite", into: bench.directory)
    #expect(path == bench.storePath)
    #expect(bench.run("lists").status == .ok, "the first command upgrades the store")
    let before = try DefectStores.dump(bench)
    let stored = try Store(path: bench.storePath)
    let total = try stored.reminderCount()
    stored.close()

    let result = bench.run(["export", "--format", "jsonl", "-o", bench.directory.file("out.jsonl")])
    #expect(result.status == .ok)
    #expect(
      result.errors.contains("warning: 1 reminder without a list (its row is gone) exported in the list \"Recovered\""))
    #expect(result.errors.contains("exported \(total) reminders"))
    let exported = try lines(bench.directory.read("out.jsonl"))
    #expect(exported.count == total)
    let orphan = try #require(
      exported.values.first { $0["title"] == .string("Verwaister Eintrag aus einer gelöschten Liste") })
    #expect(orphan["list"] == .string("Recovered"))
    #expect(orphan["notes"] == .string("Liste 99 gibt es nicht mehr"))
    #expect(try DefectStores.dump(bench) == before, "the export changes nothing in the store")
  }

  @Test func orphansKeepTheirOutlineAndOrphanSubtasksStay() throws {
    // Home (#1) is gone with its three nested reminders; REM-4's parent row is gone.
    let bench = try DefectStores.bench(
      defect: "DELETE FROM lists WHERE id = 1; UPDATE reminders SET parent_id = 99 WHERE id = 4")
    let result = bench.run("export --format json")
    #expect(result.status == .ok)
    #expect(result.errors.contains("3 reminders without a list"))
    let document = try #require(try JSONParser.parse(result.output).objectValue)
    let lists = try #require(document["lists"]?.arrayValue)
    #expect(lists.map { $0["name"] } == [.string("Work"), .string("Recovered")])
    let recovered = try #require(lists.last?["reminders"]?.arrayValue)
    #expect(recovered.map { $0["id"] } == [.string("REM-1"), .string("REM-2"), .string("REM-3")])
    #expect(recovered.map { $0["parentId"] } == [.null, .string("REM-1"), .string("REM-2")])
    #expect(
      lists.first?["reminders"]?.arrayValue?.map { $0["id"] } == [.string("REM-4")],
      "a subtask whose parent is gone stays")

    // An import of the export into a fresh store holds every reminder, and so does the repaired store.
    let other = TestBench()
    #expect(other.run(["import", "-", "--format", "json"], input: result.output).status == .ok)
    #expect(try lines(other.run("export --format jsonl").output).count == 4)
    #expect(bench.run("validate --fix").status == .ok)
    let repaired = try lines(bench.run("export --format jsonl").output)
    #expect(repaired.count == 4)
    #expect(repaired["REM-1"]?["listId"] == lists.last?["id"], "the export's recovery list is the one --fix creates")
  }

  @Test func orphansGoIntoTheStoresOwnRecoveryList() throws {
    let bench = try DefectStores.bench(
      defect: """
        INSERT INTO lists (id, uid, name, name_key, created_at) VALUES (3, 'LIST-REC', 'recovered', 'recovered', '2026-01-03T09:00:00Z');
        UPDATE reminders SET list_id = 7 WHERE id = 4;
        """)
    let result = bench.run("export --format jsonl")
    #expect(result.errors.contains("1 reminder without a list (its row is gone) exported in the list \"recovered\""))
    let exported = try lines(result.output)
    #expect(exported.count == 4)
    #expect(exported["REM-4"]?["listId"] == .string("LIST-REC"))
    #expect(bench.run("export --format jsonl --list Recovered").output.contains("\"id\":\"REM-4\""))
    #expect(!bench.run("export --format jsonl --list Work").output.contains("REM-4"))
  }

  // MARK: validate and names that differ only in their scalars

  @Test func validateReportsAnNFDNameAndItsFixKeepsTheOldScalars() throws {
    let bench = try DefectStores.bench(
      defect: "UPDATE lists SET name = 'Wo\u{308}rk', name_key = 'w\u{F6}rk' WHERE id = 2")
    let check = bench.run("validate")
    #expect(check.status == .findings)
    #expect(
      check.output
        == "warning[list-name-key] list LIST-WORK \"W\u{F6}rk\": its name is not NFC-normalised (stored decomposed, 5 scalars for 4) (fix: store the name as \"W\u{F6}rk\" with its key)\n"
    )
    #expect(bench.run("validate --fix").status == .ok)
    let store = try Store(path: bench.storePath)
    defer { store.close() }
    #expect(try store.database.scalar("SELECT hex(name) FROM lists WHERE id = 2") == .text("57C3B6726B"))
    let extra = try store.database.scalar("SELECT extra FROM lists WHERE id = 2")
    guard case .text(let text) = extra else {
      Issue.record("no extra: \(extra)")
      return
    }
    let kept = try #require(try JSONParser.parse(text)["repaired"]?["name"]?.stringValue)
    #expect(Array(kept.unicodeScalars) == Array("Wo\u{308}rk".unicodeScalars))
  }

  // MARK: Lists that collide by name key

  private func document(listID: String, name: String, color: String, symbol: String, reminderID: String) -> String {
    """
    {"format":"remconv","version":1,"lists":[{"id":"\(listID)","name":"\(name)","symbol":"\(symbol)","color":"\(color)",
    "createdAt":null,"extra":{},"reminders":[{"id":"\(reminderID)","title":"Milk"}]}]}
    """
  }

  /// Issue 21: the stored list is the source's list (a backup restored into a store whose
  /// lists came from elsewhere): it takes the source's UID and values, keeps its own UID as an
  /// alias, and the import says so.
  @Test func aListCollidingIgnoringCaseTakesTheSourcesUIDAndValuesAndIsReported() throws {
    let bench = TestBench()
    let first = document(listID: "LIST-A", name: "Groceries", color: "#34C759", symbol: "cart", reminderID: "R-1")
    #expect(bench.run(["import", "-", "--format", "json"], input: first).status == .ok)
    let second = document(listID: "LIST-B", name: "groceries", color: "#FF0000", symbol: "basket", reminderID: "R-2")
    let result = bench.run(["import", "-", "--format", "json"], input: second)
    #expect(result.status == .ok)
    #expect(
      result.errors.contains(
        "the list \"groceries\" has the name of the store's list \"Groceries\" (UID LIST-A) but for case, spaces or Unicode form: that list takes this list's UID and values, and keeps LIST-A in its extra.mergedLists, so that sources naming either UID find it (UID LIST-B) [list-matched-by-name]"
      ))

    let exported = try #require(try JSONParser.parse(bench.snapshot())["lists"]?.arrayValue)
    #expect(exported.count == 1)
    let list = try #require(exported.first)
    #expect(list["id"] == .string("LIST-B"))
    #expect(list["name"] == .string("groceries"))
    #expect(list["color"] == .string("#FF0000"))
    #expect(list["symbol"] == .string("basket"))
    #expect(
      list["extra"]?["mergedLists"] == .array([.object(["id": .string("LIST-A"), "name": .string("Groceries")])]))
    #expect(list["reminders"]?.arrayValue?.map { $0["id"] } == [.string("R-1"), .string("R-2")])

    // Importing the same file again records and reports nothing more.
    let before = bench.snapshot()
    let again = bench.run(["import", "-", "--format", "json", "--strict"], input: second)
    #expect(again.status == .ok, "\(again.errors)")
    #expect(!again.errors.contains("list-matched-by-name"))
    #expect(bench.snapshot() == before)
  }

  @Test func aListWithoutAUIDOfItsOwnMergesByNameWithoutAWarning() throws {
    let bench = TestBench()
    let first = document(listID: "LIST-A", name: "Groceries", color: "#34C759", symbol: "cart", reminderID: "R-1")
    #expect(bench.run(["import", "-", "--format", "json"], input: first).status == .ok)
    let before = bench.snapshot()
    let lines = #"{"list":"groceries","id":"R-2","title":"Eggs"}"#
    let result = bench.run(["import", "-", "--format", "jsonl", "--strict"], input: lines + "\n")
    #expect(result.status == .ok, "\(result.errors)")
    #expect(!result.errors.contains("list-merged-by-name"))
    let exported = try #require(try JSONParser.parse(bench.snapshot())["lists"]?.arrayValue)
    #expect(exported.count == 1)
    #expect(exported.first?["extra"] == .object([:]), "nothing was lost, so nothing is kept aside")
    #expect(exported.first?["reminders"]?.arrayValue?.map { $0["id"] } == [.string("R-1"), .string("R-2")])
    #expect(bench.snapshot() != before)
  }

  // MARK: Duplicate JSON keys

  @Test func aJSONLinesRecordKeepsTheEarlierValueOfARepeatedKey() throws {
    let bench = TestBench()
    let path = bench.directory.write(
      "in.jsonl", #"{"list":"Work","id":"R-1","title":"first","title":"second","extra":{"a":1,"a":[2]}}"# + "\n")
    let result = bench.run(["import", path])
    #expect(result.status == .ok)
    #expect(
      result.errors.contains(
        "warning: \(path):1:43: the member \"title\" comes twice in one object (/title): the last value is used, the earlier value is kept in extra.duplicateKeys (UID R-1) [duplicate-key]"
      ))
    #expect(result.errors.contains("warning: \(path):1:75: the member \"a\" comes twice in one object (/extra/a)"))
    let line = try #require(try JSONParser.parse(bench.run("export --format jsonl").output).objectValue)
    #expect(line["title"] == .string("second"))
    #expect(line["extra"]?["a"] == .array([.number("2")]))
    #expect(
      line["extra"]?["duplicateKeys"]
        == .object(["/title": .array([.string("first")]), "/extra/a": .array([.number("1")])]))
  }

  @Test func aJSONDocumentKeepsRepeatedKeysOfListsAndRemindersAndReadsBothListsArrays() throws {
    let bench = TestBench()
    let path = bench.directory.write(
      "in.json",
      """
      {"format":"remconv","version":1,"lists":[{"id":"L","name":"A","color":"#FF0000","color":"#00FF00","reminders":[
      {"id":"R","title":"x","priority":"high","priority":"low","priority":"medium"}]}],
      "lists":[{"id":"L2","name":"B","reminders":[{"id":"R2","title":"y"}]}]}
      """)
    let result = bench.run(["import", path])
    #expect(result.status == .ok)
    #expect(
      result.errors.contains(
        "warning: \(path):1:81: the member \"color\" comes twice in one object (/color): the last value is used, the earlier value is kept in the list's extra.duplicateKeys (UID L)"
      ))
    #expect(result.errors.contains("warning: \(path):2:41: the member \"priority\""))
    #expect(result.errors.contains("warning: \(path):2:58: the member \"priority\""))
    #expect(
      result.errors.contains(
        "warning: \(path):3:1: the member \"lists\" comes twice in the document: the lists of both are read"))
    let document = try JSONParser.parse(bench.snapshot())
    let lists = try #require(document["lists"]?.arrayValue)
    #expect(lists.map { $0["id"] } == [.string("L"), .string("L2")])
    #expect(lists.first?["color"] == .string("#00FF00"))
    #expect(lists.first?["extra"]?["duplicateKeys"] == .object(["/color": .array([.string("#FF0000")])]))
    let reminder = try #require(lists.first?["reminders"]?.arrayValue?.first)
    #expect(reminder["priority"] == .string("medium"))
    #expect(reminder["extra"]?["duplicateKeys"] == .object(["/priority": .array([.string("high"), .string("low")])]))
  }

  @Test(arguments: [
    (
      "taskwarrior", "tasks.json",
      #"[{"uuid":"a","description":"x","description":"y","status":"pending","entry":"20260101T000000Z"}]"#, "1:32",
      "/description"
    ),
    (
      "mstodo", "todo.json",
      #"{"value":[{"id":"a","title":"x","status":"notStarted","body":{"content":"a","content":"b"}}]}"#, "1:77",
      "/body/content"
    ),
    (
      "googletasks", "Tasks.json",
      #"{"kind":"tasks#taskLists","items":[{"kind":"tasks#taskList","id":"l","title":"L","items":[{"kind":"tasks#task","id":"t","title":"a","title":"b"}]}]}"#,
      "1:133", "/title"
    ),
    (
      "jcal", "cal.jcal",
      #"["vcalendar",[["uid",{},"text","C"]],[["vtodo",[["uid",{},"text","T"],["summary",{"language":"de","language":"en"},"text","Milch"]],[]]]]"#,
      "1:99", "/1/1/1/language"
    ),
  ])
  func theOtherJSONReadersReportARepeatedKey(
    format: String, file: String, content: String, place: String, pointer: String
  ) throws {
    let bench = TestBench()
    let path = bench.directory.write(file, content)
    let result = bench.run(["convert", path, "--from", format, "--to", "jsonl"])
    #expect(result.status == .ok, "\(result.errors)")
    #expect(result.errors.contains("warning: \(path):\(place): the member"), "\(result.errors)")
    #expect(
      result.errors.contains("comes twice in one object (\(pointer)): the last value is used"), "\(result.errors)")
    // The readers that take items whole keep the earlier value with the item; jCal reports it.
    let kept = try JSONParser.parse(result.output)["extra"]?["duplicateKeys"]?[pointer]
    #expect((kept != nil) == (format != "jcal"), "\(result.output)")
  }
}

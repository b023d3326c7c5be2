import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// `add`, `edit`, `done`, `undone`, `flag`, `unflag`, `delete` and ID prefixes, with the clock
/// fixed at 2026-11-29T10:00:00Z.
@Suite struct AppEditTests {
  static let now = "2026-11-29T10:00:00Z"

  // MARK: add

  @Test func addPrintsTheNewUIDAndStampsCreatedAndEdited() throws {
    let bench = try AppFixture.bench()
    let result = bench.run([
      "add", "Buy milk", "--list", "groceries", "--notes", "2 litres", "--priority", "medium", "--flag",
    ])
    #expect(result.status == .ok)
    let id = result.output.trimmingCharacters(in: .newlines)
    #expect(UUID(uuidString: id) != nil)
    #expect(result.errors == "remconv: added \"Buy milk\" to \"Groceries\"\n")
    let stored = try JSONOutput.reminder(id, in: bench)
    #expect(stored["title"] as? String == "Buy milk")
    #expect(stored["notes"] as? String == "2 litres")
    #expect(stored["priority"] as? String == "medium")
    #expect(stored["flagged"] as? Bool == true)
    #expect(stored["isDone"] as? Bool == false)
    #expect(stored["createdAt"] as? String == Self.now)
    #expect(stored["editedAt"] as? String == Self.now)
    #expect(stored["list"] as? String == "Groceries")
  }

  @Test(arguments: [
    (["--due", "2026-12-01"], "2026-12-01", nil as String?),
    (["--due", "2026-12-01T09:00"], "2026-12-01T09:00:00", nil),
    (["--due", "2026-12-01T09:00", "--tz", "Europe/Paris"], "2026-12-01T09:00:00", "Europe/Paris"),
    (["--due", "2026-12-01T09:00:30Z"], "2026-12-01T09:00:30Z", nil),
  ])
  func addKeepsTheKindOfTheDueDate(options: [String], dueDate: String, zone: String?) throws {
    let bench = try AppFixture.bench()
    let id = bench.run(["add", "Due", "--list", "Work"] + options).output.trimmingCharacters(in: .newlines)
    let stored = try JSONOutput.reminder(id, in: bench)
    #expect(stored["dueDate"] as? String == dueDate)
    #expect(stored["dueTimeZone"] as? String == zone)
  }

  @Test(arguments: [
    ["add", "X", "--list", "Work", "--due", "tomorrow"],
    ["add", "X", "--list", "Work", "--due", "2026-13-01"],
    ["add", "X", "--list", "Work", "--due", "2026-12-01", "--tz", "Europe/Paris"],
    ["add", "X", "--list", "Work", "--due", "2026-12-01T09:00Z", "--tz", "Europe/Paris"],
    ["add", "X", "--list", "Work", "--due", "2026-12-01T09:00", "--tz", "Mars/Olympus"],
    ["add", "X", "--list", "Work", "--tz", "Europe/Paris"],
    ["add", "X", "--list", "Work", "--priority", "urgent"],
    ["add", "X"],
    ["add", "Two", "words", "--list", "Work"],
  ])
  func addRefusesBadCommandLinesWithUsageAndWritesNothing(arguments: [String]) throws {
    let bench = try AppFixture.bench()
    let before = bench.snapshot()
    let result = bench.run(arguments)
    #expect(result.status == .usage, "\(arguments): \(result.errors)")
    #expect(bench.snapshot() == before)
  }

  @Test func addRefusesABlankTitle() throws {
    let bench = try AppFixture.bench()
    let before = bench.snapshot()
    let result = bench.run(["add", " \t ", "--list", "Work"])
    #expect(result.status == .dataError)
    #expect(result.errors.contains("title cannot be blank"))
    #expect(bench.snapshot() == before)
  }

  @Test func addToAMissingListNamesTheLists() throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["add", "X", "--list", "Errands"])
    #expect(result.status == .noInput)
    #expect(result.errors.contains("no list named 'Errands'"))
  }

  @Test func addWithAParentMakesASubtaskInTheParentsList() throws {
    let bench = try AppFixture.bench()
    let id = bench.run(["add", "Brown ones", "--parent", "10000003"]).output.trimmingCharacters(in: .newlines)
    let stored = try JSONOutput.reminder(id, in: bench)
    #expect(stored["parentId"] as? String == AppFixture.eggs)
    #expect(stored["list"] as? String == "Groceries")
    let rows = try JSONOutput.array(JSONOutput.object(bench.run(["show", "Groceries", "--json"]).output), "reminders")
    let ids = rows.compactMap { $0["id"] as? String }
    #expect(ids == [AppFixture.oatMilk, AppFixture.bread, AppFixture.eggs, AppFixture.freeRange, id])
    #expect(rows.last?["depth"] as? Int == 1)
    // A parent in another list than --list is refused.
    #expect(bench.run(["add", "Y", "--parent", "10000003", "--list", "Work"]).status == .dataError)
  }

  @Test func addPrintsJSONWithJSON() throws {
    let bench = try AppFixture.bench()
    let object = try JSONOutput.object(bench.run(["add", "Z", "--list", "Work", "--json"]).output)
    #expect(object["title"] as? String == "Z")
    #expect(object["listId"] as? String == "LIST-WORK")
  }

  /// `add` and `edit` hold a reminder to the item limit every import applies, measured the
  /// same way (its JSON Lines line, `InputLimits.maximumItemSize`): the largest reminder they
  /// accept is exactly as large as the largest an import accepts, so its export reads back;
  /// one byte more is exit 65 naming the field, and nothing is written.
  @Test func addAndEditHoldAReminderToTheItemLimitNamingTheField() throws {
    let limit = InputLimits.maximumItemSize
    let bench = try AppFixture.bench()
    let small = bench.run(["add", "Big", "--list", "Work", "--notes", "n"])
    #expect(small.status == .ok)
    let id = small.output.trimmingCharacters(in: .newlines)
    let line = try #require(
      bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n").first { $0.contains(id) })
    let room = limit - line.utf8.count  // the item is the line without its line break

    let before = bench.snapshot()
    let over = bench.run(["add", "Big", "--list", "Work", "--notes", String(repeating: "n", count: room + 2)])
    #expect(over.status == .dataError)
    #expect(
      over.errors.contains(
        "the reminder would be larger than the limit of \(limit) bytes of one item (\(limit + 1) bytes as a JSON Lines line); "
          + "the longest field, notes, is \(room + 2) bytes"), "\(over.errors)")
    #expect(bench.snapshot() == before)

    // The largest: accepted, exported as a line of exactly the limit, imported again.
    let largest = bench.run(["add", "Big", "--list", "Work", "--notes", String(repeating: "n", count: room + 1)])
    #expect(largest.status == .ok, "\(largest.errors)")
    let largestID = largest.output.trimmingCharacters(in: .newlines)
    let export = bench.run(["export", "--format", "jsonl"]).output
    let largestLine = try #require(export.split(separator: "\n").first { $0.contains(largestID) })
    #expect(largestLine.utf8.count == limit)
    let again = TestBench()
    #expect(again.run(["import", "--format", "jsonl", bench.directory.write("export.jsonl", export)]).status == .ok)

    // An edit that would grow it by one byte names the field it changes.
    let unchanged = bench.snapshot()
    let edited = bench.run(["edit", largestID, "--title", "Bigg"])
    #expect(edited.status == .dataError)
    #expect(
      edited.errors.contains(
        "(\(limit + 1) bytes as a JSON Lines line); the longest field, notes, is \(room + 1) bytes"),
      "\(edited.errors)")
    // The title "Big" of the first one replaced by one byte more than the room it has.
    let retitled = bench.run(["edit", id, "--title", String(repeating: "t", count: room + 4)])
    #expect(retitled.status == .dataError)
    #expect(
      retitled.errors.contains("; the longest field, title, is \(room + 4) bytes"), "\(retitled.errors.suffix(300))")
    #expect(bench.snapshot() == unchanged)
    // Shorter is always fine.
    #expect(bench.run(["edit", largestID, "--notes", "short"]).status == .ok)
  }

  /// A subtask moves with its parent, into another list whose members make its line longer:
  /// when that takes it over the item limit the move is refused, naming the subtask, and
  /// nothing moves.
  @Test func aMoveThatTakesASubtaskOverTheItemLimitIsRefusedWhole() throws {
    let limit = InputLimits.maximumItemSize
    let bench = try AppFixture.bench()
    let parent = bench.run(["add", "Parent", "--list", "Work"]).output.trimmingCharacters(in: .newlines)
    let probe = bench.run(["add", "Sub", "--parent", parent, "--notes", "n"])
    #expect(probe.status == .ok, "\(probe.errors)")
    let subtask = probe.output.trimmingCharacters(in: .newlines)
    let line = try #require(
      bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n").first { $0.contains(subtask) })
    // Grown to the limit less 100 bytes in Work; a list whose name is 200 bytes longer.
    #expect(
      bench.run(["edit", subtask, "--notes", String(repeating: "n", count: limit - line.utf8.count - 99)]).status == .ok
    )
    let longName = "Work" + String(repeating: "k", count: 200)
    #expect(bench.run(["list", "create", longName]).status == .ok)
    let before = bench.snapshot()
    let moved = bench.run(["edit", parent, "--list", longName])
    #expect(moved.status == .dataError)
    #expect(
      moved.errors.contains("the subtask \(subtask) would be larger than the limit of \(limit) bytes of one item"),
      "\(moved.errors.suffix(300))")
    #expect(bench.snapshot() == before)
  }

  // MARK: edit

  @Test func editChangesTheFieldsAndStampsEditedAt() throws {
    let bench = try AppFixture.bench()
    let result = bench.run([
      "edit", "20000002", "--title", "Quarterly report", "--notes", "Draft first", "--due", "2026-12-02T18:30", "--tz",
      "Europe/Paris", "--priority", "high", "--flag",
    ])
    #expect(result.status == .ok)
    #expect(result.errors == "remconv: edited \"Quarterly report\" (\(AppFixture.report))\n")
    let stored = try JSONOutput.reminder(AppFixture.report, in: bench)
    #expect(stored["title"] as? String == "Quarterly report")
    #expect(stored["notes"] as? String == "Draft first")
    #expect(stored["dueDate"] as? String == "2026-12-02T18:30:00")
    #expect(stored["dueTimeZone"] as? String == "Europe/Paris")
    #expect(stored["priority"] as? String == "high")
    #expect(stored["flagged"] as? Bool == true)
    #expect(stored["editedAt"] as? String == Self.now)
    #expect(stored["createdAt"] as? String == "2026-11-27T18:00:00Z")
  }

  @Test func editNoDueRemovesTheDueDateAndUnflagClearsTheFlag() throws {
    let bench = try AppFixture.bench()
    #expect(bench.run(["edit", "10000001", "--no-due", "--unflag"]).status == .ok)
    let stored = try JSONOutput.reminder(AppFixture.oatMilk, in: bench)
    #expect(stored["dueDate"] is NSNull)
    #expect(stored["flagged"] as? Bool == false)
    let counts = try #require(try JSONOutput.object(bench.run(["lists", "--json"]).output)["counts"] as? [String: Int])
    #expect(counts == ["today": 3, "scheduled": 6, "flagged": 1, "all": 9])
  }

  @Test func anEditThatChangesNothingWritesNothing() throws {
    let bench = try AppFixture.bench()
    let before = bench.snapshot()
    let result = bench.run(["edit", "10000001", "--title", "Oat milk", "--priority", "high"])
    #expect(result.status == .ok)
    #expect(result.errors.hasPrefix("remconv: unchanged: \"Oat milk\""))
    #expect(bench.snapshot() == before)
  }

  @Test(arguments: [
    ["edit", "10000001"],
    ["edit", "10000001", "--due", "2026-12-01", "--no-due"],
    ["edit", "10000001", "--flag", "--unflag"],
    ["edit", "10000001", "--tz", "Europe/Paris"],
    ["edit", "10000001", "--priority", "highest"],
    ["edit"],
  ])
  func editRefusesBadCommandLines(arguments: [String]) throws {
    let bench = try AppFixture.bench()
    let before = bench.snapshot()
    #expect(bench.run(arguments).status == .usage, "\(arguments)")
    #expect(bench.snapshot() == before)
  }

  @Test func editRefusesABlankTitle() throws {
    let bench = try AppFixture.bench()
    let before = bench.snapshot()
    #expect(bench.run(["edit", "10000001", "--title", ""]).status == .dataError)
    #expect(bench.snapshot() == before)
  }

  @Test func movingAReminderToAnotherListMovesItsSubtasks() throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["edit", "10000003", "--list", "someday"])
    #expect(result.status == .ok)
    #expect(result.errors.contains("and moved 1 subtask with it to \"Someday\""))
    let someday = try JSONOutput.array(JSONOutput.object(bench.run(["show", "Someday", "--json"]).output), "reminders")
    #expect(someday.compactMap { $0["id"] as? String } == [AppFixture.eggs, AppFixture.freeRange])
    #expect(someday.map { $0["depth"] as? Int } == [0, 1])
    #expect(someday.last?["parentId"] as? String == AppFixture.eggs)
    let subtask = try JSONOutput.reminder(AppFixture.freeRange, in: bench)
    #expect(subtask["editedAt"] as? String == Self.now)
    let lists = try JSONOutput.array(JSONOutput.object(bench.run(["lists", "--json"]).output), "lists")
    #expect(lists.map { $0["openCount"] as? Int } == [2, 5, 2])
  }

  @Test func movingASubtaskOnItsOwnMakesItTopLevelInTheNewList() throws {
    let bench = try AppFixture.bench()
    #expect(bench.run(["edit", "10000004", "--list", "Work"]).status == .ok)
    let moved = try JSONOutput.reminder(AppFixture.freeRange, in: bench)
    #expect(moved["parentId"] is NSNull)
    #expect(moved["list"] as? String == "Work")
  }

  // MARK: done, undone, flag, unflag, delete

  @Test func doneSetsCompletedAtAndUndoneClearsIt() throws {
    let bench = try AppFixture.bench()
    let done = bench.run(["done", "20000001"])
    #expect(done.status == .ok)
    #expect(done.errors == "remconv: done: \"Stand-up\" (\(AppFixture.standUp))\n")
    var stored = try JSONOutput.reminder(AppFixture.standUp, in: bench)
    #expect(stored["isDone"] as? Bool == true)
    #expect(stored["completedAt"] as? String == Self.now)
    #expect(stored["editedAt"] as? String == Self.now)
    #expect(bench.run(["done", "20000001"]).errors.contains("already done"))

    bench.environment["REMCONV_NOW"] = "2026-11-29T11:00:00Z"
    #expect(bench.run(["undone", "20000001"]).status == .ok)
    stored = try JSONOutput.reminder(AppFixture.standUp, in: bench)
    #expect(stored["isDone"] as? Bool == false)
    #expect(stored["completedAt"] is NSNull)
    #expect(stored["editedAt"] as? String == "2026-11-29T11:00:00Z")
  }

  @Test func doneOnAParentLeavesItsSubtasksAsTheyAre() throws {
    let bench = try AppFixture.bench()
    #expect(bench.run(["done", "10000003"]).status == .ok)
    #expect(try JSONOutput.reminder(AppFixture.freeRange, in: bench)["isDone"] as? Bool == false)
    // The open subtask of a done parent shows at the top level of the open reminders.
    let rows = try JSONOutput.array(JSONOutput.object(bench.run(["show", "Groceries", "--json"]).output), "reminders")
    #expect(rows.last?["id"] as? String == AppFixture.freeRange)
    #expect(rows.last?["depth"] as? Int == 0)
  }

  @Test func flagAndUnflagChangeTheFlaggedCount() throws {
    let bench = try AppFixture.bench()
    #expect(bench.run(["flag", "20000003"]).status == .ok)
    #expect(
      try JSONOutput.ids(bench.run(["show", "-s", "flagged", "--json"]).output) == [
        AppFixture.oatMilk, AppFixture.callNewYork, AppFixture.sendNumbers,
      ])
    #expect(bench.run(["unflag", "10000001"]).status == .ok)
    #expect(
      try JSONOutput.ids(bench.run(["show", "-s", "flagged", "--json"]).output) == [
        AppFixture.callNewYork, AppFixture.sendNumbers,
      ])
    #expect(try JSONOutput.reminder(AppFixture.oatMilk, in: bench)["editedAt"] as? String == Self.now)
  }

  @Test func stateCommandsPrintJSONWithJSON() throws {
    let bench = try AppFixture.bench()
    let object = try JSONOutput.object(bench.run(["done", "20000001", "--json"]).output)
    #expect(object["isDone"] as? Bool == true)
    #expect(object["list"] as? String == "Work")
  }

  @Test func deleteTakesTheSubtasksAlong() throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["delete", "10000003"])
    #expect(result.status == .ok)
    #expect(result.errors == "remconv: deleted \"Eggs\" (\(AppFixture.eggs)) from \"Groceries\" with 1 subtask\n")
    #expect(
      try JSONOutput.ids(bench.run(["show", "Groceries", "--json"]).output) == [AppFixture.oatMilk, AppFixture.bread])
    #expect(bench.run(["delete", "10000003"]).status == .noInput)
  }

  // MARK: IDs

  @Test func anIDIsAUIDOrAnyUnambiguousPrefixInAnyCase() throws {
    let bench = try AppFixture.bench()
    #expect(bench.run(["flag", AppFixture.bread]).status == .ok)
    #expect(bench.run(["flag", "10000002-aaaa"]).status == .ok)
    #expect(bench.run(["unflag", "10000002"]).status == .ok)
  }

  @Test func anAmbiguousPrefixListsTheCandidates() throws {
    let bench = try AppFixture.bench()
    let before = bench.snapshot()
    let result = bench.run(["done", "1000000"])
    #expect(result.status == .usage)
    #expect(
      result.errors == """
        remconv: error: the ID '1000000' is ambiguous; it matches:
          \(AppFixture.oatMilk)  "Oat milk"  in "Groceries"
          \(AppFixture.bread)  "Bread"  in "Groceries"
          \(AppFixture.eggs)  "Eggs"  in "Groceries"
          \(AppFixture.freeRange)  "Free-range"  in "Groceries"
          \(AppFixture.cafeBeans)  "Café beans"  in "Groceries"

        """)
    #expect(bench.snapshot() == before)
  }

  @Test func anUnknownIDIsNotFound() throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["done", "FFFF"])
    #expect(result.status == .noInput)
    #expect(result.errors.contains("no reminder has the ID 'FFFF'"))
  }

  @Test func shortIDsInViewsGrowUntilTheyAreUnambiguous() throws {
    let bench = TestBench()
    #expect(bench.run(["list", "create", "L"]).status == .ok)
    let document = """
      {"format":"remconv","version":1,"lists":[{"id":"L1","name":"L","reminders":[
      {"id":"ABCDEFGH-1111","title":"one"},{"id":"ABCDEFGH-2222","title":"two"},{"id":"XYZ","title":"three"}]}]}
      """
    let file = bench.directory.write("ids.json", document)
    #expect(bench.run(["import", file]).status == .ok)
    let output = bench.run(["show", "L"]).output
    #expect(output.contains("ABCDEFGH-1  [ ] one"))
    #expect(output.contains("ABCDEFGH-2  [ ] two"))
    #expect(output.contains("XYZ         [ ] three"))
    // Each shown prefix names its reminder.
    #expect(bench.run(["done", "abcdefgh-2"]).status == .ok)
    #expect(bench.run(["done", "XYZ"]).status == .ok)
  }

  // MARK: Transactions

  @Test func aBusyStoreFailsWithExit75AfterTheBusyTimeout() throws {
    let bench = try AppFixture.bench(environment: ["REMCONV_BUSY_TIMEOUT_MS": "100"])
    let holder = try Store(path: bench.storePath)
    defer { holder.close() }
    try holder.database.execute("BEGIN IMMEDIATE")
    let started = Date()
    let result = bench.run(["done", "10000001"])
    #expect(result.status == .busy)
    #expect(result.errors.contains("busy"))
    #expect(Date().timeIntervalSince(started) >= 0.09)
    try holder.database.execute("ROLLBACK")
    #expect(try JSONOutput.reminder(AppFixture.oatMilk, in: bench)["isDone"] as? Bool == false)
    #expect(bench.run(["done", "10000001"]).status == .ok)
  }

  @Test func aStoreFromANewerRemconvIsNeverWritten() throws {
    let bench = try AppFixture.bench()
    let store = try Store(path: bench.storePath)
    try store.database.execute(
      "INSERT INTO remconv_migrations (id, checksum, tool_version, applied_at) VALUES ('9999_from_the_future', 'x', '9.0.0', '2030-01-01T00:00:00Z')"
    )
    store.close()
    let before = bench.snapshot()
    let result = bench.run(["add", "X", "--list", "Work"])
    #expect(result.status == .storeTooNew)
    #expect(bench.snapshot() == before)
    #expect(bench.run(["lists"]).status == .ok)
  }
}

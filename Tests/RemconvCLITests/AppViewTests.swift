import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// `lists`, `show`, `search` and `export --scope` on the fixture store, with the clock fixed.
@Suite struct AppViewTests {
  @Test func listsShowsEveryListThenTheSmartCounts() throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["lists"])
    #expect(result.status == .ok)
    #expect(
      result.output == """
        LIST       SYMBOL     COLOR    OPEN
        Groceries  cart       #34C759     4
        Work       briefcase  #007AFF     5
        Someday    sparkles   -           0

        Today      4
        Scheduled  7
        Flagged    2
        All        9

        """)
  }

  @Test func listsJSONCarriesTheListKeysAndTheCounts() throws {
    let bench = try AppFixture.bench()
    let object = try JSONOutput.object(bench.run(["lists", "--json"]).output)
    #expect(object["version"] as? Int == 1)
    #expect(object["today"] as? String == "2026-11-29")
    let counts = try #require(object["counts"] as? [String: Int])
    #expect(counts == ["today": 4, "scheduled": 7, "flagged": 2, "all": 9])
    let lists = try JSONOutput.array(object, "lists")
    #expect(lists.map { $0["name"] as? String } == ["Groceries", "Work", "Someday"])
    #expect(lists.map { $0["openCount"] as? Int } == [4, 5, 0])
    let groceries = try #require(lists.first)
    for key in ReminderJSON.listKeys { #expect(groceries.keys.contains(key), "missing \(key)") }
    #expect(groceries["symbol"] as? String == "cart")
    #expect(groceries["color"] as? String == "#34C759")
  }

  @Test func listsNamesPrintsOneNamePerLine() throws {
    let bench = try AppFixture.bench()
    #expect(bench.run(["lists", "--names"]).output == "Groceries\nWork\nSomeday\n")
  }

  @Test func anEmptyStoreSaysSo() throws {
    let bench = TestBench()
    // A store that exists and is empty: `lists` never creates one (a missing store is exit 66).
    try Store(path: bench.storePath).close()
    #expect(bench.run(["lists"]).output == "No Lists\n\nToday      0\nScheduled  0\nFlagged    0\nAll        0\n")
  }

  @Test func todayCountsAllDayAndTimedDuesOnTheMachinesLocalDay() throws {
    // Berlin: Report (23:30Z the day before) is 00:30 today; Stand-up (23:30Z today) is
    // 00:30 tomorrow; New York 17:00 is 23:00 today; Tokyo 08:00 tomorrow is midnight
    // tomorrow. Done Café beans (due today) is in the Completed section, not a member.
    let bench = try AppFixture.bench()
    let result = bench.run(["show", "--scope", "today", "--json"])
    #expect(result.status == .ok)
    #expect(
      try JSONOutput.ids(result.output) == [
        AppFixture.oatMilk, AppFixture.freeRange, AppFixture.report, AppFixture.callNewYork,
      ])
    #expect(try JSONOutput.ids(result.output, "completed") == [AppFixture.cafeBeans])
  }

  @Test func todayFollowsTheTimeZone() throws {
    // In New York the same instant is 05:00 on the 29th: Stand-up (18:30) and Tokyo (18:00)
    // are today, Report (18:30 on the 28th) is not.
    let bench = try AppFixture.bench(environment: ["TZ": "America/New_York"])
    let result = bench.run(["show", "--scope", "today", "--json"])
    #expect(
      try JSONOutput.ids(result.output) == [
        AppFixture.oatMilk, AppFixture.freeRange, AppFixture.standUp, AppFixture.callNewYork, AppFixture.callTokyo,
      ])
    let counts = try #require(try JSONOutput.object(bench.run(["lists", "--json"]).output)["counts"] as? [String: Int])
    #expect(counts["today"] == 5)
  }

  @Test func todayFollowsTheClock() throws {
    // At 23:59 Berlin time on the 29th, Stand-up (00:30 on the 30th) is still tomorrow; a
    // minute later it is today and Oat milk (all day on the 29th) no longer is.
    let bench = try AppFixture.bench(environment: ["REMCONV_NOW": "2026-11-29T23:00:00Z"])
    #expect(try JSONOutput.ids(bench.run(["show", "-s", "today", "--json"]).output).contains(AppFixture.standUp))
    bench.environment["REMCONV_NOW"] = "2026-11-29T22:59:00Z"
    let before = try JSONOutput.ids(bench.run(["show", "-s", "today", "--json"]).output)
    #expect(before.contains(AppFixture.oatMilk))
    #expect(!before.contains(AppFixture.standUp))
  }

  @Test(arguments: [
    (
      "scheduled",
      [
        AppFixture.oatMilk, AppFixture.bread, AppFixture.freeRange, AppFixture.standUp, AppFixture.report,
        AppFixture.callNewYork, AppFixture.callTokyo,
      ], [AppFixture.cafeBeans, AppFixture.submitExpenses]
    ),
    ("flagged", [AppFixture.oatMilk, AppFixture.sendNumbers], [AppFixture.submitExpenses]),
    (
      "all",
      [
        AppFixture.oatMilk, AppFixture.bread, AppFixture.eggs, AppFixture.freeRange, AppFixture.standUp,
        AppFixture.report, AppFixture.callNewYork, AppFixture.callTokyo, AppFixture.sendNumbers,
      ], [AppFixture.cafeBeans, AppFixture.submitExpenses]
    ),
    ("completed", [AppFixture.cafeBeans, AppFixture.submitExpenses], []),
  ])
  func eachScopeHoldsItsMembersThenItsCompleted(scope: String, members: [String], completed: [String]) throws {
    let bench = try AppFixture.bench()
    let output = bench.run(["show", "--scope", scope, "--json"]).output
    #expect(try JSONOutput.ids(output) == members)
    #expect(try JSONOutput.ids(output, "completed") == completed)
    let object = try JSONOutput.object(output)
    #expect(object["count"] as? Int == members.count)
    #expect(object["scope"] as? String == scope)
  }

  @Test func aListViewShowsSubtasksUnderTheirParentThenTheCompleted() throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["show", "groceries"])
    #expect(result.status == .ok)
    #expect(
      result.output == """
        Groceries
          10000001  [ ] Oat milk      2026-11-29        !!!  ⚑
          10000002  [ ] Bread         2026-11-28        !
          10000003  [ ] Eggs
          10000004    [ ] Free-range  2026-11-29 18:00  !!

        Completed
          10000005  [x] Café beans    2026-11-29

        """)
  }

  /// A line is built in a buffer that starts at 256 bytes: a row far longer keeps every byte,
  /// its cells after the title in order, and no trailing blank.
  @Test func aRowLongerThanTheLineBufferIsWrittenWhole() throws {
    let bench = try AppFixture.bench()
    let title = String(repeating: "Très long titre ", count: 40) + "fin"
    let added = bench.run(["add", title, "--list", "Someday", "--due", "2026-12-01T09:00:30Z", "--priority", "high"])
    #expect(added.status == .ok)
    let id = String(added.output.trimmingCharacters(in: .newlines).prefix(8))
    let output = bench.run(["show", "Someday"]).output
    #expect(output == "Someday\n  \(id)  [ ] \(title)  2026-12-01 09:00:30 UTC  !!!\n")
  }

  @Test func aSmartViewGroupsByListAndNamesTheListInTheCompletedSection() throws {
    let bench = try AppFixture.bench()
    #expect(
      bench.run(["show", "--scope", "flagged"]).output == """
        Flagged

        Groceries
          10000001  [ ] Oat milk         2026-11-29  !!!  ⚑

        Work
          20000005  [ ] Send Q4 numbers              !!   ⚑

        Completed
          20000006  [x] Submit expenses  2026-11-24  !    ⚑  Work

        """)
  }

  @Test func anEmptyViewSaysNoReminders() throws {
    let bench = try AppFixture.bench()
    #expect(bench.run(["show", "Someday"]).output == "Someday\n  No Reminders\n")
    let json = try JSONOutput.object(bench.run(["show", "Someday", "--json"]).output)
    #expect(json["count"] as? Int == 0)
    #expect(try JSONOutput.array(json, "reminders").isEmpty)
  }

  @Test func hideCompletedLeavesOutTheCompletedSection() throws {
    let bench = try AppFixture.bench()
    let output = bench.run(["show", "Groceries", "--hide-completed"]).output
    #expect(!output.contains("Completed"))
    #expect(!output.contains("Café beans"))
    #expect(
      try JSONOutput.ids(bench.run(["show", "Groceries", "--hide-completed", "--json"]).output, "completed").isEmpty)
  }

  @Test func sortByPriorityPutsHighFirstAndKeepsSubtasksUnderTheirParent() throws {
    let bench = try AppFixture.bench()
    let work = try JSONOutput.ids(bench.run(["show", "Work", "--sort", "priority", "--json"]).output)
    #expect(
      work == [
        AppFixture.callNewYork, AppFixture.report, AppFixture.sendNumbers, AppFixture.callTokyo, AppFixture.standUp,
      ])
    // Eggs (none) has the medium subtask: the subtask stays under it.
    let groceries = try JSONOutput.ids(bench.run(["show", "Groceries", "--sort", "priority", "--json"]).output)
    #expect(groceries == [AppFixture.oatMilk, AppFixture.bread, AppFixture.eggs, AppFixture.freeRange])
  }

  @Test func sortByDuePutsTheEarliestInstantFirstAndUndatedLast() throws {
    let bench = try AppFixture.bench()
    let work = try JSONOutput.ids(bench.run(["show", "Work", "--sort", "due", "--json"]).output)
    // Report 00:30 on the 29th (Berlin), New York 23:00, Tokyo 00:00 on the 30th, Stand-up
    // 00:30 on the 30th, then the reminder without a due date.
    #expect(
      work == [
        AppFixture.report, AppFixture.callNewYork, AppFixture.callTokyo, AppFixture.standUp, AppFixture.sendNumbers,
      ])
  }

  @Test func groupByDayGivesEachDayAHeading() throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["show", "--scope", "scheduled", "--group", "day", "--hide-completed"])
    #expect(
      result.output == """
        Scheduled

        Sat 2026-11-28 · Yesterday
          10000002  [ ] Bread          2026-11-28                         !       Groceries

        Sun 2026-11-29 · Today
          10000001  [ ] Oat milk       2026-11-29                         !!!  ⚑  Groceries
          20000002  [ ] Report         2026-11-28 23:30 UTC               !!      Work
          10000004  [ ] Free-range     2026-11-29 18:00                   !!      Groceries
          20000003  [ ] Call New York  2026-11-29 17:00 America/New_York  !!!     Work

        Mon 2026-11-30 · Tomorrow
          20000004  [ ] Call Tokyo     2026-11-30 08:00 Asia/Tokyo        !       Work
          20000001  [ ] Stand-up       2026-11-29 23:30 UTC                       Work

        """)
    let json = try JSONOutput.array(
      JSONOutput.object(bench.run(["show", "-s", "scheduled", "--group", "day", "--json"]).output), "reminders")
    #expect(
      json.map { $0["day"] as? String } == [
        "2026-11-28", "2026-11-29", "2026-11-29", "2026-11-29", "2026-11-29", "2026-11-30", "2026-11-30",
      ])
  }

  @Test func viewJSONUsesTheJSONModelsKeys() throws {
    let bench = try AppFixture.bench()
    let rows = try JSONOutput.array(JSONOutput.object(bench.run(["show", "Groceries", "--json"]).output), "reminders")
    let subtask = try #require(rows.first { $0["id"] as? String == AppFixture.freeRange })
    for key in ReminderJSON.reminderKeys + ["list", "listId", "depth"] {
      #expect(subtask.keys.contains(key), "missing \(key)")
    }
    #expect(subtask["parentId"] as? String == AppFixture.eggs)
    #expect(subtask["depth"] as? Int == 1)
    #expect(subtask["dueDate"] as? String == "2026-11-29T18:00:00")
    #expect(subtask["list"] as? String == "Groceries")
  }

  @Test func showNeedsAListOrAScope() throws {
    let bench = try AppFixture.bench()
    #expect(bench.run(["show"]).status == .usage)
    #expect(bench.run(["show", "Work", "--scope", "today"]).status == .usage)
    #expect(bench.run(["show", "--scope", "tomorrow"]).status == .usage)
    let missing = bench.run(["show", "Nowhere"])
    #expect(missing.status == .noInput)
    #expect(missing.errors.contains("no list named 'Nowhere' (lists: Groceries, Work, Someday)"))
  }

  // MARK: Search

  @Test func searchFindsNotesCaseInsensitively() throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["search", "forecast"])
    #expect(result.status == .ok)
    #expect(
      result.output == """
        Search: forecast

        Work
          20000005  [ ] Send Q4 numbers  !!  ⚑
                        notes: Include the revised Forecast tab

        """)
    let rows = try JSONOutput.array(JSONOutput.object(bench.run(["search", "forecast", "--json"]).output), "reminders")
    #expect(rows.map { $0["matchedIn"] as? [String] } == [["notes"]])
  }

  @Test func searchIgnoresDiacriticsAndFindsDoneRemindersInTheCompletedSection() throws {
    let bench = try AppFixture.bench()
    let output = bench.run(["search", "cafe", "--json"]).output
    #expect(try JSONOutput.ids(output).isEmpty)
    #expect(try JSONOutput.ids(output, "completed") == [AppFixture.cafeBeans])
    #expect(try JSONOutput.ids(bench.run(["search", "CAFÉ", "--json"]).output, "completed") == [AppFixture.cafeBeans])
  }

  @Test func searchJoinsWordsIntoOnePhrase() throws {
    let bench = try AppFixture.bench()
    #expect(try JSONOutput.ids(bench.run(["search", "call", "new", "--json"]).output) == [AppFixture.callNewYork])
  }

  @Test func searchWithoutMatchesSaysSo() throws {
    let bench = try AppFixture.bench()
    let result = bench.run(["search", "zebra"])
    #expect(result.status == .ok)
    #expect(result.output == "No matches for \"zebra\"\n")
    #expect(bench.run(["search", "  "]).status == .usage)
  }

  // MARK: export --scope

  @Test(arguments: ReminderScope.allCases)
  func scopedExportsHoldTheViewsMembers(scope: ReminderScope) throws {
    let bench = try AppFixture.bench()
    let viewIDs = try JSONOutput.ids(bench.run(["show", "--scope", scope.rawValue, "--json"]).output)
    let exported = bench.run(["export", "--scope", scope.rawValue, "--format", "jsonl"])
    #expect(exported.status == .ok)
    let exportIDs = try exported.output.split(separator: "\n").map {
      try JSONOutput.object(String($0))["id"] as? String
    }
    #expect(Set(exportIDs.compactMap { $0 }) == Set(viewIDs))
    #expect(exportIDs.count == viewIDs.count)
  }

  @Test func aScopedJSONExportStillNamesEveryList() throws {
    let bench = try AppFixture.bench()
    let document = try JSONOutput.object(bench.run(["export", "--scope", "flagged"]).output)
    let lists = try JSONOutput.array(document, "lists")
    #expect(lists.map { ($0["reminders"] as? [Any])?.count } == [1, 1, 0])
  }

  // MARK: Terminal output

  @Test func colourOnlyOnATerminalAndNeverWithNoColor() throws {
    let bench = try AppFixture.bench()
    let escape = "\u{1B}["
    #expect(!bench.run(["show", "--scope", "today"]).output.contains(escape))
    #expect(bench.runOnTerminal(["show", "--scope", "today"]).output.contains(escape))
    #expect(!bench.runOnTerminal(["show", "--scope", "today", "--color", "never"]).output.contains(escape))
    #expect(bench.run(["show", "--scope", "today", "--color", "always"]).output.contains(escape))
    bench.environment["NO_COLOR"] = "1"
    #expect(!bench.runOnTerminal(["show", "--scope", "today"]).output.contains(escape))
    #expect(!bench.runOnTerminal(["lists"]).output.contains(escape))
    #expect(bench.run(["lists", "--color", "always"]).output.contains(escape))
  }

  @Test func colourAddsEscapesAroundTheSameCharacters() throws {
    let bench = try AppFixture.bench()
    let plain = bench.run(["show", "--scope", "all"]).output
    let coloured = bench.run(["show", "--scope", "all", "--color", "always"]).output
    let stripped = coloured.replacing(/\u{1B}\[[0-9;]*m/, with: "")
    #expect(stripped == plain)
  }

  @Test func titlesCannotSendEscapesToTheTerminal() throws {
    let bench = try AppFixture.bench()
    let added = bench.run(["add", "Evil\u{1B}[2J title\nsecond line", "--list", "Work"])
    #expect(added.status == .ok)
    let output = bench.runOnTerminal(["show", "Work", "--color", "never"]).output
    #expect(!output.contains("\u{1B}"))
    #expect(output.contains("Evil\u{FFFD}[2J title second line"))
  }

  @Test func wideCharactersKeepTheColumnsAligned() throws {
    let bench = TestBench()
    #expect(bench.run(["list", "create", "Wide"]).status == .ok)
    for title in ["東京タワー", "Plants 🌿", "Plain"] {
      #expect(bench.run(["add", title, "--list", "Wide", "--due", "2026-12-01"]).status == .ok)
    }
    let lines = bench.run(["show", "Wide"]).output.split(separator: "\n").dropFirst()
    // The due column starts at the same display column on every row.
    let columns = lines.map { line -> Int in
      let prefix = line[..<(line.range(of: "2026-12-01")?.lowerBound ?? line.endIndex)]
      return prefix.reduce(0) { width, character in
        width
          + (character.unicodeScalars.contains {
            $0.properties.isEmojiPresentation || $0.value >= 0x3000 && $0.value < 0xA000
          } ? 2 : 1)
      }
    }
    #expect(Set(columns).count == 1, "\(lines)")
  }
}

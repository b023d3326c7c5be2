import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The parts under the validator: the cycle search, the store's integrity queries and repair
/// writes, and the records repairs keep in `extra`.
@Suite struct IntegrityPartsTests {
  @Test func cyclesAreFoundOnceEachStartingAtTheirLowestRow() {
    var finder = ParentCycleFinder()
    // 1 → 2 → 3 → 1, 4 → 4, 5 → 1 (leads into a cycle, is not in it), 6 → 7 (missing parent).
    for (row, parent) in [(1, 2), (2, 3), (3, 1), (4, 4), (5, 1), (6, 7)] as [(Int64, Int64)] {
      finder.add(row: row, parent: parent)
    }
    #expect(finder.cycles() == [[1, 2, 3], [4]])
  }

  @Test func aChainOfAMillionLinksNeedsNoRecursion() {
    var finder = ParentCycleFinder()
    for row in Int64(1)...1_000_000 { finder.add(row: row, parent: row - 1) }
    #expect(finder.cycles().isEmpty)
    var ring = ParentCycleFinder()
    for row in Int64(1)...200_000 { ring.add(row: row, parent: row == 1 ? 200_000 : row - 1) }
    #expect(ring.cycles().map(\.count) == [200_000])
  }

  @Test func theScopedWalkFindsCyclesAboveItsStartingRows() throws {
    let parents: [Int64: Int64] = [10: 11, 11: 12, 12: 11, 20: 21]
    var search = ParentCycleFinder.ScopedSearch()
    for start: Int64 in [10, 20, 12] { search.walk(from: start) { parents[$0] } }
    #expect(search.cycles == [[11, 12]])
  }

  @Test func foreignKeyViolationsNameTheirColumns() throws {
    try DefectStores.withStore(
      defect: "UPDATE reminders SET list_id = 9 WHERE id = 4; UPDATE reminders SET parent_id = 77 WHERE id = 1"
    ) { store throws in
      let violations = try store.foreignKeyViolations().sorted { ($0.rowID ?? 0) < ($1.rowID ?? 0) }
      #expect(
        violations == [
          ForeignKeyViolation(
            table: "reminders", rowID: 1, parentTable: "reminders", columns: ["parent_id"], parentColumns: ["id"]),
          ForeignKeyViolation(
            table: "reminders", rowID: 4, parentTable: "lists", columns: ["list_id"], parentColumns: ["id"]),
        ])
      // Both are named by the domain rules, so the foreign-key rule stays quiet about them.
      let rules = try Validator(store: store).run().findings.map(\.rule)
      #expect(rules == [.orphanReminder, .orphanSubtask])
    }
  }

  @Test func theImportScopeHoldsAddedAndUpdatedRowsOnly() throws {
    try DefectStores.withStore(
      defect: "UPDATE reminders SET list_id = 9 WHERE id IN (1, 4); UPDATE reminders SET parent_id = 3 WHERE id = 1"
    ) { store throws in
      let scoped = try store.withIntegrityScope(addedAfter: 3, updated: [1]) { scope in
        var subtasks: [Int64] = []
        try store.forEachSubtaskRow(in: scope) { subtasks.append($0) }
        return (try store.orphanReminders(in: scope).map(\.rowID), subtasks)
      }
      #expect(scoped.0 == [1, 4])
      #expect(scoped.1 == [1])
      // Row 1 now hangs under 3 → 2 → 1: the walk from the scope finds the cycle.
      let cycles = try store.withIntegrityScope(addedAfter: 4, updated: [1]) { _ in
        var search = ParentCycleFinder.ScopedSearch()
        try store.forEachSubtaskRow(in: .importedReminders) { start in
          try search.walk(from: start) { try store.parentRowID(ofReminderRow: $0) }
        }
        return search.cycles
      }
      #expect(cycles == [[1, 3, 2]])
      #expect(
        try store.database.scalar("SELECT count(*) FROM temp.sqlite_schema") == .integer(0),
        "the scope table is dropped")
    }
  }

  /// An import into an empty store wrote every row: its scope is the whole table, read
  /// without the scope table, and finds what the scope table's rows find.
  @Test func theScopeOfAnImportThatWroteEveryRowIsTheTable() throws {
    try DefectStores.withStore(
      defect: "UPDATE reminders SET uid = 'same' WHERE id IN (2, 4); UPDATE reminders SET list_id = 9 WHERE id = 3"
    ) { store throws in
      func findings(_ scope: IntegrityScope) throws -> [String] {
        try store.duplicateReminderUIDRows(in: scope).map { "dup \($0.rowID)" }
          + store.orphanReminders(in: scope).map { "orphan \($0.rowID)" }
          + store.listRowsHoldingReminders(in: scope).sorted().map { "list \($0)" }
      }
      let everyRow = try store.withIntegrityScope(addedAfter: 0, updated: []) { scope in
        #expect(scope == .importedEveryReminder)
        #expect(try store.database.scalar("SELECT count(*) FROM temp.sqlite_schema") == .integer(0))
        return try findings(scope)
      }
      // Row 1 was there before and updated, the others added: the same rows, in the scope table.
      let scopeTable = try store.withIntegrityScope(addedAfter: 1, updated: [1]) { scope in
        #expect(scope == .importedReminders)
        return try findings(scope)
      }
      #expect(everyRow == scopeTable)
      #expect(everyRow.contains("dup 2") && everyRow.contains("dup 4") && everyRow.contains("orphan 3"))
    }
  }

  /// Duplicate UIDs are looked for only when the folded-UID index holds a key twice
  /// (`holdsAFoldedUIDTwice`); UIDs that fold alike but differ are no duplicates, NULL UIDs
  /// are no key, empty ones are one.
  @Test(arguments: [
    ("", false, [Int64]()),
    ("UPDATE reminders SET uid = 'rem-1' WHERE id = 4", true, []),
    ("UPDATE reminders SET uid = NULL WHERE id IN (2, 4)", false, []),
    ("UPDATE reminders SET uid = '' WHERE id IN (2, 4)", true, []),
    (
      "UPDATE reminders SET uid = 'Same' WHERE id IN (2, 4); UPDATE reminders SET uid = 'SAME' WHERE id = 3", true,
      [2, 4]
    ),
  ])
  func duplicateUIDsAreSoughtOnlyWhenAFoldedUIDComesTwice(defect: String, twice: Bool, duplicates: [Int64]) throws {
    try DefectStores.withStore(defect: defect.isEmpty ? "SELECT 1" : defect) { store throws in
      #expect(try store.holdsAFoldedUIDTwice() == twice)
      #expect(try store.duplicateReminderUIDRows(in: .everything).map(\.rowID) == duplicates)
      let scoped = try store.withIntegrityScope(addedAfter: 1, updated: []) { scope in
        try store.duplicateReminderUIDRows(in: scope).map(\.rowID)
      }
      #expect(scoped == duplicates.filter { $0 > 1 })
    }
  }

  /// Subtasks are read from their index and sorted by row: the same rows, in row order, as a
  /// read of the table, in the whole store and in an import's scope.
  @Test func subtasksAndBrokenLinksComeInRowOrder() throws {
    let defect = """
      UPDATE reminders SET parent_id = 1 WHERE id = 4;
      UPDATE reminders SET parent_id = 4 WHERE id = 2;
      UPDATE reminders SET parent_id = 99 WHERE id = 3
      """
    try DefectStores.withStore(defect: defect) { store throws in
      let subtasks = try store.database.rows("SELECT id FROM reminders WHERE parent_id IS NOT NULL ORDER BY id")
        .compactMap { $0.int(0) }
      #expect(subtasks.count >= 3)
      var read: [Int64] = []
      try store.forEachSubtaskRow(in: .everything) { read.append($0) }
      #expect(read == subtasks)
      let broken = try store.brokenParentLinks(in: .everything).map(\.rowID)
      #expect(broken.contains(3) && broken == broken.sorted())
      let scoped = try store.withIntegrityScope(addedAfter: 1, updated: []) { scope in
        var rows: [Int64] = []
        try store.forEachSubtaskRow(in: scope) { rows.append($0) }
        return (rows, try store.brokenParentLinks(in: scope).map(\.rowID))
      }
      #expect(scoped.0 == subtasks.filter { $0 > 1 })
      #expect(scoped.1 == broken.filter { $0 > 1 })
    }
  }

  /// The walk up from each subtask starts from the parent read with it
  /// (`forEachSubtaskLink`): the parent `parentRowID(ofReminderRow:)` reads, a parent that is
  /// not a row number included, and an import's check finds the cycles `validate` finds.
  @Test func theImportCheckWalksFromTheParentsReadWithTheSubtasks() throws {
    let defect = """
      UPDATE reminders SET parent_id = 2 WHERE id = 1;
      UPDATE reminders SET parent_id = 4 WHERE id = 2;
      UPDATE reminders SET parent_id = 1 WHERE id = 4;
      UPDATE reminders SET parent_id = 'x' WHERE id = 3
      """
    try DefectStores.withStore(defect: defect) { store throws in
      var links: [(Int64, Int64?)] = []
      try store.forEachSubtaskLink(in: .everything) { links.append(($0, $1)) }
      #expect(links.map(\.0).contains(3))
      for (row, parent) in links { #expect(try store.parentRowID(ofReminderRow: row) == parent) }
      let everything = try Validator(store: store).run().findings.filter { $0.rule == .parentCycle }
      let written = WrittenValueChecks(watching: store)
      written.stop()
      let imported = try store.withIntegrityScope(addedAfter: 0, updated: []) { scope in
        try Validator(store: store).runOnImported(scope, listsAddedAfter: 0, writtenValues: written)
      }.findings.filter { $0.rule == .parentCycle }
      #expect(everything.count == 1 && everything.first?.message.contains("#1 → #2 → #4 → #1") == true)
      #expect(imported.map(\.message) == everything.map(\.message))
    }
  }

  @Test func rekeyingSwapsKeysWithoutTrippingUniqueness() throws {
    // Each list carries the other's key: fixing one at a time would collide.
    let swapped =
      "UPDATE lists SET name_key = 'x' WHERE id = 1; UPDATE lists SET name_key = 'home' WHERE id = 2; UPDATE lists SET name_key = 'work' WHERE id = 1"
    try DefectStores.withStore(defect: swapped) { store throws in
      let report = try Repairer.run(store: store, options: ValidationOptions(), dryRun: false, now: Date())
      #expect(report.records.map(\.finding.rule) == [.listNameKey, .listNameKey])
      #expect(report.remaining.isEmpty)
      #expect(
        try store.database.rows("SELECT name_key FROM lists ORDER BY id").compactMap { $0.string(0) } == [
          "home", "work",
        ])
    }
  }

  @Test func aListStillHoldingRemindersIsNeverDeleted() throws {
    try DefectStores.withStore(defect: "") { store throws in
      #expect(throws: RemconvError.self) { try store.deleteEmptyList(rowID: 1) }
      #expect(try store.reminderCount() == 4)
    }
  }

  @Test func readingAStoredDueWithAnUnknownZoneKeepsBoth() throws {
    try DefectStores.withStore(defect: "UPDATE reminders SET due_tz = 'Europe/Atlantis' WHERE id = 4") { store throws in
      let reminder = try #require(try store.reminder(rowID: 4)).reminder
      #expect(reminder.dueDate == nil)
      #expect(
        reminder.extra["invalid"]
          == .object(["dueDate": .string("2026-11-30T09:00:00"), "dueTimeZone": .string("Europe/Atlantis")]))
    }
  }

  @Test func extraRecordsKeepEveryValue() {
    var extra: [String: JSONValue] = ["repaired": .string("someone else's"), "brokenParent": .string("A")]
    ExtraRecord.keep(.string("B"), at: "brokenParent", in: &extra)
    ExtraRecord.keep(.string("B"), at: "brokenParent", in: &extra)
    ExtraRecord.keep(.number("7"), at: "listRow", under: "repaired", in: &extra)
    #expect(extra["brokenParent"] == .array([.string("A"), .string("B")]))
    #expect(extra["repaired"] == .object(["previous": .string("someone else's"), "listRow": .number("7")]))
    #expect(ExtraRecord.decode("[1]") == ["invalid": .object(["extra": .string("[1]")])])
    #expect(ExtraRecord.decode("") == [:])
  }
}

import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Migration 0012: one index of day and state instead of two, and exact UIDs looked up in the
/// index of folded UIDs instead of an index of their own. A store of 0011 gets that index set
/// and keeps every row; the views, counts and UID lookups read an index, never every row.
@Suite struct LeanerIndexTests {
  /// The indexes of `reminders` at the head, by name.
  static let headIndexes: Set<String> = [
    "reminders_by_list", "reminders_by_parent", "reminders_by_source_digest", "reminders_by_folded_uid",
    "reminders_by_due_day_state",
  ]

  private func reminderIndexes(_ database: Database) throws -> Set<String> {
    Set(
      try database.rows("SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'reminders'")
        .compactMap { $0.string(0) })
  }

  /// The plan SQLite makes for `sql`, one line per step.
  private func plan(_ sql: String, in store: Store) throws -> [String] {
    try store.database.rows("EXPLAIN QUERY PLAN " + sql).compactMap { $0.string(3) }
  }

  @Test func aStoreOf0011GetsTheLeanerIndexSetAndKeepsEveryRow() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0011.sqlite", into: directory)
    let remindersBefore = try FixtureStores.rows(of: "reminders", inFile: path)
    let syncRemotesBefore = try FixtureStores.rows(of: "sync_remotes", inFile: path)
    do {
      let old = try Database(path: path, mode: .readOnly)
      defer { old.close() }
      #expect(
        try reminderIndexes(old)
          == Self.headIndexes.subtracting(["reminders_by_due_day_state"]).union([
            "reminders_by_uid", "reminders_by_due_day", "reminders_by_state",
          ]))
    }

    let store = try Store(path: path)
    defer { store.close() }
    #expect(store.upgradeReport?.applied == ["0012_leaner_reminder_indexes"])
    #expect(try reminderIndexes(store.database) == Self.headIndexes)
    #expect(
      try store.database.scalar("SELECT sql FROM sqlite_schema WHERE name = 'reminders_by_due_day_state'")
        == .text("CREATE INDEX reminders_by_due_day_state ON reminders(due_day, is_done, flagged, list_id)"))
    #expect(
      try store.database.scalar("SELECT sql FROM sqlite_schema WHERE name = 'reminders_by_parent'")
        == .text("CREATE INDEX reminders_by_parent ON reminders(parent_id) WHERE parent_id IS NOT NULL"))
    #expect(try FixtureStores.rows(of: "reminders", in: store.database) == remindersBefore)
    #expect(try FixtureStores.rows(of: "sync_remotes", in: store.database) == syncRemotesBefore)
    #expect(try store.database.scalar("PRAGMA integrity_check") == .text("ok"))

    // A new store has the same set.
    let fresh = try Store(path: directory.file("fresh.sqlite"))
    defer { fresh.close() }
    #expect(try reminderIndexes(fresh.database) == Self.headIndexes)

    // Exact lookups stay exact, though the index they read folds case.
    let uid = "nextcloud-zahnarzt-91ab@example.org"
    #expect(try store.reminder(uid: uid)?.rowID == 12)
    #expect(try store.reminderRowID(uid: uid) == 12)
    #expect(try store.reminderState(uid: uid)?.handle == ReminderHandle(12))
    #expect(try store.reminders(uid: uid).map(\.rowID) == [12])
    #expect(try store.reminder(uid: uid.uppercased()) == nil)
    #expect(try store.reminderRowID(uid: uid.uppercased()) == nil)
    #expect(try store.reminderState(uid: "Nextcloud-zahnarzt-91ab@example.org") == nil)
    #expect(try store.reminders(uid: uid.uppercased()).isEmpty)
    // Prefixes still fold ASCII case.
    #expect(try store.reminders(uidPrefix: "NEXTCLOUD-ZAHN").map(\.rowID) == [12])

    // Subtasks are found under their parent, top-level reminders by their list, though the
    // index of parents now holds subtasks only; deleting a parent still takes its subtasks.
    #expect(
      try store.reminderStates(list: ListHandle(2), parent: ReminderHandle(2), title: "Changelog schreiben")
        .map(\.handle) == [ReminderHandle(3)])
    #expect(
      try store.reminderStates(list: ListHandle(2), parent: nil, title: "Wochenplanung").map(\.handle)
        == [ReminderHandle(11)])
    #expect(try store.reminderStates(list: ListHandle(2), parent: nil, title: "Changelog schreiben").isEmpty)
    #expect(Set(try store.subtreeRowIDs(of: 2)) == [2, 3, 4, 5])
    try store.database.execute("DELETE FROM reminders WHERE id = 2")
    #expect(try store.database.scalar("SELECT count(*) FROM reminders WHERE id IN (2, 3, 4, 5)") == .integer(0))
    #expect(try store.database.scalar("PRAGMA integrity_check") == .text("ok"))
  }

  @Test func uidsThatDifferInCaseAreNotDuplicatesAndEqualOnesAre() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    try importLines(
      [
        #"{"list":"L","id":"abc-1","title":"lower"}"#, #"{"list":"L","id":"ABC-1","title":"upper"}"#,
        #"{"list":"L","id":"x-2","title":"two"}"#,
      ], into: store)
    #expect(try store.reminders(uid: "abc-1").map(\.reminder.title) == ["lower"])
    #expect(try store.reminders(uid: "ABC-1").map(\.reminder.title) == ["upper"])
    #expect(try store.duplicateReminderUIDRows(in: .everything).isEmpty)
    // A UID stored twice (as an older remconv could): both rows, oldest first; the row whose
    // UID differs only in case is not among them.
    try store.database.execute("UPDATE reminders SET uid = 'abc-1' WHERE title = 'two'")
    #expect(try store.duplicateReminderUIDRows(in: .everything).map(\.title) == ["lower", "two"])
    #expect(try store.reminders(uid: "abc-1").map(\.reminder.title) == ["lower", "two"])
    let sharedWithTheImported = try store.withIntegrityScope(addedAfter: 2, updated: []) { scope in
      try store.duplicateReminderUIDRows(in: scope)
    }
    #expect(sharedWithTheImported.map(\.title) == ["lower", "two"])
    let differingInCase = try store.withIntegrityScope(addedAfter: 3, updated: [2]) { scope in
      try store.duplicateReminderUIDRows(in: scope)
    }
    #expect(differingInCase.isEmpty)
  }

  @Test func viewsCountsAndUIDLookupsReadAnIndex() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let today = Today(date: try #require(LocalDate(iso: "2026-12-02")), timeZone: TimeZone(identifier: "UTC")!)

    // Today reads a range of days in the index of day and state; the other scopes read the
    // list index in their order (no sort); a list's view seeks its rows there.
    let scopes: [(ReminderCandidates, String)] = [
      (ReminderCandidates(.scope(.today, today), completion: .open), "reminders_by_due_day_state"),
      (ReminderCandidates(.scope(.scheduled, today), completion: .open), "reminders_by_list"),
      (ReminderCandidates(.scope(.flagged, today), completion: .open), "reminders_by_list"),
      (ReminderCandidates(.scope(.completed, today), completion: .done), "reminders_by_list"),
      (ReminderCandidates(.scope(.all, today), completion: .open), "reminders_by_list"),
      (ReminderCandidates(.scope(.all, today), completion: .either, listRowID: 1), "reminders_by_list"),
    ]
    for (candidates, index) in scopes {
      let steps = try plan(
        "SELECT r.id, r.title FROM reminders r WHERE \(candidates.sql.text) ORDER BY r.list_id, r.id", in: store)
      #expect(steps.first?.contains("USING INDEX \(index)") == true, "\(candidates.condition): \(steps)")
      #expect(steps.count <= 2 && !steps.contains { $0.hasPrefix("SCAN r") && !$0.contains("INDEX") })
    }
    let todayFacts = try plan(
      "SELECT list_id, is_done, flagged, due, due_tz FROM reminders WHERE due_day BETWEEN 1 AND 5", in: store)
    #expect(todayFacts == ["SEARCH reminders USING INDEX reminders_by_due_day_state (due_day>? AND due_day<?)"])
    // The counts read the four columns from the index, not the table.
    let counts = try plan(Store.factCountQuery, in: store)
    #expect(counts.first == "SCAN reminders USING COVERING INDEX reminders_by_due_day_state")

    // Lookups by parent seek the index of subtasks.
    for query in [
      "SELECT id FROM reminders WHERE parent_id = ? ORDER BY id",
      "UPDATE reminders SET source_digest = NULL WHERE parent_id = ? AND source_digest IS NOT NULL",
    ] {
      let steps = try plan(query, in: store)
      #expect(steps.count == 1 && steps[0].contains("INDEX reminders_by_parent (parent_id=?)"), "\(steps)")
    }

    // Every exact UID lookup seeks the folded UID.
    for query in [
      Store.reminderStateQuery, "SELECT \(Store.reminderColumns) \(Store.reminderJoins) WHERE \(Store.exactUID)",
      "SELECT r.id FROM reminders r WHERE \(Store.exactUID) ORDER BY r.id LIMIT 1",
    ] {
      let steps = try plan(query, in: store)
      #expect(steps.contains("SEARCH r USING INDEX reminders_by_folded_uid (<expr>=?)"), "\(steps)")
      #expect(!steps.contains { $0.hasPrefix("SCAN") || $0.contains("TEMP B-TREE") }, "\(steps)")
    }
  }
}

import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// One defect: the raw SQL that makes it (run on `DefectStores.baseline`), the one finding it
/// must produce, and what the store must hold once repaired.
struct DefectCase: Sendable, CustomTestStringConvertible {
  let name: String
  let sql: String
  let rule: ValidationRule
  let table: String
  let rowID: Int64
  /// The finding's message, exactly.
  let message: String
  /// The fix's action in `--json`; nil when there is no automatic fix.
  let fixAction: String?
  /// Checks the store after `--fix`.
  let verify: @Sendable (Store) throws -> Void

  var testDescription: String { name }
}

/// Reads stored values for the repair checks.
enum Stored {
  static func value(_ store: Store, _ sql: String) throws -> SQLValue {
    try store.database.scalar(sql)
  }

  static func text(_ store: Store, _ sql: String) throws -> String? {
    if case .text(let text) = try value(store, sql) { return text }
    return nil
  }

  static func integer(_ store: Store, _ sql: String) throws -> Int64? {
    if case .integer(let number) = try value(store, sql) { return number }
    return nil
  }

  /// The `extra` object of a reminder (or, with `table: "lists"`, a list).
  static func extra(_ store: Store, row: Int64, table: String = "reminders") throws -> [String: JSONValue] {
    let text = try #require(try self.text(store, "SELECT extra FROM \(table) WHERE id = \(row)"))
    return try #require(try JSONParser.parse(text).objectValue)
  }
}

extension DefectCase {
  /// A defect of every rule that one row can have, with its finding and its repair.
  static let all: [DefectCase] = [
    DefectCase(
      name: "orphan-reminder", sql: "UPDATE reminders SET list_id = 7 WHERE id = 4",
      rule: .orphanReminder, table: "reminders", rowID: 4, message: "list #7 does not exist",
      fixAction: "move-to-list"
    ) { store throws in
      let list = try #require(try store.list(named: "Recovered"))
      #expect(try Stored.integer(store, "SELECT list_id FROM reminders WHERE id = 4") == list.rowID)
      #expect(try Stored.extra(store, row: 4)["repaired"] == .object(["listRow": .number(7)]))
    },
    DefectCase(
      name: "orphan-subtask (parent deleted by hand)", sql: "DELETE FROM reminders WHERE id = 2",
      rule: .orphanSubtask, table: "reminders", rowID: 3, message: "its parent #2 does not exist",
      fixAction: "detach-from-parent"
    ) { store throws in
      #expect(try Stored.value(store, "SELECT parent_id FROM reminders WHERE id = 3") == .null)
      #expect(try Stored.extra(store, row: 3)["repaired"] == .object(["parentRow": .number(2)]))
    },
    DefectCase(
      name: "parent-cycle broken at the newest link",
      sql: "UPDATE reminders SET parent_id = 3, edited_at = '2026-11-10T00:00:00Z' WHERE id = 1",
      rule: .parentCycle, table: "reminders", rowID: 1,
      message: "its parents form a cycle #1 → #3 → #2 → #1; its link to #3 is the newest",
      fixAction: "detach-from-parent"
    ) { store throws in
      // Back to the original outline: 1 on top, 2 under 1, 3 under 2.
      #expect(try Stored.value(store, "SELECT parent_id FROM reminders WHERE id = 1") == .null)
      #expect(try Stored.integer(store, "SELECT parent_id FROM reminders WHERE id = 2") == 1)
      #expect(try Stored.integer(store, "SELECT parent_id FROM reminders WHERE id = 3") == 2)
      #expect(try Stored.extra(store, row: 1)["brokenParent"] == .string("REM-3"))
    },
    DefectCase(
      name: "parent-cycle of one (its own parent)", sql: "UPDATE reminders SET parent_id = 4 WHERE id = 4",
      rule: .parentCycle, table: "reminders", rowID: 4,
      message: "its parents form a cycle #4 → #4; its link to #4 is the newest", fixAction: "detach-from-parent"
    ) { store throws in
      #expect(try Stored.value(store, "SELECT parent_id FROM reminders WHERE id = 4") == .null)
      #expect(try Stored.extra(store, row: 4)["brokenParent"] == .string("REM-4"))
    },
    DefectCase(
      name: "subtask-other-list", sql: "UPDATE reminders SET list_id = 2 WHERE id = 3",
      rule: .subtaskOtherList, table: "reminders", rowID: 3,
      message: #"its parent REM-2 "Find the warranty" is in list "Home" (#1), the subtask in "Work" (#2)"#,
      fixAction: "detach-from-parent"
    ) { store throws in
      #expect(try Stored.value(store, "SELECT parent_id FROM reminders WHERE id = 3") == .null)
      #expect(try Stored.integer(store, "SELECT list_id FROM reminders WHERE id = 3") == 2)
      #expect(try Stored.extra(store, row: 3)["brokenParent"] == .string("REM-2"))
    },
    DefectCase(
      name: "missing-uid (reminder)", sql: "UPDATE reminders SET uid = NULL WHERE id = 4",
      rule: .missingUID, table: "reminders", rowID: 4, message: "the reminder has no UID",
      fixAction: "assign-fresh-uid"
    ) { store throws in
      let uid = try #require(try Stored.text(store, "SELECT uid FROM reminders WHERE id = 4"))
      #expect(UUID(uuidString: uid) != nil)
      #expect(try Stored.extra(store, row: 4)["originalId"] == nil)
    },
    DefectCase(
      name: "missing-uid (list)", sql: "UPDATE lists SET uid = '' WHERE id = 2",
      rule: .missingUID, table: "lists", rowID: 2, message: "the list has no UID", fixAction: "assign-fresh-uid"
    ) { store throws in
      let uid = try #require(try Stored.text(store, "SELECT uid FROM lists WHERE id = 2"))
      #expect(UUID(uuidString: uid) != nil)
    },
    DefectCase(
      name: "duplicate-list-uid", sql: "UPDATE lists SET uid = 'LIST-HOME' WHERE id = 2",
      rule: .duplicateListUID, table: "lists", rowID: 2,
      message: #"its UID is also the UID of list #1 "Home""#, fixAction: "assign-fresh-uid"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT uid FROM lists WHERE id = 1") == "LIST-HOME")
      let uid = try #require(try Stored.text(store, "SELECT uid FROM lists WHERE id = 2"))
      #expect(uid != "LIST-HOME")
      #expect(try Stored.extra(store, row: 2, table: "lists")["originalId"] == .string("LIST-HOME"))
    },
    DefectCase(
      name: "duplicate-reminder-uid", sql: "UPDATE reminders SET uid = 'REM-1' WHERE id = 4",
      rule: .duplicateReminderUID, table: "reminders", rowID: 4,
      message: #"its UID is also the UID of #1 "Call plumber""#, fixAction: "assign-fresh-uid"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT uid FROM reminders WHERE id = 1") == "REM-1")
      #expect(try Stored.text(store, "SELECT uid FROM reminders WHERE id = 4") != "REM-1")
      #expect(try Stored.extra(store, row: 4)["originalId"] == .string("REM-1"))
    },
    DefectCase(
      name: "list-name-collision behind a stale key (renamed)",
      sql: """
        INSERT INTO lists (id, uid, name, name_key, created_at)
          VALUES (3, 'LIST-HOME-2', 'home ', 'stale key', '2026-02-01T00:00:00Z');
        UPDATE reminders SET list_id = 3 WHERE id = 4;
        """,
      rule: .listNameCollision, table: "lists", rowID: 3,
      message: #"its name collides with list #1 "Home" (same after trimming, NFC and case folding)"#,
      fixAction: "rename-list"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT name FROM lists WHERE id = 3") == "home (2)")
      #expect(try Stored.text(store, "SELECT name_key FROM lists WHERE id = 3") == "home (2)")
      #expect(try Stored.integer(store, "SELECT list_id FROM reminders WHERE id = 4") == 3)
      #expect(try Stored.extra(store, row: 3, table: "lists")["repaired"] == .object(["name": .string("home ")]))
    },
    DefectCase(
      name: "list-name-collision between NFC and NFD spellings",
      sql: """
        INSERT INTO lists (id, uid, name, name_key, created_at) VALUES
          (3, 'LIST-CAFE-1', 'Caf\u{E9}', 'caf\u{E9}', '2026-02-01T00:00:00Z'),
          (4, 'LIST-CAFE-2', 'CAFE\u{301}', 'cafe\u{301}', '2026-02-02T00:00:00Z');
        """,
      rule: .listNameCollision, table: "lists", rowID: 4,
      message: "its name collides with list #3 \"Caf\u{E9}\" (same after trimming, NFC and case folding)",
      fixAction: "rename-list"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT name FROM lists WHERE id = 4") == "CAF\u{C9} (2)")
    },
    DefectCase(
      name: "list-name-key (stale key)", sql: "UPDATE lists SET name_key = 'stale' WHERE id = 2",
      rule: .listNameKey, table: "lists", rowID: 2,
      message: "its stored name key 'stale' is not the key of its name ('work')", fixAction: "normalize-list-name"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT name_key FROM lists WHERE id = 2") == "work")
      #expect(try Stored.extra(store, row: 2, table: "lists")["repaired"] == nil)
    },
    DefectCase(
      name: "list-name-key (untrimmed name)", sql: "UPDATE lists SET name = ' Work  ' WHERE id = 2",
      rule: .listNameKey, table: "lists", rowID: 2,
      message: "its name is stored untrimmed or not NFC-normalised", fixAction: "normalize-list-name"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT name FROM lists WHERE id = 2") == "Work")
      #expect(try Stored.extra(store, row: 2, table: "lists")["repaired"] == .object(["name": .string(" Work  ")]))
    },
    DefectCase(
      name: "list-name-key (NFD name)",
      sql:
        "INSERT INTO lists (id, uid, name, name_key, created_at) VALUES (3, 'LIST-CAFE', 'Cafe\u{301}', 'caf\u{E9}', '2026-02-01T00:00:00Z')",
      rule: .listNameKey, table: "lists", rowID: 3,
      message: "its name is not NFC-normalised (stored decomposed, 5 scalars for 4)", fixAction: "normalize-list-name"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT hex(name) FROM lists WHERE id = 3") == "436166C3A9", "stored as NFC")
      let kept = try #require(try Stored.extra(store, row: 3, table: "lists")["repaired"]?["name"]?.stringValue)
      #expect(Array(kept.unicodeScalars) == Array("Cafe\u{301}".unicodeScalars), "the decomposed spelling is kept")
    },
    DefectCase(
      name: "list-name-key (BLOB name)", sql: "UPDATE lists SET name = X'576F726BFF' WHERE id = 2",
      rule: .listNameKey, table: "lists", rowID: 2,
      message: "its name is stored as a BLOB of 5 bytes, not valid UTF-8, not as text", fixAction: "normalize-list-name"
    ) { store throws in
      #expect(
        try Stored.text(store, "SELECT typeof(name) || ' ' || name FROM lists WHERE id = 2") == "text Work\u{FFFD}")
      #expect(try Stored.text(store, "SELECT name_key FROM lists WHERE id = 2") == "work\u{FFFD}")
      #expect(
        try Stored.extra(store, row: 2, table: "lists")["repaired"] == .object(["nameBytes": .string("576f726bff")]))
    },
    DefectCase(
      name: "invalid-extra", sql: "UPDATE reminders SET extra = 'not json' WHERE id = 4",
      rule: .invalidExtra, table: "reminders", rowID: 4, message: "its extra 'not json' is not a JSON object",
      fixAction: "wrap-extra"
    ) { store throws in
      #expect(try Stored.extra(store, row: 4) == ["invalid": .object(["extra": .string("not json")])])
    },
    DefectCase(
      name: "invalid-recurrence (libical's reason, kept)",
      sql: """
        UPDATE reminders SET recurrence = '{"rule":"FREQ=FORTNIGHTLY","basis":"due"}' WHERE id = 4
        """,
      rule: .invalidRecurrence, table: "reminders", rowID: 4,
      message:
        "its RRULE 'FREQ=FORTNIGHTLY' is invalid: libical cannot read it (MALFORMEDDATA: An input string was not correctly formed or a component has missing or extra properties)",
      fixAction: nil
    ) { store throws in
      #expect(
        try Stored.text(store, "SELECT recurrence FROM reminders WHERE id = 4")
          == #"{"rule":"FREQ=FORTNIGHTLY","basis":"due"}"#)
    },
    DefectCase(
      name: "invalid-alarm (relative to a start date it lacks, kept)",
      sql: """
        UPDATE reminders SET alarms = '[{"action":"DISPLAY","offset":-900,"relatedTo":"start"}]' WHERE id = 4
        """,
      rule: .invalidAlarm, table: "reminders", rowID: 4,
      message: "its alarm 1 is relative to the start date, which it does not have", fixAction: nil
    ) { store throws in
      #expect(
        try Stored.text(store, "SELECT alarms FROM reminders WHERE id = 4")
          == #"[{"action":"DISPLAY","offset":-900,"relatedTo":"start"}]"#)
    },
    DefectCase(
      name: "invalid-alarm (relative to a due date it lacks)",
      sql: """
        UPDATE reminders SET alarms = '[{"action":"DISPLAY","offset":0,"relatedTo":"due"}]' WHERE id = 2
        """,
      rule: .invalidAlarm, table: "reminders", rowID: 2,
      message: "its alarm 1 is relative to the due date, which it does not have", fixAction: nil
    ) { store throws in
      #expect(try Stored.text(store, "SELECT alarms FROM reminders WHERE id = 2")?.contains("\"due\"") == true)
    },
    DefectCase(
      name: "invalid-alarm (no trigger)",
      sql: """
        UPDATE reminders SET alarms = '[{"action":"AUDIO"}]' WHERE id = 4
        """,
      rule: .invalidAlarm, table: "reminders", rowID: 4,
      message:
        #"its alarms '[{"action":"AUDIO"}]' are not readable: an alarm has "at" (an instant) or "offset" (seconds, negative before)"#,
      fixAction: nil
    ) { store throws in
      #expect(try Stored.text(store, "SELECT alarms FROM reminders WHERE id = 4") == #"[{"action":"AUDIO"}]"#)
    },
    DefectCase(
      name: "start-after-due (kept)",
      sql: "UPDATE reminders SET start = '2026-12-01', start_kind = 'date' WHERE id = 4",
      rule: .startAfterDue, table: "reminders", rowID: 4,
      message: "its start date 2026-12-01 is after its due date 2026-11-30T09:00:00 Europe/Berlin", fixAction: nil
    ) { store throws in
      #expect(try Stored.text(store, "SELECT start FROM reminders WHERE id = 4") == "2026-12-01")
    },
    DefectCase(
      name: "empty-title (no automatic fix)", sql: "UPDATE reminders SET title = '  ' WHERE id = 4",
      rule: .emptyTitle, table: "reminders", rowID: 4, message: "its title is empty", fixAction: nil
    ) { store throws in
      #expect(try Stored.text(store, "SELECT title FROM reminders WHERE id = 4") == "  ")
    },
    DefectCase(
      name: "done-without-completion", sql: "UPDATE reminders SET completed_at = NULL WHERE id = 3",
      rule: .doneWithoutCompletion, table: "reminders", rowID: 3, message: "it is done but has no completion time",
      fixAction: "infer-completion"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT completed_at FROM reminders WHERE id = 3") == "2026-11-04T08:00:00Z")
      #expect(try Stored.extra(store, row: 3)["repaired"] == .object(["completedAt": .null]))
    },
    DefectCase(
      name: "completion-without-done", sql: "UPDATE reminders SET is_done = 0 WHERE id = 3",
      rule: .completionWithoutDone, table: "reminders", rowID: 3,
      message: "it is not done but has the completion time 2026-11-04T08:00:00Z", fixAction: "clear-completion"
    ) { store throws in
      #expect(try Stored.value(store, "SELECT completed_at FROM reminders WHERE id = 3") == .null)
      #expect(try Stored.integer(store, "SELECT is_done FROM reminders WHERE id = 3") == 0)
      #expect(try Stored.extra(store, row: 3)["repaired"] == .object(["completedAt": .string("2026-11-04T08:00:00Z")]))
    },
    DefectCase(
      name: "invalid-priority", sql: "UPDATE reminders SET priority = 9 WHERE id = 1",
      rule: .invalidPriority, table: "reminders", rowID: 1, message: "its priority '9' is not 0, 1, 2 or 3",
      fixAction: "keep-invalid-value"
    ) { store throws in
      #expect(try Stored.integer(store, "SELECT priority FROM reminders WHERE id = 1") == 0)
      #expect(try Stored.extra(store, row: 1)["invalid"] == .object(["priority": .string("9")]))
    },
    DefectCase(
      name: "invalid-date (due)", sql: "UPDATE reminders SET due = '2026-02-30' WHERE id = 1",
      rule: .invalidDate, table: "reminders", rowID: 1,
      message: "its due date: '2026-02-30' is not a date or date-time", fixAction: "keep-invalid-value"
    ) { store throws in
      #expect(try Stored.value(store, "SELECT due FROM reminders WHERE id = 1") == .null)
      #expect(try Stored.value(store, "SELECT due_kind FROM reminders WHERE id = 1") == .null)
      #expect(try Stored.extra(store, row: 1)["invalid"] == .object(["dueDate": .string("2026-02-30")]))
    },
    DefectCase(
      name: "invalid-date (createdAt)", sql: "UPDATE reminders SET created_at = 'last tuesday' WHERE id = 4",
      rule: .invalidDate, table: "reminders", rowID: 4,
      message: "its createdAt 'last tuesday' is not an ISO 8601 instant with a zone", fixAction: "keep-invalid-value"
    ) { store throws in
      #expect(try Stored.value(store, "SELECT created_at FROM reminders WHERE id = 4") == .null)
      #expect(try Stored.extra(store, row: 4)["invalid"] == .object(["createdAt": .string("last tuesday")]))
    },
    DefectCase(
      name: "invalid-date (list createdAt)", sql: "UPDATE lists SET created_at = 'yesterday' WHERE id = 2",
      rule: .invalidDate, table: "lists", rowID: 2,
      message: "its createdAt 'yesterday' is not an ISO 8601 instant with a zone", fixAction: "keep-invalid-value"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT created_at FROM lists WHERE id = 2") == "1970-01-01T00:00:00Z")
      #expect(
        try Stored.extra(store, row: 2, table: "lists")["invalid"] == .object(["createdAt": .string("yesterday")]))
    },
    DefectCase(
      name: "invalid-time-zone (unknown zone)", sql: "UPDATE reminders SET due_tz = 'Europe/Atlantis' WHERE id = 4",
      rule: .invalidTimeZone, table: "reminders", rowID: 4,
      message: "its due date: 'Europe/Atlantis' is not an IANA time zone", fixAction: "keep-invalid-value"
    ) { store throws in
      // Without its zone the time would be floating: another kind. Both are kept aside.
      #expect(try Stored.value(store, "SELECT due FROM reminders WHERE id = 4") == .null)
      #expect(
        try Stored.extra(store, row: 4)["invalid"]
          == .object(["dueDate": .string("2026-11-30T09:00:00"), "dueTimeZone": .string("Europe/Atlantis")]))
    },
    DefectCase(
      name: "invalid-time-zone (zone on a date)", sql: "UPDATE reminders SET due_tz = 'Europe/Berlin' WHERE id = 1",
      rule: .invalidTimeZone, table: "reminders", rowID: 1,
      message: "its due date: the date '2026-11-30' has no time, so it cannot have a time zone",
      fixAction: "drop-due-time-zone"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT due FROM reminders WHERE id = 1") == "2026-11-30")
      #expect(try Stored.text(store, "SELECT due_kind FROM reminders WHERE id = 1") == "date")
      #expect(try Stored.value(store, "SELECT due_tz FROM reminders WHERE id = 1") == .null)
      #expect(try Stored.extra(store, row: 1)["invalid"] == .object(["dueTimeZone": .string("Europe/Berlin")]))
    },
    DefectCase(
      name: "due-kind-mismatch", sql: "UPDATE reminders SET due_kind = 'floating' WHERE id = 1",
      rule: .dueKindMismatch, table: "reminders", rowID: 1,
      message: "its due_kind is 'floating' but the due date '2026-11-30' is a date", fixAction: "set-due-kind"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT due_kind FROM reminders WHERE id = 1") == "date")
      #expect(try Stored.extra(store, row: 1)["repaired"] == .object(["dueKind": .string("floating")]))
    },
    DefectCase(
      name: "edited-before-created", sql: "UPDATE reminders SET edited_at = '2026-10-01T00:00:00Z' WHERE id = 4",
      rule: .editedBeforeCreated, table: "reminders", rowID: 4,
      message: "its editedAt 2026-10-01T00:00:00Z is before its createdAt 2026-11-05T09:00:00Z",
      fixAction: "raise-edited-at"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT edited_at FROM reminders WHERE id = 4") == "2026-11-05T09:00:00Z")
      #expect(try Stored.extra(store, row: 4)["repaired"] == .object(["editedAt": .string("2026-10-01T00:00:00Z")]))
    },
    DefectCase(
      name: "invalid-tags", sql: #"UPDATE reminders SET tags = '["ok", 7]' WHERE id = 1"#,
      rule: .invalidTags, table: "reminders", rowID: 1,
      message: #"its tags '["ok", 7]' are not a JSON array of strings"#, fixAction: "keep-invalid-value"
    ) { store throws in
      #expect(try Stored.text(store, "SELECT tags FROM reminders WHERE id = 1") == "[]")
      #expect(try Stored.extra(store, row: 1)["invalid"] == .object(["tags": .string(#"["ok", 7]"#)]))
    },
    DefectCase(
      name: "stale-index-columns (a title changed in the sqlite3 shell)",
      sql: "UPDATE reminders SET title = 'Call the Straße plumber' WHERE id = 1",
      rule: .staleIndexColumns, table: "reminders", rowID: 1,
      message:
        "its search_text is not what its due date, title and notes make (an edit outside remconv); views, counts and search read it",
      fixAction: "recompute-index-columns"
    ) { store throws in
      #expect(
        try Stored.text(store, "SELECT search_text FROM reminders WHERE id = 1")
          == "call the strasse plumber\u{1F}about the boiler")
      // The search finds the new title, as it finds a title remconv wrote.
      let search = try #require(ReminderSearch("strasse"))
      let view = try ReminderView(
        search: search, store: store,
        today: Today(date: LocalDate(year: 2026, month: 11, day: 1)!, timeZone: TimeZone(identifier: "UTC")!))
      #expect(view.sections.flatMap(\.rows).map(\.reminder.id) == ["REM-1"])
    },
    DefectCase(
      name: "stale-index-columns (a due date and a note changed in the sqlite3 shell)",
      sql: "UPDATE reminders SET due = '2026-12-24', due_kind = 'date', notes = 'Gift' WHERE id = 2",
      rule: .staleIndexColumns, table: "reminders", rowID: 2,
      message:
        "its due_day and search_text are not what its due date, title and notes make (an edit outside remconv); views, counts and search read them",
      fixAction: "recompute-index-columns"
    ) { store throws in
      #expect(try Stored.integer(store, "SELECT due_day FROM reminders WHERE id = 2") == 20811)
      let today = Today(date: LocalDate(year: 2026, month: 12, day: 24)!, timeZone: TimeZone(identifier: "UTC")!)
      #expect(try ReminderCounts(store: store, today: today).count(.today) == 1)
    },
    DefectCase(
      name: "foreign-key (a table of a newer remconv)",
      sql: """
        CREATE TABLE attachments (id INTEGER PRIMARY KEY, reminder_id INTEGER NOT NULL REFERENCES reminders(id));
        INSERT INTO attachments (id, reminder_id) VALUES (1, 42);
        """,
      rule: .foreignKey, table: "attachments", rowID: 1,
      message: "foreign key violation from attachments(reminder_id) to reminders(id)", fixAction: nil
    ) { store throws in
      #expect(try Stored.integer(store, "SELECT reminder_id FROM attachments WHERE id = 1") == 42)
    },
  ]
}

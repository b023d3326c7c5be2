import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// The run protocol: checks after every step, attribution, the lock's re-read, targets.
@Suite struct MigratorTests {
  /// A head store with the v0004 fixture's data, and the options to open it with `extra` steps.
  private func headStore(extra steps: [Migration], in directory: TemporaryDirectory) throws -> (String, Store.Options) {
    let path = try FixtureStores.copy("v0004.sqlite", into: directory)
    try Store(path: path).close()
    var options = Store.Options()
    options.migrations = Migration.all + steps
    return (path, options)
  }

  private func expectRejected(
    _ sql: String, naming problem: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let directory = TemporaryDirectory()
    let (path, options) = try headStore(extra: [Migration(id: "0006_bad_step", sql: sql)], in: directory)
    let remindersBefore = try FixtureStores.rows(of: "reminders", inFile: path)
    let listsBefore = try FixtureStores.rows(of: "lists", inFile: path)
    let message = expectRemconvError("migrationFailed", sourceLocation: sourceLocation) {
      try Store(path: path, options: options)
    }
    #expect(message.contains("migration 0006_bad_step"), "\(message)", sourceLocation: sourceLocation)
    #expect(message.contains(problem), "\(message)", sourceLocation: sourceLocation)
    #expect(
      message.contains("the store is unchanged") && message.contains("the backup"), sourceLocation: sourceLocation)
    #expect(try FixtureStores.rows(of: "reminders", inFile: path) == remindersBefore, sourceLocation: sourceLocation)
    #expect(try FixtureStores.rows(of: "lists", inFile: path) == listsBefore, sourceLocation: sourceLocation)
    let status = try Store.migrationStatus(at: path, options: options)
    #expect(
      status.version == Migration.head.id && status.userVersion == Migration.head.number, sourceLocation: sourceLocation
    )
  }

  @Test func aStepThatLosesAReminderIsRolledBackAndNamed() throws {
    try expectRejected("DELETE FROM reminders WHERE id = 3;", naming: "table reminders had 8 row(s) expected, now 7")
  }

  @Test func aStepThatMovesAReminderIsRolledBackAndNamed() throws {
    try expectRejected("UPDATE reminders SET list_id = 1 WHERE id = 6;", naming: "list 3 had 1 reminder(s), now 0")
  }

  @Test func aStepThatSwapsAReminderForAnotherIsRolledBack() throws {
    try expectRejected(
      "DELETE FROM reminders WHERE id = 8; INSERT INTO reminders (id, list_id, title) VALUES (80, 4, 'Ersatz');",
      naming: "list 4 holds 2 reminder(s) as before, but not the same ones")
  }

  @Test func aStepThatOrphansAReminderIsRolledBackAndNamed() throws {
    try expectRejected(
      "DELETE FROM lists WHERE id = 3;", naming: "new problem: reminder 6 belongs to list 3, which does not exist")
  }

  @Test func aStepThatBreaksAForeignKeyIsRolledBackAndNamed() throws {
    try expectRejected(
      """
      CREATE TABLE alarms (id INTEGER PRIMARY KEY, reminder_id INTEGER NOT NULL REFERENCES reminders(id));
      INSERT INTO alarms VALUES (1, 999);
      """,
      naming: "new problem: row 1 of alarms refers to a missing row of reminders")
  }

  /// Three steps after the head, the middle one breaking a foreign key: only the final check
  /// finds it (the counts after each step hold), and the run again from the start names it.
  @Test func theStepThatBrokeTheStoreIsNamedAmongSeveral() throws {
    let directory = TemporaryDirectory()
    let steps = [
      Migration(id: "9101_location", sql: "ALTER TABLE reminders ADD COLUMN location TEXT;"),
      Migration(
        id: "9102_dangling_alarm",
        sql: """
          CREATE TABLE alarms (id INTEGER PRIMARY KEY, reminder_id INTEGER NOT NULL REFERENCES reminders(id));
          INSERT INTO alarms VALUES (1, 999);
          """),
      Migration(id: "9103_flag_color", sql: "ALTER TABLE reminders ADD COLUMN flag_color TEXT;"),
    ]
    let (path, options) = try headStore(extra: steps, in: directory)
    let remindersBefore = try FixtureStores.rows(of: "reminders", inFile: path)
    let message = expectRemconvError("migrationFailed") { try Store(path: path, options: options) }
    #expect(message.contains("migration 9102_dangling_alarm would break the store"), "\(message)")
    #expect(message.contains("new problem: row 1 of alarms refers to a missing row of reminders"), "\(message)")
    #expect(message.contains("the store is unchanged") && message.contains("the backup"), "\(message)")
    #expect(try FixtureStores.rows(of: "reminders", inFile: path) == remindersBefore)
    let status = try Store.migrationStatus(at: path, options: options)
    #expect(status.version == Migration.head.id)
    #expect(status.pending.map(\.id) == steps.map(\.id))
  }

  /// The findings are checked on the result, once: a step may leave one that a later step of
  /// the same upgrade removes (the store is never committed between them), while a row that
  /// one step loses is still caught at that step.
  @Test func findingsAreCheckedOnTheResultAndCountsAfterEveryStep() throws {
    let directory = TemporaryDirectory()
    let steps = [
      Migration(
        id: "9101_alarms",
        sql: """
          CREATE TABLE alarms (id INTEGER PRIMARY KEY, reminder_id INTEGER NOT NULL REFERENCES reminders(id));
          INSERT INTO alarms VALUES (1, 999);
          """),
      Migration(id: "9102_alarm_of_reminder_3", sql: "UPDATE alarms SET reminder_id = 3 WHERE id = 1;"),
    ]
    let (path, options) = try headStore(extra: steps, in: directory)
    let store = try Store(path: path, options: options)
    #expect(store.upgradeReport?.applied == steps.map(\.id))
    #expect(try store.database.rows("PRAGMA foreign_key_check").isEmpty)
    store.close()

    let lossy = TemporaryDirectory()
    let (lossyPath, lossyOptions) = try headStore(
      extra: [
        Migration(id: "9101_lose_reminder_3", sql: "DELETE FROM reminders WHERE id = 3;"),
        Migration(
          id: "9102_put_it_back", sql: "INSERT INTO reminders (id, list_id, title) VALUES (3, 1, 'Ersatz');"),
      ], in: lossy)
    let message = expectRemconvError("migrationFailed") { try Store(path: lossyPath, options: lossyOptions) }
    #expect(message.contains("migration 9101_lose_reminder_3 would break the store"), "\(message)")
    #expect(message.contains("table reminders had 8 row(s) expected, now 7"), "\(message)")
  }

  @Test func aStepWithAnSQLErrorIsNamed() throws {
    try expectRejected("ALTER TABLE reminders ADD COLUMN title TEXT;", naming: "duplicate column name: title")
  }

  @Test func aStepWithTransactionControlIsRefusedAtRunTime() throws {
    try expectRejected("ALTER TABLE reminders ADD COLUMN location TEXT; COMMIT;", naming: "contains COMMIT")
  }

  @Test func aRebuildOfListsCannotCascadeIntoReminders() throws {
    // With foreign keys on, DROP TABLE lists would delete every reminder through ON DELETE
    // CASCADE (trap T2). The migrator runs steps with foreign keys off, so it cannot.
    let directory = TemporaryDirectory()
    let rebuild = Migration(
      id: "0006_rebuild_lists_again",
      sql: """
        CREATE TABLE lists_rebuilt (
          id INTEGER PRIMARY KEY, uid TEXT NOT NULL, name TEXT NOT NULL, name_key TEXT NOT NULL UNIQUE,
          symbol TEXT NOT NULL DEFAULT 'list.bullet', color TEXT, created_at TEXT NOT NULL,
          extra TEXT NOT NULL DEFAULT '{}', sort_order INTEGER NOT NULL DEFAULT 0);
        INSERT INTO lists_rebuilt (id, uid, name, name_key, symbol, color, created_at, extra)
          SELECT id, uid, name, name_key, symbol, color, created_at, extra FROM lists;
        DROP TABLE lists;
        ALTER TABLE lists_rebuilt RENAME TO lists;
        CREATE INDEX lists_by_uid ON lists(uid);
        """)
    let (path, options) = try headStore(extra: [rebuild], in: directory)
    let before = try FixtureStores.rows(of: "reminders", inFile: path)
    let store = try Store(path: path, options: options)
    defer { store.close() }
    #expect(store.upgradeReport?.applied == ["0006_rebuild_lists_again"])
    #expect(try FixtureStores.rows(of: "reminders", in: store.database) == before)
    #expect(try store.database.rows("PRAGMA foreign_key_check").isEmpty)
    #expect(try store.database.scalar("PRAGMA foreign_keys") == .integer(1), "foreign keys are back on")
    let reference = try store.database.scalar(
      "SELECT \"table\" FROM pragma_foreign_key_list('reminders') WHERE \"from\" = 'list_id'")
    #expect(reference == .text("lists"))
  }

  @Test func problemsTheStoreHadBeforeAreReportedNotFatal() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0002-orphan-reminder.sqlite", into: directory)
    let (store, messages) = try MessageLog.open(path)
    defer { store.close() }
    let report = try #require(store.upgradeReport)
    #expect(report.to == Migration.head.id)
    #expect(report.preexisting.map(\.kind) == [.orphanReminder])
    #expect(report.preexisting.first?.subject == "reminders:40")
    #expect(
      try store.database.scalar("SELECT title FROM reminders WHERE id = 40")
        == .text("Verwaister Eintrag aus einer gelöschten Liste"))
    #expect(messages.lines.count == 2)
    #expect(messages.lines.last?.contains("reminder 40 belongs to list 99, which does not exist") == true)
  }

  @Test func theTestPauseIsCompiledIntoDebugBuildsOnly() throws {
    // The tests run a debug build, where MigrationProcessTests need the hook.
    #expect(MigrationTestPause.isCompiledIn)
    #expect(Store.Options.testPausePoint(in: ["REMCONV_TEST_PAUSE_AT_STEP": "3"]) == "3")
    // A release binary has neither the hook nor the variable's name (`make release` checks it
    // too); checked here when one has been built.
    let release = Repository.path(".build/release/remconv")
    if FileManager.default.isExecutableFile(atPath: release) {
      let bytes = try Data(contentsOf: URL(fileURLWithPath: release))
      #expect(bytes.range(of: Data("REMCONV_TEST_PAUSE_AT_STEP".utf8)) == nil, "\(release) has the test hook")
    }
  }

  @Test func theBusyMessageSaysHowLongItWaited() {
    // A 300 ms timeout used to be reported as "waited 0 s".
    #expect(Migrator.duration(milliseconds: 300) == "300 ms")
    #expect(Migrator.duration(milliseconds: 999) == "999 ms")
    #expect(Migrator.duration(milliseconds: 1000) == "1 s")
    #expect(Migrator.duration(milliseconds: 1500) == "1.5 s")
    #expect(Migrator.duration(milliseconds: 10_000) == "10 s")
  }

  @Test func aProcessThatWaitedForTheLockFindsTheStoreUpToDate() throws {
    // The history is read again under the lock: a store upgraded by someone else while this
    // one waited is not upgraded twice (no "table already exists", no duplicate history row).
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0001.sqlite", into: directory)
    var deferred = Store.Options()
    deferred.upgradeOnOpen = false
    let waiting = try Store(path: path, options: deferred)
    defer { waiting.close() }
    #expect(waiting.needsUpgrade)
    #expect(throws: RemconvError.self) { try waiting.requireWritable() }

    let other = try Store(path: path)
    #expect(other.upgradeReport?.applied.count == Migration.all.count - 1)
    other.close()

    let report = try waiting.migrate()
    #expect(report.isUpToDate && report.backup == nil)
    #expect(report.to == Migration.head.id)
    #expect(!waiting.needsUpgrade)
    #expect(
      try waiting.database.scalar("SELECT count(*) FROM remconv_migrations") == .integer(Int64(Migration.all.count)))
    #expect(MigrationBackup.list(for: path).count == 1)
  }

  @Test func upgradesStepByStepWithATarget() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0001.sqlite", into: directory)
    var options = Store.Options()
    options.upgradeOnOpen = false
    let store = try Store(path: path, options: options)
    defer { store.close() }
    let first = try store.migrate(upTo: "3")
    #expect(first.applied == ["0002_notes_and_priority", "0003_uids_timestamps_due_kind"])
    #expect(first.backup.map { ($0.fromVersion, $0.toVersion) } ?? (0, 0) == (1, 3))
    #expect(store.needsUpgrade)
    #expect(try store.database.scalar("PRAGMA user_version") == .integer(3))
    let rest = try store.migrate(upTo: "0012_leaner_reminder_indexes")
    #expect(
      rest.applied == [
        "0004_subtasks_tags_url_extra", "0005_unique_list_names", "0006_record_digests",
        "0007_converge_earlier_releases", "0008_view_index_columns", "0009_recurrence_alarms_start", "0010_sync_state",
        "0011_sync_discovery", "0012_leaner_reminder_indexes",
      ])
    #expect(!store.needsUpgrade)
    #expect(try store.migrate(upTo: "12").isUpToDate)
    #expect(expectRemconvError("conflict") { try store.migrate(upTo: "0002") }.contains("migrations only run forward"))
    #expect(
      expectRemconvError("invalidInput") { try store.migrate(upTo: "9999_nothing") }.contains("no such migration"))
  }

  @Test func aNewStoreGetsTheHeadWithoutBackupOrMessage() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("sub/store.sqlite")
    let (store, messages) = try MessageLog.open(path)
    defer { store.close() }
    #expect(store.upgradeReport?.applied == Migration.all.map(\.id))
    #expect(store.upgradeReport?.backup == nil)
    #expect(messages.lines.isEmpty)
    #expect(MigrationBackup.list(for: path).isEmpty)
    #expect(try store.database.scalar("PRAGMA user_version") == .integer(Int64(Migration.head.number)))
    #expect(try store.database.scalar("PRAGMA application_id") == .integer(Int64(Store.applicationID)))
    #expect(try store.database.scalar("PRAGMA journal_mode") == .text("wal"))
  }

  @Test func noUpgradeRefusesAndLeavesTheFileUntouched() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0003.sqlite", into: directory)
    var options = Store.Options()
    options.allowUpgrade = false
    try expectUntouched(path) {
      let message = expectRemconvError("upgradeRefused") { try Store(path: path, options: options) }
      #expect(message.contains("0003_uids_timestamps_due_kind") && message.contains("--no-upgrade"))
    }
    #expect(MigrationBackup.list(for: path).isEmpty)
  }
}

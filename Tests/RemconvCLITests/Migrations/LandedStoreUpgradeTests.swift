import Foundation
import RemconvCLI
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Stores made by the released remconv binaries themselves (Fixtures/stores/landed/README.md
/// says which commit and command made each) open with today's remconv: the earlier checksums of
/// 0003 and 0005 they recorded are trusted, step 0007 brings them to today's schema, and every
/// reminder exports as the old binary exported it.
@Suite struct LandedStoreUpgradeTests {
  /// Each store, with the legacy checksums it recorded (step id → commit named in the reason).
  static let stores: [(name: String, legacy: [String: String])] = [
    ("b99ed97", ["0003_uids_timestamps_due_kind": "b99ed97", "0005_unique_list_names": "b99ed97"]),
    ("b99ed97-from-v0002", ["0003_uids_timestamps_due_kind": "b99ed97", "0005_unique_list_names": "b99ed97"]),
    ("dfc16ea", ["0003_uids_timestamps_due_kind": "b99ed97", "0005_unique_list_names": "dfc16ea"]),
    ("7fe6a19", ["0005_unique_list_names": "7f2be86"]),
    ("7fe6a19-from-v0002", ["0005_unique_list_names": "7f2be86"]),
  ]

  static var names: [String] { stores.map(\.name) }

  static func fixture(_ name: String) -> String { "landed/\(name).sqlite" }

  @Test(arguments: names)
  func upgradesToTodaysSchemaAndExportsEveryReminderAsTheOldBinaryDid(name: String) throws {
    let legacy = try #require(Self.stores.first { $0.name == name }?.legacy)
    let bench = TestBench()
    try FixtureStores.copy(Self.fixture(name), into: bench.directory)
    let historyBefore = try FixtureStores.rows(of: "remconv_migrations", inFile: bench.storePath)
    let remindersBefore = try FixtureStores.rows(of: "reminders", inFile: bench.storePath)
    let listsBefore = try FixtureStores.rows(of: "lists", inFile: bench.storePath)

    let status = try Store.migrationStatus(at: bench.storePath)
    #expect(status.state == .behind)
    for row in status.applied {
      if let commit = legacy[row.id] {
        #expect(row.earlierRelease?.contains(commit) == true, "\(name): \(row.id) is an earlier release")
      } else {
        #expect(row.earlierRelease == nil)
      }
    }

    let exported = bench.run(["export", "--format", "json"])
    #expect(exported.status == .ok, "\(exported.errors)")
    #expect(
      exported.errors.contains("upgraded store \(bench.storePath) from 0005_unique_list_names to \(Migration.head.id)"))

    // Every reminder and list, field by field, as the old binary exported them.
    let old = try JSONParser.parse(Repository.read("Tests/RemconvCoreTests/Fixtures/stores/landed/\(name).json"))
    let new = try JSONParser.parse(exported.output)
    let oldLists = try #require(old["lists"]?.arrayValue)
    let newLists = try #require(new["lists"]?.arrayValue)
    #expect(oldLists.count == newLists.count)
    var compared = 0
    for oldList in oldLists {
      let id = try #require(oldList["id"])
      let newList = try #require(newLists.first { $0["id"] == id }, "\(name): list \(id)")
      for (key, value) in try #require(oldList.objectValue) where key != "reminders" {
        #expect(newList[key] == value, "\(name): list \(id), \(key)")
      }
      let newReminders = try #require(newList["reminders"]?.arrayValue)
      let oldReminders = try #require(oldList["reminders"]?.arrayValue)
      #expect(oldReminders.count == newReminders.count, "\(name): list \(id)")
      for oldReminder in oldReminders {
        let uid = try #require(oldReminder["id"])
        let newReminder = try #require(newReminders.first { $0["id"] == uid }, "\(name): reminder \(uid)")
        for (key, value) in try #require(oldReminder.objectValue) {
          #expect(newReminder[key] == value, "\(name): reminder \(uid), \(key)")
        }
        compared += 1
      }
    }
    #expect(compared == remindersBefore.count && compared > 10)

    let database = try Database(path: bench.storePath, mode: .readOnly)
    defer { database.close() }
    // Every stored value kept but the kinds 0007 corrects.
    let remindersAfter = try FixtureStores.rows(of: "reminders", in: database)
    #expect(Set(remindersAfter.keys) == Set(remindersBefore.keys))
    for (id, before) in remindersBefore {
      let after = try #require(remindersAfter[id])
      for (column, value) in before where column != "due_kind" {
        #expect(after[column] == value, "\(name): reminder \(id), \(column)")
      }
      if before["due_kind"] == .text("zoned") {
        #expect(after["due_kind"] == .text("zoned"))
      } else {
        #expect(after["due_kind"] == FixtureStores.dueKind(of: before["due"]), "\(name): reminder \(id) due_kind")
      }
    }
    #expect(try FixtureStores.rows(of: "lists", in: database) == listsBefore)

    // Today's schema, object for object, and the history keeps what was recorded.
    #expect(try Self.schema(of: database) == Self.freshSchema())
    let historyAfter = try FixtureStores.rows(of: "remconv_migrations", in: database)
    for (rowID, row) in historyBefore { #expect(historyAfter[rowID] == row) }
    #expect(historyAfter.count == Migration.all.count)
    #expect(try StoreSnapshot.integrityProblems(database).isEmpty)
    #expect(try database.rows("PRAGMA foreign_key_check").isEmpty)
    #expect(try Store.migrationStatus(at: bench.storePath).state == .current)

    // And the store is writable by today's remconv: a list without a creation time (refused
    // by the NOT NULL of the earlier 0005) is stored.
    let added = bench.run(["list", "create", "Neu"])
    #expect(added.status == .ok, "\(added.errors)")
  }

  @Test func statusNamesTheEarlierReleasesAStoreRecorded() throws {
    let bench = TestBench()
    try FixtureStores.copy(Self.fixture("b99ed97"), into: bench.directory)
    let before = bench.run("migrate")
    #expect(before.status == .ok, "\(before.errors)")
    #expect(before.output.contains("state    behind: 7 steps pending"))
    #expect(
      before.output.contains(
        "0003_uids_timestamps_due_kind  2026-12-01T14:29:16.702Z  remconv 0.1.0  (earlier text: the text released in b99ed97"
      ))
    #expect(before.output.contains("0007_converge_earlier_releases brings it to today's schema)"))
    let json = try JSONParser.parse(bench.run("migrate status --json").output)
    let rows = try #require(json["applied"]?.arrayValue)
    #expect(rows.map { $0["earlierRelease"] != .null } == [false, false, true, false, true])
    #expect(bench.run("migrate up").status == .ok)
    let after = bench.run("migrate")
    #expect(after.output.contains("state    up to date"))
    #expect(after.output.contains("earlier text: the text released in b99ed97"))
  }

  @Test func misclassifiedDueKindsOfTheFirst0003AreCorrected() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy(Self.fixture("b99ed97-from-v0002"), into: directory)
    let kinds = "SELECT due, due_kind FROM reminders WHERE id BETWEEN 12 AND 17 ORDER BY id"
    let before = try FixtureStores.rows(of: "reminders", inFile: path)
    #expect(before[12]?["due_kind"] == .text("date") && before[13]?["due_kind"] == .text("utc"))
    let store = try Store(path: path)
    defer { store.close() }
    let rows = try store.database.rows(kinds).map { [$0.string(0), $0.string(1)] }
    #expect(
      rows == [
        ["tomorrow!!", nil], ["soon, Z", nil], ["2026-03-01T09:00+01:00", nil], ["2026-03-1", nil],
        ["2026-03-01T09:00:00z", nil], ["2026-03-02", "date"],
      ])
    #expect(try store.reminder(rowID: 12)?.reminder.extra["invalid"]?["dueDate"] == .string("tomorrow!!"))
  }

  @Test func theConvergingStepChangesNothingInAStoreOfTodaysSteps() throws {
    // A kind that does not match its text's shape is what the step corrects in the stores of
    // the first 0003; in a store that recorded today's 0003 it is left for validate to report.
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy(
      "v0006.sqlite", into: directory, editing: "UPDATE reminders SET due_kind = 'floating' WHERE due = 'next friday'")
    let remindersBefore = try FixtureStores.rows(of: "reminders", inFile: path)
    let listsBefore = try FixtureStores.rows(of: "lists", inFile: path)
    let store = try Store(path: path)
    defer { store.close() }
    #expect(
      store.upgradeReport?.applied == [
        "0007_converge_earlier_releases", "0008_view_index_columns", "0009_recurrence_alarms_start", "0010_sync_state",
        "0011_sync_discovery", "0012_leaner_reminder_indexes",
      ])
    // Every column as it was; 0008's derived columns are new, made from the row's own values,
    // and 0009's are empty.
    var remindersAfter = try FixtureStores.rows(of: "reminders", in: store.database)
    for (rowID, before) in remindersBefore {
      for (column, value) in FixtureStores.addedColumns(of: before) {
        #expect(remindersAfter[rowID]?[column] == value, "reminder \(rowID) \(column)")
        remindersAfter[rowID]?[column] = nil
      }
    }
    #expect(remindersAfter == remindersBefore)
    #expect(try FixtureStores.rows(of: "lists", in: store.database) == listsBefore)
    #expect(try Self.schema(of: store.database) == Self.freshSchema())
  }

  @Test func onlyTheListedEarlierChecksumsAreTrusted() throws {
    let directory = TemporaryDirectory()
    // The earlier 0005 checksum recorded for 0003 is no earlier release of 0003.
    let path = try FixtureStores.copy(
      Self.fixture("b99ed97"), into: directory,
      editing: """
        UPDATE remconv_migrations SET checksum = 'f8f3e87843bc59c6d8634a9380cf55266843bfd0aee1692fafbcc2ef23b8e988'
        WHERE id = '0003_uids_timestamps_due_kind'
        """)
    try expectUntouched(path) {
      let message = expectRemconvError("migrationTampered") { _ = try Store(path: path) }
      #expect(message.contains("0003_uids_timestamps_due_kind does not match"))
    }
  }

  @Test func theListedEarlierChecksumsAreThoseOfTheReleasedTexts() throws {
    // The earlier texts, as `git show COMMIT:Migrations/FILE` prints them.
    let folder = Repository.path("Tests/RemconvCoreTests/Fixtures/migrations/released")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sql") }.sorted()
    #expect(files.count == 4)
    var seen: Set<String> = []
    for file in files {
      // NNNN_name@commit.sql
      let parts = file.dropLast(4).split(separator: "@").map(String.init)
      let id = parts[0]
      let commit = parts[1]
      let checksum = Migration.checksum(of: try String(contentsOfFile: folder + "/" + file, encoding: .utf8))
      let reason = try #require(MigrationHistory.legacyReason(id: id, checksum: checksum), "\(file)")
      #expect(reason.contains(commit), "\(file): \(reason)")
      #expect(Migration.step(matching: id)?.checksum != checksum)
      seen.insert(checksum)
    }
    #expect(seen == Set(MigrationHistory.legacyChecksums.values.flatMap(\.keys)))
  }

  /// Every schema object but the history, as SQLite keeps it (without root pages).
  static func schema(of database: Database) throws -> [String] {
    try database.rows(
      "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE name <> 'remconv_migrations' AND name NOT LIKE 'sqlite_autoindex_remconv%' ORDER BY type, name"
    ).map { row in (0..<4).map { row.string($0) ?? "NULL" }.joined(separator: " | ") }
  }

  /// The schema of a store created by today's remconv.
  static func freshSchema() throws -> [String] {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("fresh.sqlite"))
    defer { store.close() }
    return try schema(of: store.database)
  }
}

import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// Stores remconv must not upgrade: written by a newer remconv, edited, foreign or damaged.
@Suite struct StoreStateTests {
  @Test func aNewerStoreIsReadButNeverWritten() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v9001-newer.sqlite", into: directory)
    try expectUntouched(path) {
      let store = try Store(path: path)
      defer { store.close() }
      #expect(store.isNewerThanThisVersion)
      #expect(store.upgradeReport == nil)
      #expect(try store.read { try store.lists().map(\.list.name) } == ["Einkäufe", "Arbeit"])
      #expect(try store.read { try store.reminder(rowID: 1)?.reminder.title } == "Milch (laktosefrei)")
      let message = expectRemconvError("storeTooNew") {
        try store.write { try store.database.run("DELETE FROM reminders") }
      }
      #expect(message.contains("9001_locations_and_attachments") && message.contains("remconv 0.3.0 or later"))
      // Even a write that skips the check cannot land: the connection is read-only.
      #expect(throws: (any Error).self) { try store.database.run("DELETE FROM reminders") }
      expectRemconvError("storeTooNew") { try store.migrate() }
    }
  }

  @Test func aNewerStoreThisVersionCannotReadIsRefusedClearly() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy(
      "v9001-newer.sqlite", into: directory, editing: "ALTER TABLE reminders RENAME COLUMN title TO summary")
    let store = try Store(path: path)
    defer { store.close() }
    let message = expectRemconvError("storeTooNew") { try store.read { try store.reminder(rowID: 1) } }
    #expect(message.contains("cannot read this store safely") && message.contains("remconv 0.3.0"))
  }

  @Test func anEditedStepStopsWithAClearMessage() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy(
      "v0004.sqlite", into: directory,
      editing: """
        UPDATE remconv_migrations SET checksum = 'b5bb9d8014a0f9b1d61e21e796d78dccdf1352f23cd32812f4850b878ae4944c'
        WHERE id = '0002_notes_and_priority'
        """)
    try expectUntouched(path) {
      let message = expectRemconvError("migrationTampered") { try Store(path: path) }
      #expect(message.contains("0002_notes_and_priority") && message.contains("b5bb9d8014a0"))
    }
    #expect(try Store.migrationStatus(at: path).state.name == "tampered")
  }

  @Test func aHistoryWithAGapIsTampered() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy(
      "v0004.sqlite", into: directory,
      editing: "DELETE FROM remconv_migrations WHERE id = '0003_uids_timestamps_due_kind'")
    #expect(expectRemconvError("migrationTampered") { try Store(path: path) }.contains("out of order"))
  }

  @Test func aChecksumIgnoresHowTheFileWasSaved() {
    for step in Migration.all {
      let windows = step.sql.replacingOccurrences(of: "\n", with: "  \r\n") + "\r\n\r\n"
      #expect(Migration.checksum(of: windows) == step.checksum, "\(step.id)")
    }
  }

  @Test func whatIsNotARemconvStoreIsLeftUntouched() throws {
    let directory = TemporaryDirectory()
    let text = directory.write("notes.sqlite", "Einkaufsliste: Milch, Brot\n")
    let other = directory.file("other.sqlite")
    let foreign = try Database(path: other, mode: .create)
    try foreign.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes VALUES (1, 'x');")
    foreign.close()
    let tagged = directory.file("tagged.sqlite")
    let application = try Database(path: tagged, mode: .create)
    try application.execute("PRAGMA application_id = 1179602244; CREATE TABLE t (x);")
    application.close()
    for path in [text, other, tagged] {
      try expectUntouched(path) {
        #expect(expectRemconvError("notAStore") { try Store(path: path) }.contains("untouched"), "\(path)")
      }
    }
  }

  @Test func aDamagedOlderStoreIsRefusedBeforeAnythingIsWritten() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0002.sqlite", into: directory)
    try FixtureStores.damagePage(of: "reminders", in: path)
    try expectUntouched(path) {
      let message = expectRemconvError("notAStore") { try Store(path: path) }
      #expect(message.contains("damaged") && message.contains("nothing was changed"), "\(message)")
    }
    #expect(MigrationBackup.list(for: path).isEmpty)
  }

  @Test func aDamagedStoreIsRefusedAsSuchThoughItsCopyIsCheckedFirst() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0002.sqlite", into: directory)
    try FixtureStores.damagePage(of: "reminders", in: path)
    var copies: [String] = []
    var options = Store.Options()
    options.backupCopied = { copies.append($0) }
    try expectUntouched(path) {
      let message = expectRemconvError("notAStore") { try Store(path: path, options: options) }
      #expect(
        message.hasPrefix("\(path): the store is damaged") && message.hasSuffix("; nothing was changed"),
        "\(message)")
    }
    #expect(copies.count == 1, "the page copy is what was checked first")
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(!left.contains { $0.contains(".backup-") }, "no backup and no partial copy: \(left)")
  }

  @Test func theStoreAsFoundIsCheckedWhenNoBackupIsTaken() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0002.sqlite", into: directory)
    try FixtureStores.damagePage(of: "reminders", in: path)
    var settings = Store.Options().migratorSettings
    settings.takesBackup = false
    settings.backupCopied = { Issue.record("no copy is taken: \($0)") }
    try expectUntouched(path) {
      let database = try Database(path: path)
      defer { database.close() }
      try database.registerRemconvFunctions()
      // SQLite stops the check at this damage (the store turns it into `notAStore`).
      let error = #expect(throws: SQLiteError.self) {
        try Migrator(database: database, path: path, settings: settings).migrate()
      }
      #expect(error?.isNotADatabase == true && "\(error.map { "\($0)" } ?? "")".contains("PRAGMA main.integrity_check"))
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { !$0.contains(".backup-") })
  }
}

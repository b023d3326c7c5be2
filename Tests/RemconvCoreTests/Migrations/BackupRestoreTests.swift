import Foundation
import Testing
@testable import RemconvCore
import RemconvTestSupport

@Suite struct BackupRestoreTests {
  /// A store upgraded from v0001, with the backup the upgrade took.
  private func upgradedStore(in directory: TemporaryDirectory) throws -> (store: String, backup: MigrationBackup) {
    let path = try FixtureStores.copy("v0001.sqlite", into: directory)
    let store = try Store(path: path)
    defer { store.close() }
    return (path, try #require(store.upgradeReport?.backup))
  }

  @Test func theBackupIsNamedVerifiedAndPrivate() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0002.sqlite", into: directory)
    var options = Store.Options()
    options.now = { Date(timeIntervalSince1970: 1_795_946_400) }  // 2026-11-29T10:00:00Z
    let store = try Store(path: path, options: options)
    store.close()
    let backup = try #require(MigrationBackup.list(for: path).first)
    #expect(backup.path == path + ".backup-0002-to-0006-20261129T100000Z.sqlite")
    #expect(try FixtureUpgradeTests.permissions(of: backup.path) == 0o600)
    let counts = try StoreSnapshot.tableCounts(try Database(path: FixtureStores.path("v0002.sqlite"), mode: .readOnly))
    try MigrationBackup.verify(backup.path, counts: counts)
    #expect(try Database(path: backup.path, mode: .readOnly).scalar("PRAGMA journal_mode") == .text("delete"), "a backup is one self-contained file")
    #expect(MigrationBackup.nextPath(for: path, from: 2, to: 6, at: options.now()) == path + ".backup-0002-to-0006-20261129T100000Z-2.sqlite")
  }

  @Test func upgradesKeepTheNewestThreeBackups() throws {
    let directory = TemporaryDirectory()
    let path = directory.file("store.sqlite")
    var removed: [String] = []
    for day in 1...5 {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
      try FixtureStores.copy("v0001.sqlite", into: directory)
      var options = Store.Options()
      options.now = { Date(timeIntervalSince1970: 1_795_946_400 + Double(day) * 86_400) }
      let store = try Store(path: path, options: options)
      removed += store.upgradeReport?.prunedBackups ?? []
      store.close()
    }
    let kept = MigrationBackup.list(for: path)
    #expect(kept.map(\.time) == ["20261202T100000Z", "20261203T100000Z", "20261204T100000Z"])
    #expect(removed.count == 2)
    #expect(removed.allSatisfy { !FileManager.default.fileExists(atPath: $0) })
  }

  @Test func aBackupLeftHalfWrittenIsRemovedByTheNextUpgrade() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0003.sqlite", into: directory)
    let stale = directory.write("store.sqlite.backup-0003-to-0005-20260101T000000Z.sqlite.partial", "half a copy")
    try Store(path: path).close()
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(MigrationBackup.list(for: path).count == 1)
  }

  @Test func aDamagedBackupIsDetected() throws {
    let directory = TemporaryDirectory()
    let (_, backup) = try upgradedStore(in: directory)
    let counts = try StoreSnapshot.tableCounts(try Database(path: backup.path, mode: .readOnly))

    let damaged = directory.file("damaged.sqlite")
    try FileManager.default.copyItem(atPath: backup.path, toPath: damaged)
    try FixtureStores.damagePage(of: "reminders", in: damaged)
    #expect(expectRemconvError("notAStore") { try MigrationBackup.verify(damaged, counts: counts) }.contains("damaged"))

    let truncated = directory.file("truncated.sqlite")
    let bytes = try Data(contentsOf: URL(fileURLWithPath: backup.path))
    try bytes.prefix(bytes.count - 4096).write(to: URL(fileURLWithPath: truncated))
    expectRemconvError("notAStore") { try MigrationBackup.verify(truncated, counts: counts) }

    let short = directory.file("short.sqlite")
    try FileManager.default.copyItem(atPath: backup.path, toPath: short)
    let database = try Database(path: short)
    try database.execute("DELETE FROM reminders WHERE id = 13")
    database.close()
    let mismatch = expectRemconvError("notAStore") { try MigrationBackup.verify(short, counts: counts) }
    #expect(mismatch.contains("reminders: 12 in the store, 11 in the backup"), "\(mismatch)")
  }

  @Test func restorePutsTheBackupBackAndSavesTheCurrentStore() throws {
    let directory = TemporaryDirectory()
    let (path, backup) = try upgradedStore(in: directory)
    let original = try FixtureStores.rows(of: "reminders", inFile: FixtureStores.path("v0001.sqlite"))
    // Something changes after the upgrade; the restore must keep it in the saved copy.
    let store = try Store(path: path)
    try store.write { try store.database.run("UPDATE reminders SET title = 'geändert' WHERE id = 1") }
    store.close()

    let report = try Store.restore(backup: backup.path, into: path)
    #expect(report.version == "0001_lists_and_reminders" && report.needsUpgrade)
    let previous = try #require(report.previous)
    #expect(!report.previousWasDamaged)
    #expect(previous.fromVersion == 6 && previous.toVersion == 1)
    #expect(try FixtureUpgradeTests.permissions(of: previous.path) == 0o600)
    #expect(try FixtureStores.rows(of: "reminders", inFile: path) == original)
    #expect(try FixtureStores.rows(of: "reminders", inFile: previous.path)[1]?["title"] == .text("geändert"))
    #expect(try Store.migrationStatus(at: path).state == .behind)
    // The next open upgrades the restored store again.
    let reopened = try Store(path: path)
    #expect(reopened.upgradeReport?.applied.count == 5)
    reopened.close()
  }

  @Test func restoreWorksWhileAnotherConnectionHasTheStoreOpen() throws {
    let directory = TemporaryDirectory()
    let (path, backup) = try upgradedStore(in: directory)
    let reader = try Store(path: path)
    defer { reader.close() }
    try reader.write { try reader.database.run("DELETE FROM reminders WHERE id = 2") }
    #expect(try reader.reminderCount() == 11)
    let before = try Store.restore(backup: backup.path, into: path)
    #expect(before.version == "0001_lists_and_reminders")
    #expect(try reader.read { try reader.database.scalar("SELECT count(*) FROM reminders") } == .integer(12))
  }

  @Test func restoreRefusesABackupItCannotTrust() throws {
    let directory = TemporaryDirectory()
    let (path, backup) = try upgradedStore(in: directory)
    let damaged = directory.file("damaged.sqlite")
    try FileManager.default.copyItem(atPath: backup.path, toPath: damaged)
    try FixtureStores.damagePage(of: "reminders", in: damaged)
    let tampered = directory.file("tampered.sqlite")
    try FileManager.default.copyItem(atPath: backup.path, toPath: tampered)
    let database = try Database(path: tampered)
    try database.execute("UPDATE remconv_migrations SET checksum = 'edited'")
    database.close()
    let text = directory.write("notes.sqlite", "not a database at all")

    try expectUntouched(path) {
      #expect(expectRemconvError("notAStore") { try Store.restore(backup: damaged, into: path) }.contains("damaged"))
      expectRemconvError("migrationTampered") { try Store.restore(backup: tampered, into: path) }
      expectRemconvError("notAStore") { try Store.restore(backup: text, into: path) }
      expectRemconvError("invalidInput") { try Store.restore(backup: path, into: path) }
      expectRemconvError("inputMissing") { try Store.restore(backup: directory.file("gone.sqlite"), into: path) }
    }
    #expect(MigrationBackup.list(for: path).count == 1, "a refused restore takes no copy of the store")
  }

  @Test func restoreReplacesADamagedStoreAndKeepsAPageCopyOfIt() throws {
    let directory = TemporaryDirectory()
    let (path, backup) = try upgradedStore(in: directory)
    try FixtureStores.damagePage(of: "reminders", in: path)
    #expect(throws: RemconvError.self) {
      let store = try Store(path: path)
      defer { store.close() }
      _ = try store.read { try store.reminder(rowID: 1) }
    }
    let report = try Store.restore(backup: backup.path, into: path)
    #expect(report.previousWasDamaged)
    let previous = try #require(report.previous)
    #expect(FileManager.default.fileExists(atPath: previous.path))
    #expect(try StoreSnapshot.integrityProblems(try Database(path: path, mode: .readOnly)).isEmpty)
    #expect(try FixtureStores.rows(of: "reminders", inFile: path).count == 12)
  }

  @Test func restoreCreatesAMissingStore() throws {
    let directory = TemporaryDirectory()
    let (_, backup) = try upgradedStore(in: directory)
    let target = directory.file("elsewhere/new.sqlite")
    let report = try Store.restore(backup: backup.path, into: target)
    #expect(report.previous == nil)
    #expect(try FixtureStores.rows(of: "lists", inFile: target) == FixtureStores.rows(of: "lists", inFile: backup.path))
  }
}

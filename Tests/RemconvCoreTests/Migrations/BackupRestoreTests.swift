import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

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
    #expect(backup.path == path + ".backup-0002-to-0012-20261129T100000Z.sqlite")
    #expect(try FixtureUpgradeTests.permissions(of: backup.path) == 0o600)
    let counts = try StoreSnapshot.tableCounts(try Database(path: FixtureStores.path("v0002.sqlite"), mode: .readOnly))
    try MigrationBackup.verify(backup.path, counts: counts)
    #expect(
      try Database(path: backup.path, mode: .readOnly).scalar("PRAGMA journal_mode") == .text("delete"),
      "a backup is one self-contained file")
    #expect(
      MigrationBackup.nextPath(for: path, from: 2, to: 12, at: options.now()) == path
        + ".backup-0002-to-0012-20261129T100000Z-2.sqlite")
  }

  @Test func theBackupIsTheStoreAsFoundPageForPage() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0002.sqlite", into: directory)
    // Free pages, which a rebuilt copy (VACUUM INTO) would drop: the check of a page copy is
    // the check of the store's own bytes.
    let writer = try Database(path: path)
    try writer.execute(
      """
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
      INSERT INTO reminders (id, list_id, title) SELECT 1000 + i, 1, hex(zeroblob(300)) FROM n;
      DELETE FROM reminders WHERE id > 1000;
      """)
    writer.close()
    let found = try Data(contentsOf: URL(fileURLWithPath: path))
    #expect(found.count > 4096 && found[36..<40].contains { $0 != 0 }, "the store has free pages")

    let store = try Store(path: path)
    store.close()
    let backup = try #require(MigrationBackup.list(for: path).first)
    let copy = try Data(contentsOf: URL(fileURLWithPath: backup.path))
    #expect(copy.count == found.count, "as many pages as the store, free ones included")
    // Only the file header's bookkeeping is the copy's own: the journal mode (18, 19), the
    // change counter (24...27), the schema cookie (40...43) and the version that wrote it
    // (92...99). Every other byte of every page is the store's.
    let bookkeeping = Set([18, 19] + Array(24...27) + Array(40...43) + Array(92...99))
    let differing = zip(found, copy).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
    #expect(Set(differing).isSubset(of: bookkeeping), "bytes that differ: \(differing.prefix(10))")
  }

  @Test func aCopyThatFailsItsCheckIsTheBackupsFailureAndNothingIsLeft() throws {
    let directory = TemporaryDirectory()
    let path = try FixtureStores.copy("v0002.sqlite", into: directory)
    var options = Store.Options()
    options.backupCopied = { copy in try FixtureStores.damagePage(of: "reminders", in: copy) }
    try expectUntouched(path) {
      let message = expectRemconvError("notAStore") { try Store(path: path, options: options) }
      #expect(message.contains(".partial: the backup is damaged"), "\(message)")
      #expect(!message.contains("the store is damaged"), "\(message)")
    }
    let left = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    #expect(!left.contains { $0.contains(".backup-") }, "\(left)")
    #expect(try Store.migrationStatus(at: path).version == "0002_notes_and_priority")
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
    #expect(previous.fromVersion == 12 && previous.toVersion == 1)
    #expect(try FixtureUpgradeTests.permissions(of: previous.path) == 0o600)
    #expect(try FixtureStores.rows(of: "reminders", inFile: path) == original)
    #expect(try FixtureStores.rows(of: "reminders", inFile: previous.path)[1]?["title"] == .text("geändert"))
    #expect(try Store.migrationStatus(at: path).state == .behind)
    // The next open upgrades the restored store again.
    let reopened = try Store(path: path)
    #expect(reopened.upgradeReport?.applied.count == 11)
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

  @Test func restoreMovesAStoreDamagedInsideAsideUntouched() throws {
    let directory = TemporaryDirectory()
    let (path, backup) = try upgradedStore(in: directory)
    try FixtureStores.damagePage(of: "reminders", in: path)
    #expect(throws: RemconvError.self) {
      let store = try Store(path: path)
      defer { store.close() }
      _ = try store.read { try store.reminder(rowID: 1) }
    }
    try expectRestoredOverDamage(path, backup: backup, reason: nil)
  }

  @Test func restoreMovesATruncatedStoreAside() throws {
    let directory = TemporaryDirectory()
    let (path, backup) = try upgradedStore(in: directory)
    let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: UInt64(size / 3))
    try handle.close()
    try expectRestoredOverDamage(path, backup: backup, reason: nil)
  }

  @Test func restoreMovesAStoreWithADamagedHeaderAsideWithItsWALAndSHM() throws {
    let directory = TemporaryDirectory()
    let (path, backup) = try upgradedStore(in: directory)
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    try handle.write(contentsOf: Data(repeating: 0, count: 16))
    try handle.close()
    // What a crash can leave beside it: they belong to the damaged store and go with it.
    _ = directory.write("store.sqlite-wal", "wal of the damaged store")
    _ = directory.write("store.sqlite-shm", "shm of the damaged store")
    let report = try expectRestoredOverDamage(path, backup: backup, reason: "header")
    #expect(report.movedAside.count == 3)
    let companions = try report.movedAside.dropFirst().map { try String(contentsOfFile: $0, encoding: .utf8) }
    #expect(companions == ["wal of the damaged store", "shm of the damaged store"])
    #expect(
      report.movedAside.dropFirst().map {
        $0.hasSuffix(".damaged-20261129T100000Z.sqlite-wal") || $0.hasSuffix(".damaged-20261129T100000Z.sqlite-shm")
      } == [true, true])
  }

  /// Restores `backup` over the damaged store at `path` and checks that the store was moved
  /// aside byte for byte, that the backup is in place, and what the report says.
  @discardableResult
  private func expectRestoredOverDamage(
    _ path: String, backup: MigrationBackup, reason: String?, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws -> RestoreReport {
    let damagedBytes = try FixtureStores.digest(path)
    var options = Store.Options()
    options.now = { Date(timeIntervalSince1970: 1_795_946_400) }  // 2026-11-29T10:00:00Z
    let report = try Store.restore(backup: backup.path, into: path, options: options)
    #expect(report.previousWasDamaged && report.previous == nil, sourceLocation: sourceLocation)
    if let reason {
      #expect(report.damage?.contains(reason) == true, "\(report.damage ?? "")", sourceLocation: sourceLocation)
    }
    let moved = try #require(report.movedAside.first, sourceLocation: sourceLocation)
    #expect(moved == path + ".damaged-20261129T100000Z.sqlite", sourceLocation: sourceLocation)
    #expect(try FixtureStores.digest(moved) == damagedBytes, "moved aside untouched", sourceLocation: sourceLocation)
    #expect(
      try StoreSnapshot.integrityProblems(try Database(path: path, mode: .readOnly)).isEmpty,
      sourceLocation: sourceLocation)
    #expect(
      try FixtureStores.rows(of: "reminders", inFile: path) == FixtureStores.rows(of: "reminders", inFile: backup.path),
      sourceLocation: sourceLocation)
    #expect(try Store.migrationStatus(at: path).version == "0001_lists_and_reminders", sourceLocation: sourceLocation)
    return report
  }

  @Test func restoreRefusesToReplaceAnotherApplicationsDatabase() throws {
    let directory = TemporaryDirectory()
    let (_, backup) = try upgradedStore(in: directory)
    for applicationID in [0, 0x4D41_494C] {
      let path = directory.file("other-\(applicationID).sqlite")
      let other = try Database(path: path, mode: .create)
      _ = try other.scalar("PRAGMA journal_mode = WAL")
      try other.execute(
        "PRAGMA application_id = \(applicationID); CREATE TABLE mail (id INTEGER PRIMARY KEY, subject TEXT); INSERT INTO mail (subject) VALUES ('hello')"
      )
      other.close()
      try expectUntouched(path) {
        expectRemconvError("notAStore") { try Store.restore(backup: backup.path, into: path) }
      }
      #expect(MigrationBackup.list(for: path).isEmpty && !FileManager.default.fileExists(atPath: path + ".damaged"))
    }
  }

  @Test func restoreRefusesToReplaceAStoreOfANewerRemconv() throws {
    let directory = TemporaryDirectory()
    let (_, backup) = try upgradedStore(in: directory)
    let path = try FixtureStores.copy("v9001-newer.sqlite", into: directory, as: "newer.sqlite")
    try expectUntouched(path) {
      let message = expectRemconvError("storeTooNew") { try Store.restore(backup: backup.path, into: path) }
      #expect(message.contains("9001_locations_and_attachments") && message.contains("left untouched"))
    }
    #expect(MigrationBackup.list(for: path).isEmpty)
  }

  @Test func restoreRefusesAForeignOrNewerBackup() throws {
    let directory = TemporaryDirectory()
    let (path, _) = try upgradedStore(in: directory)
    let foreign = directory.file("foreign.sqlite")
    let other = try Database(path: foreign, mode: .create)
    _ = try other.scalar("PRAGMA journal_mode = WAL")
    try other.execute(
      "CREATE TABLE mail (id INTEGER PRIMARY KEY, subject TEXT); INSERT INTO mail (subject) VALUES ('hello')")
    other.close()
    let newer = try FixtureStores.copy("v9001-newer.sqlite", into: directory, as: "newer-backup.sqlite")
    try expectUntouched(path) {
      expectRemconvError("notAStore") { try Store.restore(backup: foreign, into: path) }
      expectRemconvError("storeTooNew") { try Store.restore(backup: newer, into: path) }
    }
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

import Foundation

/// What `remconv migrate restore` did.
public struct RestoreReport: Sendable {
  public let store: String
  /// The backup put back.
  public let backup: String
  /// The step the restored store is at.
  public let version: String?
  /// The copy of the store as it was before the restore (nil when there was no store).
  public var previous: MigrationBackup?
  /// True when the store before the restore was damaged: it was moved aside untouched
  /// (`movedAside`), or, when the damage showed only while copying, saved page for page.
  public var previousWasDamaged = false
  /// Why the store before the restore counted as damaged.
  public var damage: String?
  /// Where the damaged store and its `-wal` and `-shm` were moved, untouched.
  public var movedAside: [String] = []
  /// True when the restored store is older than this remconv: the next command upgrades it.
  public var needsUpgrade = false

  public var json: JSONValue {
    .object([
      "store": .string(store),
      "restoredFrom": .string(backup),
      "version": version.map(JSONValue.string) ?? .null,
      "previous": previous.map { .string($0.path) } ?? .null,
      "previousWasDamaged": .bool(previousWasDamaged),
      "damage": damage.map(JSONValue.string) ?? .null,
      "movedAside": .array(movedAside.map(JSONValue.string)),
      "needsUpgrade": .bool(needsUpgrade),
    ])
  }
}

extension Store {
  /// Puts the backup at `backupPath` back as the store at `storePath`.
  ///
  /// 1. The backup is verified first: a SQLite file, `integrity_check` ok, a remconv store
  ///    whose history this remconv trusts and can write (not tampered, not newer).
  /// 2. The current store is examined without writing: another application's database is
  ///    refused (`notAStore`), like every command refuses it, and so is a store written by a
  ///    newer remconv (`storeTooNew`): restoring over it would drop what that remconv wrote. A
  ///    damaged store (its header is not SQLite's, it is truncated, or `integrity_check` fails)
  ///    is moved aside untouched, with its `-wal` and `-shm`, to
  ///    `<store>.damaged-<UTC time>.sqlite`: SQLite cannot open it reliably enough to copy
  ///    into it, and what is left of it stays for recovery.
  /// 3. The copy into the store goes through SQLite's online backup API on a connection to the
  ///    live store (`Database.replaceContents`), whose first page takes the store's write lock.
  /// 4. Under that lock the current store is saved as a backup like an upgrade's (verified;
  ///    page for page and flagged when it turns out damaged only now), so a restore can itself
  ///    be undone.
  /// 5. The copy completes and commits; the store is reopened read-only and must pass
  ///    `integrity_check` with the backup's row counts.
  public static func restore(
    backup backupPath: String, into storePath: String, options: Options = Options()
  ) throws -> RestoreReport {
    let backupURL = URL(fileURLWithPath: backupPath).resolvingSymlinksInPath()
    if backupURL.path == URL(fileURLWithPath: storePath).resolvingSymlinksInPath().path {
      throw RemconvError.invalidInput("\(backupPath): that is the store itself, not a backup of it")
    }
    guard FileManager.default.fileExists(atPath: backupPath) else {
      throw RemconvError.inputMissing("\(backupPath): no such backup")
    }
    if try prepareFile(at: backupPath, readOnly: true) {
      throw RemconvError.notAStore("\(backupPath): the backup is empty")
    }
    try MigrationBackup.verify(backupPath, counts: nil)
    let source = try connect(backupPath, readOnly: true, options: options)
    defer { source.close() }
    let status: MigrationStatus
    let counts: [String: Int]
    do {
      status = try MigrationHistory(database: source, path: backupPath, steps: options.migrations).status()
      counts = try StoreSnapshot.tableCounts(source)
    } catch let error as SQLiteError {
      throw RemconvError.notAStore("\(backupPath): the backup cannot be read: \(error.message)")
    }
    switch status.state {
    case .tampered(let reason): throw RemconvError.migrationTampered("the backup is not trusted: \(reason)")
    case .newer: throw RemconvError.storeTooNew("\(backupPath): \(status.newerDescription)")
    case .empty: throw RemconvError.notAStore("\(backupPath): the backup holds no remconv store")
    case .current, .behind: break
    }

    var report = RestoreReport(store: storePath, backup: backupPath, version: status.version)
    if case .damaged(let reason) = try examineCurrent(storePath, options: options) {
      report.movedAside = try moveAside(storePath, at: options.now())
      report.previousWasDamaged = true
      report.damage = reason
    }
    let storeIsNew = try prepareFile(at: storePath, readOnly: false)
    let live = try connect(storePath, readOnly: false, options: options)
    do {
      try live.replaceContents(with: source) {
        guard !storeIsNew else { return }
        (report.previous, report.previousWasDamaged) = try saveCurrent(
          storePath, toVersion: status.versionNumber, options: options)
      }
      // A backup is a rollback-journal file, and so is a store made from it: WAL, as remconv
      // keeps every store, lets readers (and the next restore's safety copy) read while a
      // writer holds the lock.
      _ = try live.scalar("PRAGMA journal_mode = WAL")
    } catch let error as SQLiteError {
      live.close()
      throw translate(error, path: storePath)
    }
    live.close()

    let check = try connect(storePath, readOnly: true, options: options)
    defer { check.close() }
    do {
      let problems = try StoreSnapshot.integrityProblems(check)
      let restored = try StoreSnapshot.tableCounts(check)
      guard problems.isEmpty, restored == counts else {
        let saved = report.previous.map { "; the previous store is saved at \($0.path)" } ?? ""
        throw RemconvError.ioFailure(
          "\(storePath): the restored store does not match the backup (\((problems.first ?? "row counts differ")))\(saved)"
        )
      }
    } catch let error as SQLiteError {
      throw translate(error, path: storePath)
    }
    report.needsUpgrade = status.state == .behind
    return report
  }

  /// What a restore finds at the store's path.
  private enum CurrentStore {
    case missing, healthy
    case damaged(String)
  }

  /// Classifies the store a restore would replace, reading only. Throws for what must not be
  /// replaced: another application's database, a store of a newer remconv, a directory.
  private static func examineCurrent(_ storePath: String, options: Options) throws -> CurrentStore {
    var info = stat()
    guard stat(storePath, &info) == 0 else {
      guard errno == ENOENT else {
        throw RemconvError.ioFailure("\(storePath): \(String(cString: strerror(errno)).lowercased())")
      }
      return .missing
    }
    if (info.st_mode & S_IFMT) == S_IFDIR { throw RemconvError.notAStore("\(storePath): is a directory, not a store") }
    if info.st_size == 0 { return .missing }
    do {
      _ = try prepareFile(at: storePath, readOnly: true)
    } catch {
      // Only a header that is not SQLite's counts as damage; a file remconv cannot read is left.
      guard case .notAStore = error else { throw error }
      return .damaged("its header is not a SQLite header")
    }
    let reader = try connect(storePath, readOnly: true, options: options)
    defer { reader.close() }
    do {
      let status = try MigrationHistory(database: reader, path: storePath, steps: options.migrations).status()
      if status.state == .newer {
        throw RemconvError.storeTooNew(
          "\(storePath): \(status.newerDescription); restoring a backup over it would drop what that remconv wrote, so it is left untouched"
        )
      }
      let problems = try StoreSnapshot.integrityProblems(reader)
      return problems.isEmpty ? .healthy : .damaged("integrity_check: \(problems.prefix(3).joined(separator: "; "))")
    } catch let error as SQLiteError {
      if error.isBusy { throw translate(error, path: storePath) }
      return .damaged(error.message)
    }
  }

  /// Renames the damaged store and its `-wal` and `-shm`, untouched, to
  /// `<store>.damaged-<UTC time>.sqlite` (`-2`, `-3`… when taken) and the same name with
  /// `-wal`, `-shm`; never replaces a file. Returns the new paths, the store's first.
  private static func moveAside(_ storePath: String, at date: Date) throws -> [String] {
    let base = storePath + ".damaged-" + MigrationBackup.fileTime(date)
    let suffixes = ["", "-wal", "-shm"]
    var target = base + ".sqlite"
    var sequence = 2
    while suffixes.contains(where: { FileManager.default.fileExists(atPath: target + $0) }) {
      target = base + "-\(sequence).sqlite"
      sequence += 1
    }
    var moved: [String] = []
    for suffix in suffixes where FileManager.default.fileExists(atPath: storePath + suffix) {
      guard rename(storePath + suffix, target + suffix) == 0 else {
        let reason = String(cString: strerror(errno)).lowercased()
        throw RemconvError.ioFailure(
          "\(storePath)\(suffix): the damaged store cannot be moved aside (\(reason)); nothing was restored"
            + (moved.isEmpty ? "" : " (already moved: \(moved.joined(separator: ", ")))"))
      }
      moved.append(target + suffix)
    }
    try MigrationBackup.syncDirectory(of: storePath)
    return moved
  }

  /// Saves the store as it is (under the caller's write lock) before a restore replaces it.
  private static func saveCurrent(
    _ storePath: String, toVersion: Int, options: Options
  ) throws -> (MigrationBackup, damaged: Bool) {
    let reader = try connect(storePath, readOnly: true, options: options)
    defer { reader.close() }
    var fromVersion = 0
    var counts: [String: Int]?
    do {
      let status = try MigrationHistory(database: reader, path: storePath, steps: options.migrations).status()
      fromVersion = status.versionNumber
      if try StoreSnapshot.integrityProblems(reader).isEmpty {
        counts = try StoreSnapshot.tableCounts(reader)
      }
    } catch {
      counts = nil  // damaged or not a remconv store: keep a page-for-page copy
    }
    if let counts {
      let backup = try MigrationBackup.take(
        of: storePath, counts: counts, from: fromVersion, to: toVersion, at: options.now(),
        busyTimeoutMilliseconds: options.busyTimeoutMilliseconds)
      return (backup, false)
    }
    let path = MigrationBackup.nextPath(for: storePath, from: fromVersion, to: toVersion, at: options.now())
    try MigrationBackup.createPrivateFile(path)
    do {
      try reader.backup(to: path)
      try MigrationBackup.syncFile(path)
      try MigrationBackup.syncDirectory(of: path)
    } catch {
      try? FileManager.default.removeItem(atPath: path)
      throw RemconvError.ioFailure(
        "\(path): the store could not be saved before the restore: \(error); nothing was changed")
    }
    guard let backup = MigrationBackup.list(for: storePath).first(where: { $0.path == path }) else {
      throw RemconvError.ioFailure("\(path): the copy of the store vanished after it was written; nothing was changed")
    }
    return (backup, true)
  }
}

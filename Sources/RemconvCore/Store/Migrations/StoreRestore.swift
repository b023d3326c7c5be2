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
  /// True when the store before the restore was damaged: its copy is page for page, unverified.
  public var previousWasDamaged = false
  /// True when the restored store is older than this remconv: the next command upgrades it.
  public var needsUpgrade = false

  public var json: JSONValue {
    .object([
      "store": .string(store),
      "restoredFrom": .string(backup),
      "version": version.map(JSONValue.string) ?? .null,
      "previous": previous.map { .string($0.path) } ?? .null,
      "previousWasDamaged": .bool(previousWasDamaged),
      "needsUpgrade": .bool(needsUpgrade),
    ])
  }
}

extension Store {
  /// Puts the backup at `backupPath` back as the store at `storePath`.
  ///
  /// 1. The backup is verified first: a SQLite file, `integrity_check` ok, a remconv store
  ///    whose history this remconv trusts and can write (not tampered, not newer).
  /// 2. The copy into the store goes through SQLite's online backup API on a connection to the
  ///    live store (`Database.replaceContents`), whose first page takes the store's write lock.
  /// 3. Under that lock the current store is saved as a backup like an upgrade's (verified;
  ///    page for page and flagged when the store is damaged, since that is when a restore is
  ///    needed), so a restore can itself be undone.
  /// 4. The copy completes and commits; the store is reopened read-only and must pass
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

    let storeIsNew = try prepareFile(at: storePath, readOnly: false)
    let live = try connect(storePath, readOnly: false, options: options)
    var report = RestoreReport(store: storePath, backup: backupPath, version: status.version)
    do {
      try live.replaceContents(with: source) {
        guard !storeIsNew else { return }
        (report.previous, report.previousWasDamaged) = try saveCurrent(
          storePath, toVersion: status.versionNumber, options: options)
      }
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
          "\(storePath): the restored store does not match the backup (\((problems.first ?? "row counts differ")))\(saved)")
      }
    } catch let error as SQLiteError {
      throw translate(error, path: storePath)
    }
    report.needsUpgrade = status.state == .behind
    return report
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
      throw RemconvError.ioFailure("\(path): the store could not be saved before the restore: \(error); nothing was changed")
    }
    guard let backup = MigrationBackup.list(for: storePath).first(where: { $0.path == path }) else {
      throw RemconvError.ioFailure("\(path): the copy of the store vanished after it was written; nothing was changed")
    }
    return (backup, true)
  }
}

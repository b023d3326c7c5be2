import Foundation

/// Brings a store's schema forward, the whole upgrade in one transaction.
///
/// The run protocol (docs/migrations.md, after migrations.md §5.8):
/// 1. foreign keys off (before BEGIN: the pragma is a no-op inside a transaction, trap T1);
/// 2. `BEGIN IMMEDIATE`: the write lock, held until COMMIT, so the history is read and the
///    steps applied by one process only; a second one waits for the busy timeout;
/// 3. the history is read again under the lock: a process that waited finds the store up to
///    date and does nothing;
/// 4. `integrity_check`, the counts and the findings before anything changes; the preflight
///    (duplicate list names with `--on-duplicate fail` stop here); free space;
/// 5. a verified backup next to the store (`MigrationBackup.take`);
/// 6. each step in a SAVEPOINT: preflight actions, its SQL, then `quick_check`, row counts,
///    per-list reminders and the findings, compared with those before the step; anything the
///    step introduced rolls the whole upgrade back and names the step; the history row;
/// 7. `integrity_check` of the result (indexes against tables, UNIQUE constraints), the
///    counts and findings against those before the first step; `user_version` and
///    `application_id`, COMMIT, foreign keys on, old backups pruned.
///
/// The full `integrity_check` runs on the store as found, on the backup and on the result, and
/// `quick_check` between steps (migrations.md §5.3): the full check costs a lookup per row and
/// index, and after every step it was more than half of an upgrade's time (docs/migrations.md,
/// "Cost"). What it adds to `quick_check` (an index that disagrees with its table, a UNIQUE
/// constraint broken) stays inside the transaction until the final check, which rolls the whole
/// upgrade back.
struct Migrator {
  struct Settings {
    var steps: [Migration] = Migration.all
    var policy: DuplicateNamePolicy = .rename
    var backupsKept = MigrationBackup.defaultKept
    var busyTimeoutMilliseconds: Int32 = 10_000
    var now: () -> Date = Date.init
    var pause = MigrationTestPause(point: nil)
    /// Off only for a private copy of a read-only store (`Store.Options.readThroughUpgradedCopy`):
    /// the store itself, untouched, is what a backup would hold.
    var takesBackup = true
  }

  let database: Database
  let path: String
  let settings: Settings

  var history: MigrationHistory { MigrationHistory(database: database, path: path, steps: settings.steps) }

  /// The steps an upgrade to `target` (an id or a number; nil: the head) would apply.
  func steps(for status: MigrationStatus, upTo target: String?) throws -> [Migration] {
    guard let target else { return status.pending }
    guard let step = Migration.step(matching: target, in: settings.steps) else {
      let known = settings.steps.map(\.id).joined(separator: ", ")
      throw RemconvError.invalidInput("--to \(target): no such migration; this remconv knows \(known)")
    }
    if status.versionNumber > step.number {
      throw RemconvError.conflict(
        "\(path): the store is at \(status.version ?? "nothing"), past \(step.id); migrations only run forward (restore a backup to go back: remconv migrate restore BACKUP)"
      )
    }
    return status.pending.filter { $0.number <= step.number }
  }

  /// What an upgrade would do, read without taking the lock or changing anything.
  func plan(upTo target: String?) throws -> MigrationPlan {
    let status = try history.status()
    var plan = MigrationPlan(status: status, policy: settings.policy)
    switch status.state {
    case .tampered(let reason): throw RemconvError.migrationTampered(reason)
    case .newer: throw RemconvError.storeTooNew("\(path): \(status.newerDescription)")
    case .empty, .current, .behind: break
    }
    plan.steps = try steps(for: status, upTo: target)
    guard !plan.steps.isEmpty else { return plan }
    let integrity = try StoreSnapshot.integrityProblems(database)
    if !integrity.isEmpty {
      throw RemconvError.notAStore(
        "\(path): the store is damaged (integrity_check: \(integrity.prefix(3).joined(separator: "; "))); an upgrade would refuse it"
      )
    }
    plan.preflight = try Preflight.findings(in: database, plan: plan.steps, policy: settings.policy)
    plan.preexisting = Self.preexisting(try StoreSnapshot.capture(database), preflight: plan.preflight)
    if status.state != .empty, let last = plan.steps.last {
      plan.backupPath = MigrationBackup.nextPath(
        for: path, from: status.versionNumber, to: last.number, at: settings.now())
      plan.blockers += try spaceBlockers()
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      if access(directory, W_OK) != 0 {
        plan.blockers.append("\(directory): not writable: the backup cannot be written there")
      }
      if access(path, W_OK) != 0 {
        plan.blockers.append("\(path): the store is read-only: the upgrade cannot be written")
      }
    }
    if settings.policy == .fail, !plan.preflight.duplicates.isEmpty {
      plan.blockers.append(duplicateRefusal(plan.preflight))
    }
    return plan
  }

  /// Applies the pending steps up to `target` (nil: the head). See the type's summary.
  func migrate(upTo target: String? = nil) throws -> MigrationReport {
    try database.execute("PRAGMA foreign_keys = OFF")
    defer { try? database.execute("PRAGMA foreign_keys = ON") }
    // The checks read every table after every step: a page cache that holds the store keeps
    // them off the disk.
    return try database.withPageCache(mebibytes: 64) { try migrateUnderLock(upTo: target) }
  }

  private func migrateUnderLock(upTo target: String?) throws -> MigrationReport {
    var backup: MigrationBackup?
    let busy =
      "\(path): the store is being upgraded or written by another remconv (waited \(Self.duration(milliseconds: settings.busyTimeoutMilliseconds))); try again"
    do {
      var report = try database.inTransaction(
        .immediate,
        beginFailure: { $0.isBusy ? RemconvError.storeBusy(busy) : $0 as any Error },
        { try migrateLocked(upTo: target, backup: &backup) })
      guard !report.applied.isEmpty else { return report }
      settings.pause.reached("commit")
      if backup != nil {
        report.prunedBackups = MigrationBackup.prune(for: path, keeping: settings.backupsKept)
      }
      return report
    } catch {
      guard let backup, case .migrationFailed(let message) = error as? RemconvError else { throw error }
      throw RemconvError.migrationFailed("\(message) (the backup \(backup.path) is kept)")
    }
  }

  private func migrateLocked(upTo target: String?, backup: inout MigrationBackup?) throws -> MigrationReport {
    // foreign_keys cannot change inside the transaction: make sure no step can cascade.
    guard try database.scalar("PRAGMA foreign_keys") == .integer(0) else {
      throw RemconvError.migrationFailed("\(path): foreign keys are still on inside the upgrade; nothing was changed")
    }
    // Read again under the lock: another process may have upgraded the store meanwhile.
    let status = try history.status()
    switch status.state {
    case .tampered(let reason): throw RemconvError.migrationTampered(reason)
    case .newer: throw RemconvError.storeTooNew("\(path): \(status.newerDescription)")
    case .empty, .current, .behind: break
    }
    let plan = try steps(for: status, upTo: target)
    var report = MigrationReport(store: path, from: status.version, to: status.version)
    // Nothing to apply: the transaction only read, and ends so.
    guard let last = plan.last else { return report }
    let isNewStore = status.state == .empty
    let integrity = try StoreSnapshot.integrityProblems(database)
    if !integrity.isEmpty {
      throw RemconvError.notAStore(
        "\(path): the store is damaged (integrity_check: \(integrity.prefix(3).joined(separator: "; "))); nothing was changed"
      )
    }
    let baseline = try StoreSnapshot.capture(database)
    let preflight = try Preflight.findings(in: database, plan: plan, policy: settings.policy)
    report.preexisting = Self.preexisting(baseline, preflight: preflight)
    if settings.policy == .fail, !preflight.duplicates.isEmpty {
      throw RemconvError.migrationFailed(duplicateRefusal(preflight))
    }
    if !isNewStore, settings.takesBackup {
      // Checked before the backup: an upgrade that cannot be written must leave nothing behind
      // (a cron job on a read-only store would otherwise add a full backup at every run).
      if let blocker = writeBlocker(from: status, to: last) { throw RemconvError.ioFailure(blocker) }
      if let blocker = try spaceBlockers().first { throw RemconvError.ioFailure(blocker) }
      backup = try MigrationBackup.take(
        of: path, counts: baseline.tableCounts, from: status.versionNumber, to: last.number,
        at: settings.now(), busyTimeoutMilliseconds: settings.busyTimeoutMilliseconds)
      report.backup = backup
    }
    settings.pause.reached("0")
    try database.execute(MigrationHistory.createTable)
    var before = baseline
    var mergedInAll: [Int64: Int64] = [:]
    for step in plan {
      let refused = Migration.lint(step.sql)
      if !refused.isEmpty {
        throw RemconvError.migrationFailed(
          "\(path): migration \(step.id) contains \(refused.joined(separator: ", ")), which migrations may not; the upgrade was rolled back, the store is unchanged"
        )
      }
      let savepoint = "remconv_step_\(step.number)"
      try database.execute("SAVEPOINT \(savepoint)")
      var merged: [Int64: Int64] = [:]
      if step.id == preflight.step {
        merged = try Preflight.apply(preflight.actions, in: database)
        report.preflight = preflight.actions
        mergedInAll.merge(merged) { first, _ in first }
      }
      do {
        try database.execute(step.sql)
      } catch {
        throw RemconvError.migrationFailed(
          "\(path): migration \(step.id) failed: \(error.message); the upgrade was rolled back, the store is unchanged")
      }
      guard database.isInTransaction else {
        throw RemconvError.migrationFailed("\(path): migration \(step.id) ended the upgrade's transaction")
      }
      let after = try StoreSnapshot.capture(database)
      let problems =
        try StoreSnapshot.integrityProblems(database, check: .quick).map { "quick_check: \($0)" }
        + after.problems(since: before, merged: merged)
      if !problems.isEmpty {
        throw RemconvError.migrationFailed(
          "\(path): migration \(step.id) would break the store: \(problems.prefix(10).joined(separator: "; ")); the upgrade was rolled back, the store is unchanged"
        )
      }
      try history.record(step, at: settings.now())
      try database.execute("RELEASE \(savepoint)")
      before = after
      settings.pause.reached(String(step.number))
    }
    // The steps one by one were fine; the whole run must be too (a row lost in one step and
    // re-added in another would pass both), and the full integrity_check the steps skipped.
    let overall =
      try StoreSnapshot.integrityProblems(database).map { "integrity_check: \($0)" }
      + before.problems(since: baseline, merged: mergedInAll)
    if !overall.isEmpty {
      throw RemconvError.migrationFailed(
        "\(path): the upgrade to \(last.id) would break the store: \(overall.prefix(10).joined(separator: "; ")); it was rolled back, the store is unchanged"
      )
    }
    try database.execute("PRAGMA user_version = \(last.number)")
    try database.execute("PRAGMA application_id = \(Store.applicationID)")
    report.applied = plan.map(\.id)
    report.to = last.id
    return report
  }

  /// A wait as people say it: milliseconds below a second (`300 ms`), else seconds with at
  /// most one decimal (`1.5 s`, `10 s`).
  static func duration(milliseconds: Int32) -> String {
    guard milliseconds >= 1000 else { return "\(milliseconds) ms" }
    let tenths = (Int(milliseconds) + 50) / 100
    return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
  }

  /// The findings the store had before the upgrade, less the colliding names the preflight
  /// deals with (they are shown as the preflight's groups and actions instead).
  private static func preexisting(_ snapshot: StoreSnapshot, preflight: PreflightFindings) -> [IntegrityFinding] {
    snapshot.findings.filter { preflight.step == nil || $0.kind != .duplicateListName }.sorted()
  }

  /// Why the upgrade cannot write the store, or nil: SQLite opened it for reading only (the
  /// file or its file system is read-only).
  private func writeBlocker(from status: MigrationStatus, to last: Migration) -> String? {
    guard database.isReadOnly else { return nil }
    return "\(path): the store is read-only and needs an upgrade from \(status.version ?? "nothing") to \(last.id), "
      + "which cannot be written; nothing was changed and no backup was taken. Make it writable, or copy it and "
      + "use the copy (remconv --store COPY ...)"
  }

  /// Refuses an upgrade the disk cannot hold: the backup, plus as much again for the journal
  /// of the steps (a table rebuild copies the table).
  private func spaceBlockers() throws -> [String] {
    guard case .integer(let pages) = try database.scalar("PRAGMA page_count"),
      case .integer(let pageSize) = try database.scalar("PRAGMA page_size"),
      let free = MigrationBackup.freeBytes(near: path)
    else { return [] }
    let needed = 2 * pages * pageSize + (1 << 20)
    guard free < needed else { return [] }
    return [
      "\(path): not enough free space for the backup and the upgrade (needs about \(needed >> 20) MiB, \(free >> 20) MiB free); nothing was changed"
    ]
  }

  private func duplicateRefusal(_ preflight: PreflightFindings) -> String {
    "\(path): the upgrade makes list names unique, and \(preflight.duplicates.count) group(s) collide: "
      + preflight.duplicateDescriptions.joined(separator: "; ")
      + "; nothing was changed (choose --on-duplicate rename or merge, or rename the lists with an older remconv)"
  }
}

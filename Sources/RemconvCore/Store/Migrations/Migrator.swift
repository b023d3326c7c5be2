import Foundation

/// Brings a store's schema forward, the whole upgrade in one transaction.
///
/// The run protocol (docs/migrations.md, after migrations.md §5.8):
/// 1. foreign keys off (before BEGIN: the pragma is a no-op inside a transaction, trap T1);
/// 2. `BEGIN IMMEDIATE`: the write lock, held until COMMIT, so the history is read and the
///    steps applied by one process only; a second one waits for the busy timeout;
/// 3. the history is read again under the lock: a process that waited finds the store up to
///    date and does nothing;
/// 4. a page copy of the store beside it, synced, that must pass the full `integrity_check`
///    (`MigrationBackup.copy`): being the store's own pages, its check is the store's; only when
///    it fails is the store checked itself, and a damaged store is refused as before, nothing
///    written and no copy left. Without a backup (a new store, `takesBackup` off) or when the
///    upgrade cannot be written (read-only, too little space), the store itself is checked;
/// 5. the counts and the findings before anything changes; the preflight (duplicate list names
///    with `--on-duplicate fail` stop here); the copy must hold the store's row counts and
///    becomes the backup (`Copy.keep`);
/// 6. each step in a SAVEPOINT: preflight actions, its SQL, then the invariants: row counts and
///    per-list reminders (count and sum of row ids), compared with those before the step; a step
///    that lost, moved or swapped a row is found here; the history row;
/// 7. once, after the last step: the full `integrity_check`, the findings (orphans, foreign
///    keys, colliding names) and the counts against the store as found. When any check fails,
///    the steps run again from the start, each followed by `quick_check`, the counts and the
///    findings, so that the message names the step that broke the store; the whole upgrade is
///    rolled back either way;
/// 8. `user_version` and `application_id`, COMMIT, foreign keys on, old backups pruned.
///
/// The full `integrity_check` runs twice: on the backup, the store as found page for page, and
/// on the result. The checks that read every row (`quick_check`, the findings' lookups of each reminder's list and
/// parent) run once, on the result, not after every step: the result holds whatever a step
/// broke, since nothing is committed before them, and at 1M reminders they were as long as the
/// steps' own SQL (docs/migrations.md, "Cost").
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
    /// A test seam: called with the backup's copy once it is written and synced, before it is
    /// checked (tests damage it there).
    var backupCopied: (String) throws -> Void = { _ in }
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
    // The steps rewrite every row and the final integrity_check looks each one up in every
    // index: a page cache that holds the whole upgraded store (350 MB at a million reminders)
    // keeps the changed pages from spilling into the journal and being read back from it, which
    // was a fifth of the upgrade's CPU time. SQLite allocates the pages as it uses them, so a
    // small store's upgrade stays small.
    return try database.withPageCache(mebibytes: Self.pageCacheMebibytes) { try migrateUnderLock(upTo: target) }
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
    let takesBackup = !isNewStore && settings.takesBackup
    // Known before the copy, which takes some of the free space it measures. An upgrade that
    // cannot be written leaves nothing behind (a cron job on a read-only store would otherwise
    // add a full backup at every run): it takes no copy, and fails where it always did.
    let blocker = takesBackup ? try writeBlocker(from: status, to: last) ?? spaceBlockers().first : nil
    var copy: MigrationBackup.Copy?
    if takesBackup, blocker == nil {
      copy = try copyStore(from: status, to: last)
    } else {
      try refuseDamagedStore()
    }
    do {
      try loadTablesIntoPageCache()
      let baseline = try StoreSnapshot.capture(database)
      let preflight = try Preflight.findings(in: database, plan: plan, policy: settings.policy)
      report.preexisting = Self.preexisting(baseline, preflight: preflight)
      if settings.policy == .fail, !preflight.duplicates.isEmpty {
        throw RemconvError.migrationFailed(duplicateRefusal(preflight))
      }
      if let blocker { throw RemconvError.ioFailure(blocker) }
      if let copy {
        backup = try copy.keep(counts: baseline.tableCounts)
        report.backup = backup
      }
      try applyChecked(plan, last: last, preflight: preflight, from: baseline, report: &report)
    } catch {
      if backup == nil { copy?.discard() }
      throw error
    }
    return report
  }

  /// Copies the store into a backup's `.partial` file and checks the copy
  /// (`MigrationBackup.copy`). The copy is the store page for page, so its check is the
  /// store's: when it fails, the store is checked itself, and a damaged store is refused as
  /// when no backup is taken.
  private func copyStore(from status: MigrationStatus, to last: Migration) throws -> MigrationBackup.Copy {
    do {
      return try MigrationBackup.copy(
        of: path, from: status.versionNumber, to: last.number, at: settings.now(),
        busyTimeoutMilliseconds: settings.busyTimeoutMilliseconds, copyWritten: settings.backupCopied)
    } catch {
      try refuseDamagedStore()
      throw error
    }
  }

  /// Reads every page of every table into the upgrade's page cache, in file order, by
  /// counting each table's own b-tree (`NOT INDEXED`: no row is decoded). The steps then
  /// find the pages in the cache instead of reading them one at a time as they go: about 1 s
  /// less CPU time in the steps of the million-reminder store, for 0.1 s spent here
  /// (docs/migrations.md, "Cost").
  private func loadTablesIntoPageCache() throws {
    for table in try StoreSnapshot.userTables(database) {
      _ = try database.scalar("SELECT count(*) FROM \(StoreSnapshot.quoted(table)) NOT INDEXED")
    }
  }

  /// Refuses a store that fails the full `integrity_check`, before anything is written.
  private func refuseDamagedStore() throws {
    let integrity = try StoreSnapshot.integrityProblems(database)
    if !integrity.isEmpty {
      throw RemconvError.notAStore(
        "\(path): the store is damaged (integrity_check: \(integrity.prefix(3).joined(separator: "; "))); nothing was changed"
      )
    }
  }

  /// Applies `plan` after the backup, checks the result and sets the version (steps 6 to 8
  /// of the type's summary, COMMIT aside).
  private func applyChecked(
    _ plan: [Migration], last: Migration, preflight: PreflightFindings, from baseline: StoreSnapshot,
    report: inout MigrationReport
  ) throws {
    settings.pause.reached("0")
    try database.execute(MigrationHistory.createTable)
    try database.execute("SAVEPOINT \(Self.stepsSavepoint)")
    var broken: BrokenStep?
    var overall: [String] = []
    do {
      let outcome = try apply(plan, preflight: preflight, from: baseline, checking: .invariants, report: &report)
      // The steps one by one kept every row; the whole run must keep them too (a row lost in
      // one step and re-added in another passes both), and now the checks the steps skipped:
      // the full integrity_check and the findings, against the store as found.
      var result = outcome.last
      result.findings = try StoreSnapshot.findings(database)
      overall =
        try StoreSnapshot.integrityProblems(database).map { "integrity_check: \($0)" }
        + result.problems(since: baseline, merged: outcome.merged)
    } catch let failure as BrokenStep {
      broken = failure
    }
    if broken != nil || !overall.isEmpty {
      // Something broke the store: the steps run again from the start, each checked in full,
      // so that the message names the step that did it. Only a failing upgrade pays this.
      try database.execute("ROLLBACK TO \(Self.stepsSavepoint)")
      do {
        _ = try apply(plan, preflight: preflight, from: baseline, checking: .everything, report: &report)
      } catch let failure as BrokenStep {
        broken = failure
      }
      if let broken {
        throw RemconvError.migrationFailed(
          "\(path): migration \(broken.step.id) would break the store: \(broken.problems.prefix(10).joined(separator: "; ")); the upgrade was rolled back, the store is unchanged"
        )
      }
      throw RemconvError.migrationFailed(
        "\(path): the upgrade to \(last.id) would break the store: \(overall.prefix(10).joined(separator: "; ")); it was rolled back, the store is unchanged"
      )
    }
    try database.execute("RELEASE \(Self.stepsSavepoint)")
    try database.execute("PRAGMA user_version = \(last.number)")
    try database.execute("PRAGMA application_id = \(Store.applicationID)")
    report.applied = plan.map(\.id)
    report.to = last.id
  }

  /// The upgrade's page cache, at most.
  static let pageCacheMebibytes = 512

  /// The savepoint around all the steps, which a failed check rolls back to before running
  /// them again, checked in full.
  private static let stepsSavepoint = "remconv_steps"

  /// What is checked after each step.
  enum StepChecks {
    /// Row counts per table and each list's reminders (count and sum of row ids): a row lost,
    /// moved or swapped. One read of an index per table; the rest is checked once, after the
    /// last step.
    case invariants
    /// Also `quick_check` and the findings (orphans, foreign keys, colliding names), to name
    /// the step that broke the store once a check has failed.
    case everything
  }

  /// A step after which a check failed, and what it found.
  private struct BrokenStep: Error {
    let step: Migration
    let problems: [String]
  }

  /// Runs `plan`, each step in its savepoint, checked after it as `checks` says; returns the
  /// snapshot after the last step and the lists the preflight merged away (into which list).
  /// Throws `BrokenStep` when a check fails, `migrationFailed` when a step cannot run.
  private func apply(
    _ plan: [Migration], preflight: PreflightFindings, from baseline: StoreSnapshot, checking checks: StepChecks,
    report: inout MigrationReport
  ) throws -> (last: StoreSnapshot, merged: [Int64: Int64]) {
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
      let after = try StoreSnapshot.capture(database, findings: checks == .everything)
      var problems = after.problems(since: before, merged: merged)
      if checks == .everything {
        problems = try StoreSnapshot.integrityProblems(database, check: .quick).map { "quick_check: \($0)" } + problems
      }
      if !problems.isEmpty { throw BrokenStep(step: step, problems: problems) }
      try history.record(step, at: settings.now())
      try database.execute("RELEASE \(savepoint)")
      before = after
      settings.pause.reached(String(step.number))
    }
    return (before, mergedInAll)
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

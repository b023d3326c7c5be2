import RemconvCore

/// `remconv migrate [status|plan|up|restore BACKUP]`: the store's schema versions.
struct MigrateCommand: Command {
  static let configuration = CommandConfiguration(
    name: "migrate",
    abstract: "Show, plan or apply the store's schema upgrades, or restore a backup.",
    discussion: """
      status (the default) lists the applied and pending steps and the backups kept. plan shows
      what an upgrade would do: the steps, the backup it would take, list names that collide
      and what --on-duplicate does with them, and problems already in the store. up applies
      the pending steps (every command upgrades an older store anyway): under the store's
      lock, after a verified backup next to the store, in one transaction checked step by
      step. restore BACKUP verifies a backup, saves the current store as a backup too (a
      damaged one is moved aside untouched instead), and copies the backup into the store;
      another application's database and a newer remconv's store are never replaced. See
      docs/migrations.md.
      """,
    arguments: [ArgumentSpec("backup", help: "For restore: the backup file to put back.", optional: true)],
    options: [
      .option("to", value: "id", help: "Upgrade (or plan) only up to this step (an id or its number)."),
      .flag("json", help: "Print the result as JSON on stdout."),
      .option(
        "on-duplicate", value: "policy",
        help:
          "When list names collide before the unique-name step: rename the later lists, merge them into the oldest, or fail.",
        allowed: DuplicateNamePolicy.allCases.map(\.rawValue), defaultValue: "rename"),
    ],
    subcommands: [
      CommandConfiguration(
        name: "status", abstract: "List the applied and pending steps and the backups kept (the default)."),
      CommandConfiguration(name: "plan", abstract: "Show what an upgrade would do, without doing it."),
      CommandConfiguration(name: "up", abstract: "Apply the pending steps after a verified backup."),
      CommandConfiguration(
        name: "restore", abstract: "Put a verified backup back into the store.",
        arguments: [ArgumentSpec("backup", help: "The backup file to put back.")]),
    ],
    examples: [
      "remconv migrate", "remconv migrate plan --json", "remconv migrate up --on-duplicate merge",
      "remconv migrate restore ~/.local/share/remconv/reminders.sqlite.backup-0003-to-0005-20261129T100000Z.sqlite",
    ])

  enum Action: String, CaseIterable {
    case status, plan, up, restore
  }

  let action: Action
  let backup: String?
  let arguments: ParsedArguments

  init(_ arguments: ParsedArguments) throws(UsageError) {
    let name = arguments.positional(0) ?? Action.status.rawValue
    guard let action = Action(rawValue: name) else {
      throw .invalidValue(name, option: "migrate", allowed: Action.allCases.map(\.rawValue))
    }
    self.action = action
    self.arguments = arguments
    if action == .restore {
      guard let backup = arguments.positional(1) else { throw .missingArgument("backup") }
      self.backup = backup
      if let extra = arguments.positional(2) { throw .unexpectedArgument(extra) }
    } else {
      backup = nil
      if let extra = arguments.positional(1) { throw .unexpectedArgument(extra) }
    }
    if arguments.value("to") != nil, action != .plan, action != .up {
      throw .invalid("'--to' goes with 'migrate plan' or 'migrate up'")
    }
    if action == .up, arguments.flag("no-upgrade") {
      throw .conflictingOptions("migrate up", "--no-upgrade")
    }
  }

  private var json: Bool { arguments.flag("json") }

  func run(_ context: CommandContext) throws -> ExitStatus {
    switch action {
    case .status: return try status(context)
    case .plan: return try plan(context)
    case .up: return try up(context)
    case .restore: return try restore(context)
    }
  }

  private func status(_ context: CommandContext) throws -> ExitStatus {
    let status = try Store.migrationStatus(at: context.storePath, options: context.storeOptions(readOnly: true))
    if json {
      context.io.print(JSONText.encode(status.json))
    } else {
      for line in MigrationText.status(status) { context.io.print(line) }
    }
    if case .tampered(let reason) = status.state {
      context.io.printError("remconv: error: \(reason)")
      return .upgradeRefused
    }
    return .ok
  }

  private func plan(_ context: CommandContext) throws -> ExitStatus {
    let plan = try Store.migrationPlan(
      at: context.storePath, upTo: arguments.value("to"), options: context.storeOptions(readOnly: true))
    if json {
      context.io.print(JSONText.encode(plan.json))
    } else {
      for line in MigrationText.plan(plan) { context.io.print(line) }
    }
    return plan.blockers.isEmpty ? .ok : .findings
  }

  private func up(_ context: CommandContext) throws -> ExitStatus {
    var options = context.storeOptions()
    options.upgradeOnOpen = false
    let store = try Store(path: context.storePath, options: options)
    defer { store.close() }
    var report = try store.migrate(upTo: arguments.value("to"))
    if report.isUpToDate, let created = store.upgradeReport, !created.isUpToDate {
      report = created  // a new store: its schema was created on open
    }
    if json {
      context.io.print(JSONText.encode(report.json))
    } else if !context.isQuiet || !report.isUpToDate {
      for line in MigrationText.report(report) { context.io.print(line) }
    }
    return .ok
  }

  private func restore(_ context: CommandContext) throws -> ExitStatus {
    guard let backup else { throw UsageError.missingArgument("backup") }
    let report = try Store.restore(backup: backup, into: context.storePath, options: context.storeOptions())
    if json {
      context.io.print(JSONText.encode(report.json))
    } else {
      for line in MigrationText.restore(report) { context.io.print(line) }
    }
    return .ok
  }
}

/// The text `remconv migrate` prints.
enum MigrationText {
  static func status(_ status: MigrationStatus) -> [String] {
    var lines = ["store    \(status.path)"]
    switch status.state {
    case .empty: lines.append("state    empty: the first command creates the schema at \(Migration.head.id)")
    case .current: lines.append("state    up to date")
    case .behind:
      lines.append(
        "state    behind: \(status.pending.count) step\(plural(status.pending.count)) pending (the next command upgrades it; or remconv migrate up)"
      )
    case .newer:
      lines.append("state    newer than this remconv: read-only here; \(status.newerDescription)")
    case .tampered: lines.append("state    tampered: an applied step does not match this remconv (see below)")
    }
    lines.append("version  \(status.version ?? "none") (user_version \(status.userVersion))")
    lines.append("head     \(Migration.head.id) (remconv \(RemconvVersion.current))")
    if !status.applied.isEmpty {
      lines += ["", "applied"]
      let width = status.applied.map(\.id.count).max() ?? 0
      for step in status.applied {
        var note = status.unknown.contains(step) ? "  (unknown to this remconv)" : ""
        if let release = step.earlierRelease {
          note = "  (earlier text: \(release); \(convergingStep) brings it to today's schema)"
        }
        lines.append("  \(pad(step.id, width))  \(step.appliedAt)  remconv \(step.toolVersion)\(note)")
      }
    }
    if !status.pending.isEmpty, status.state != .newer {
      lines += ["", "pending"] + status.pending.map { "  \($0.id)" }
    }
    let backups = MigrationBackup.list(for: status.path)
    if !backups.isEmpty {
      lines +=
        ["", "backups (oldest first; upgrades keep the newest \(MigrationBackup.defaultKept))"]
        + backups.map { "  \($0.path)" }
    }
    return lines
  }

  /// The step that brings a store made by an earlier released text of a step to today's.
  private static let convergingStep = "0007_converge_earlier_releases"

  static func plan(_ plan: MigrationPlan) -> [String] {
    let status = plan.status
    guard let last = plan.steps.last else {
      return ["store \(status.path) is up to date (\(status.version ?? Migration.head.id)): nothing to do"]
    }
    var lines = [
      "store \(status.path) at \(status.version ?? "nothing (new store)"): upgrade to \(last.id), \(plan.steps.count) step\(plural(plan.steps.count))"
    ]
    lines += plan.steps.map { "  \($0.id)" }
    if let backup = plan.backupPath {
      lines.append("backup: \(backup) (taken and verified under the lock before the first step)")
    } else {
      lines.append("backup: none (the store is new)")
    }
    if !plan.preflight.isEmpty {
      lines.append("preflight for \(plan.preflight.step ?? "the upgrade") (--on-duplicate \(plan.policy.rawValue)):")
      lines += plan.preflight.duplicateDescriptions.map { "  \($0)" }
      lines += plan.preflight.actions.map { "  -> " + $0.plannedDescription }
    }
    if !plan.preexisting.isEmpty {
      lines.append("already in the store (reported by the upgrade, not fatal):")
      lines += plan.preexisting.map { "  \($0.message)" }
    }
    if plan.blockers.isEmpty {
      lines.append("ready: run 'remconv migrate up' (or any command) to apply")
    } else {
      lines.append("blocked, the upgrade would change nothing:")
      lines += plan.blockers.map { "  \($0)" }
    }
    return lines
  }

  static func report(_ report: MigrationReport) -> [String] {
    guard !report.isUpToDate else {
      return ["store \(report.store) is up to date (\(report.to ?? Migration.head.id))"]
    }
    var lines = [
      "upgraded store \(report.store) from \(report.from ?? "nothing (new store)") to \(report.to ?? ""): applied \(report.applied.count) step\(plural(report.applied.count))"
    ]
    lines += report.applied.map { "  \($0)" }
    if let backup = report.backup { lines.append("backup: \(backup.path) (verified)") }
    lines += report.preflight.map(\.description)
    if !report.preexisting.isEmpty {
      lines.append("already in the store before the upgrade, left as it was:")
      lines += report.preexisting.map { "  \($0.message)" }
    }
    lines += report.prunedBackups.map { "removed old backup \($0)" }
    return lines
  }

  static func restore(_ report: RestoreReport) -> [String] {
    var lines = ["restored \(report.store) from \(report.backup) (at \(report.version ?? "nothing"))"]
    if let store = report.movedAside.first {
      let companions = report.movedAside.dropFirst()
      lines.append(
        "the store was damaged (\(report.damage ?? "unreadable")): moved aside untouched as \(store)"
          + (companions.isEmpty ? "" : " (with \(companions.joined(separator: ", ")))"))
    }
    if let previous = report.previous {
      lines.append(
        "the store as it was is saved as \(previous.path)"
          + (report.previousWasDamaged ? " (it was damaged: a page-for-page copy, not verified)" : " (verified)"))
    }
    if report.needsUpgrade {
      lines.append(
        "the restored store is older than this remconv: the next command upgrades it (remconv migrate plan shows how)")
    }
    return lines
  }

  private static func plural(_ count: Int) -> String { count == 1 ? "" : "s" }

  private static func pad(_ text: String, _ width: Int) -> String {
    text + String(repeating: " ", count: max(0, width - text.count))
  }
}

import Foundation

/// Brings a store's schema to the head, one transaction for the whole upgrade.
///
/// The protocol follows `docs/migrations.md`: the write lock (`BEGIN IMMEDIATE`) is taken
/// before the history is read and held to COMMIT, so two processes never both apply a step;
/// foreign keys are off during the steps (a table rebuild must not cascade) and checked before
/// committing; the history records each step's checksum, the tool version and the time.
struct Migrator {
  static let historyTable = "remconv_migrations"

  let store: Store
  private(set) var isStoreNewer = false

  init(store: Store) { self.store = store }

  private var database: Database { store.database }

  /// Classifies the store on open and upgrades it when it is behind.
  mutating func openCheck(isNew: Bool) throws {
    let applicationID = try database.scalar("PRAGMA application_id")
    let hasHistory = try tableExists(Self.historyTable)
    if case .integer(let value) = applicationID, value != 0, value != Int64(Store.applicationID) {
      throw RemconvError.notAStore("\(store.path): a SQLite database of another application (application_id \(value)); left untouched")
    }
    if !hasHistory {
      let tableCount = try database.scalar("SELECT count(*) FROM sqlite_schema WHERE type = 'table'")
      if case .integer(let count) = tableCount, count > 0 {
        throw RemconvError.notAStore("\(store.path): a SQLite database, but not a remconv store; left untouched")
      }
    }
    let applied = hasHistory ? try appliedSteps() : []
    let known = Dictionary(uniqueKeysWithValues: Migration.all.map { ($0.id, $0) })
    for step in applied {
      guard let migration = known[step.id] else {
        isStoreNewer = true
        continue
      }
      if migration.checksum != step.checksum {
        throw RemconvError.migrationTampered(
          "\(store.path): the applied migration \(step.id) does not match this remconv's copy (checksum \(step.checksum.prefix(12))… vs \(migration.checksum.prefix(12))…); refusing to touch the store"
        )
      }
    }
    if isStoreNewer { return }
    let appliedIDs = Set(applied.map(\.id))
    let pending = Migration.all.filter { !appliedIDs.contains($0.id) }
    guard !pending.isEmpty else { return }
    if store.options.readOnly || !store.options.allowUpgrade {
      throw RemconvError.upgradeRefused(
        "\(store.path): the store needs an upgrade to \(Migration.head.id) (\(pending.count) step(s) pending) and upgrades are off"
      )
    }
    if !isNew, !applied.isEmpty {
      store.options.onUpgrade?(
        "upgrading store \(store.path) from \(applied.last?.id ?? "nothing") to \(Migration.head.id)")
    }
    store.upgradeReport = try migrate()
  }

  struct AppliedStep {
    let id: String
    let checksum: String
  }

  func appliedSteps() throws -> [AppliedStep] {
    try database.rows("SELECT id, checksum FROM \(Self.historyTable) ORDER BY id").map {
      AppliedStep(id: $0.string(0) ?? "", checksum: $0.string(1) ?? "")
    }
  }

  func tableExists(_ name: String) throws -> Bool {
    let count = try database.scalar(
      "SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?", [.text(name)])
    return count != .integer(0)
  }

  /// Applies every pending step in one transaction.
  func migrate() throws -> MigrationReport {
    // PRAGMA foreign_keys is a no-op inside a transaction: turn it off before BEGIN.
    try database.execute("PRAGMA foreign_keys = OFF")
    defer { try? database.execute("PRAGMA foreign_keys = ON") }
    try database.execute("BEGIN IMMEDIATE")
    do {
      try database.execute("""
        CREATE TABLE IF NOT EXISTS \(Self.historyTable) (
          id TEXT PRIMARY KEY,
          checksum TEXT NOT NULL,
          tool_version TEXT NOT NULL,
          applied_at TEXT NOT NULL
        )
        """)
      // Re-read under the lock: another process may have applied the steps meanwhile.
      let applied = try appliedSteps()
      let appliedIDs = Set(applied.map(\.id))
      let pending = Migration.all.filter { !appliedIDs.contains($0.id) }
      guard !pending.isEmpty else {
        try database.execute("ROLLBACK")
        return MigrationReport(fromVersion: applied.last?.id, applied: [], backupPath: nil, preflight: [])
      }
      for migration in pending {
        try database.execute("SAVEPOINT step")
        do {
          try database.execute(migration.sql)
        } catch {
          throw RemconvError.migrationFailed("\(store.path): migration \(migration.id) failed: \(error); nothing was changed")
        }
        try database.run(
          "INSERT INTO \(Self.historyTable) (id, checksum, tool_version, applied_at) VALUES (?, ?, ?, ?)",
          [.text(migration.id), .text(migration.checksum), .text(RemconvVersion.current),
           .text(Timestamp(Date()).description)])
        try database.execute("RELEASE step")
      }
      let violations = try database.rows("PRAGMA foreign_key_check")
      if !violations.isEmpty {
        throw RemconvError.migrationFailed("\(store.path): the upgrade left \(violations.count) foreign-key violation(s); nothing was changed")
      }
      try database.execute("PRAGMA user_version = \(Migration.head.number)")
      try database.execute("PRAGMA application_id = \(Store.applicationID)")
      try database.execute("COMMIT")
      return MigrationReport(
        fromVersion: applied.last?.id, applied: pending.map(\.id), backupPath: nil, preflight: [])
    } catch {
      if database.isInTransaction { try? database.execute("ROLLBACK") }
      throw error
    }
  }

  static func unknownStepsDescription(_ store: Store) -> String {
    let known = Set(Migration.all.map(\.id))
    let steps = (try? Migrator(store: store).appliedSteps()) ?? []
    let unknown = steps.map(\.id).filter { !known.contains($0) }
    return "unknown step(s) " + unknown.joined(separator: ", ")
  }
}

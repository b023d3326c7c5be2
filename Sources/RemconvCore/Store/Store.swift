import Foundation

/// The SQLite store of lists and reminders, and the SQLite `ReminderRepository`.
///
/// The store is the only part of remconv that knows SQL (with its migrations and the
/// validation behind it); the formats know none, the merge engine sees only the repository
/// (Store+Repository.swift), and the commands talk to the store through `Store+*.swift`.
public final class Store {
  /// `PRAGMA application_id` of a remconv store: "REMC".
  public static let applicationID: Int32 = 0x5245_4D43
  /// The SQLite file header every database starts with.
  static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

  public struct Options {
    /// Upgrade an older store on open (false: refuse with `upgradeRefused`, exit 78).
    public var allowUpgrade = true
    /// With `allowUpgrade`, upgrade when opening (false: open an older store as it is, for
    /// `remconv migrate up`, which calls `migrate(upTo:)`; it cannot be written until then).
    public var upgradeOnOpen = true
    /// Open for reading only: never create, upgrade or write.
    public var readOnly = false
    /// Create the store when there is none. Commands that only read turn it off: a mistyped
    /// path must be an error, not a new empty store and an empty export.
    public var createIfMissing = true
    /// How long to wait for another writer before failing with `storeBusy`.
    public var busyTimeoutMilliseconds: Int32 = 10_000
    /// What the preflight does with list names that collide before the unique-name step.
    public var duplicatePolicy: DuplicateNamePolicy = .rename
    /// How many backups of the store an upgrade keeps (the newest ones).
    public var backupsKept = MigrationBackup.defaultKept
    /// "Now", for backup names and the history (tests fix it).
    public var now: () -> Date = Date.init
    /// Told about an upgrade once it is committed: one line, then one per preflight action
    /// and one for problems the store already had (stderr in the CLI).
    public var onUpgrade: ((String) -> Void)?
    /// The test-only pause point of `REMCONV_TEST_PAUSE_AT_STEP` (docs/migrations.md); a
    /// release build ignores it.
    public var testPauseAtStep: String?
    /// For commands that only read: when the store needs an upgrade it cannot take (the file
    /// is read-only), upgrade a private copy in a temporary folder and read that instead. The
    /// store is never touched, no backup is taken, `close()` removes the copy, and any write
    /// is refused (`ioFailure`, exit 74). Off, such a store is refused with exit 74.
    public var readThroughUpgradedCopy = false
    /// Commit without waiting for the disk (`PRAGMA synchronous = OFF`): for a scratch store
    /// that is deleted afterwards (`convert`'s staging store), where a power cut loses
    /// nothing anyone keeps.
    public var syncsToDisk = true
    /// The steps this remconv knows; tests replace them.
    var migrations = Migration.all
    /// `Migrator.Settings.backupCopied`: tests damage the backup's copy there.
    var backupCopied: (String) throws -> Void = { _ in }

    public init() {}

    /// The pause point `REMCONV_TEST_PAUSE_AT_STEP` in `environment` asks for; nil in a
    /// release build, which has no such hook.
    public static func testPausePoint(in environment: [String: String]) -> String? {
      MigrationTestPause.point(in: environment)
    }

    var migratorSettings: Migrator.Settings {
      Migrator.Settings(
        steps: migrations, policy: duplicatePolicy, backupsKept: backupsKept,
        busyTimeoutMilliseconds: busyTimeoutMilliseconds, now: now,
        pause: MigrationTestPause(point: testPauseAtStep), backupCopied: backupCopied)
    }
  }

  public let path: String
  /// The connection: only the store's own code (and its migrations and validation) runs SQL.
  let database: Database
  public let options: Options
  /// Told the values of every reminder row `insertReminder` and `updateReminder` write, as
  /// bound, and the dates they were made of: an import checks them there instead of reading
  /// its rows back (`WrittenValueChecks`).
  var reminderRowWritten: ((WrittenReminderValues, EncodedDates) -> Void)?
  /// The parameters of the reminder row being written, kept for their buffers' capacity.
  var reminderParameters = ParameterRow()
  /// Set when the store was written by a newer remconv: it is open read-only, reading works
  /// where this version understands the schema, writing is refused (`storeTooNew`, exit 77).
  public private(set) var isNewerThanThisVersion = false
  /// Set when an older store was opened with `upgradeOnOpen` off and not upgraded yet.
  public private(set) var needsUpgrade = false
  /// What the migrator did on open, for reports.
  public internal(set) var upgradeReport: MigrationReport?
  /// Set when the store is read-only and older, and is read through an upgraded copy in this
  /// temporary folder (`Options.readThroughUpgradedCopy`); `close()` removes it.
  public private(set) var upgradedCopyFolder: String?
  private var newerDescription = ""

  /// Opens (creating or upgrading as needed) the store at `path`.
  ///
  /// The store is classified before anything is written: a file that is not a remconv store,
  /// a damaged one, or one whose applied steps were edited is refused and left untouched; one
  /// written by a newer remconv is reopened read-only; an older one is upgraded (see
  /// `Migrator`) unless `allowUpgrade` is off.
  public init(path: String, options: Options = Options()) throws(RemconvError) {
    self.path = path
    self.options = options
    let isNew = try Self.prepareFile(at: path, readOnly: options.readOnly, create: options.createIfMissing)
    var connection = try Self.connect(path, readOnly: options.readOnly, options: options)
    do {
      let migrator = Migrator(database: connection, path: path, settings: options.migratorSettings)
      let status = try migrator.history.status()
      switch status.state {
      case .tampered(let reason):
        throw RemconvError.migrationTampered(reason)
      case .newer:
        if !options.readOnly {
          connection.close()
          connection = try Self.connect(path, readOnly: true, options: options)
        }
        isNewerThanThisVersion = true
        newerDescription = status.newerDescription
      case .empty, .behind:
        if options.readOnly {
          throw status.state == .empty
            ? RemconvError.inputMissing("\(path): the store is empty")
            : RemconvError.upgradeRefused(Self.upgradeRefusal(status, path: path, reason: "it was opened read-only"))
        }
        if status.state == .behind, !options.allowUpgrade {
          throw RemconvError.upgradeRefused(Self.upgradeRefusal(status, path: path, reason: "--no-upgrade was given"))
        }
        if status.state == .behind, options.upgradeOnOpen, options.readThroughUpgradedCopy, connection.isReadOnly {
          let copy = try Self.upgradedCopy(of: connection, path: path, options: options)
          connection.close()
          connection = copy.connection
          upgradedCopyFolder = copy.folder
          upgradeReport = copy.report
          options.onUpgrade?(
            "the store \(path) is read-only and at \(status.version ?? "nothing"): reading a copy upgraded to "
              + "\(copy.report.to ?? Migration.head.id) in a temporary folder, removed afterwards; the store is unchanged "
              + "(make it writable to upgrade it)")
        } else if status.state == .empty || options.upgradeOnOpen {
          let report = try migrator.migrate()
          upgradeReport = report
          if status.state == .behind || !isNew { Self.announce(report, to: options.onUpgrade) }
        } else {
          needsUpgrade = true
        }
      case .current:
        break
      }
      // An older store left for `migrate(upTo:)` keeps its journal mode until it is upgraded:
      // a damaged one must be refused untouched, and switching to WAL writes the header.
      if !isNewerThanThisVersion, !needsUpgrade {
        try Self.configure(connection, readOnly: options.readOnly, syncsToDisk: options.syncsToDisk)
      }
    } catch {
      connection.close()
      if let folder = upgradedCopyFolder { try? FileManager.default.removeItem(atPath: folder) }
      if let remconv = error as? RemconvError { throw remconv }
      if let sqlite = error as? SQLiteError { throw Self.translate(sqlite, path: path) }
      throw .migrationFailed("\(path): \(error)")
    }
    database = connection
  }

  public func close() {
    database.close()
    removeUpgradedCopy()
  }

  deinit { removeUpgradedCopy() }

  private func removeUpgradedCopy() {
    guard let folder = upgradedCopyFolder else { return }
    try? FileManager.default.removeItem(atPath: folder)
    upgradedCopyFolder = nil
  }

  /// Copies the read-only store behind `source` into a new private temporary folder and
  /// upgrades the copy there, without a backup (the store itself is the backup). The folder is
  /// removed when anything fails.
  private static func upgradedCopy(
    of source: Database, path: String, options: Options
  ) throws -> (folder: String, connection: Database, report: MigrationReport) {
    var template = Array((NSTemporaryDirectory() + "/remconv-read-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw RemconvError.ioFailure(
        "\(path): the store is read-only and needs an upgrade; no temporary folder for an upgraded copy: \(String(cString: strerror(errno)).lowercased())"
      )
    }
    let folder = String(cString: made)
    let copyPath = folder + "/" + URL(fileURLWithPath: path).lastPathComponent
    do {
      try source.backup(to: copyPath)
      let copy = try connect(copyPath, readOnly: false, options: options)
      var settings = options.migratorSettings
      settings.takesBackup = false
      do {
        let report = try Migrator(database: copy, path: copyPath, settings: settings).migrate()
        return (folder, copy, report)
      } catch {
        copy.close()
        throw error
      }
    } catch {
      try? FileManager.default.removeItem(atPath: folder)
      if let sqlite = error as? SQLiteError { throw translate(sqlite, path: path) }
      throw error
    }
  }

  /// Refuses to write a store that a newer remconv wrote, one not upgraded yet, or one opened
  /// read-only. Every write goes through `write(commit:_:)`, which calls this first.
  public func requireWritable() throws(RemconvError) {
    if isNewerThanThisVersion {
      throw .storeTooNew(
        "\(path): this remconv (\(RemconvVersion.current)) does not write this store: \(newerDescription)")
    }
    if needsUpgrade {
      throw .upgradeRefused("\(path): the store needs an upgrade before it can be written (remconv migrate up)")
    }
    if options.readOnly { throw .ioFailure("\(path): the store was opened read-only") }
    // SQLite opens a file it may not write read-only, and says so only at the first write.
    if database.isReadOnly { throw .ioFailure("\(path): the store is read-only") }
    if upgradedCopyFolder != nil {
      throw .ioFailure("\(path): the store is read-only (it is read through an upgraded copy)")
    }
  }

  /// Applies the pending steps up to `target` (a step id or number; nil: all) under the
  /// migration lock. A store another process upgraded meanwhile reports that it is up to date.
  public func migrate(upTo target: String? = nil) throws -> MigrationReport {
    if isNewerThanThisVersion { throw RemconvError.storeTooNew("\(path): \(newerDescription)") }
    if options.readOnly { throw RemconvError.ioFailure("\(path): the store was opened read-only") }
    do {
      let report = try Migrator(database: database, path: path, settings: options.migratorSettings).migrate(
        upTo: target)
      let status = try MigrationHistory(database: database, path: path, steps: options.migrations).status()
      let wasBehind = needsUpgrade
      needsUpgrade = status.state != .current
      if wasBehind, !needsUpgrade { try Self.configure(database, readOnly: false, syncsToDisk: options.syncsToDisk) }
      return report
    } catch let sqlite as SQLiteError {
      throw Self.translate(sqlite, path: path)
    }
  }

  /// Where the store at `path` stands, read without writing (nor creating the file).
  public static func migrationStatus(at path: String, options: Options = Options()) throws -> MigrationStatus {
    try inspect(path, options: options) { try $0.history.status() }
  }

  /// What upgrading the store at `path` to `target` would do, read without writing.
  public static func migrationPlan(at path: String, upTo target: String?, options: Options = Options()) throws
    -> MigrationPlan
  {
    try inspect(path, options: options) { try $0.plan(upTo: target) }
  }

  private static func inspect<T>(_ path: String, options: Options, _ body: (Migrator) throws -> T) throws -> T {
    _ = try prepareFile(at: path, readOnly: true)
    let connection = try connect(path, readOnly: true, options: options)
    defer { connection.close() }
    do {
      return try body(Migrator(database: connection, path: path, settings: options.migratorSettings))
    } catch let sqlite as SQLiteError {
      throw translate(sqlite, path: path)
    }
  }

  static func connect(_ path: String, readOnly: Bool, options: Options) throws(RemconvError) -> Database {
    let connection: Database
    do {
      connection = try Database(path: path, mode: readOnly ? .readOnly : .readWrite)
      connection.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
      try connection.registerRemconvFunctions()
    } catch {
      throw translate(error, path: path)
    }
    return connection
  }

  private static func upgradeRefusal(_ status: MigrationStatus, path: String, reason: String) -> String {
    "\(path): the store is at \(status.version ?? "nothing") and this remconv needs \(status.pending.last?.id ?? Migration.head.id) "
      + "(\(status.pending.count) step\(status.pending.count == 1 ? "" : "s") pending); not upgraded because \(reason). "
      + "Run 'remconv migrate up' (a verified backup is taken first)"
  }

  /// Tells the user, in one line, that the store was upgraded, then what the preflight did
  /// and what was already wrong.
  private static func announce(_ report: MigrationReport, to sink: ((String) -> Void)?) {
    guard let sink, !report.isUpToDate else { return }
    var line = "upgraded store \(report.store) from \(report.from ?? "nothing") to \(report.to ?? "nothing")"
    if let backup = report.backup { line += " (backup: \(backup.path))" }
    sink(line)
    for action in report.preflight { sink(action.description) }
    if !report.preexisting.isEmpty {
      let shown = report.preexisting.prefix(3).map(\.message).joined(separator: "; ")
      let more = report.preexisting.count > 3 ? "; and \(report.preexisting.count - 3) more" : ""
      sink("note: the store already had \(report.preexisting.count) problem(s), left as they were: \(shown)\(more)")
    }
  }

  /// Runs `body` in one IMMEDIATE transaction; `commit: false` rolls back (dry runs).
  public func write<T>(commit: Bool = true, _ body: () throws -> T) throws -> T {
    try requireWritable()
    do {
      return try database.inTransaction(
        .immediate, commit: commit, beginFailure: { Self.translate($0, path: path) }, body)
    } catch let sqlite as SQLiteError {
      throw Self.translate(sqlite, path: path)
    }
  }

  /// Runs `body` in a read transaction, so that it sees one consistent snapshot. Inside a
  /// transaction already open on this connection (an export of what an import is about to
  /// commit), `body` runs in that one.
  public func read<T>(_ body: () throws -> T) throws -> T {
    if database.isInTransaction { return try body() }
    do {
      return try database.inTransaction(.deferred, beginFailure: { Self.translate($0, path: path) }, body)
    } catch let sqlite as SQLiteError {
      if isNewerThanThisVersion, !sqlite.isBusy {
        throw RemconvError.storeTooNew(
          "\(path): this remconv (\(RemconvVersion.current)) cannot read this store safely (\(sqlite.message)): \(newerDescription)"
        )
      }
      throw Self.translate(sqlite, path: path)
    }
  }

  /// Runs `body` with up to `mebibytes` of the store memory-mapped, then gives the store back
  /// the size it had: for a read of many rows across the file (a big view).
  public func withMemoryMap<T>(mebibytes: Int, _ body: () throws -> T) throws -> T {
    do {
      return try database.withMemoryMap(mebibytes: mebibytes, body)
    } catch let sqlite as SQLiteError {
      throw Self.translate(sqlite, path: path)
    }
  }

  /// Runs `body` with a page cache of at most `mebibytes`, then gives the store back the size
  /// it had: for a bulk write whose index pages would otherwise be evicted and read again.
  public func withPageCache<T>(mebibytes: Int, _ body: () throws -> T) throws -> T {
    do {
      return try database.withPageCache(mebibytes: mebibytes, body)
    } catch let sqlite as SQLiteError {
      throw Self.translate(sqlite, path: path)
    }
  }

  /// The indexes of `reminders` that only reads outside an import use (views, counts, the skip
  /// of unchanged records on a later import): a first import does not look anything up by them,
  /// so they can be built after its rows. The index of folded UIDs is not among them: an import
  /// looks its UIDs up there (`exactUID`).
  static let indexesReadAfterImport: Set<String> = ["reminders_by_due_day_state", "reminders_by_source_digest"]

  /// Runs `body`, inside a write transaction, with the indexes of `indexesReadAfterImport` set
  /// aside while the store holds no reminder, and builds them again afterwards from the table
  /// in one sort each, rather than row by row in random key order. Each comes back as the
  /// store defined it (its own SQL); a `body` that throws rolls the whole transaction back,
  /// indexes included. With reminders already stored, `body` runs as it is.
  public func buildingReadIndexesAfter<T>(_ body: () throws -> T) throws -> T {
    guard database.isInTransaction,
      try database.scalar("SELECT EXISTS (SELECT 1 FROM reminders)") == .integer(0)
    else { return try body() }
    let deferred = try database.rows(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'reminders' AND sql IS NOT NULL ORDER BY name"
    ).compactMap { row -> (name: String, sql: String)? in
      guard let name = row.string(0), Self.indexesReadAfterImport.contains(name), let sql = row.string(1) else {
        return nil
      }
      return (name, sql)
    }
    for index in deferred { try database.execute("DROP INDEX \"\(index.name)\"") }
    let result = try body()
    try withSortingPageCache {
      for index in deferred { try database.execute(index.sql) }
    }
    return result
  }

  /// Runs `body`, which sorts what a bulk write wrote (an index built, a check's ORDER BY),
  /// with a small page cache. SQLite's sorter holds as many keys in memory as the page cache
  /// may hold pages before it writes a sorted run to a temporary file: under an import's
  /// 16 MiB cache, the sorts after a million rows added as much again to its peak. With 2 MiB
  /// both stay small (the pages the cache lets go stay with the process, the sorter's block
  /// comes on top), and the shorter runs, fitting the CPU's caches better, sort no slower
  /// (docs/benchmarks.md, "The migration's floor with its check, flat memory again").
  public func withSortingPageCache<T>(_ body: () throws -> T) throws -> T {
    try withPageCache(mebibytes: 2, body)
  }

  /// Creates the file (0600, parent folders 0700) when missing and `create` allows; refuses
  /// what is not a store. Returns whether the file is new.
  static func prepareFile(at path: String, readOnly: Bool, create: Bool = true) throws(RemconvError) -> Bool {
    var status = stat()
    if stat(path, &status) != 0 {
      guard errno == ENOENT else {
        throw .ioFailure("\(path): \(String(cString: strerror(errno)).lowercased())")
      }
      if readOnly || !create {
        throw .inputMissing(
          "\(path): no store here (nothing was created; a command that writes, such as import or add, creates it)")
      }
      let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
      do {
        try FileManager.default.createDirectory(
          atPath: directory, withIntermediateDirectories: true,
          attributes: [.posixPermissions: 0o700])
      } catch {
        throw .cannotCreateOutput("\(directory): cannot create the store's folder")
      }
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else {
        if errno == EEXIST { return false }
        throw .cannotCreateOutput("\(path): cannot create the store: \(String(cString: strerror(errno)).lowercased())")
      }
      Foundation.close(descriptor)
      return true
    }
    if (status.st_mode & S_IFMT) == S_IFDIR {
      throw .notAStore("\(path): is a directory, not a store")
    }
    // A FIFO would block the open below until a writer came, and SQLite cannot use a device
    // or a socket (it reported "disk I/O error"): refuse them before touching them.
    if (status.st_mode & S_IFMT) != S_IFREG {
      throw .notAStore(
        "\(path): not a regular file (a \(FileKind(mode: status.st_mode))), not a store (left untouched)")
    }
    if status.st_size == 0 { return true }
    // Read the header ourselves: SQLite would only notice at the first query, and must not
    // be given a chance to write to a file that is not a database.
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw .ioFailure("\(path): \(String(cString: strerror(errno)).lowercased())")
    }
    defer { Foundation.close(descriptor) }
    var header = [UInt8](repeating: 0, count: 16)
    let count = header.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, 16) }
    guard count == 16, header == sqliteHeader else {
      throw .notAStore("\(path): not a SQLite database (left untouched)")
    }
    return false
  }

  private static func configure(_ database: Database, readOnly: Bool, syncsToDisk: Bool) throws(SQLiteError) {
    if !readOnly {
      // WAL lets an export read a consistent snapshot while an import writes; FULL sync keeps
      // a committed import across a power cut.
      _ = try database.scalar("PRAGMA journal_mode = WAL")
      try database.execute(syncsToDisk ? "PRAGMA synchronous = FULL" : "PRAGMA synchronous = OFF")
    }
    try database.execute("PRAGMA foreign_keys = ON")
  }

  /// Maps SQLite failures to what they mean for the user.
  static func translate(_ error: SQLiteError, path: String) -> RemconvError {
    if error.isBusy {
      return .storeBusy("\(path): the store is busy with another remconv (waited for the busy timeout)")
    }
    if error.isNotADatabase {
      return .notAStore("\(path): the store is damaged or not a remconv store (\(error.message)); nothing was changed")
    }
    if error.isIOFailure { return .ioFailure("\(path): \(error.message)") }
    if error.isReadOnly { return .ioFailure("\(path): the store is read-only: \(error.message)") }
    if error.isCannotOpen { return .cannotCreateOutput("\(path): cannot open the store: \(error.message)") }
    return .ioFailure("\(path): \(error)")
  }
}

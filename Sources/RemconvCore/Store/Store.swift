import Foundation

/// The SQLite store of lists and reminders.
///
/// The store is the only part of remconv that knows SQL; the formats know none, and the merge
/// engine and the commands talk to the store through the methods in `Store+*.swift`.
public final class Store {
  /// `PRAGMA application_id` of a remconv store: "REMC".
  public static let applicationID: Int32 = 0x5245_4D43
  /// The SQLite file header every database starts with.
  static let sqliteHeader = Array("SQLite format 3\u{0}".utf8)

  public struct Options {
    /// Upgrade an older store on open (false: refuse with `upgradeRefused`).
    public var allowUpgrade = true
    /// Open for reading only: never create, upgrade or write.
    public var readOnly = false
    /// How long to wait for another writer before failing with `storeBusy`.
    public var busyTimeoutMilliseconds: Int32 = 10_000
    /// What the preflight does with list names that collide before the unique-name step.
    public var duplicatePolicy: DuplicateNamePolicy = .rename
    /// Told about an upgrade before it starts (one line on stderr in the CLI).
    public var onUpgrade: ((String) -> Void)?

    public init() {}
  }

  public let path: String
  public let database: Database
  public let options: Options
  /// Set when the store was written by a newer remconv: reading works, writing is refused.
  public private(set) var isNewerThanThisVersion = false
  /// What the migrator did on open, for reports.
  public internal(set) var upgradeReport: MigrationReport?

  /// Opens (creating or upgrading as needed) the store at `path`.
  public init(path: String, options: Options = Options()) throws(RemconvError) {
    self.path = path
    self.options = options
    let isNew = try Self.prepareFile(at: path, readOnly: options.readOnly)
    do {
      database = try Database(path: path, mode: options.readOnly ? .readOnly : .readWrite)
    } catch {
      throw Self.translate(error, path: path)
    }
    database.setBusyTimeout(milliseconds: options.busyTimeoutMilliseconds)
    do {
      try database.registerNameKeyFunction()
      // A database that is not a remconv store is refused (by the migrator's check) before
      // anything writes to it: switching it to WAL would rewrite its header. A new file is
      // ours from the start, and is in WAL mode before its schema is created.
      if isNew { try configure() }
      var migrator = Migrator(store: self)
      try migrator.openCheck(isNew: isNew)
      if !isNew { try configure() }
      isNewerThanThisVersion = migrator.isStoreNewer
    } catch let error as RemconvError {
      database.close()
      throw error
    } catch let error as SQLiteError {
      database.close()
      throw Self.translate(error, path: path)
    } catch {
      database.close()
      throw .migrationFailed("\(path): \(error)")
    }
  }

  public func close() { database.close() }

  /// Refuses to write a store that a newer remconv wrote, or one opened read-only.
  public func requireWritable() throws(RemconvError) {
    if isNewerThanThisVersion {
      throw .storeTooNew(
        "\(path): this store was written by a newer remconv (\(Migrator.unknownStepsDescription(self))); upgrade remconv to write to it"
      )
    }
    if options.readOnly { throw .ioFailure("\(path): the store was opened read-only") }
  }

  /// Runs `body` in one IMMEDIATE transaction; `commit: false` rolls back (dry runs).
  public func write<T>(commit: Bool = true, _ body: () throws -> T) throws -> T {
    try requireWritable()
    do {
      try database.execute("BEGIN IMMEDIATE")
    } catch {
      throw Self.translate(error, path: path)
    }
    do {
      let result = try body()
      if commit {
        try database.execute("COMMIT")
      } else {
        try database.execute("ROLLBACK")
      }
      return result
    } catch {
      if database.isInTransaction { try? database.execute("ROLLBACK") }
      if let sqlite = error as? SQLiteError { throw Self.translate(sqlite, path: path) }
      throw error
    }
  }

  /// Runs `body` in a read transaction, so that it sees one consistent snapshot. Inside a
  /// transaction already open on this connection (an export of what an import is about to
  /// commit), `body` runs in that one.
  public func read<T>(_ body: () throws -> T) throws -> T {
    if database.isInTransaction { return try body() }
    do {
      try database.execute("BEGIN DEFERRED")
    } catch {
      throw Self.translate(error, path: path)
    }
    defer { if database.isInTransaction { try? database.execute("COMMIT") } }
    do {
      return try body()
    } catch let sqlite as SQLiteError {
      throw Self.translate(sqlite, path: path)
    }
  }

  /// Creates the file (0600, parent folders 0700) when missing; refuses what is not a store.
  /// Returns whether the file is new.
  private static func prepareFile(at path: String, readOnly: Bool) throws(RemconvError) -> Bool {
    var status = stat()
    if stat(path, &status) != 0 {
      guard errno == ENOENT else {
        throw .ioFailure("\(path): \(String(cString: strerror(errno)).lowercased())")
      }
      if readOnly { throw .inputMissing("\(path): no store here") }
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

  private func configure() throws(SQLiteError) {
    if !options.readOnly {
      // WAL lets an export read a consistent snapshot while an import writes; FULL sync keeps
      // a committed import across a power cut.
      _ = try database.scalar("PRAGMA journal_mode = WAL")
      try database.execute("PRAGMA synchronous = FULL")
    }
    try database.execute("PRAGMA foreign_keys = ON")
  }

  /// Maps SQLite failures to what they mean for the user.
  static func translate(_ error: SQLiteError, path: String) -> RemconvError {
    if error.isBusy {
      return .storeBusy("\(path): the store is busy with another remconv (waited for the busy timeout)")
    }
    if error.isNotADatabase { return .notAStore("\(path): not a remconv store, or damaged: \(error.message)") }
    if error.isIOFailure { return .ioFailure("\(path): \(error.message)") }
    if error.isReadOnly { return .ioFailure("\(path): the store is read-only: \(error.message)") }
    if error.isCannotOpen { return .cannotCreateOutput("\(path): cannot open the store: \(error.message)") }
    return .ioFailure("\(path): \(error)")
  }
}

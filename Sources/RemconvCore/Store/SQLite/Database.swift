internal import CSQLite
import Foundation

/// A value SQLite stores in a column or binds to a parameter.
public enum SQLValue: Hashable, Sendable {
  case null
  case integer(Int64)
  case real(Double)
  case text(String)
  case blob([UInt8])
}

/// One connection to a SQLite database file.
///
/// Not `Sendable`: a connection belongs to the task that opened it. Close it explicitly with
/// `close()`; `deinit` closes a connection that was forgotten.
///
/// Related SQLite documentation: https://sqlite.org/c3ref/sqlite3.html
public final class Database {
  /// How the file is opened.
  public enum OpenMode: Sendable {
    case readOnly
    case readWrite
    /// Read-write, creating the file when it does not exist.
    case create
  }

  let handle: OpaquePointer
  public let path: String
  private var isClosed = false
  private var statementCache = StatementCache()

  public init(path: String, mode: OpenMode = .readWrite) throws(SQLiteError) {
    var flags: Int32 = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
    switch mode {
    case .readOnly: flags |= SQLITE_OPEN_READONLY
    case .readWrite: flags |= SQLITE_OPEN_READWRITE
    case .create: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
    }
    var connection: OpaquePointer?
    let code = sqlite3_open_v2(path, &connection, flags, nil)
    guard let connection else {
      throw SQLiteError(extendedCode: code, message: "cannot open '\(path)'")
    }
    guard code == SQLITE_OK else {
      // sqlite.org: "Whether or not an error occurs when it is opened, resources associated
      // with the database connection handle should be released by passing it to
      // sqlite3_close() when it is no longer required."
      let message = String(cString: sqlite3_errmsg(connection))
      sqlite3_close(connection)
      throw SQLiteError(extendedCode: code, message: message)
    }
    self.handle = connection
    self.path = path
    sqlite3_extended_result_codes(connection, 1)
  }

  deinit {
    if !isClosed {
      statementCache.removeAll()
      sqlite3_close_v2(handle)
    }
  }

  /// The prepared statements kept for reuse, finalized together before the connection closes.
  private struct StatementCache {
    var bySQL: [String: Statement] = [:]
    /// By the number `statement(_:sql:)` is given.
    var bySlot: [Statement?] = []

    mutating func removeAll() {
      bySQL = [:]
      bySlot = []
    }
  }

  /// Finalizes cached statements and closes the connection.
  public func close() {
    guard !isClosed else { return }
    statementCache.removeAll()
    sqlite3_close_v2(handle)
    isClosed = true
  }

  /// How long a statement waits for another connection's lock before failing with BUSY.
  public func setBusyTimeout(milliseconds: Int32) {
    sqlite3_busy_timeout(handle, milliseconds)
  }

  /// Runs one or more SQL statements separated by semicolons, one statement at a time so that
  /// an error names the exact statement that failed.
  public func execute(_ sql: String) throws(SQLiteError) {
    let bytes = Array(sql.utf8CString)
    var failure: SQLiteError?
    bytes.withUnsafeBufferPointer { buffer in
      guard let base = buffer.baseAddress else { return }
      var cursor: UnsafePointer<CChar>? = base
      while let start = cursor, start.pointee != 0 {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = sqlite3_prepare_v2(handle, start, -1, &statement, &tail)
        // Only an error names the statement: a migration's text is long, trimming it is not free.
        func text() -> String { tail.map { statementText(from: start, to: $0) } ?? String(cString: start) }
        guard code == SQLITE_OK else {
          failure = lastError(code: code, sql: text())
          return
        }
        cursor = tail
        guard let statement else { continue }  // whitespace or a comment
        var stepCode = sqlite3_step(statement)
        while stepCode == SQLITE_ROW { stepCode = sqlite3_step(statement) }
        if stepCode != SQLITE_DONE {
          failure = lastError(code: stepCode, sql: text())
        }
        sqlite3_finalize(statement)
        if failure != nil { return }
      }
    }
    if let failure { throw failure }
  }

  /// A prepared statement for `sql`. Cached statements are reset and reused.
  func statement(_ sql: String, cached: Bool = true) throws(SQLiteError) -> Statement {
    if cached, let statement = statementCache.bySQL[sql] {
      statement.reset()
      return statement
    }
    let statement = try prepare(sql)
    if cached { statementCache.bySQL[sql] = statement }
    return statement
  }

  /// The cached statement a caller names by a small number, reset; prepared from `sql` the
  /// first time. For the statements run once per row: found by its SQL text, each would hash
  /// a few hundred bytes for every row, which shows at a million rows (docs/benchmarks.md).
  ///
  /// `keepingBindings` leaves the bindings of the last run in place, for a statement only run
  /// by `execute(binding: inout ParameterRow)`, which binds every parameter.
  func statement<Key: RawRepresentable>(
    _ key: Key, keepingBindings: Bool = false, sql: () -> String
  ) throws(SQLiteError) -> Statement where Key.RawValue == Int {
    if key.rawValue < statementCache.bySlot.count, let statement = statementCache.bySlot[key.rawValue] {
      if keepingBindings { statement.resetKeepingBindings() } else { statement.reset() }
      return statement
    }
    let statement = try prepare(sql())
    if key.rawValue >= statementCache.bySlot.count {
      statementCache.bySlot += Array(repeating: nil, count: key.rawValue + 1 - statementCache.bySlot.count)
    }
    statementCache.bySlot[key.rawValue] = statement
    return statement
  }

  private func prepare(_ sql: String) throws(SQLiteError) -> Statement {
    var raw: OpaquePointer?
    let code = sqlite3_prepare_v2(handle, sql, -1, &raw, nil)
    guard code == SQLITE_OK, let raw else { throw lastError(code: code, sql: sql) }
    return Statement(raw: raw, database: self, sql: sql)
  }

  /// Runs `sql` with `arguments` and returns every row.
  public func rows(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> [Row] {
    let statement = try self.statement(sql)
    try statement.bind(arguments)
    var result: [Row] = []
    while let row = try statement.step() { result.append(row.copy()) }
    return result
  }

  /// The first column of the first row, or `.null`.
  public func scalar(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) -> SQLValue {
    let statement = try self.statement(sql)
    try statement.bind(arguments)
    let value = try statement.step()?.value(at: 0) ?? .null
    statement.reset()
    return value
  }

  /// Runs a statement that returns no rows.
  public func run(_ sql: String, _ arguments: [SQLValue] = []) throws(SQLiteError) {
    let statement = try self.statement(sql)
    try statement.bind(arguments)
    while try statement.step() != nil {}
  }

  public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
  public var changes: Int { Int(sqlite3_changes(handle)) }
  /// True while a transaction is open (autocommit is off).
  public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
  /// True when the connection cannot write: opened read-only, or SQLite fell back to reading
  /// because the file or its file system is not writable.
  public var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

  /// The kinds of `BEGIN`. Writers use `immediate` so that the write lock is taken up front
  /// and a busy store fails (or waits) before anything is read.
  public enum TransactionKind: String, Sendable {
    case deferred = "DEFERRED"
    case immediate = "IMMEDIATE"
  }

  /// Runs `body` in a transaction: committed when it returns (rolled back instead with
  /// `commit: false`, a dry run), rolled back when it throws. A failed `BEGIN` is thrown as
  /// `beginFailure` makes it, so a caller can tell "could not start" (another writer holds the
  /// lock) from what went wrong inside.
  func inTransaction<T>(
    _ kind: TransactionKind = .immediate, commit: Bool = true,
    beginFailure: (SQLiteError) -> any Error = { $0 }, _ body: () throws -> T
  ) throws -> T {
    do {
      try execute("BEGIN \(kind.rawValue)")
    } catch {
      throw beginFailure(error)
    }
    do {
      let result = try body()
      try execute(commit ? "COMMIT" : "ROLLBACK")
      return result
    } catch {
      if isInTransaction { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// Runs `body` with a page cache of at most `mebibytes` (`PRAGMA cache_size`), then gives the
  /// connection back the size it had.
  ///
  /// Related SQLite documentation: https://sqlite.org/pragma.html#pragma_cache_size
  public func withPageCache<T>(mebibytes: Int, _ body: () throws -> T) throws -> T {
    let previous = try scalar("PRAGMA cache_size")
    try execute("PRAGMA cache_size = -\(mebibytes * 1024)")
    defer { if case .integer(let size) = previous { try? execute("PRAGMA cache_size = \(size)") } }
    return try body()
  }

  /// Runs `body` with up to `mebibytes` of the file memory-mapped (`PRAGMA mmap_size`), then
  /// gives the connection back the size it had: reading a big view then copies no page
  /// through `pread`.
  ///
  /// Related SQLite documentation: https://sqlite.org/mmap.html
  public func withMemoryMap<T>(mebibytes: Int, _ body: () throws -> T) throws -> T {
    let previous = try scalar("PRAGMA mmap_size")
    try execute("PRAGMA mmap_size = \(mebibytes * 1024 * 1024)")
    defer { if case .integer(let size) = previous { try? execute("PRAGMA mmap_size = \(size)") } }
    return try body()
  }

  /// Copies the whole database into a new file at `destination` with SQLite's online backup,
  /// page for page: every page, free ones included, holds the same bytes as here; on the first
  /// page SQLite updates only the file header's bookkeeping (the change counter, the schema
  /// cookie, the page count). The copy is as private as the store: created 0600, never through
  /// a symbolic link. With `rollbackJournal`, a copy of a WAL database is switched to rollback
  /// journal mode (two bytes of that header), so that it is one self-contained file that
  /// opens read-only without a `-wal` or `-shm` beside it.
  ///
  /// Related SQLite documentation: https://sqlite.org/backup.html
  public func backup(to destination: String, rollbackJournal: Bool = false) throws(SQLiteError) {
    let descriptor = open(destination, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard descriptor >= 0, fchmod(descriptor, 0o600) == 0 else {
      let reason = String(cString: strerror(errno)).lowercased()
      if descriptor >= 0 { Foundation.close(descriptor) }
      throw SQLiteError(extendedCode: SQLITE_CANTOPEN, message: "cannot create the backup '\(destination)': \(reason)")
    }
    Foundation.close(descriptor)
    let target = try Database(path: destination, mode: .readWrite)
    defer { target.close() }
    guard let backup = sqlite3_backup_init(target.handle, "main", handle, "main") else {
      throw target.lastError(code: sqlite3_errcode(target.handle), sql: nil)
    }
    let stepCode = sqlite3_backup_step(backup, -1)
    let finishCode = sqlite3_backup_finish(backup)
    guard stepCode == SQLITE_DONE, finishCode == SQLITE_OK else {
      throw SQLiteError(
        extendedCode: stepCode == SQLITE_DONE ? finishCode : stepCode,
        message: "backup to '\(destination)' failed")
    }
    if rollbackJournal { _ = try target.scalar("PRAGMA journal_mode = DELETE") }
  }

  /// Registers the functions migrations written in SQL fill and check derived columns with:
  /// `remconv_name_key(name)`, the list-name key of `ListName.key(for:)`;
  /// `remconv_due_day(due, due_tz)`, `ReminderIndexValues.dueDay`; and
  /// `remconv_search_text(title, notes)`, `ReminderIndexValues.searchText`.
  public func registerRemconvFunctions() throws(SQLiteError) {
    try register("remconv_name_key", arguments: 1) { context, values in
      guard let name = Database.text(values, 0) else { return sqlite3_result_null(context) }
      Database.result(context, ListName.key(for: name))
    }
    try register("remconv_due_day", arguments: 2) { context, values in
      guard let day = ReminderIndexValues.dueDay(due: Database.text(values, 0), timeZone: Database.text(values, 1))
      else {
        return sqlite3_result_null(context)
      }
      sqlite3_result_int64(context, day)
    }
    try register("remconv_search_text", arguments: 2) { context, values in
      Database.result(
        context, ReminderIndexValues.searchText(title: Database.text(values, 0), notes: Database.text(values, 1)))
    }
  }

  private func register(
    _ name: String, arguments: Int32,
    _ body: @escaping @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>) -> Void
  ) throws(SQLiteError) {
    // The C callback cannot capture `body`: it travels as the function's user data.
    let box = Unmanaged.passRetained(FunctionBody(body)).toOpaque()
    let code = sqlite3_create_function_v2(
      handle, name, arguments, SQLITE_UTF8 | SQLITE_DETERMINISTIC, box,
      { context, count, values in
        guard let values, let box = sqlite3_user_data(context) else { return sqlite3_result_null(context) }
        Unmanaged<FunctionBody>.fromOpaque(box).takeUnretainedValue().body(context, values)
      }, nil, nil,
      { box in box.map { Unmanaged<FunctionBody>.fromOpaque($0).release() } })
    guard code == SQLITE_OK else { throw lastError(code: code, sql: nil) }
  }

  /// The text of argument `index`, or nil when it is NULL. Read by length, not up to a NUL:
  /// a text holding one must not fold like its prefix.
  private static func text(_ values: UnsafeMutablePointer<OpaquePointer?>, _ index: Int) -> String? {
    guard let value = values[index], sqlite3_value_type(value) != SQLITE_NULL, let text = sqlite3_value_text(value)
    else { return nil }
    return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
  }

  private static func result(_ context: OpaquePointer?, _ text: String) {
    var text = text
    text.withUTF8 { buffer in
      buffer.withMemoryRebound(to: CChar.self) { characters in
        guard let base = characters.baseAddress, !characters.isEmpty else {
          sqlite3_result_text(context, "", 0, csqlite_transient())
          return
        }
        sqlite3_result_text64(
          context, base, sqlite3_uint64(characters.count), csqlite_transient(), UInt8(SQLITE_UTF8))
      }
    }
  }

  func lastError(code: Int32, sql: String?) -> SQLiteError {
    let extended = sqlite3_extended_errcode(handle)
    var message = String(cString: sqlite3_errmsg(handle))
    let primary = (extended != 0 ? extended : code) & 0xFF
    // SQLite says only "disk I/O error": add the system's reason ("no space left on device"),
    // which is meaningful right after a failed read or write.
    if primary == SQLITE_IOERR || primary == SQLITE_FULL {
      let systemErrno = sqlite3_system_errno(handle)
      if systemErrno != 0 { message += " (\(String(cString: strerror(systemErrno)).lowercased()))" }
    }
    return SQLiteError(extendedCode: extended != 0 ? extended : code, message: message, sql: sql)
  }

  private func statementText(from start: UnsafePointer<CChar>, to end: UnsafePointer<CChar>)
    -> String
  {
    let length = end - start
    let buffer = UnsafeBufferPointer(start: start, count: length)
    return String(decoding: buffer.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
  }
}

/// A registered function's Swift body, kept alive as long as SQLite holds the function.
private final class FunctionBody {
  let body: @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>) -> Void
  init(_ body: @escaping @convention(c) (OpaquePointer?, UnsafeMutablePointer<OpaquePointer?>) -> Void) {
    self.body = body
  }
}

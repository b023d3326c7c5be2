import Foundation

/// A row of another program's database, by column name. Only the columns the probed schema has
/// are present: a column a layout lacks reads as absent, never as an error.
struct ForeignRow {
  let values: [String: SQLValue]

  subscript(_ column: String) -> SQLValue { values[column] ?? .null }

  func int(_ column: String) -> Int64? {
    switch self[column] {
    case .integer(let number): number
    case .real(let number): Int64(exactly: number.rounded())
    case .text(let text): Int64(text)
    default: nil
    }
  }

  func double(_ column: String) -> Double? {
    switch self[column] {
    case .integer(let number): Double(number)
    case .real(let number): number
    default: nil
    }
  }

  func string(_ column: String) -> String? {
    if case .text(let text) = self[column] { return text }
    return nil
  }

  func bool(_ column: String) -> Bool { (int(column) ?? 0) != 0 }

  func blob(_ column: String) -> [UInt8]? {
    if case .blob(let bytes) = self[column] { return bytes }
    return nil
  }
}

/// A private, read-only snapshot of a Core Data SQLite file (Apple Reminders' `Data-*.sqlite`,
/// a SwiftData `default.store`), and what its schema says.
///
/// The source is never opened: SQLite may write a database's `-shm` (and checkpoint its `-wal`)
/// even on a read-only open, and `immutable=1` would ignore the rows still only in the `-wal`.
/// So the file and its `-wal` are copied into a private folder and the copy is opened; SQLite
/// rebuilds the WAL index from the copied `-wal`, so committed rows there are read.
final class CoreDataFile {
  /// The source path, for messages.
  let sourcePath: String
  private let folder: String
  private let registration: TemporaryPaths.Registration?
  let database: Database
  /// Table name to column names, from `sqlite_master` and `PRAGMA table_info`.
  let tables: [String: [String]]
  /// Core Data's entity numbers by entity name (`Z_PRIMARYKEY`).
  let entityNumbers: [String: Int64]
  /// `Z_METADATA.Z_UUID`: the store's identity, the base of derived UIDs.
  let storeUUID: String?

  /// Copies `path` and its write-ahead log: `wal`, `path-wal` by default (a backup keeps it
  /// under another name).
  init(copying path: String, wal walPath: String? = nil) throws(RemconvError) {
    let walPath = walPath ?? path + "-wal"
    sourcePath = path
    try Self.refuseIfBeingWritten(path)
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("remconv-read-\(UUID().uuidString)").path
    registration = TemporaryPaths.register(folder)
    let copy = folder + "/source.sqlite"
    do {
      try FileManager.default.createDirectory(
        atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
      let before = Self.fingerprint([path, walPath])
      try FileManager.default.copyItem(atPath: path, toPath: copy)
      if FileManager.default.fileExists(atPath: walPath) {
        try FileManager.default.copyItem(atPath: walPath, toPath: copy + "-wal")
      }
      // A writer that committed while the files were copied leaves a copy that may not hold
      // together: refused like a writer holding the lock.
      guard Self.fingerprint([path, walPath]) == before else { throw RemconvError.storeBusy(Self.busyMessage(path)) }
    } catch let error as RemconvError {
      Self.remove(folder, registration)
      throw error
    } catch {
      Self.remove(folder, registration)
      throw .ioFailure("\(path): cannot copy the database to read it: \(error.localizedDescription)")
    }
    do throws(SQLiteError) {
      database = try Database(path: copy, mode: .readWrite)
      // The file is another program's, maybe a hostile one: its schema (views, defaults,
      // generated columns) may not call functions with side effects.
      try database.execute("PRAGMA trusted_schema = OFF")
      let problems = try database.rows("PRAGMA quick_check").compactMap { $0.string(0) }
      guard problems == ["ok"] else {
        throw SQLiteError(extendedCode: 11, message: problems.prefix(3).joined(separator: "; "))
      }
      var tables: [String: [String]] = [:]
      for row in try database.rows("SELECT name FROM sqlite_master WHERE type = 'table'") {
        guard let name = row.string(0) else { continue }
        tables[name] = try database.rows("SELECT name FROM pragma_table_info(?)", [.text(name)]).compactMap {
          $0.string(0)
        }
      }
      self.tables = tables
      var entities: [String: Int64] = [:]
      if tables["Z_PRIMARYKEY"]?.contains("Z_NAME") == true {
        for row in try database.rows("SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") {
          if let number = row.int(0), let name = row.string(1) { entities[name] = number }
        }
      }
      entityNumbers = entities
      storeUUID =
        tables["Z_METADATA"]?.contains("Z_UUID") == true
        ? try database.scalar("SELECT Z_UUID FROM Z_METADATA LIMIT 1").textValue : nil
    } catch {
      Self.remove(folder, registration)
      throw .invalidInput(
        "\(path): not a readable SQLite database (truncated or damaged?): \(error.message)")
    }
  }

  deinit {
    database.close()
    Self.remove(folder, registration)
  }

  private static func remove(_ folder: String, _ registration: TemporaryPaths.Registration?) {
    TemporaryPaths.removeFolder(folder)
    TemporaryPaths.unregister(registration)
  }

  func hasTable(_ table: String) -> Bool { tables[table] != nil }

  func hasColumn(_ column: String, in table: String) -> Bool { tables[table]?.contains(column) == true }

  /// The entity name of each entity number.
  var entityNames: [Int64: String] {
    Dictionary(entityNumbers.map { ($0.value, $0.key) }, uniquingKeysWith: { first, _ in first })
  }

  /// Every row of `table` with those of `columns` the table has (all columns when nil), in
  /// `Z_PK` order when the table has one.
  func rows(of table: String, columns: [String]? = nil) throws(RemconvError) -> [ForeignRow] {
    guard let present = tables[table] else { return [] }
    let selected = columns.map { wanted in wanted.filter(present.contains) } ?? present
    guard !selected.isEmpty else { return [] }
    let order = present.contains("Z_PK") ? " ORDER BY Z_PK" : ""
    let sql = "SELECT \(selected.map(Self.quoted).joined(separator: ", ")) FROM \(Self.quoted(table))\(order)"
    do throws(SQLiteError) {
      return try database.rows(sql).map { row in
        ForeignRow(
          values: Dictionary(uniqueKeysWithValues: selected.enumerated().map { ($0.element, row.value(at: $0.offset)) })
        )
      }
    } catch {
      throw .invalidInput("\(sourcePath): cannot read \(table) (truncated or damaged?): \(error.message)")
    }
  }

  private static func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  // MARK: The source, untouched

  /// Size and modification time of the file and its `-wal`: unchanged across the copy means no
  /// writer committed meanwhile.
  private static func fingerprint(_ files: [String]) -> [Int64] {
    files.flatMap { file -> [Int64] in
      var status = stat()
      guard stat(file, &status) == 0 else { return [-1] }
      return [Int64(status.st_size), Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec)]
    }
  }

  /// Refuses a database another process is writing, asking the system about SQLite's locks
  /// (`F_GETLK` takes none and changes nothing): the write lock of a WAL database is byte 120
  /// of its `-shm`, that of a rollback-journal database the RESERVED byte of the file.
  ///
  /// Related SQLite documentation: https://sqlite.org/walformat.html#locks,
  /// https://sqlite.org/lockingv3.html
  static func refuseIfBeingWritten(_ path: String) throws(RemconvError) {
    let pendingByte: Int = 0x4000_0000
    let probes = [(path + "-shm", 120), (path, pendingByte + 1)]
    for (file, offset) in probes {
      let descriptor = open(file, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else { continue }
      defer { close(descriptor) }
      var lock = flock()
      lock.l_type = Int16(F_WRLCK)
      lock.l_whence = Int16(SEEK_SET)
      lock.l_start = off_t(offset)
      lock.l_len = 1
      if fcntl(descriptor, F_GETLK, &lock) == 0, lock.l_type != Int16(F_UNLCK) {
        throw .storeBusy(busyMessage(path))
      }
    }
  }

  private static func busyMessage(_ path: String) -> String {
    "\(path): the database is being written by another program (Reminders or the app still open?); quit it, or copy the file with its -wal, and try again"
  }

  /// True when the file starts with SQLite's header.
  static func isSQLite(_ head: [UInt8]) -> Bool { head.starts(with: Array("SQLite format 3\u{0}".utf8)) }
}

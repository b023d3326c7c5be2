import Foundation

/// A verified copy of a store, kept next to it: `<store>.backup-<from>-to-<to>-<time>.sqlite`.
///
/// `from` and `to` are the step numbers the store was at and was going to (`0003`, `0005`);
/// the time is UTC (`20261129T100000Z`), with `-2`, `-3`… when two are taken in one second.
/// Backups are private (0600) like the store. See docs/migrations.md, "Backups".
public struct MigrationBackup: Sendable, Hashable {
  public let path: String
  public let fromVersion: Int
  public let toVersion: Int
  /// The UTC time in the name, `20261129T100000Z`.
  public let time: String
  /// The counter after the time when several were taken in one second (1 when none).
  public let sequence: Int

  /// How many backups of a store `remconv` keeps: the newest three.
  public static let defaultKept = 3

  /// The backups of the store at `storePath`, oldest first.
  public static func list(for storePath: String) -> [MigrationBackup] {
    let url = URL(fileURLWithPath: storePath)
    let directory = url.deletingLastPathComponent().path
    let prefix = url.lastPathComponent + ".backup-"
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    // Paths are spelled like the store's (relative stays relative), as `nextPath` makes them.
    return names.compactMap { name -> MigrationBackup? in
      guard name.hasPrefix(prefix) else { return nil }
      let rest = String(name.dropFirst(prefix.count))
      return parse(rest, path: storePath + ".backup-" + rest)
    }.sorted { ($0.time, $0.sequence) < ($1.time, $1.sequence) }
  }

  /// Reads `0003-to-0005-20261129T100000Z[-2].sqlite`.
  private static func parse(_ rest: String, path: String) -> MigrationBackup? {
    guard rest.hasSuffix(".sqlite") else { return nil }
    let fields = rest.dropLast(".sqlite".count).split(separator: "-")
    guard fields.count == 4 || fields.count == 5, fields[1] == "to",
      let from = Int(fields[0]), let to = Int(fields[2]), fields[3].count == 16, fields[3].hasSuffix("Z")
    else { return nil }
    let sequence = fields.count == 5 ? Int(fields[4]) : 1
    guard let sequence else { return nil }
    return MigrationBackup(path: path, fromVersion: from, toVersion: to, time: String(fields[3]), sequence: sequence)
  }

  /// The path the next backup of `storePath` from `from` to `to` taken at `date` gets.
  public static func nextPath(for storePath: String, from: Int, to: Int, at date: Date) -> String {
    let base = storePath + ".backup-" + pad(from) + "-to-" + pad(to) + "-" + fileTime(date)
    var candidate = base + ".sqlite"
    var sequence = 2
    while FileManager.default.fileExists(atPath: candidate)
      || FileManager.default.fileExists(atPath: candidate + partialSuffix)
    {
      candidate = base + "-\(sequence).sqlite"
      sequence += 1
    }
    return candidate
  }

  static let partialSuffix = ".partial"

  /// A UTC time as file names carry it: `20261129T100000Z`.
  static func fileTime(_ date: Date) -> String {
    Timestamp(date).utcWallTime.description.filter { $0 != "-" && $0 != ":" } + "Z"
  }

  private static func pad(_ number: Int) -> String {
    let text = String(number)
    return String(repeating: "0", count: max(0, 4 - text.count)) + text
  }

  /// Copies the store into a new backup and verifies it, while the caller holds the store's
  /// write lock (`BEGIN IMMEDIATE` on `lockHolder`, nothing written yet): `copy`, then `keep`.
  static func take(
    of storePath: String, counts: [String: Int], from: Int, to: Int, at date: Date,
    busyTimeoutMilliseconds: Int32
  ) throws -> MigrationBackup {
    try copy(of: storePath, from: from, to: to, at: date, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
      .keep(counts: counts)
  }

  /// A copy of the store, written, synced and checked, still under its `.partial` name:
  /// `keep` makes it a backup once the store's row counts are known, `discard` removes it.
  struct Copy {
    let storePath: String
    let partialPath: String
    let finalPath: String
    /// The rows of every table of the copy.
    let counts: [String: Int]

    /// Compares the copy's row counts with the store's (`counts`), names it and syncs its
    /// folder. The copy is removed when anything fails.
    func keep(counts expected: [String: Int]) throws -> MigrationBackup {
      do {
        try MigrationBackup.compare(counts, with: expected, path: partialPath)
        guard rename(partialPath, finalPath) == 0 else {
          throw RemconvError.ioFailure("\(finalPath): cannot name the backup: \(String(cString: strerror(errno)))")
        }
        try syncDirectory(of: finalPath)
      } catch {
        discard()
        if let remconv = error as? RemconvError { throw remconv }
        throw RemconvError.ioFailure("\(finalPath): the backup could not be written: \(error)")
      }
      guard let backup = list(for: storePath).first(where: { $0.path == finalPath }) else {
        throw RemconvError.ioFailure("\(finalPath): the backup vanished after it was written")
      }
      return backup
    }

    func discard() {
      try? FileManager.default.removeItem(atPath: partialPath)
    }
  }

  /// Copies the store page for page into a new `.partial` file beside it and checks the copy,
  /// while the caller holds the store's write lock (`BEGIN IMMEDIATE`, nothing written yet).
  ///
  /// The copy is SQLite's online backup from a second, read-only connection (SQLite backs up
  /// from no connection inside a write transaction): the lock keeps every other writer out, so
  /// it reads exactly the state the upgrade starts from (migrations.md §5.4). Every page, free
  /// ones included, holds the store's bytes; only the file header's bookkeeping is the copy's
  /// own, and it is left in rollback journal mode, one self-contained file. The file is
  /// synced, then reopened read-only and must pass the full `integrity_check`. Being the same pages,
  /// that check is also the store's: the migrator checks the store itself only when the copy
  /// fails, to tell which of the two is damaged. `copyWritten` is a test seam, called with the
  /// copy's path once it is synced and before it is checked. Nothing is left when this throws.
  static func copy(
    of storePath: String, from: Int, to: Int, at date: Date, busyTimeoutMilliseconds: Int32,
    copyWritten: (String) throws -> Void = { _ in }
  ) throws -> Copy {
    removeStalePartials(for: storePath)
    let finalPath = nextPath(for: storePath, from: from, to: to, at: date)
    let partialPath = finalPath + partialSuffix
    try createPrivateFile(partialPath)
    do {
      let reader = try Database(path: storePath, mode: .readOnly)
      defer { reader.close() }
      reader.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
      try reader.backup(to: partialPath, rollbackJournal: true)
      reader.close()
      try syncFile(partialPath)
      try copyWritten(partialPath)
      let counts = try checked(partialPath)
      return Copy(storePath: storePath, partialPath: partialPath, finalPath: finalPath, counts: counts)
    } catch {
      try? FileManager.default.removeItem(atPath: partialPath)
      if let remconv = error as? RemconvError { throw remconv }
      throw RemconvError.ioFailure("\(finalPath): the backup could not be written: \(error)")
    }
  }

  /// Checks that `path` is an intact SQLite database and, when `counts` is given, that it
  /// holds exactly those tables with those row counts. Opens it read-only; never writes.
  static func verify(_ path: String, counts: [String: Int]?) throws {
    let found = try checked(path)
    if let counts { try compare(found, with: counts, path: path) }
  }

  /// The row counts of every table of the database at `path`, once it has passed the full
  /// `integrity_check`. Opened read-only and memory-mapped: the check reads every page several
  /// times, and through a small page cache each read is a system call (a million reminders'
  /// store: 0.9 s of CPU time so, 0.4 s mapped; docs/migrations.md, "Cost").
  private static func checked(_ path: String) throws -> [String: Int] {
    let database: Database
    do {
      database = try Database(path: path, mode: .readOnly)
    } catch {
      throw RemconvError.notAStore("\(path): the backup cannot be opened: \(error.message)")
    }
    defer { database.close() }
    do {
      return try database.withMemoryMap(mebibytes: checkMemoryMapMebibytes) {
        let problems = try StoreSnapshot.integrityProblems(database)
        if !problems.isEmpty {
          throw RemconvError.notAStore(
            "\(path): the backup is damaged (integrity_check: \(problems.prefix(3).joined(separator: "; ")))")
        }
        return try StoreSnapshot.tableCounts(database)
      }
    } catch let error as SQLiteError {
      throw RemconvError.notAStore("\(path): the backup is damaged: \(error.message)")
    }
  }

  /// How much of a backup its check maps at most; a bigger file is read through the page
  /// cache beyond that.
  static let checkMemoryMapMebibytes = 4096

  /// Throws unless the backup at `path` holds `found` rows per table, the store `expected`.
  private static func compare(_ found: [String: Int], with expected: [String: Int], path: String) throws {
    guard found != expected else { return }
    let differences = Set(found.keys).union(expected.keys).sorted().compactMap { table -> String? in
      found[table] == expected[table]
        ? nil
        : "\(table): \(expected[table].map(String.init) ?? "none") in the store, \(found[table].map(String.init) ?? "none") in the backup"
    }
    throw RemconvError.notAStore(
      "\(path): the backup does not match the store (\(differences.joined(separator: "; ")))")
  }

  /// Removes all but the newest `kept` backups of the store. Returns the removed paths.
  @discardableResult
  static func prune(for storePath: String, keeping kept: Int) -> [String] {
    let backups = list(for: storePath)
    guard backups.count > kept else { return [] }
    var removed: [String] = []
    for backup in backups.dropLast(max(kept, 0)) where (try? FileManager.default.removeItem(atPath: backup.path)) != nil
    {
      removed.append(backup.path)
    }
    return removed
  }

  /// Deletes `.partial` files of this store: only the holder of the store's write lock writes
  /// one, so any found under the lock was left by a process that died while writing it.
  private static func removeStalePartials(for storePath: String) {
    let url = URL(fileURLWithPath: storePath)
    let directory = url.deletingLastPathComponent().path
    let prefix = url.lastPathComponent + ".backup-"
    for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    where name.hasPrefix(prefix) && name.hasSuffix(partialSuffix) {
      try? FileManager.default.removeItem(atPath: directory + "/" + name)
    }
  }

  /// Creates an empty file readable by its owner only, which the copy then fills.
  static func createPrivateFile(_ path: String) throws {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw RemconvError.cannotCreateOutput("\(path): cannot create the backup: \(String(cString: strerror(errno)))")
    }
    close(descriptor)
  }

  static func syncFile(_ path: String) throws {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      throw RemconvError.ioFailure("\(path): cannot open to sync: \(String(cString: strerror(errno)))")
    }
    defer { close(descriptor) }
    guard fsync(descriptor) == 0 else {
      throw RemconvError.ioFailure("\(path): fsync failed: \(String(cString: strerror(errno)))")
    }
  }

  /// Syncs the folder holding `path`, so that a new or renamed entry survives a power cut.
  static func syncDirectory(of path: String) throws {
    try syncFile(URL(fileURLWithPath: path).deletingLastPathComponent().path)
  }

  /// The bytes free for this user in the folder holding `path`, or nil when unknown.
  static func freeBytes(near path: String) -> Int64? {
    var info = statvfs()
    guard statvfs(URL(fileURLWithPath: path).deletingLastPathComponent().path, &info) == 0 else { return nil }
    return Int64(info.f_bavail) * Int64(info.f_frsize)
  }
}

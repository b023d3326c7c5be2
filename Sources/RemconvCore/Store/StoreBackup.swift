import Foundation

/// A verified copy of the store, taken before a change that rewrites it.
///
/// The copy is made with SQLite's online backup from a second, read-only connection: SQLite
/// refuses to back up from a connection inside a write transaction, and a reader sees the last
/// committed state. When the caller holds the write lock (`Store.write`) and has written
/// nothing yet, that state is exactly the one the change starts from, and no other writer can
/// commit in between (the locked snapshot of the migration research, §5.4). A copy counts as a
/// backup only once it has been flushed to disk, reopened, passed `integrity_check` and shown
/// the same row count in every table as the live store; otherwise it is removed and the change
/// must not go ahead.
///
/// Related SQLite documentation: https://sqlite.org/backup.html
public struct StoreBackup: Sendable {
  /// Where the copy is: beside the store, `<store>.<label>-<UTC time>.sqlite`.
  public let path: String
  /// The row count of every table, equal in the copy and the store when it was taken.
  public let rowCounts: [String: Int]

  /// Copies `store` beside itself and verifies the copy.
  ///
  /// - Parameters:
  ///   - label: says why the copy was taken (`pre-validate-fix`), part of the file name.
  ///   - now: the time in the file name.
  /// - Throws: `RemconvError.ioFailure` when the copy cannot be written or does not verify
  ///   (no copy is left behind then).
  public static func make(of store: Store, label: String, now: Date) throws -> StoreBackup {
    // The copy is written under a hidden temporary name and given its backup name only once
    // verified, so a run killed while copying never leaves a file that looks like a backup;
    // the next run removes such leftovers (`TemporaryPaths`).
    let stamp = Timestamp(now).utcWallTime.basicString
    let firstName = "\(store.path).\(label)-\(stamp)Z.sqlite"
    TemporaryPaths.removeLeftovers(in: URL(fileURLWithPath: store.path).deletingLastPathComponent().path)
    let temporary = TemporaryPaths.name(beside: firstName)
    let registration = TemporaryPaths.register(temporary)
    defer { TemporaryPaths.unregister(registration) }
    do {
      let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
      guard descriptor >= 0 else {
        throw RemconvError.ioFailure(
          "\(firstName): cannot create the backup: \(String(cString: strerror(errno)).lowercased())")
      }
      Foundation.close(descriptor)
      let source = try Database(path: store.path, mode: .readOnly)
      defer { source.close() }
      source.setBusyTimeout(milliseconds: store.options.busyTimeoutMilliseconds)
      try source.backup(to: temporary)
      // The copy inherits the store's WAL mode; a backup is one self-contained file.
      let copyWriter = try Database(path: temporary, mode: .readWrite)
      _ = try copyWriter.scalar("PRAGMA journal_mode = DELETE")
      copyWriter.close()
      try synchronize(temporary)
      let live = try store.tableRowCounts()
      let copy = try Database(path: temporary, mode: .readOnly)
      defer { copy.close() }
      let check = try copy.rows("PRAGMA integrity_check").compactMap { $0.string(0) }
      guard check == ["ok"] else {
        throw RemconvError.ioFailure(
          "\(firstName): the backup failed its integrity check: \(check.prefix(3).joined(separator: "; "))")
      }
      let copied = try Store.tableRowCounts(in: copy)
      guard copied == live else {
        throw RemconvError.ioFailure("\(firstName): the backup's row counts differ from the store's")
      }
      let path = try place(temporary, storePath: store.path, label: label, stamp: stamp)
      unlink(temporary)
      try synchronize(path)
      return StoreBackup(path: path, rowCounts: live)
    } catch {
      unlink(temporary)
      if let failure = error as? RemconvError { throw failure }
      throw RemconvError.ioFailure("\(firstName): cannot write the backup: \(error)")
    }
  }

  /// Gives the verified copy its backup name, never reusing one: a second copy in the same
  /// second gets a counter. `link` fails when the name is taken, so nothing is overwritten.
  private static func place(_ temporary: String, storePath: String, label: String, stamp: String) throws -> String {
    for attempt in 1...100 {
      let path = "\(storePath).\(label)-\(stamp)Z" + (attempt == 1 ? "" : "-\(attempt)") + ".sqlite"
      if link(temporary, path) == 0 { return path }
      guard errno == EEXIST else {
        throw RemconvError.ioFailure(
          "\(path): cannot create the backup: \(String(cString: strerror(errno)).lowercased())")
      }
    }
    throw RemconvError.ioFailure("\(storePath): too many backups taken in one second")
  }

  /// Flushes the copy and its folder's entry to disk, so the backup survives a power cut that
  /// the change after it might not.
  private static func synchronize(_ path: String) throws {
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    for target in [path, folder] {
      let descriptor = open(target, O_RDONLY | O_CLOEXEC)
      guard descriptor >= 0 else {
        throw RemconvError.ioFailure(
          "\(target): cannot open to flush the backup: \(String(cString: strerror(errno)).lowercased())")
      }
      defer { Foundation.close(descriptor) }
      guard fsync(descriptor) == 0 else {
        throw RemconvError.ioFailure(
          "\(target): cannot flush the backup: \(String(cString: strerror(errno)).lowercased())")
      }
    }
  }
}

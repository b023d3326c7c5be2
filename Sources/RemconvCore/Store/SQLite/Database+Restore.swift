internal import CSQLite

extension Database {
  /// Replaces this database's whole content with `source`'s, page by page, through SQLite's
  /// online backup API, and runs `whileLocked` while this database's write lock is held.
  ///
  /// The first page copied takes the write lock on this database; it is held until the copy
  /// completes, so no other writer can slip in between `whileLocked` (which takes the
  /// safety copy of the old content from another connection: readers still see the old,
  /// committed content) and the new content's commit. If `whileLocked` throws, the copy is
  /// abandoned and this database is left as it was. The copy goes through this connection, so
  /// the journal or WAL stays consistent and other connections see the new content at their
  /// next transaction: never rename or copy files over a database in use (migrations.md §5.4).
  ///
  /// Related SQLite documentation: https://sqlite.org/c3ref/backup_finish.html
  public func replaceContents(with source: Database, whileLocked: () throws -> Void) throws {
    guard case .integer(let pages) = try source.scalar("PRAGMA page_count"), pages > 1 else {
      throw SQLiteError(extendedCode: SQLITE_EMPTY, message: "the source database '\(source.path)' is empty")
    }
    guard let backup = sqlite3_backup_init(handle, "main", source.handle, "main") else {
      throw lastError(code: sqlite3_errcode(handle), sql: nil)
    }
    var isFinished = false
    defer { if !isFinished { sqlite3_backup_finish(backup) } }
    let first = sqlite3_backup_step(backup, 1)
    guard first == SQLITE_OK else {
      let code = first == SQLITE_DONE ? SQLITE_MISUSE : first
      sqlite3_backup_finish(backup)
      isFinished = true
      throw SQLiteError(extendedCode: code, message: "cannot start copying '\(source.path)' into '\(path)'")
    }
    try whileLocked()
    let rest = sqlite3_backup_step(backup, -1)
    let finish = sqlite3_backup_finish(backup)
    isFinished = true
    guard rest == SQLITE_DONE, finish == SQLITE_OK else {
      throw SQLiteError(
        extendedCode: rest == SQLITE_DONE ? finish : rest,
        message: "copying '\(source.path)' into '\(path)' failed: \(String(cString: sqlite3_errmsg(handle)))")
    }
  }
}

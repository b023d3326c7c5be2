internal import CSQLite

/// An error returned by SQLite, with the extended result code, SQLite's message and the SQL
/// that failed. Bound values are never part of the description: they may be user data.
public struct SQLiteError: Error, CustomStringConvertible, Sendable {
  /// The extended result code (`sqlite3_extended_errcode`).
  public let extendedCode: Int32
  public let message: String
  public let sql: String?

  public init(extendedCode: Int32, message: String, sql: String? = nil) {
    self.extendedCode = extendedCode
    self.message = message
    self.sql = sql
  }

  /// The primary result code: the low byte of the extended one.
  public var primaryCode: Int32 { extendedCode & 0xFF }

  public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
  public var isIOFailure: Bool { primaryCode == SQLITE_IOERR || primaryCode == SQLITE_FULL }
  public var isNotADatabase: Bool { primaryCode == SQLITE_NOTADB || primaryCode == SQLITE_CORRUPT }
  public var isReadOnly: Bool { primaryCode == SQLITE_READONLY }
  public var isCannotOpen: Bool { primaryCode == SQLITE_CANTOPEN }
  public var isConstraint: Bool { primaryCode == SQLITE_CONSTRAINT }

  public var description: String {
    var text = "SQLite error \(extendedCode): \(message)"
    if let sql { text += " - while executing `\(sql)`" }
    return text
  }
}

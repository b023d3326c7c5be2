/// The statements an import or export runs once per reminder, prepared once per store and
/// found by a small key.
///
/// `Database.statement(_:)` finds a cached statement by its SQL text, which means hashing a few
/// hundred bytes for every row; at a million rows that shows in profiles (docs/benchmarks.md).
final class HotStatements {
  enum Query: Int, CaseIterable {
    case fingerprint, insertReminder, updateReminder, rowIDByUID, parentRowID, reminderByRowID, rowIDBySourceDigest
    case setSourceDigest
  }

  private var prepared: [Statement?] = Array(repeating: nil, count: Query.allCases.count)

  /// The statement of `query`, reset; prepared from `sql` the first time.
  func statement(_ query: Query, in database: Database, sql: () -> String) throws(SQLiteError) -> Statement {
    if let statement = prepared[query.rawValue] {
      statement.reset()
      return statement
    }
    let statement = try database.statement(sql(), cached: false)
    prepared[query.rawValue] = statement
    return statement
  }

  /// Finalizes every statement (before the connection closes).
  func removeAll() {
    prepared = Array(repeating: nil, count: Query.allCases.count)
  }
}

import Foundation
import RemconvCore

/// The fixture stores of every earlier schema version (made by Scripts/make-fixture-stores.sh).
public enum FixtureStores {
  /// One store per earlier schema version, with realistic data.
  public static let earlierVersions = [
    "v0001.sqlite", "v0002.sqlite", "v0003.sqlite", "v0004.sqlite", "v0005.sqlite", "v0006.sqlite", "v0007.sqlite",
    "v0008.sqlite", "v0011.sqlite",
  ]

  /// The columns steps 0008 and later add to a reminder row written before them: 0008's derived
  /// from the row's own values (`ReminderIndexValues`), 0009's empty (`scheduleDefaults`).
  public static func addedColumns(of row: [String: SQLValue]) -> [String: SQLValue] {
    func text(_ name: String) -> String? { if case .text(let value)? = row[name] { value } else { nil } }
    return [
      "due_day": ReminderIndexValues.dueDay(due: text("due"), timeZone: text("due_tz")).map(SQLValue.integer) ?? .null,
      "search_text": .text(ReminderIndexValues.searchText(title: text("title"), notes: text("notes"))),
    ].merging(scheduleDefaults) { derived, _ in derived }
  }

  /// The columns migration 0009 adds (start date, recurrence, alarms), and what each holds in
  /// a row written before it.
  public static let scheduleColumns = ["start", "start_kind", "start_tz", "recurrence", "alarms"]
  public static let scheduleDefaults: [String: SQLValue] = [
    "start": .null, "start_kind": .null, "start_tz": .null, "recurrence": .null, "alarms": .text("[]"),
  ]

  public static func path(_ name: String) -> String {
    Repository.path("Tests/RemconvCoreTests/Fixtures/stores/" + name)
  }

  /// Copies the fixture `name` into `directory` (as `target`) and returns the copy's path.
  @discardableResult
  public static func copy(_ name: String, into directory: TemporaryDirectory, as target: String = "store.sqlite") throws
    -> String
  {
    let destination = directory.file(target)
    try? FileManager.default.removeItem(atPath: destination)
    try FileManager.default.copyItem(atPath: path(name), toPath: destination)
    return destination
  }

  /// Every row of `table` by row id, each as column name → value.
  public static func rows(of table: String, in database: Database) throws -> [Int64: [String: SQLValue]] {
    let columns = try database.rows("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
      .compactMap { $0.string(0) }
    let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
    var result: [Int64: [String: SQLValue]] = [:]
    for row in try database.rows("SELECT rowid, \(list) FROM \"\(table)\" ORDER BY rowid") {
      var values: [String: SQLValue] = [:]
      for (index, column) in columns.enumerated() { values[column] = row.value(at: index + 1) }
      result[row.int(0) ?? 0] = values
    }
    return result
  }

  /// `rows(of:in:)` for a store file, opened read-only.
  public static func rows(of table: String, inFile path: String) throws -> [Int64: [String: SQLValue]] {
    let database = try Database(path: path, mode: .readOnly)
    defer { database.close() }
    return try rows(of: table, in: database)
  }

  /// The kind step 0003 gives a due date stored before it, by the text's shape: a date, a UTC
  /// or a floating date-time, and none for any other text.
  public static func dueKind(of due: SQLValue?) -> SQLValue {
    guard case .text(let text) = due else { return .null }
    if text.range(of: #"^\d{4}-\d{2}-\d{2}$"#, options: .regularExpression) != nil { return .text("date") }
    if text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$"#, options: .regularExpression) != nil {
      return .text("utc")
    }
    if text.range(of: #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$"#, options: .regularExpression) != nil {
      return .text("floating")
    }
    return .null
  }

  /// The SHA-256 of a file's bytes: "left untouched" means this did not change.
  public static func digest(_ path: String) throws -> String {
    let data = try Data(contentsOf: URL(fileURLWithPath: path))
    var hasher = SHA256()
    hasher.update(Array(data))
    return hasher.finalize().map { String(format: "%02x", $0) }.joined()
  }
}

extension FixtureStores {
  /// Copies the fixture `name` into `directory` and runs `sql` on the copy (to tamper with its
  /// history or its schema), with a plain connection that knows nothing of migrations.
  @discardableResult
  public static func copy(_ name: String, into directory: TemporaryDirectory, editing sql: String) throws -> String {
    let path = try copy(name, into: directory)
    let database = try Database(path: path)
    defer { database.close() }
    try database.execute(sql)
    return path
  }

  /// Damages a database file on purpose: the b-tree page of `table` gets garbage in its
  /// header, so `integrity_check` (and any read of that table's rows) finds it broken while
  /// the file header stays valid.
  public static func damagePage(of table: String, in path: String) throws {
    let database = try Database(path: path, mode: .readOnly)
    let root = try database.scalar("SELECT rootpage FROM sqlite_schema WHERE name = ?", [.text(table)])
    let pageSize = try database.scalar("PRAGMA page_size")
    database.close()
    guard case .integer(let page) = root, case .integer(let size) = pageSize else {
      throw RemconvError.notFound("\(path): no table \(table)")
    }
    let handle = try FileHandle(forUpdating: URL(fileURLWithPath: path))
    defer { try? handle.close() }
    try handle.seek(toOffset: UInt64((page - 1) * size))
    try handle.write(contentsOf: Data(repeating: 0xA5, count: 24))
  }
}

import Foundation

// The queries and targeted writes behind `remconv validate`.
//
// Every check that can be one set-based statement is one here (orphans, broken parent links,
// duplicate UIDs); what needs Swift's parsers (dates, zones, list-name keys) is read in one
// streaming pass. The rows come back raw, exactly as stored, so the validator sees what a hand
// edit or an older remconv left, not what the decoder would make of it.

/// Which reminders a check looks at.
public enum IntegrityScope: Sendable, Equatable {
  /// Every reminder in the store.
  case everything
  /// Only the reminders an import wrote (see `Store.withIntegrityScope`); lists are few and
  /// are always checked whole.
  case importedReminders
  /// The reminders an import wrote when they are every reminder the store holds (an import
  /// into an empty store): the same rows as `importedReminders`, read without the scope
  /// table, and their duplicate UIDs found in one pass over the UID index instead of a lookup
  /// per row (a sixtieth of a first import; docs/benchmarks.md, branch i20-first).
  case importedEveryReminder

  /// The FROM clause that yields the reminders in scope as `r`. CROSS JOIN fixes the scope
  /// table as the outer loop: the planner has no statistics for it and would otherwise scan
  /// every reminder to probe a scope of ten rows.
  fileprivate var reminders: String {
    switch self {
    case .everything, .importedEveryReminder: "reminders r"
    case .importedReminders: "temp.\(Store.scopeTable) s CROSS JOIN reminders r ON r.id = s.id"
    }
  }
}

/// A list row as stored, with nothing normalised.
public struct IntegrityList: Hashable, Sendable {
  public let rowID: Int64
  public let uid: String
  /// The name as text (a BLOB's bytes read as UTF-8, invalid sequences replaced).
  public let name: String
  /// The stored name's bytes when it is a BLOB rather than text (an older tool or a hand edit).
  public let nameBytes: [UInt8]?
  public let nameKey: String
  public let createdAt: String?
  public let extra: String?
}

/// A reminder as the relationship checks see it: where it hangs and what its parent is.
public struct IntegrityReminderLink: Hashable, Sendable {
  public let rowID: Int64
  public let uid: String?
  public let title: String
  public let listRowID: Int64
  public let parentRowID: Int64?
  /// The parent row when it exists.
  public let parent: Parent?

  public struct Parent: Hashable, Sendable {
    public let uid: String?
    public let title: String
    public let listRowID: Int64
  }
}

/// A reminder's value columns, raw: the streaming pass parses them with the model's parsers.
public struct IntegrityReminderValues: Sendable {
  public let rowID: Int64
  public let uid: String?
  public let title: String
  public let isDone: Bool
  public let completedAt: String?
  public let due: String?
  public let dueKind: String?
  public let dueTimeZone: String?
  public let start: String?
  public let startTimeZone: String?
  /// The recurrence's JSON (`ScheduleJSON`), NULL for a one-off.
  public let recurrence: String?
  /// The alarms' JSON array (`ScheduleJSON`).
  public let alarms: String?
  public let priority: SQLValue
  public let tags: String?
  public let createdAt: String?
  public let editedAt: String?
  public let extra: String?
}

/// The value columns of a reminder row as `ValueRules` checks them: read back raw from a
/// store (`IntegrityReminderValues`) or as the store writes them (`WrittenReminderValues`).
protocol ReminderValueRow {
  var rowID: Int64 { get }
  var uid: String? { get }
  var title: String { get }
  var isDone: Bool { get }
  var completedAtText: TimestampText? { get }
  var due: String? { get }
  var dueKind: String? { get }
  var dueTimeZone: String? { get }
  var start: String? { get }
  var startTimeZone: String? { get }
  var recurrence: String? { get }
  var alarms: String? { get }
  var priority: SQLValue { get }
  var tags: String? { get }
  var createdAtText: TimestampText? { get }
  var editedAtText: TimestampText? { get }
  var extra: String? { get }
}

extension IntegrityReminderValues: ReminderValueRow {
  var completedAtText: TimestampText? { completedAt.map(TimestampText.init) }
  var createdAtText: TimestampText? { createdAt.map(TimestampText.init) }
  var editedAtText: TimestampText? { editedAt.map(TimestampText.init) }
}

/// A reminder row as the store writes it (`ReminderColumns(_:)`, before SQLite has it), read
/// by the checks of an import's rows in place: copying its texts into an
/// `IntegrityReminderValues` cost more than the checks that read them.
struct WrittenReminderValues: ReminderValueRow {
  let rowID: Int64
  let writtenUID: String
  let columns: ReminderColumns

  var uid: String? { writtenUID }
  var title: String { columns.title }
  var isDone: Bool { columns.isDone == 1 }
  var completedAtText: TimestampText? { columns.completedAtText }
  var due: String? { columns.due }
  var dueKind: String? { columns.dueKind }
  var dueTimeZone: String? { columns.dueTimeZone }
  var start: String? { columns.start }
  var startTimeZone: String? { columns.startTimeZone }
  var recurrence: String? { columns.recurrence }
  var alarms: String? { columns.alarms }
  var priority: SQLValue { .integer(columns.priority) }
  var tags: String? { columns.tags }
  var createdAtText: TimestampText? { columns.createdAtText }
  var editedAtText: TimestampText? { columns.editedAtText }
  var extra: String? { columns.extra }
}

/// One row of `PRAGMA foreign_key_check`, with the columns of the key it breaks.
public struct ForeignKeyViolation: Hashable, Sendable {
  public let table: String
  public let rowID: Int64?
  public let parentTable: String
  /// The child columns (`list_id`) and the parent columns they should match (`id`).
  public let columns: [String]
  public let parentColumns: [String]
}

/// Reminder columns a repair may set.
public enum ReminderRepairColumn: String, Sendable {
  case listRowID = "list_id"
  case parentRowID = "parent_id"
  case uid
  case completedAt = "completed_at"
  case due
  case dueKind = "due_kind"
  case dueTimeZone = "due_tz"
  case priority
  case tags
  case createdAt = "created_at"
  case editedAt = "edited_at"
  case extra
}

/// List columns a repair may set (the name key is kept in step by `renameList` and `rekeyLists`).
public enum ListRepairColumn: String, Sendable {
  case uid
  case createdAt = "created_at"
  case extra
}

extension Store {
  static let scopeTable = "remconv_integrity_scope"

  // MARK: Whole-store checks

  /// The highest list row id (0 for none): lists above it were added later.
  public func lastListRowID() throws -> Int64 {
    if case .integer(let value) = try database.scalar("SELECT coalesce(max(id), 0) FROM lists") { return value }
    return 0
  }

  /// SQLite's own structural check: empty when the file is sound. `deep` runs
  /// `integrity_check` (also compares every index with its table); otherwise `quick_check`.
  ///
  /// Related SQLite documentation: https://sqlite.org/pragma.html#pragma_integrity_check
  public func integrityProblems(deep: Bool, limit: Int = 100) throws -> [String] {
    let pragma = deep ? "integrity_check" : "quick_check"
    let messages = try database.rows("PRAGMA \(pragma)(\(max(1, limit)))").compactMap { $0.string(0) }
    return messages == ["ok"] ? [] : messages
  }

  /// Every row that breaks a foreign key, with the key's columns.
  ///
  /// Related SQLite documentation: https://sqlite.org/pragma.html#pragma_foreign_key_check
  public func foreignKeyViolations() throws -> [ForeignKeyViolation] {
    let rows = try database.rows("PRAGMA foreign_key_check")
    var keysByTable: [String: [Int64: (from: [String], to: [String])]] = [:]
    var violations: [ForeignKeyViolation] = []
    for row in rows {
      let table = row.string(0) ?? ""
      if keysByTable[table] == nil {
        var keys: [Int64: (from: [String], to: [String])] = [:]
        for key in try database.rows(
          "SELECT id, \"from\", \"to\" FROM pragma_foreign_key_list(?) ORDER BY id, seq", [.text(table)])
        {
          let id = key.int(0) ?? 0
          keys[id, default: ([], [])].from.append(key.string(1) ?? "")
          keys[id, default: ([], [])].to.append(key.string(2) ?? "")
        }
        keysByTable[table] = keys
      }
      let key = keysByTable[table]?[row.int(3) ?? -1]
      violations.append(
        ForeignKeyViolation(
          table: table, rowID: row.int(1), parentTable: row.string(2) ?? "",
          columns: key?.from ?? [], parentColumns: key?.to ?? []))
    }
    return violations
  }

  /// Every list, raw, oldest first.
  public func integrityLists() throws -> [IntegrityList] {
    try database.rows("SELECT id, uid, name, name_key, created_at, extra FROM lists ORDER BY id").map { row in
      let bytes = Self.blobBytes(row.value(at: 2))
      return IntegrityList(
        rowID: row.int(0) ?? 0, uid: row.string(1) ?? "",
        name: bytes.map { String(decoding: $0, as: UTF8.self) } ?? row.string(2) ?? "", nameBytes: bytes,
        nameKey: row.string(3) ?? "", createdAt: row.string(4), extra: row.string(5))
    }
  }

  /// The bytes of a list's stored name when it is a BLOB, not text; nil otherwise.
  public func listNameBytes(rowID: Int64) throws -> [UInt8]? {
    Self.blobBytes(try database.scalar("SELECT name FROM lists WHERE id = ?", [.integer(rowID)]))
  }

  private static func blobBytes(_ value: SQLValue) -> [UInt8]? {
    if case .blob(let bytes) = value { return bytes }
    return nil
  }

  // MARK: Reminder relationships

  /// Reminders whose list row does not exist.
  public func orphanReminders(in scope: IntegrityScope) throws -> [IntegrityReminderLink] {
    try database.rows(
      """
      SELECT r.id, r.uid, r.title, r.list_id, r.parent_id FROM \(scope.reminders)
      WHERE r.list_id NOT IN (SELECT id FROM lists)
      ORDER BY r.id
      """
    ).map { row in
      IntegrityReminderLink(
        rowID: row.int(0) ?? 0, uid: row.string(1), title: row.string(2) ?? "",
        listRowID: row.int(3) ?? 0, parentRowID: row.int(4), parent: nil)
    }
  }

  /// Subtasks whose parent row does not exist or sits in another list. Ordered by `+r.id`, so
  /// that the planner reads the subtasks from their index (`reminders_by_parent`) and sorts
  /// them, rather than every row of the table in row order (a subtask is a fifth of a typical
  /// store's rows; a row of the table is wide).
  public func brokenParentLinks(in scope: IntegrityScope) throws -> [IntegrityReminderLink] {
    try database.rows(
      """
      SELECT r.id, r.uid, r.title, r.list_id, r.parent_id, p.id, p.uid, p.title, p.list_id
      FROM \(scope.reminders) LEFT JOIN reminders p ON p.id = r.parent_id
      WHERE r.parent_id IS NOT NULL AND (p.id IS NULL OR p.list_id IS NOT r.list_id)
      ORDER BY +r.id
      """
    ).map(Self.decodeLink)
  }

  /// Calls `body` with each (reminder, parent) row pair of the store, in row order: the input
  /// of the cycle search, two integers a row.
  public func forEachParentLink(_ body: (_ rowID: Int64, _ parentRowID: Int64) throws -> Void) throws {
    let statement = try database.statement(
      "SELECT id, parent_id FROM reminders WHERE parent_id IS NOT NULL ORDER BY id", cached: false)
    while let row = try statement.step() {
      try body(row.int(0) ?? 0, row.int(1) ?? 0)
    }
  }

  /// Calls `body` with each reminder row in scope that has a parent, in row order: where the
  /// scoped cycle search starts. Stepped, not collected: an import of a million reminders has
  /// hundreds of thousands of subtasks, whose rows held in an array made the import's memory
  /// grow with its size. Read from the subtasks' index, as `brokenParentLinks` reads them.
  public func forEachSubtaskRow(in scope: IntegrityScope, _ body: (_ rowID: Int64) throws -> Void) throws {
    try forEachSubtaskLink(in: scope) { row, _ in try body(row) }
  }

  /// `forEachSubtaskRow` with each row's parent row as `parentRowID(ofReminderRow:)` reads it,
  /// in the same step: the first step of the walk up from a subtask needs no query of its own.
  public func forEachSubtaskLink(
    in scope: IntegrityScope, _ body: (_ rowID: Int64, _ parentRowID: Int64?) throws -> Void
  ) throws {
    let statement = try database.statement(
      "SELECT r.id, r.parent_id FROM \(scope.reminders) WHERE r.parent_id IS NOT NULL ORDER BY +r.id", cached: false)
    while let row = try statement.step() {
      if let id = row.int(0) { try body(id, row.int(1)) }
    }
  }

  /// The link and edit time of each given row, for describing a cycle and picking its newest edge.
  public func reminderLinks(rowIDs: [Int64]) throws -> [(link: IntegrityReminderLink, editedAt: String?)] {
    var result: [(link: IntegrityReminderLink, editedAt: String?)] = []
    for rowID in rowIDs {
      let rows = try database.rows(
        """
        SELECT r.id, r.uid, r.title, r.list_id, r.parent_id, p.id, p.uid, p.title, p.list_id, r.edited_at
        FROM reminders r LEFT JOIN reminders p ON p.id = r.parent_id WHERE r.id = ?
        """, [.integer(rowID)])
      if let row = rows.first { result.append((Self.decodeLink(row), row.string(9))) }
    }
    return result
  }

  private static func decodeLink(_ row: Row) -> IntegrityReminderLink {
    let parent = row.int(5).map { _ in
      IntegrityReminderLink.Parent(uid: row.string(6), title: row.string(7) ?? "", listRowID: row.int(8) ?? 0)
    }
    return IntegrityReminderLink(
      rowID: row.int(0) ?? 0, uid: row.string(1), title: row.string(2) ?? "", listRowID: row.int(3) ?? 0,
      parentRowID: row.int(4), parent: parent)
  }

  /// Every reminder whose UID another reminder also has, grouped by UID, oldest row first.
  /// In the imported scope: the UIDs of imported reminders that another row shares.
  ///
  /// There is no index of UIDs themselves (migration 0012), only of folded UIDs: a UID another
  /// row has exactly has a folded UID another row has, so the rows are found by their folded
  /// UID and compared exactly among the few that share it.
  public func duplicateReminderUIDRows(in scope: IntegrityScope) throws -> [IntegrityReminderLink] {
    let sharedExactly = """
      r.uid IS NOT NULL AND r.uid <> ''
        AND EXISTS (SELECT 1 FROM reminders o WHERE upper(o.uid) = upper(r.uid) AND o.uid = r.uid AND o.id <> r.id)
      """
    var withClause = ""
    let condition: String
    switch scope {
    case .everything, .importedEveryReminder:
      guard try holdsAFoldedUIDTwice() else { return [] }
      // The folded UIDs more than one row has, in one pass over their index in order.
      condition = """
        upper(r.uid) IN (SELECT upper(uid) FROM reminders GROUP BY upper(uid) HAVING count(*) > 1)
          AND \(sharedExactly)
        """
    case .importedReminders:
      // The imported UIDs another row has, found once.
      withClause = "WITH duplicated(uid) AS MATERIALIZED (SELECT r.uid FROM \(scope.reminders) WHERE \(sharedExactly))"
      condition = """
        upper(r.uid) IN (SELECT upper(uid) FROM duplicated) AND r.uid IN (SELECT uid FROM duplicated)
        """
    }
    return try database.rows(
      """
      \(withClause)
      SELECT r.id, r.uid, r.title, r.list_id, r.parent_id FROM reminders r
      WHERE \(condition)
      ORDER BY r.uid, r.id
      """
    ).map { row in
      IntegrityReminderLink(
        rowID: row.int(0) ?? 0, uid: row.string(1), title: row.string(2) ?? "",
        listRowID: row.int(3) ?? 0, parentRowID: row.int(4), parent: nil)
    }
  }

  /// Whether two reminders' UIDs fold (`upper`) to the same text: the folded-UID index read in
  /// order, each key compared with the one before. Most stores hold none, and then the
  /// grouping of `duplicateReminderUIDRows`, which reads the table row of every group (every
  /// UID), is not needed: it cost a third of an import's checks.
  func holdsAFoldedUIDTwice() throws -> Bool {
    let statement = try database.statement("SELECT 0, upper(uid) FROM reminders ORDER BY upper(uid)", cached: false)
    var previous: [UInt8] = []
    var hasPrevious = false
    var foundTwice = false
    try statement.forEachIntegerAndText { _, key in
      // A NULL UID (no text) folds to no key.
      guard !foundTwice, key.baseAddress != nil else { return }
      // Compared as memory: the generic comparison of the bytes cost more than the scan's step.
      if hasPrevious, previous.count == key.count,
        key.isEmpty || previous.withUnsafeBufferPointer({ memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 })
      {
        foundTwice = true
        return
      }
      previous.removeAll(keepingCapacity: true)
      previous.append(contentsOf: key)
      hasPrevious = true
    }
    return foundTwice
  }

  /// What `forEachReminderValues` reads of a reminder (the rest reads as NULL): not the notes,
  /// which may be long, nor the joined tables.
  static let reminderValuesColumns = ReminderColumn.selectList(reading: [
    .rowID, .uid, .title, .isDone, .completedAt, .due, .dueKind, .dueTimeZone, .priority, .tags, .createdAt,
    .editedAt, .extra, .start, .startTimeZone, .recurrence, .alarms,
  ])

  /// Calls `body` with the raw value columns of each reminder in scope, in row order, holding
  /// one row at a time.
  public func forEachReminderValues(
    in scope: IntegrityScope, _ body: (IntegrityReminderValues) throws -> Void
  ) throws {
    let statement = try database.statement(
      """
      SELECT \(Self.reminderValuesColumns)
      FROM \(scope.reminders) ORDER BY r.id
      """, cached: false)
    while let row = try statement.step() {
      typealias Column = ReminderColumn
      try body(
        IntegrityReminderValues(
          rowID: row.int(Column.rowID) ?? 0, uid: row.string(Column.uid), title: row.string(Column.title) ?? "",
          isDone: (row.int(Column.isDone) ?? 0) != 0, completedAt: row.string(Column.completedAt),
          due: row.string(Column.due),
          dueKind: row.string(Column.dueKind), dueTimeZone: row.string(Column.dueTimeZone),
          start: row.string(Column.start), startTimeZone: row.string(Column.startTimeZone),
          recurrence: row.string(Column.recurrence), alarms: row.string(Column.alarms),
          priority: row.value(Column.priority), tags: row.string(Column.tags), createdAt: row.string(Column.createdAt),
          editedAt: row.string(Column.editedAt), extra: row.string(Column.extra)))
    }
  }

  /// Runs `body` with the scope `.importedReminders` holding every reminder row above
  /// `addedAfter` and the `updated` rows. The scope lives in a temporary table of this
  /// connection and is dropped afterwards.
  public func withIntegrityScope<T>(
    addedAfter: Int64, updated: [Int64], _ body: (IntegrityScope) throws -> T
  ) throws -> T {
    // Every row is above `addedAfter` (the updated ones too): the import's rows are the store's.
    if try database.scalar("SELECT EXISTS (SELECT 1 FROM reminders WHERE id <= ?)", [.integer(addedAfter)])
      == .integer(0)
    {
      return try body(.importedEveryReminder)
    }
    try database.execute("CREATE TEMP TABLE IF NOT EXISTS \(Self.scopeTable) (id INTEGER PRIMARY KEY)")
    defer { try? database.execute("DROP TABLE IF EXISTS temp.\(Self.scopeTable)") }
    try database.execute("DELETE FROM temp.\(Self.scopeTable)")
    try database.run(
      "INSERT INTO temp.\(Self.scopeTable) (id) SELECT id FROM reminders WHERE id > ?", [.integer(addedAfter)])
    let insert = try database.statement("INSERT OR IGNORE INTO temp.\(Self.scopeTable) (id) VALUES (?)")
    for row in updated {
      try insert.bind([.integer(row)])
      _ = try insert.step()
      insert.reset()
    }
    return try body(.importedReminders)
  }

  /// The lists that hold a reminder of `scope`.
  public func listRowsHoldingReminders(in scope: IntegrityScope) throws -> Set<Int64> {
    Set(
      try database.rows("SELECT DISTINCT r.list_id FROM \(scope.reminders)")
        .compactMap { $0.int(0) })
  }

  // MARK: Repairs

  /// Sets raw columns of one reminder row.
  public func updateReminderRow(_ rowID: Int64, _ changes: [(ReminderRepairColumn, SQLValue)]) throws {
    guard !changes.isEmpty else { return }
    let assignments = changes.map { "\($0.0.rawValue) = ?" }.joined(separator: ", ")
    try database.run("UPDATE reminders SET \(assignments) WHERE id = ?", changes.map(\.1) + [.integer(rowID)])
    // A repair may change what the derived columns are made from.
    try recomputeIndexColumns(ofReminderRow: rowID)
  }

  /// Sets a reminder row's `due_day` and `search_text` from its due date, title and notes (the
  /// same rule as 0008's and the write path's).
  public func recomputeIndexColumns(ofReminderRow rowID: Int64) throws {
    try database.run(
      "UPDATE reminders SET due_day = remconv_due_day(due, due_tz), search_text = remconv_search_text(title, notes) WHERE id = ?",
      [.integer(rowID)])
  }

  /// The reminders whose `due_day` or `search_text` is not what their due date, title and notes
  /// make (a row edited outside remconv), with which of the two is stale, in row order.
  public func staleIndexColumnRows(in scope: IntegrityScope) throws -> [(
    rowID: Int64, uid: String?, title: String, dueDay: Bool, searchText: Bool
  )] {
    try database.rows(
      """
      SELECT * FROM (
        SELECT r.id, r.uid, r.title, r.due_day IS NOT remconv_due_day(r.due, r.due_tz) AS due_day_stale,
          r.search_text IS NOT remconv_search_text(r.title, r.notes) AS search_text_stale
        FROM \(scope.reminders))
      WHERE due_day_stale OR search_text_stale ORDER BY id
      """
    ).map { row in
      (row.int(0) ?? 0, row.string(1), row.string(2) ?? "", row.bool(3), row.bool(4))
    }
  }

  /// Sets raw columns of one list row.
  public func updateListRow(_ rowID: Int64, _ changes: [(ListRepairColumn, SQLValue)]) throws {
    guard !changes.isEmpty else { return }
    let assignments = changes.map { "\($0.0.rawValue) = ?" }.joined(separator: ", ")
    try database.run("UPDATE lists SET \(assignments) WHERE id = ?", changes.map(\.1) + [.integer(rowID)])
  }

  /// The `extra` text of a reminder row, as stored.
  public func reminderExtraText(rowID: Int64) throws -> String? {
    let value = try database.scalar("SELECT extra FROM reminders WHERE id = ?", [.integer(rowID)])
    if case .text(let text) = value { return text }
    return nil
  }

  /// The `extra` text of a list row, as stored.
  public func listExtraText(rowID: Int64) throws -> String? {
    let value = try database.scalar("SELECT extra FROM lists WHERE id = ?", [.integer(rowID)])
    if case .text(let text) = value { return text }
    return nil
  }

  /// Stores each list's name as given and its key as `ListName.key(for:)` of it. Two passes
  /// (first a placeholder key per row, then the real one), so that swapping or fixing stale
  /// keys never trips the UNIQUE constraint on an intermediate state. The placeholder starts
  /// with U+FFFF, a noncharacter no name key holds (and not NUL: SQLite text ends there).
  public func rekeyLists(_ names: [(rowID: Int64, name: String)]) throws {
    for entry in names {
      try database.run(
        "UPDATE lists SET name_key = ? WHERE id = ?",
        [.text("\u{FFFF}rekey:\(entry.rowID)"), .integer(entry.rowID)])
    }
    for entry in names {
      try database.run(
        "UPDATE lists SET name = ?, name_key = ? WHERE id = ?",
        [.text(entry.name), .text(ListName.key(for: entry.name)), .integer(entry.rowID)])
    }
  }

  /// Moves every reminder of one list into another. Returns how many moved.
  @discardableResult
  public func moveAllReminders(fromListRow source: Int64, toListRow target: Int64) throws -> Int {
    try database.run("UPDATE reminders SET list_id = ? WHERE list_id = ?", [.integer(target), .integer(source)])
    return database.changes
  }

  /// Deletes a list that no reminder points at; refuses (nothing deleted) when one still does,
  /// so a repair can never cascade into reminders.
  public func deleteEmptyList(rowID: Int64) throws {
    let remaining = try reminderCount(inListRow: rowID)
    guard remaining == 0 else {
      throw RemconvError.conflict("list #\(rowID) still holds \(remaining) reminder(s); it was not removed")
    }
    try database.run("DELETE FROM lists WHERE id = ?", [.integer(rowID)])
  }

  /// The row count of every table of the main database, by name.
  public func tableRowCounts() throws -> [String: Int] {
    try Self.tableRowCounts(in: database)
  }

  static func tableRowCounts(in database: Database) throws -> [String: Int] {
    let tables = try database.rows(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).compactMap { $0.string(0) }
    var counts: [String: Int] = [:]
    for table in tables {
      let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
      if case .integer(let count) = try database.scalar("SELECT count(*) FROM \(quoted)") {
        counts[table] = Int(count)
      }
    }
    return counts
  }
}

import Foundation

/// A reminder as stored, with its row ids.
public struct StoredReminder: Hashable, Sendable {
  public let rowID: Int64
  public let listRowID: Int64
  public let parentRowID: Int64?
  public var reminder: Reminder
}

/// The columns a reminder is read with, in the order of `selectList`: rows are read by these
/// names, never by a position written out elsewhere.
enum ReminderColumn: Int32, CaseIterable, RowColumn {
  case rowID, listRowID, parentRowID, uid, listUID, parentUID
  case title, notes, isDone, completedAt, flagged, due, dueKind, dueTimeZone, priority, tags, url, createdAt
  case editedAt, extra, sourceDigest, start, startKind, startTimeZone, recurrence, alarms

  /// The column of `reminders` it is, or nil for the joined lists' and parents' UIDs.
  var name: String? {
    switch self {
    case .rowID: "id"
    case .listRowID: "list_id"
    case .parentRowID: "parent_id"
    case .uid: "uid"
    case .listUID, .parentUID: nil
    case .title: "title"
    case .notes: "notes"
    case .isDone: "is_done"
    case .completedAt: "completed_at"
    case .flagged: "flagged"
    case .due: "due"
    case .dueKind: "due_kind"
    case .dueTimeZone: "due_tz"
    case .priority: "priority"
    case .tags: "tags"
    case .url: "url"
    case .createdAt: "created_at"
    case .editedAt: "edited_at"
    case .extra: "extra"
    case .sourceDigest: "source_digest"
    case .start: "start"
    case .startKind: "start_kind"
    case .startTimeZone: "start_tz"
    case .recurrence: "recurrence"
    case .alarms: "alarms"
    }
  }

  var index: Int32 { rawValue }

  /// The select list of every column, from `reminders r`, its list as `l` and its parent as
  /// `p`; a column not in `reading` reads as NULL (a table it would need is not joined, or
  /// the caller has no use for it), so that positions stay those of `allCases`.
  static func selectList(reading: Set<ReminderColumn> = Set(allCases)) -> String {
    allCases.map { column in
      guard reading.contains(column) else { return "NULL" }
      switch column {
      case .listUID: return "l.uid"
      case .parentUID: return "p.uid"
      default: return "r.\(column.name ?? "")"
      }
    }.joined(separator: ", ")
  }

  /// What an insert or update writes, in the order of its parameters.
  static let written = allCases.filter { $0 != .rowID && $0.name != nil }
}

extension ReminderColumns {
  /// The content columns of `row`; a value kept in another form than `init(_:)` makes leaves
  /// the result not canonical.
  init(row: Row) {
    var canonical = true
    func text(_ column: ReminderColumn) -> String {
      if !row.holdsText(column) { canonical = false }
      return row.string(column) ?? ""
    }
    func optionalText(_ column: ReminderColumn) -> String? {
      if !row.holdsText(column), !row.isNull(column) { canonical = false }
      return row.string(column)
    }
    func integer(_ column: ReminderColumn, in range: ClosedRange<Int64>) -> Int64 {
      let value = row.int(column) ?? 0
      if !row.holdsInteger(column) || !range.contains(value) { canonical = false }
      return value
    }
    self.init(
      title: text(.title), notes: text(.notes), isDone: integer(.isDone, in: 0...1),
      completedAtText: optionalText(.completedAt).map(TimestampText.init), flagged: integer(.flagged, in: 0...1),
      due: optionalText(.due),
      dueKind: optionalText(.dueKind), dueTimeZone: optionalText(.dueTimeZone), start: optionalText(.start),
      startKind: optionalText(.startKind), startTimeZone: optionalText(.startTimeZone),
      recurrence: optionalText(.recurrence), alarms: text(.alarms),
      priority: integer(.priority, in: Int64.min...Int64.max), tags: text(.tags), url: optionalText(.url),
      createdAtText: optionalText(.createdAt).map(TimestampText.init),
      editedAtText: optionalText(.editedAt).map(TimestampText.init), extra: text(.extra),
      isCanonical: canonical)
  }
}

extension Store {
  static let reminderColumns = ReminderColumn.selectList()
  static let reminderJoins =
    "FROM reminders r JOIN lists l ON l.id = r.list_id LEFT JOIN reminders p ON p.id = r.parent_id"
  static let reminderByRowIDQuery = "SELECT \(reminderColumns) \(reminderJoins) WHERE r.id = ?"
  /// The condition that the reminder `r` has exactly the UID bound as `?1`. There is no index of
  /// UIDs themselves (migration 0012): SQLite seeks the rows with the same folded UID in the
  /// index of folded UIDs, in row order, and compares the UID of each. The unary `+` keeps
  /// `r.uid = ?1` from being propagated into `upper(r.uid)`, which would become `upper(?1)`
  /// and no longer name the index.
  static let exactUID = "upper(r.uid) = upper(?1) AND +r.uid = ?1"
  /// `reminderByRowIDQuery` for a reminder whose list row may be gone (an orphan).
  static let orphanByRowIDQuery = """
    SELECT \(reminderColumns) FROM reminders r LEFT JOIN lists l ON l.id = r.list_id
    LEFT JOIN reminders p ON p.id = r.parent_id WHERE r.id = ?
    """

  static func decodeReminder(_ row: Row) -> StoredReminder {
    let columns = ReminderColumns(row: row)
    var extra = decodeObject(columns.extra)
    func timestamp(_ text: String?, _ key: String) -> Timestamp? {
      guard let text else { return nil }
      guard let value = Timestamp(iso: text) else {
        markInvalid(&extra, key: key, value: text)
        return nil
      }
      return value
    }
    func date(_ text: String?, zone: String?, _ key: String, _ zoneKey: String) -> DueDate? {
      guard let text else { return nil }
      do {
        return try DueDate(isoText: text, timeZone: zone)
      } catch {
        markInvalid(&extra, key: key, value: text)
        if let zone { markInvalid(&extra, key: zoneKey, value: zone) }
        return nil
      }
    }
    let due = date(columns.due, zone: columns.dueTimeZone, "dueDate", "dueTimeZone")
    let start = date(columns.start, zone: columns.startTimeZone, "startDate", "startTimeZone")
    var recurrence: Recurrence?
    if let text = columns.recurrence {
      do {
        recurrence = try ScheduleJSON.recurrence(JSONParser.parse(text))
      } catch {
        markInvalid(&extra, key: "recurrence", value: text)
      }
    }
    var alarms: [Alarm] = []
    if columns.alarms != "[]" {
      do {
        alarms = try ScheduleJSON.alarms(JSONParser.parse(columns.alarms))
      } catch {
        markInvalid(&extra, key: "alarms", value: columns.alarms)
      }
    }
    let storedPriority = Int(columns.priority)
    let priority =
      Priority(storedValue: storedPriority)
      ?? {
        markInvalid(&extra, key: "priority", value: String(storedPriority))
        return .none
      }()
    var tags: [String] = []
    if !columns.tags.isEmpty {
      if let value = try? JSONParser.parse(columns.tags), let items = value.arrayValue {
        tags = items.compactMap(\.stringValue)
      } else {
        markInvalid(&extra, key: "tags", value: columns.tags)
      }
    }
    var reminder = Reminder(
      id: row.string(ReminderColumn.uid) ?? "", listID: row.string(ReminderColumn.listUID) ?? "",
      parentID: row.string(ReminderColumn.parentUID), title: columns.title, notes: columns.notes,
      isDone: columns.isDone != 0, completedAt: timestamp(columns.completedAt, "completedAt"),
      flagged: columns.flagged != 0, dueDate: due, startDate: start, recurrence: recurrence, alarms: alarms,
      priority: priority, tags: tags, url: columns.url,
      createdAt: timestamp(columns.createdAt, "createdAt"), editedAt: timestamp(columns.editedAt, "editedAt"),
      extra: extra)
    // A row written before 0009 may hold its start, recurrence or alarms in `extra`.
    ExtraScheduleLifting.lift(&reminder)
    return StoredReminder(
      rowID: row.int(ReminderColumn.rowID) ?? 0, listRowID: row.int(ReminderColumn.listRowID) ?? 0,
      parentRowID: row.int(ReminderColumn.parentRowID), reminder: reminder)
  }

  /// The first reminder stored with `uid`.
  public func reminder(uid: String) throws -> StoredReminder? {
    let statement = try database.statement(
      "SELECT \(Self.reminderColumns) \(Self.reminderJoins) WHERE \(Self.exactUID) ORDER BY r.id LIMIT 1")
    try statement.bind([.text(uid)])
    defer { statement.reset() }
    return try statement.step().map(Self.decodeReminder)
  }

  public func reminder(rowID: Int64) throws -> StoredReminder? {
    let statement = try database.statement(HotQuery.reminderByRowID) { Self.reminderByRowIDQuery }
    try statement.bind(.integer(rowID), at: 1)
    defer { statement.reset() }
    return try statement.step().map(Self.decodeReminder)
  }

  /// Reminders whose UID starts with `prefix` (for ids typed by hand), at most `limit`.
  public func reminders(uidPrefix prefix: String, limit: Int = 20) throws -> [StoredReminder] {
    let escaped = prefix.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    // The range on the index of folded UIDs finds the rows; LIKE (which folds the same ASCII
    // letters) keeps its meaning for anything the range would let through.
    let start = Self.asciiUppercased(prefix)
    let end = Self.prefixRangeEnd(start)
    return try database.rows(
      """
      SELECT \(Self.reminderColumns) \(Self.reminderJoins)
      WHERE upper(r.uid) >= ?\(end == nil ? "" : " AND upper(r.uid) < ?") AND r.uid LIKE ? ESCAPE '\\'
      ORDER BY r.id LIMIT ?
      """,
      [.text(start)] + (end.map { [SQLValue.text($0)] } ?? []) + [.text(escaped + "%"), .integer(Int64(limit))]
    ).map(Self.decodeReminder)
  }

  static let reminderStateQuery = """
    SELECT \(ReminderColumn.selectList(reading: Set(ReminderColumn.allCases).subtracting([.uid, .listUID])))
    FROM reminders r LEFT JOIN reminders p ON p.id = r.parent_id WHERE \(exactUID) ORDER BY r.id LIMIT 1
    """

  /// The row id of the first reminder with `uid`.
  public func reminderRowID(uid: String) throws -> Int64? {
    let statement = try database.statement(HotQuery.rowIDByUID) {
      "SELECT r.id FROM reminders r WHERE \(Self.exactUID) ORDER BY r.id LIMIT 1"
    }
    try statement.bind(.text(uid), at: 1)
    defer { statement.reset() }
    return try statement.step()?.int(0)
  }

  /// Whether any reminder has a source digest (see `RecordDigest`).
  public func hasSourceDigests() throws -> Bool {
    try database.scalar("SELECT EXISTS (SELECT 1 FROM reminders WHERE source_digest IS NOT NULL)") == .integer(1)
  }

  static func recordDigest(_ value: SQLValue) -> RecordDigest? {
    if case .blob(let bytes) = value { return RecordDigest(bytes: bytes) }
    return nil
  }

  /// The parent row of a reminder row, if it has one.
  public func parentRowID(ofReminderRow rowID: Int64) throws -> Int64? {
    let statement = try database.statement(HotQuery.parentRowID) { "SELECT parent_id FROM reminders WHERE id = ?" }
    try statement.bind(.integer(rowID), at: 1)
    defer { statement.reset() }
    return try statement.step()?.int(0)
  }

  /// Fills `row` with a reminder's row as bound to the parameters of `insertReminder` and
  /// `updateReminder`, in the order of `ReminderColumn.written`, then `indexColumnNames`.
  private func fill(
    _ row: inout ParameterRow, _ reminder: borrowing Reminder, columns: ReminderColumns, listRowID: Int64,
    parentRowID: Int64?, sourceDigest: RecordDigest?
  ) {
    row.removeAll()
    // One exhaustive switch: a column added to `ReminderColumn` is not written until it has a
    // value here.
    for column in ReminderColumn.written {
      switch column {
      case .rowID, .listUID, .parentUID: continue  // not in `written`: SQLite numbers rows, joins read the UIDs
      case .uid: row.append(reminder.id)
      case .listRowID: row.append(listRowID)
      case .parentRowID: row.append(parentRowID)
      case .title: row.append(columns.title)
      case .notes: row.append(columns.notes)
      case .isDone: row.append(columns.isDone)
      case .completedAt: row.append(columns.completedAtText)
      case .flagged: row.append(columns.flagged)
      case .due: row.append(columns.due)
      case .dueKind: row.append(columns.dueKind)
      case .dueTimeZone: row.append(columns.dueTimeZone)
      case .priority: row.append(columns.priority)
      case .tags: row.append(columns.tags)
      case .url: row.append(columns.url)
      case .createdAt: row.append(columns.createdAtText)
      case .editedAt: row.append(columns.editedAtText)
      case .extra: row.append(columns.extra)
      case .sourceDigest:
        if let sourceDigest {
          row.appendBlob { bytes in
            withUnsafeBytes(of: (sourceDigest.high.bigEndian, sourceDigest.low.bigEndian)) {
              bytes.append(contentsOf: $0)
            }
          }
        } else {
          row.appendNull()
        }
      case .start: row.append(columns.start)
      case .startKind: row.append(columns.startKind)
      case .startTimeZone: row.append(columns.startTimeZone)
      case .recurrence: row.append(columns.recurrence)
      case .alarms: row.append(columns.alarms)
      }
    }
    // The derived columns, in the order of `indexColumnNames`; the folded search text written
    // straight into the row.
    row.append(ReminderIndexValues.dueDay(of: reminder.dueDate))
    row.appendText { ReminderIndexValues.appendSearchText(title: columns.title, notes: columns.notes, to: &$0) }
  }

  /// The columns derived from a reminder's content (`ReminderIndexValues`), written after
  /// `ReminderColumn.written` by every insert and update.
  static let indexColumnNames = ["due_day", "search_text"]

  /// Inserts a reminder; `sourceDigest` is the digest of the record it comes from, when an
  /// import wrote it cleanly.
  @discardableResult
  public func insertReminder(
    _ reminder: Reminder, listRowID: Int64, parentRowID: Int64?, sourceDigest: RecordDigest? = nil
  ) throws -> Int64 {
    let statement = try database.statement(HotQuery.insertReminder, keepingBindings: true) {
      let names = ReminderColumn.written.compactMap(\.name) + Self.indexColumnNames
      return
        "INSERT INTO reminders (\(names.joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))"
    }
    let columns = ReminderColumns(reminder)
    fill(
      &reminderParameters, reminder, columns: columns, listRowID: listRowID, parentRowID: parentRowID,
      sourceDigest: sourceDigest)
    try statement.execute(binding: &reminderParameters)
    let rowID = database.lastInsertRowID
    reminderRowWritten?(
      WrittenReminderValues(rowID: rowID, writtenUID: reminder.id, columns: columns), EncodedDates(reminder))
    return rowID
  }

  /// Replaces a stored reminder. Its source digest becomes `sourceDigest`: nil unless an
  /// import writes it from a record.
  public func updateReminder(
    rowID: Int64, _ reminder: Reminder, listRowID: Int64, parentRowID: Int64?, sourceDigest: RecordDigest? = nil
  ) throws {
    let statement = try database.statement(HotQuery.updateReminder, keepingBindings: true) {
      let assignments = (ReminderColumn.written.compactMap(\.name) + Self.indexColumnNames).map { "\($0) = ?" }
      return "UPDATE reminders SET \(assignments.joined(separator: ", ")) WHERE id = ?"
    }
    let columns = ReminderColumns(reminder)
    fill(
      &reminderParameters, reminder, columns: columns, listRowID: listRowID, parentRowID: parentRowID,
      sourceDigest: sourceDigest)
    reminderParameters.append(rowID)
    try statement.execute(binding: &reminderParameters)
    reminderRowWritten?(
      WrittenReminderValues(rowID: rowID, writtenUID: reminder.id, columns: columns), EncodedDates(reminder))
  }

  public func setParent(ofReminderRow rowID: Int64, to parentRowID: Int64?) throws {
    try database.run(
      "UPDATE reminders SET parent_id = ? WHERE id = ?", [parentRowID.map(SQLValue.integer) ?? .null, .integer(rowID)])
  }

  /// Deletes a reminder and, through the foreign key, its subtasks. Returns how many rows went.
  @discardableResult
  public func deleteReminder(rowID: Int64) throws -> Int {
    let count = try database.scalar(
      """
      WITH RECURSIVE tree(id) AS (SELECT ? UNION SELECT r.id FROM reminders r JOIN tree ON r.parent_id = tree.id)
      SELECT count(*) FROM tree
      """, [.integer(rowID)])
    try database.run("DELETE FROM reminders WHERE id = ?", [.integer(rowID)])
    if case .integer(let number) = count { return Int(number) }
    return 1
  }

  public func reminderCount() throws -> Int {
    if case .integer(let count) = try database.scalar("SELECT count(*) FROM reminders") { return Int(count) }
    return 0
  }

  public func reminderCount(inListRow listRowID: Int64) throws -> Int {
    if case .integer(let count) = try database.scalar(
      "SELECT count(*) FROM reminders WHERE list_id = ?", [.integer(listRowID)])
    {
      return Int(count)
    }
    return 0
  }

  /// Calls `body` with each reminder of a list in outline order: every parent before its
  /// subtasks, siblings in the order they were stored, with the depth of nesting. Reminders
  /// whose parent is missing, in another list or part of a cycle come at depth 0: an export
  /// never drops a reminder because its relations are broken.
  ///
  /// `invalidText` is told of each reminder a text column of which is not UTF-8 (an older
  /// store's BLOB), with the columns' names: their text has U+FFFD in place of the bad bytes.
  public func forEachReminder(
    inListRow listRowID: Int64, invalidText: ((Reminder, [String]) -> Void)? = nil,
    _ body: (Reminder, Int) throws -> Void
  ) throws {
    let links = try database.statement("SELECT id, parent_id FROM reminders WHERE list_id = ? ORDER BY id")
    try links.bind([.integer(listRowID)])
    try forEachReminder(
      links: links, fetch: database.statement(Self.reminderByRowIDQuery), invalidText: invalidText, body)
  }

  /// How many reminders point at a list row that does not exist (orphans: a hand edit or an
  /// older remconv removed their list).
  public func orphanReminderCount() throws -> Int {
    let count = try database.scalar(
      "SELECT count(*) FROM reminders r WHERE NOT EXISTS (SELECT 1 FROM lists l WHERE l.id = r.list_id)")
    if case .integer(let number) = count { return Int(number) }
    return 0
  }

  /// Calls `body` with each orphan reminder (its list row is gone) in outline order among the
  /// orphans, as `forEachReminder(inListRow:_:)` does for a list: they are one group, the way
  /// `validate --fix` moves them all into one list. Their `listID` is empty.
  public func forEachOrphanReminder(
    invalidText: ((Reminder, [String]) -> Void)? = nil, _ body: (Reminder, Int) throws -> Void
  ) throws {
    let links = try database.statement(
      "SELECT id, parent_id FROM reminders r WHERE NOT EXISTS (SELECT 1 FROM lists l WHERE l.id = r.list_id) ORDER BY id"
    )
    try forEachReminder(
      links: links, fetch: database.statement(Self.orphanByRowIDQuery), invalidText: invalidText, body)
  }

  /// The outline walk behind both: `links` yields (row, parent) pairs in row order, `fetch`
  /// reads one reminder by row id.
  private func forEachReminder(
    links: Statement, fetch: Statement, invalidText: ((Reminder, [String]) -> Void)?,
    _ body: (Reminder, Int) throws -> Void
  ) throws {
    var childrenByParent: [Int64: [Int64]] = [:]
    var order: [Int64] = []
    var parentOf: [Int64: Int64] = [:]
    while let row = try links.step() {
      let id = row.int(0) ?? 0
      order.append(id)
      if let parent = row.int(1) { parentOf[id] = parent }
    }
    let members = Set(order)
    var roots: [Int64] = []
    for id in order {
      if let parent = parentOf[id], members.contains(parent), parent != id {
        childrenByParent[parent, default: []].append(id)
      } else {
        roots.append(id)
      }
    }
    var visited = Set<Int64>()
    func emit(_ id: Int64, depth: Int) throws {
      // An explicit stack: subtasks may nest deeper than the call stack allows.
      var stack: [(Int64, Int)] = [(id, depth)]
      while let (current, level) = stack.popLast() {
        guard visited.insert(current).inserted else { continue }
        try fetch.bind([.integer(current)])
        fetch.clearInvalidText()
        if let row = try fetch.step() {
          let reminder = Self.decodeReminder(row).reminder
          if let invalidText, !fetch.invalidTextColumns.isEmpty { invalidText(reminder, fetch.invalidTextColumnNames) }
          try body(reminder, level)
        }
        fetch.reset()
        for child in (childrenByParent[current] ?? []).reversed() { stack.append((child, level + 1)) }
      }
    }
    for root in roots { try emit(root, depth: 0) }
    // What is left sits on a parent cycle: emit it rather than lose it.
    for id in order where !visited.contains(id) { try emit(id, depth: 0) }
  }
}

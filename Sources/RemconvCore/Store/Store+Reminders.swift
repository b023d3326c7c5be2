import Foundation

/// A reminder as stored, with its row ids.
public struct StoredReminder: Hashable, Sendable {
  public let rowID: Int64
  public let listRowID: Int64
  public let parentRowID: Int64?
  public var reminder: Reminder
}

extension Store {
  static let reminderColumns = """
    r.id, r.list_id, r.parent_id, r.uid, l.uid, p.uid, r.title, r.notes, r.is_done, r.completed_at,
    r.flagged, r.due, r.due_kind, r.due_tz, r.priority, r.tags, r.url, r.created_at, r.edited_at, r.extra
    """
  static let reminderJoins = "FROM reminders r JOIN lists l ON l.id = r.list_id LEFT JOIN reminders p ON p.id = r.parent_id"
  static let reminderByRowIDQuery = "SELECT \(reminderColumns) \(reminderJoins) WHERE r.id = ?"
  /// `reminderByRowIDQuery` for a reminder whose list row may be gone (an orphan).
  static let orphanByRowIDQuery = """
    SELECT \(reminderColumns) FROM reminders r LEFT JOIN lists l ON l.id = r.list_id
    LEFT JOIN reminders p ON p.id = r.parent_id WHERE r.id = ?
    """

  static func decodeReminder(_ row: Row) -> StoredReminder {
    var extra = decodeObject(row.string(19))
    func timestamp(_ index: Int, _ key: String) -> Timestamp? {
      guard let text = row.string(index) else { return nil }
      guard let value = Timestamp(iso: text) else {
        markInvalid(&extra, key: key, value: text)
        return nil
      }
      return value
    }
    var due: DueDate?
    if let text = row.string(11) {
      do {
        due = try DueDate(isoText: text, timeZone: row.string(13))
      } catch {
        markInvalid(&extra, key: "dueDate", value: text)
        if let zone = row.string(13) { markInvalid(&extra, key: "dueTimeZone", value: zone) }
      }
    }
    let storedPriority = Int(row.int(14) ?? 0)
    let priority = Priority(storedValue: storedPriority) ?? {
      markInvalid(&extra, key: "priority", value: String(storedPriority))
      return .none
    }()
    var tags: [String] = []
    if let tagText = row.string(15), !tagText.isEmpty {
      if let value = try? JSONParser.parse(tagText), let items = value.arrayValue {
        tags = items.compactMap(\.stringValue)
      } else {
        markInvalid(&extra, key: "tags", value: tagText)
      }
    }
    let reminder = Reminder(
      id: row.string(3) ?? "", listID: row.string(4) ?? "", parentID: row.string(5),
      title: row.string(6) ?? "", notes: row.string(7) ?? "", isDone: row.bool(8),
      completedAt: timestamp(9, "completedAt"), flagged: row.bool(10), dueDate: due,
      priority: priority, tags: tags, url: row.string(16),
      createdAt: timestamp(17, "createdAt"), editedAt: timestamp(18, "editedAt"), extra: extra)
    return StoredReminder(rowID: row.int(0) ?? 0, listRowID: row.int(1) ?? 0, parentRowID: row.int(2), reminder: reminder)
  }

  /// The first reminder stored with `uid`.
  public func reminder(uid: String) throws -> StoredReminder? {
    let statement = try database.statement(
      "SELECT \(Self.reminderColumns) \(Self.reminderJoins) WHERE r.uid = ? ORDER BY r.id LIMIT 1")
    try statement.bind([.text(uid)])
    defer { statement.reset() }
    return try statement.step().map(Self.decodeReminder)
  }

  public func reminder(rowID: Int64) throws -> StoredReminder? {
    let statement = try hot.statement(.reminderByRowID, in: database) { Self.reminderByRowIDQuery }
    try statement.bind(.integer(rowID), at: 1)
    defer { statement.reset() }
    return try statement.step().map(Self.decodeReminder)
  }

  /// Reminders whose UID starts with `prefix` (for ids typed by hand), at most `limit`.
  public func reminders(uidPrefix prefix: String, limit: Int = 20) throws -> [StoredReminder] {
    let escaped = prefix.replacingOccurrences(of: "\\", with: "\\\\")
      .replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    return try database.rows(
      "SELECT \(Self.reminderColumns) \(Self.reminderJoins) WHERE r.uid LIKE ? ESCAPE '\\' ORDER BY r.id LIMIT ?",
      [.text(escaped + "%"), .integer(Int64(limit))]
    ).map(Self.decodeReminder)
  }

  /// A reminder's content columns as they are stored, in the order `fingerprintQuery` reads them.
  public func storedContent(of reminder: Reminder) -> [SQLValue] {
    [
      .text(reminder.title), .text(reminder.notes), .integer(reminder.isDone ? 1 : 0),
      reminder.completedAt.map { .text($0.description) } ?? .null,
      .integer(reminder.flagged ? 1 : 0),
      reminder.dueDate.map { .text($0.isoText) } ?? .null,
      reminder.dueDate.map { .text($0.kind.rawValue) } ?? .null,
      reminder.dueDate?.timeZoneIdentifier.map(SQLValue.text) ?? .null,
      .integer(Int64(reminder.priority.storedValue)),
      .text(JSONText.encode(.array(reminder.tags.map(JSONValue.string)))),
      reminder.url.map(SQLValue.text) ?? .null,
      reminder.createdAt.map { .text($0.description) } ?? .null,
      reminder.editedAt.map { .text($0.description) } ?? .null,
      .text(Self.encodeObject(reminder.extra)),
    ]
  }

  static let fingerprintQuery = """
    SELECT r.id, r.list_id, r.parent_id, p.uid, r.title, r.notes, r.is_done, r.completed_at, r.flagged,
      r.due, r.due_kind, r.due_tz, r.priority, r.tags, r.url, r.created_at, r.edited_at, r.extra, r.source_digest
    FROM reminders r LEFT JOIN reminders p ON p.id = r.parent_id WHERE r.uid = ? ORDER BY r.id LIMIT 1
    """

  /// How a reminder is stored, without decoding it: what an import compares against, so an
  /// unchanged item costs one indexed lookup and no parsing.
  public struct StoredFingerprint: Sendable {
    public let rowID: Int64
    public let listRowID: Int64
    public let parentRowID: Int64?
    public let parentUID: String?
    public let content: [SQLValue]
    /// The digest of the record the reminder was last imported from, while it is as that
    /// import left it (see `RecordDigest`).
    public let sourceDigest: RecordDigest?
  }

  public func fingerprint(uid: String) throws -> StoredFingerprint? {
    let statement = try hot.statement(.fingerprint, in: database) { Self.fingerprintQuery }
    try statement.bind(.text(uid), at: 1)
    defer { statement.reset() }
    guard let row = try statement.step() else { return nil }
    return StoredFingerprint(
      rowID: row.int(0) ?? 0, listRowID: row.int(1) ?? 0, parentRowID: row.int(2), parentUID: row.string(3),
      content: (4..<18).map { row.value(at: $0) }, sourceDigest: Self.recordDigest(row.value(at: 18)))
  }

  /// The row id of the first reminder with `uid`.
  public func reminderRowID(uid: String) throws -> Int64? {
    let statement = try hot.statement(.rowIDByUID, in: database) { "SELECT id FROM reminders WHERE uid = ? ORDER BY id LIMIT 1" }
    try statement.bind(.text(uid), at: 1)
    defer { statement.reset() }
    return try statement.step()?.int(0)
  }

  /// The row of the reminder stored from a record with this digest and unchanged since.
  public func reminderRowID(sourceDigest digest: RecordDigest) throws -> Int64? {
    let statement = try hot.statement(.rowIDBySourceDigest, in: database) {
      "SELECT id FROM reminders WHERE source_digest = ? LIMIT 1"
    }
    try statement.bind(.blob(digest.bytes), at: 1)
    defer { statement.reset() }
    return try statement.step()?.int(0)
  }

  /// Whether any reminder has a source digest (see `RecordDigest`).
  public func hasSourceDigests() throws -> Bool {
    try database.scalar("SELECT EXISTS (SELECT 1 FROM reminders WHERE source_digest IS NOT NULL)") == .integer(1)
  }

  /// Records that a reminder is as the record with this digest leaves it.
  public func setSourceDigest(_ digest: RecordDigest, ofReminderRow rowID: Int64) throws {
    let statement = try hot.statement(.setSourceDigest, in: database) {
      "UPDATE reminders SET source_digest = ? WHERE id = ?"
    }
    try statement.bind(.blob(digest.bytes), at: 1)
    try statement.bind(.integer(rowID), at: 2)
    _ = try statement.step()
  }

  static func recordDigest(_ value: SQLValue) -> RecordDigest? {
    if case .blob(let bytes) = value { return RecordDigest(bytes: bytes) }
    return nil
  }

  /// The parent row of a reminder row, if it has one.
  public func parentRowID(ofReminderRow rowID: Int64) throws -> Int64? {
    let statement = try hot.statement(.parentRowID, in: database) { "SELECT parent_id FROM reminders WHERE id = ?" }
    try statement.bind(.integer(rowID), at: 1)
    defer { statement.reset() }
    return try statement.step()?.int(0)
  }

  /// A reminder's row as bound to parameters 1...18: uid, list, parent, `storedContent`, then
  /// the source digest.
  private func rowValues(
    _ reminder: Reminder, content: [SQLValue], listRowID: Int64, parentRowID: Int64?, sourceDigest: RecordDigest?
  ) -> [SQLValue] {
    var values: [SQLValue] = []
    values.reserveCapacity(19)
    values.append(.text(reminder.id))
    values.append(.integer(listRowID))
    values.append(parentRowID.map(SQLValue.integer) ?? .null)
    values += content
    values.append(sourceDigest.map { .blob($0.bytes) } ?? .null)
    return values
  }

  /// Inserts a reminder; `sourceDigest` is the digest of the record it comes from, when an
  /// import wrote it cleanly.
  @discardableResult
  public func insertReminder(
    _ reminder: Reminder, listRowID: Int64, parentRowID: Int64?, sourceDigest: RecordDigest? = nil
  ) throws -> Int64 {
    let statement = try hot.statement(.insertReminder, in: database) {
      """
      INSERT INTO reminders (uid, list_id, parent_id, title, notes, is_done, completed_at, flagged,
        due, due_kind, due_tz, priority, tags, url, created_at, edited_at, extra, source_digest)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
      """
    }
    let content = storedContent(of: reminder)
    try statement.execute(
      binding: rowValues(reminder, content: content, listRowID: listRowID, parentRowID: parentRowID, sourceDigest: sourceDigest))
    let rowID = database.lastInsertRowID
    reminderRowWritten?(IntegrityReminderValues(rowID: rowID, uid: reminder.id, storedContent: content))
    return rowID
  }

  /// Replaces a stored reminder. Its source digest becomes `sourceDigest`: nil unless an
  /// import writes it from a record.
  public func updateReminder(
    rowID: Int64, _ reminder: Reminder, listRowID: Int64, parentRowID: Int64?, sourceDigest: RecordDigest? = nil
  ) throws {
    let statement = try hot.statement(.updateReminder, in: database) {
      """
      UPDATE reminders SET uid = ?, list_id = ?, parent_id = ?, title = ?, notes = ?, is_done = ?,
        completed_at = ?, flagged = ?, due = ?, due_kind = ?, due_tz = ?, priority = ?, tags = ?,
        url = ?, created_at = ?, edited_at = ?, extra = ?, source_digest = ?
      WHERE id = ?
      """
    }
    let content = storedContent(of: reminder)
    var values = rowValues(reminder, content: content, listRowID: listRowID, parentRowID: parentRowID, sourceDigest: sourceDigest)
    values.append(.integer(rowID))
    try statement.execute(binding: values)
    reminderRowWritten?(IntegrityReminderValues(rowID: rowID, uid: reminder.id, storedContent: content))
  }

  public func setParent(ofReminderRow rowID: Int64, to parentRowID: Int64?) throws {
    try database.run(
      "UPDATE reminders SET parent_id = ? WHERE id = ?", [parentRowID.map(SQLValue.integer) ?? .null, .integer(rowID)])
  }

  /// Deletes a reminder and, through the foreign key, its subtasks. Returns how many rows went.
  @discardableResult
  public func deleteReminder(rowID: Int64) throws -> Int {
    let count = try database.scalar("""
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
      "SELECT id, parent_id FROM reminders r WHERE NOT EXISTS (SELECT 1 FROM lists l WHERE l.id = r.list_id) ORDER BY id")
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

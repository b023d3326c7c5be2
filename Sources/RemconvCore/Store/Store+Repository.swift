/// The store as the merge engine sees it: a `ReminderRepository` whose handles are row ids.
extension Store: ReminderRepository {
  /// The statements an import runs once per record, found by these numbers in the
  /// connection's statement cache (`Database.statement(_:sql:)`).
  enum HotQuery: Int {
    case reminderState, insertReminder, updateReminder, rowIDByUID, parentRowID, reminderByRowID
    case rowIDBySourceDigest, setSourceDigest, outlineLink, uidBefore, uidFrom
  }

  // MARK: Lists

  public func findList(uid: String) throws -> RepositoryList? {
    try list(uid: uid).map(RepositoryList.init)
  }

  public func findList(named name: String) throws -> RepositoryList? {
    try list(named: name).map(RepositoryList.init)
  }

  public func findList(alias: String) throws -> RepositoryList? {
    try list(alias: alias).map(RepositoryList.init)
  }

  public func holdsListAliases() throws -> Bool {
    try database.scalar("SELECT EXISTS (SELECT 1 FROM lists WHERE \(Self.listMayHoldAliases))") == .integer(1)
  }

  public func addList(_ list: ReminderList) throws -> ListHandle {
    ListHandle(try insertList(list) as Int64)
  }

  public func replaceList(_ handle: ListHandle, with list: ReminderList) throws {
    try updateList(rowID: handle.ordinal, list)
  }

  public func replaceListExtra(_ handle: ListHandle, with extra: [String: JSONValue]) throws {
    try database.run(
      "UPDATE lists SET extra = ? WHERE id = ?", [.text(Self.encodeObject(extra)), .integer(handle.ordinal)])
  }

  // MARK: Reminders

  public func reminderState(uid: String) throws -> ReminderState? {
    let statement = try database.statement(HotQuery.reminderState) { Self.reminderStateQuery }
    try statement.bind(.text(uid), at: 1)
    defer { statement.reset() }
    return try statement.step().map(Self.reminderState)
  }

  public func reminderStates(list: ListHandle, parent: ReminderHandle?, title: String) throws -> [ReminderState] {
    // A subtask is sought in the index of subtasks (`parent_id = ?`, which the partial index
    // of migration 0012 answers); a top-level reminder among its list's rows.
    let parentTerm = parent == nil ? "r.parent_id IS NULL" : "r.parent_id = ?"
    return try database.rows(
      """
      SELECT \(ReminderColumn.selectList(reading: Set(ReminderColumn.allCases).subtracting([.uid, .listUID])))
      FROM reminders r LEFT JOIN reminders p ON p.id = r.parent_id
      WHERE r.list_id = ? AND \(parentTerm) AND r.title = ? ORDER BY r.id
      """, [.integer(list.ordinal)] + (parent.map { [.integer($0.ordinal)] } ?? []) + [.text(title)]
    ).map(Self.reminderState)
  }

  private static func reminderState(_ row: Row) -> ReminderState {
    ReminderState(
      handle: ReminderHandle(row.int(ReminderColumn.rowID) ?? 0),
      list: ListHandle(row.int(ReminderColumn.listRowID) ?? 0),
      parent: row.int(ReminderColumn.parentRowID).map(ReminderHandle.init),
      parentUID: row.string(ReminderColumn.parentUID), columns: ReminderColumns(row: row),
      sourceDigest: recordDigest(row.value(ReminderColumn.sourceDigest)))
  }

  public func reminder(_ handle: ReminderHandle) throws -> RepositoryReminder? {
    try reminder(rowID: handle.ordinal).map {
      RepositoryReminder(handle: handle, list: ListHandle($0.listRowID), reminder: $0.reminder)
    }
  }

  public func reminderHandle(uid: String) throws -> ReminderHandle? {
    try reminderRowID(uid: uid).map(ReminderHandle.init)
  }

  public func parent(of handle: ReminderHandle) throws -> ReminderHandle? {
    try parentRowID(ofReminderRow: handle.ordinal).map(ReminderHandle.init)
  }

  public func lastReminderHandle() throws -> ReminderHandle {
    let last = try database.scalar("SELECT coalesce(max(id), 0) FROM reminders")
    if case .integer(let value) = last { return ReminderHandle(value) }
    return ReminderHandle(0)
  }

  public func holdsNoReminders() throws -> Bool {
    try database.scalar("SELECT NOT EXISTS (SELECT 1 FROM reminders)") == .integer(1)
  }

  public func addReminder(
    _ reminder: Reminder, list: ListHandle, parent: ReminderHandle?, sourceDigest: RecordDigest?
  ) throws -> ReminderHandle {
    ReminderHandle(
      try insertReminder(reminder, listRowID: list.ordinal, parentRowID: parent?.ordinal, sourceDigest: sourceDigest))
  }

  public func replaceReminder(
    _ handle: ReminderHandle, with reminder: Reminder, list: ListHandle, parent: ReminderHandle?,
    sourceDigest: RecordDigest?
  ) throws {
    try updateReminder(
      rowID: handle.ordinal, reminder, listRowID: list.ordinal, parentRowID: parent?.ordinal, sourceDigest: sourceDigest
    )
  }

  public func setParent(of handle: ReminderHandle, to parent: ReminderHandle?) throws {
    try setParent(ofReminderRow: handle.ordinal, to: parent?.ordinal)
  }

  public func children(of handle: ReminderHandle) throws -> [ReminderHandle] {
    try database.rows(
      "SELECT id FROM reminders WHERE parent_id = ? ORDER BY id", [.integer(handle.ordinal)]
    ).compactMap { $0.int(0).map(ReminderHandle.init) }
  }

  public func removeReminder(_ handle: ReminderHandle) throws {
    _ = try deleteReminder(rowID: handle.ordinal)
  }

  // MARK: Record digests

  public func reminderHandle(sourceDigest digest: RecordDigest) throws -> ReminderHandle? {
    let statement = try database.statement(HotQuery.rowIDBySourceDigest) {
      "SELECT id FROM reminders WHERE source_digest = ? LIMIT 1"
    }
    try statement.bind(.blob(digest.bytes), at: 1)
    defer { statement.reset() }
    return try statement.step()?.int(0).map(ReminderHandle.init)
  }

  public func setSourceDigest(_ digest: RecordDigest, of handle: ReminderHandle) throws {
    let statement = try database.statement(HotQuery.setSourceDigest) {
      "UPDATE reminders SET source_digest = ? WHERE id = ?"
    }
    try statement.bind(.blob(digest.bytes), at: 1)
    try statement.bind(.integer(handle.ordinal), at: 2)
    _ = try statement.step()
  }
}

extension RepositoryList {
  init(_ stored: StoredList) {
    self.init(handle: ListHandle(stored.rowID), list: stored.list)
  }
}

/// The queries behind the views, counts and edits of the reminders-app commands.
extension Store {
  /// Calls `body` with the list row and the facts (done, flagged, due) of every reminder,
  /// streamed: counting a million reminders holds one at a time and decodes nothing else.
  /// A due date that does not parse counts as none, as `decodeReminder` reads it.
  public func forEachReminderFacts(_ body: (_ listRowID: Int64, _ facts: ReminderFacts) throws -> Void) throws {
    let statement = try database.statement("SELECT list_id, is_done, flagged, due, due_tz FROM reminders")
    defer { statement.reset() }
    while let row = try statement.step() {
      let due = row.string(3).flatMap { try? DueDate(isoText: $0, timeZone: row.string(4)) }
      try body(row.int(0) ?? 0, ReminderFacts(isDone: row.bool(1), flagged: row.bool(2), dueDate: due))
    }
  }

  /// Every reminder stored with exactly `uid` (a store may hold one UID twice when an old
  /// version wrote it so; callers treat that as ambiguous).
  public func reminders(uid: String) throws -> [StoredReminder] {
    try database.rows(
      "SELECT \(Self.reminderColumns) \(Self.reminderJoins) WHERE r.uid = ? ORDER BY r.id", [.text(uid)]
    ).map(Self.decodeReminder)
  }

  /// For each of `uids`, the shortest prefix length that tells it apart from every other UID
  /// in the store, compared as `reminders(uidPrefix:)` matches (ASCII case-insensitively): a
  /// prefix this long names that reminder alone. Streams the store's UIDs in sorted order and
  /// compares neighbours, holding only the answers.
  public func uniquePrefixLengths(of uids: Set<String>) throws -> [String: Int] {
    guard !uids.isEmpty else { return [:] }
    // SQLite's upper() folds ASCII only, as LIKE does; the keys are folded the same way.
    func folded(_ uid: String) -> String { String(uid.map { $0.isASCII ? Character($0.uppercased()) : $0 }) }
    var wanted: [String: [String]] = [:]
    for uid in uids { wanted[folded(uid), default: []].append(uid) }
    var needed: [String: Int] = [:]
    let statement = try database.statement("SELECT upper(uid) FROM reminders ORDER BY upper(uid)")
    defer { statement.reset() }
    var previous: [Character] = []
    var previousKey = ""
    while let row = try statement.step() {
      let key = row.string(0) ?? ""
      let current = Array(key)
      var common = 0
      while common < previous.count, common < current.count, previous[common] == current[common] { common += 1 }
      if wanted[previousKey] != nil { needed[previousKey] = max(needed[previousKey] ?? 1, common + 1) }
      if wanted[key] != nil { needed[key] = max(needed[key] ?? 1, common + 1) }
      previous = current
      previousKey = key
    }
    var result: [String: Int] = [:]
    for (key, originals) in wanted {
      for uid in originals { result[uid] = min(needed[key] ?? 1, uid.count) }
    }
    return result
  }

  /// The row ids of a reminder and all its subtasks, nested ones too, in no particular order.
  /// A parent cycle stops the walk where it closes.
  public func subtreeRowIDs(of rowID: Int64) throws -> [Int64] {
    try database.rows("""
      WITH RECURSIVE tree(id) AS (SELECT ? UNION SELECT r.id FROM reminders r JOIN tree ON r.parent_id = tree.id)
      SELECT id FROM tree
      """, [.integer(rowID)]
    ).compactMap { $0.int(0) }
  }
}

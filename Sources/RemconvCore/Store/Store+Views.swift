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
    func folded(_ uid: String) -> String {
      String(decoding: uid.utf8.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
    }
    var wanted: [String: [String]] = [:]
    for uid in uids { wanted[folded(uid), default: []].append(uid) }
    // Compared as UTF-8 bytes: the folded keys differ from the UIDs in ASCII case only, so a
    // byte length in a key is the same byte length in its UID.
    var neededBytes: [String: Int] = [:]
    func settle(_ key: String, common: Int) {
      guard wanted[key] != nil else { return }
      neededBytes[key] = max(neededBytes[key] ?? 1, common + 1)
    }
    let statement = try database.statement("SELECT upper(uid) FROM reminders ORDER BY upper(uid)")
    defer { statement.reset() }
    // A key is settled when the next one arrives: it needs one byte more than it shares with
    // either neighbour.
    var previous: [UInt8] = []
    var previousKey: String?
    var previousCommon = 0
    while let row = try statement.step() {
      let key = row.string(0) ?? ""
      let current = Array(key.utf8)
      var common = 0
      while common < previous.count, common < current.count, previous[common] == current[common] { common += 1 }
      if let previousKey { settle(previousKey, common: max(previousCommon, common)) }
      previous = current
      previousKey = key
      previousCommon = common
    }
    if let previousKey { settle(previousKey, common: previousCommon) }
    var result: [String: Int] = [:]
    for (key, originals) in wanted {
      for uid in originals { result[uid] = Self.characterCount(ofPrefixCovering: neededBytes[key] ?? 1, in: uid) }
    }
    return result
  }

  /// How many characters of `text` it takes to cover its first `bytes` UTF-8 bytes.
  static func characterCount(ofPrefixCovering bytes: Int, in text: String) -> Int {
    var covered = 0
    var characters = 0
    for character in text {
      guard covered < bytes else { break }
      covered += character.utf8.count
      characters += 1
    }
    return characters
  }

  /// The row ids of a reminder and all its subtasks, nested ones too, in no particular order.
  /// A parent cycle stops the walk where it closes.
  public func subtreeRowIDs(of rowID: Int64) throws -> [Int64] {
    try database.rows(
      """
      WITH RECURSIVE tree(id) AS (SELECT ? UNION SELECT r.id FROM reminders r JOIN tree ON r.parent_id = tree.id)
      SELECT id FROM tree
      """, [.integer(rowID)]
    ).compactMap { $0.int(0) }
  }
}

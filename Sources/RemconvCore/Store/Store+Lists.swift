/// A list as stored, with its row id.
public struct StoredList: Hashable, Sendable {
  public let rowID: Int64
  public var list: ReminderList
}

/// The columns a list is read with, in the order of `Store.listColumns`.
enum ListColumn: Int32, CaseIterable, RowColumn {
  case rowID, uid, name, symbol, color, createdAt, extra

  var name: String {
    switch self {
    case .rowID: "id"
    case .uid: "uid"
    case .name: "name"
    case .symbol: "symbol"
    case .color: "color"
    case .createdAt: "created_at"
    case .extra: "extra"
    }
  }

  var index: Int32 { rawValue }
}

extension Store {
  static let listColumns = ListColumn.allCases.map(\.name).joined(separator: ", ")

  static func decodeList(_ row: Row) -> StoredList {
    var extra = decodeObject(row.string(ListColumn.extra))
    let createdText = row.string(ListColumn.createdAt)
    let createdAt = createdText.flatMap(Timestamp.init(iso:))
    if let createdText, createdAt == nil { markInvalid(&extra, key: "createdAt", value: createdText) }
    return StoredList(
      rowID: row.int(ListColumn.rowID) ?? 0,
      list: ReminderList(
        id: row.string(ListColumn.uid) ?? "", name: row.string(ListColumn.name) ?? "",
        symbol: row.string(ListColumn.symbol) ?? ReminderList.defaultSymbol, color: row.string(ListColumn.color),
        createdAt: createdAt, extra: extra))
  }

  /// Every list, oldest first.
  public func lists() throws -> [StoredList] {
    try database.rows("SELECT \(Self.listColumns) FROM lists ORDER BY id").map(Self.decodeList)
  }

  public func list(uid: String) throws -> StoredList? {
    try database.rows("SELECT \(Self.listColumns) FROM lists WHERE uid = ? ORDER BY id LIMIT 1", [.text(uid)])
      .first.map(Self.decodeList)
  }

  /// What a list whose `extra` may hold `mergedLists` answers to: its text spells the key or
  /// holds an escape (`\u006d...`), which may spell it too. Only those lists' JSON is read.
  static let listMayHoldAliases = "(instr(lists.extra, 'mergedLists') > 0 OR instr(lists.extra, '\\') > 0)"

  /// The list with an entry of UID `alias` in its `extra.mergedLists`: a UID it had before it
  /// took a source's (`MergeEngine`). Lists are few, so they are scanned.
  public func list(alias: String) throws -> StoredList? {
    try database.rows(
      """
      SELECT \(Self.listColumns) FROM lists
      WHERE \(Self.listMayHoldAliases) AND EXISTS (
        SELECT 1 FROM json_each(CASE WHEN json_valid(lists.extra) THEN lists.extra ELSE '{}' END, '$.mergedLists')
        WHERE json_extract(value, '$.id') = ?)
      ORDER BY id LIMIT 1
      """, [.text(alias)]
    ).first.map(Self.decodeList)
  }

  /// The list whose name has the same key (trimmed, NFC, case-folded) as `name`.
  public func list(named name: String) throws -> StoredList? {
    try database.rows(
      "SELECT \(Self.listColumns) FROM lists WHERE name_key = ? LIMIT 1", [.text(ListName.key(for: name))]
    ).first.map(Self.decodeList)
  }

  public func list(rowID: Int64) throws -> StoredList? {
    try database.rows("SELECT \(Self.listColumns) FROM lists WHERE id = ?", [.integer(rowID)])
      .first.map(Self.decodeList)
  }

  /// Inserts a list; its name is stored trimmed and NFC-normalised.
  @discardableResult
  public func insertList(_ list: ReminderList) throws -> Int64 {
    let name = ListName.normalized(list.name)
    try database.run(
      "INSERT INTO lists (uid, name, name_key, symbol, color, created_at, extra) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [
        .text(list.id), .text(name), .text(ListName.key(for: name)), .text(list.symbol),
        list.color.map(SQLValue.text) ?? .null,
        list.createdAt.map { .text($0.description) } ?? .null,
        .text(Self.encodeObject(list.extra)),
      ])
    return database.lastInsertRowID
  }

  public func updateList(rowID: Int64, _ list: ReminderList) throws {
    let name = ListName.normalized(list.name)
    try database.run(
      "UPDATE lists SET uid = ?, name = ?, name_key = ?, symbol = ?, color = ?, created_at = ?, extra = ? WHERE id = ?",
      [
        .text(list.id), .text(name), .text(ListName.key(for: name)), .text(list.symbol),
        list.color.map(SQLValue.text) ?? .null,
        list.createdAt.map { .text($0.description) } ?? .null,
        .text(Self.encodeObject(list.extra)), .integer(rowID),
      ])
  }

  /// Deletes a list and, through the foreign key, its reminders. Returns how many went with it.
  @discardableResult
  public func deleteList(rowID: Int64) throws -> Int {
    let count = try reminderCount(inListRow: rowID)
    try database.run("DELETE FROM lists WHERE id = ?", [.integer(rowID)])
    return count
  }

  static func decodeObject(_ text: String?) -> [String: JSONValue] {
    guard let text, let value = try? JSONParser.parse(text), case .object(let members) = value else {
      return [:]
    }
    return members
  }

  static func encodeObject(_ members: [String: JSONValue]) -> String {
    JSONText.encode(.object(members))
  }

  /// Keeps a stored value that does not parse in `extra.invalid`, so nothing is dropped.
  static func markInvalid(_ extra: inout [String: JSONValue], key: String, value: String) {
    var invalid = extra["invalid"]?.objectValue ?? [:]
    invalid[key] = .string(value)
    extra["invalid"] = .object(invalid)
  }
}

/// What a SwiftData (or Core Data) store of the reminders app's model holds: `ZREMINDERLIST`
/// and `ZREMINDER`, one table per entity with a `Z` before each property's upper-cased name
/// (fatbobman.com, "How Core Data Saves Data in SQLite").
struct SwiftDataRemindersDatabase {
  struct ListRow {
    let key: Int64
    let name: String?
    let symbol: String?
    /// Text (`#RRGGBB`, or a name) or a number, as the model encoded it.
    let color: SQLValue
    let createdAt: Double?
  }

  struct ReminderRow {
    let key: Int64
    let title: String?
    let notes: String?
    let isDone: Bool
    let flagged: Bool
    let dueDate: Double?
    /// An enum's raw value: text (`high`) or an integer, as the model declared it.
    let priority: SQLValue
    let listKey: Int64?
  }

  static let listTable = "ZREMINDERLIST"
  static let reminderTable = "ZREMINDER"

  let storeUUID: String?
  let lists: [ListRow]
  let reminders: [ReminderRow]

  static func recognizes(_ file: CoreDataFile) -> Bool {
    file.hasTable(reminderTable) && file.hasColumn("ZTITLE", in: reminderTable) && file.hasTable("Z_PRIMARYKEY")
  }

  init(_ file: CoreDataFile) throws(RemconvError) {
    var missing: [String] = []
    for table in ["Z_PRIMARYKEY", "Z_METADATA", Self.reminderTable] where !file.hasTable(table) {
      missing.append("table \(table)")
    }
    if file.hasTable(Self.reminderTable) {
      for column in ["Z_PK", "ZTITLE"] where !file.hasColumn(column, in: Self.reminderTable) {
        missing.append("column \(Self.reminderTable).\(column)")
      }
    }
    if file.storeUUID == nil, file.hasTable("Z_METADATA") { missing.append("Z_METADATA.Z_UUID") }
    guard missing.isEmpty, let storeUUID = file.storeUUID else {
      throw .invalidInput(
        "\(file.sourcePath): not a SwiftData reminders store of a known layout: missing \(missing.joined(separator: ", "))"
      )
    }
    self.storeUUID = storeUUID
    lists = try file.rows(of: Self.listTable).compactMap { row in
      row.int("Z_PK").map { key in
        ListRow(
          key: key, name: row.string("ZNAME"), symbol: row.string("ZSYMBOL"), color: row["ZCOLOR"],
          createdAt: row.double("ZCREATEDAT"))
      }
    }
    reminders = try file.rows(of: Self.reminderTable).compactMap { row in
      row.int("Z_PK").map { key in
        ReminderRow(
          key: key, title: row.string("ZTITLE"), notes: row.string("ZNOTES"), isDone: row.bool("ZISDONE"),
          flagged: row.bool("ZFLAGGED"), dueDate: row.double("ZDUEDATE"), priority: row["ZPRIORITY"],
          listKey: row.int("ZLIST"))
      }
    }
  }
}

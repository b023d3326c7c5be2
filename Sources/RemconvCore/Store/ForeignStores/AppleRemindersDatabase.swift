/// What Apple Reminders' `Data-<UUID>.sqlite` (one account) holds, read from a private copy.
///
/// No official documentation exists; the layout is the one public readers agree on
/// (ajrosen/icalPal `lib/reminder.rb`, rex/mcp-apple-reminders `docs/SQLITE_SCHEMA.md`):
/// reminders in `ZREMCDREMINDER`, lists in `ZREMCDBASELIST` (older stores: in `ZREMCDOBJECT`,
/// name in `ZNAME1`), alarms, recurrence rules, locations and hashtags as rows of the
/// polymorphic `ZREMCDOBJECT` told apart by `Z_ENT`, whose numbers `Z_PRIMARYKEY` names.
struct AppleRemindersDatabase {
  /// A list or a group of lists (`ZREMCDBASELIST`, or `ZREMCDOBJECT` in older stores).
  struct ListRow {
    let key: Int64
    let entity: String
    let name: String?
    /// An archived colour (`NSKeyedArchiver` property list).
    let colorArchive: [UInt8]?
    let emblem: String?
    let parentKey: Int64?
    let identifier: String?
    let creationDate: Double?
    /// The row's other non-empty, non-blob columns, kept for `extra`.
    let otherColumns: [String: SQLValue]
  }

  struct ReminderRow {
    let key: Int64
    let title: String?
    let notes: String?
    let completed: Bool
    let completionDate: Double?
    let flagged: Bool
    let dueDate: Double?
    let allDay: Bool
    let timeZone: String?
    let priority: Int64?
    let parentKey: Int64?
    let listKey: Int64?
    let creationDate: Double?
    let modificationDate: Double?
    /// The iCalendar UID (`ZDACALENDARITEMUNIQUEIDENTIFIER`).
    let calendarItemUID: String?
    /// EventKit's `calendarItemIdentifier` (`ZCKIDENTIFIER`).
    let identifier: String?
    let otherColumns: [String: SQLValue]
  }

  /// A row of `ZREMCDOBJECT` that belongs to a reminder (an alarm, a recurrence rule, ...),
  /// or an alarm's trigger.
  struct ObjectRow {
    let key: Int64?
    let entity: String
    let columns: [String: SQLValue]
  }

  /// A section of a list (`ZREMCDBASESECTION`).
  struct SectionRow {
    let listKey: Int64
    let columns: [String: SQLValue]
  }

  let storeUUID: String?
  let lists: [ListRow]
  let reminders: [ReminderRow]
  /// Hashtag names by reminder key, in label order.
  let hashtags: [Int64: [String]]
  let objects: [Int64: [ObjectRow]]
  /// Alarm triggers (rows of an entity named `…Trigger`) by `Z_PK`: an alarm names its
  /// trigger, the trigger no reminder.
  let triggers: [Int64: ObjectRow]
  let sections: [SectionRow]

  static let reminderTable = "ZREMCDREMINDER"
  static let listTable = "ZREMCDBASELIST"
  static let objectTable = "ZREMCDOBJECT"
  static let hashtagTable = "ZREMCDHASHTAGLABEL"
  static let sectionTable = "ZREMCDBASESECTION"

  /// Columns mapped to fields, left out of `otherColumns`. Core Data's bookkeeping (`Z_ENT`,
  /// `Z_OPT`) and CloudKit's (`ZCK…`, blobs) are never kept.
  private static let listColumns = [
    "Z_PK", "Z_ENT", "ZNAME", "ZNAME1", "ZCOLOR", "ZBADGEEMBLEM", "ZPARENTLIST", "ZCKIDENTIFIER", "ZCREATIONDATE",
    "ZMARKEDFORDELETION",
  ]
  /// Columns Reminders writes as JSON, as text or as a blob: kept (as text) where other blobs
  /// are not.
  private static let jsonColumns: Set<String> = [
    "ZDAYSOFTHEWEEK", "ZDAYSOFTHEMONTH", "ZMONTHSOFTHEYEAR", "ZDAYSOFTHEYEAR", "ZWEEKSOFTHEYEAR", "ZSETPOSITIONS",
    "ZDATECOMPONENTSDATA", "ZDUEDATEDELTAALERTSDATA",
  ]
  private static let reminderColumns = [
    "Z_PK", "Z_ENT", "ZTITLE", "ZNOTES", "ZCOMPLETED", "ZCOMPLETIONDATE", "ZFLAGGED", "ZDUEDATE", "ZALLDAY",
    "ZTIMEZONE", "ZPRIORITY", "ZPARENTREMINDER", "ZLIST", "ZCREATIONDATE", "ZLASTMODIFIEDDATE",
    "ZDACALENDARITEMUNIQUEIDENTIFIER", "ZCKIDENTIFIER", "ZMARKEDFORDELETION",
  ]

  /// True when the file's schema is Apple Reminders' (for detection).
  static func recognizes(_ file: CoreDataFile) -> Bool {
    file.hasTable(reminderTable) && file.entityNumbers["REMCDReminder"] != nil
  }

  /// Reads every list and reminder not marked for deletion. Refuses (exit 65) a layout that
  /// lacks what the mapping needs, naming what is missing.
  init(_ file: CoreDataFile) throws(RemconvError) {
    var missing: [String] = []
    if !file.hasTable("Z_PRIMARYKEY") { missing.append("table Z_PRIMARYKEY") }
    if !file.hasTable(Self.reminderTable) { missing.append("table \(Self.reminderTable)") }
    for column in ["Z_PK", "ZTITLE", "ZLIST"] where file.hasTable(Self.reminderTable) {
      if !file.hasColumn(column, in: Self.reminderTable) { missing.append("column \(Self.reminderTable).\(column)") }
    }
    let listsInObjects = !file.hasTable(Self.listTable)
    if listsInObjects, !(file.hasTable(Self.objectTable) && file.entityNumbers["REMCDList"] != nil) {
      missing.append("table \(Self.listTable) (or REMCDList rows in \(Self.objectTable))")
    }
    guard missing.isEmpty else {
      throw .invalidInput(
        "\(file.sourcePath): not an Apple Reminders database of a known layout: missing \(missing.joined(separator: ", "))"
      )
    }
    let entityNames = file.entityNames
    storeUUID = file.storeUUID

    let listSource = listsInObjects ? Self.objectTable : Self.listTable
    var lists: [ListRow] = []
    for row in try file.rows(of: listSource) where !row.bool("ZMARKEDFORDELETION") {
      let entity = row.int("Z_ENT").flatMap { entityNames[$0] } ?? ""
      guard let key = row.int("Z_PK"), !listsInObjects || entity == "REMCDList" else { continue }
      lists.append(
        ListRow(
          key: key, entity: entity, name: row.string(listsInObjects ? "ZNAME1" : "ZNAME") ?? row.string("ZNAME"),
          colorArchive: row.blob("ZCOLOR"), emblem: row.string("ZBADGEEMBLEM"), parentKey: row.int("ZPARENTLIST"),
          identifier: row.string("ZCKIDENTIFIER"), creationDate: row.double("ZCREATIONDATE"),
          otherColumns: listsInObjects ? [:] : Self.other(row, mapped: Self.listColumns)))
    }
    self.lists = lists

    var reminders: [ReminderRow] = []
    for row in try file.rows(of: Self.reminderTable) where !row.bool("ZMARKEDFORDELETION") {
      guard let key = row.int("Z_PK") else { continue }
      reminders.append(
        ReminderRow(
          key: key, title: row.string("ZTITLE"), notes: row.string("ZNOTES"), completed: row.bool("ZCOMPLETED"),
          completionDate: row.double("ZCOMPLETIONDATE"), flagged: row.bool("ZFLAGGED"),
          dueDate: row.double("ZDUEDATE"), allDay: row.bool("ZALLDAY"), timeZone: row.string("ZTIMEZONE"),
          priority: row.int("ZPRIORITY"), parentKey: row.int("ZPARENTREMINDER"), listKey: row.int("ZLIST"),
          creationDate: row.double("ZCREATIONDATE"), modificationDate: row.double("ZLASTMODIFIEDDATE"),
          calendarItemUID: row.string("ZDACALENDARITEMUNIQUEIDENTIFIER"), identifier: row.string("ZCKIDENTIFIER"),
          otherColumns: Self.other(row, mapped: Self.reminderColumns)))
    }
    self.reminders = reminders

    var labels: [Int64: String] = [:]
    for row in try file.rows(of: Self.hashtagTable, columns: ["Z_PK", "ZNAME"]) {
      if let key = row.int("Z_PK"), let name = row.string("ZNAME") { labels[key] = name }
    }
    var hashtags: [Int64: [String]] = [:]
    var objects: [Int64: [ObjectRow]] = [:]
    var triggers: [Int64: ObjectRow] = [:]
    let objectColumns = file.tables[Self.objectTable] ?? []
    // The reminder an object belongs to is in one of `ZREMINDER`, `ZREMINDER1`, … (Core Data
    // numbers a relationship's column per entity that declares it).
    let reminderLinks = objectColumns.filter { $0.hasPrefix("ZREMINDER") && $0.dropFirst(9).allSatisfy(\.isNumber) }
    for row in try file.rows(of: Self.objectTable) where !row.bool("ZMARKEDFORDELETION") {
      let entity = row.int("Z_ENT").flatMap { entityNames[$0] } ?? "unknown"
      let columns = Self.other(row, mapped: ["Z_PK", "Z_ENT"] + reminderLinks)
      if entity.hasSuffix("Trigger"), let key = row.int("Z_PK") {
        triggers[key] = ObjectRow(key: key, entity: entity, columns: columns)
        continue
      }
      guard entity != "REMCDList", let owner = reminderLinks.lazy.compactMap({ row.int($0) }).first else { continue }
      if let label = row.int("ZHASHTAGLABEL").flatMap({ labels[$0] }) {
        hashtags[owner, default: []].append(label)
        continue
      }
      objects[owner, default: []].append(ObjectRow(key: row.int("Z_PK"), entity: entity, columns: columns))
    }
    self.hashtags = hashtags
    self.objects = objects
    self.triggers = triggers

    sections = try file.rows(of: Self.sectionTable).compactMap { row in
      guard !row.bool("ZMARKEDFORDELETION"), let list = row.int("ZLIST") else { return nil }
      return SectionRow(listKey: list, columns: Self.other(row, mapped: ["Z_PK", "Z_ENT", "ZLIST"]))
    }
  }

  /// The row's columns not in `mapped`: non-empty, not blobs (CloudKit's archived records)
  /// except the JSON ones (as text), not Core Data's or CloudKit's bookkeeping.
  private static func other(_ row: ForeignRow, mapped: [String]) -> [String: SQLValue] {
    var values = row.values
    for column in jsonColumns {
      if case .blob(let bytes)? = values[column], let text = String(validating: bytes, as: UTF8.self) {
        values[column] = .text(text)
      }
    }
    return values.filter { column, value in
      guard !mapped.contains(column), !column.hasPrefix("Z_"), !column.hasPrefix("ZCK"),
        column != "ZMARKEDFORDELETION"
      else { return false }
      switch value {
      case .null, .blob: return false
      case .text(let text): return !text.isEmpty
      case .integer, .real: return true
      }
    }
  }
}

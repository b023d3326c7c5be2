/// Reads a SwiftData `default.store` of the reminders app: lists, then reminders.
///
/// UIDs are derived from the store's `Z_METADATA` UUID and each row's `Z_PK`, so the same
/// store imported again finds the same items.
enum SwiftDataRecords {
  static func read(_ context: ReaderContext) throws -> [SourceRecord] {
    var records: [SourceRecord] = []
    guard case .file(let path) = context.source else {
      throw RemconvError.invalidInput(
        "\(context.source.displayName): swiftdata reads a default.store file, not a folder or a stream")
    }
    let database = try SwiftDataRemindersDatabase(CoreDataFile(copying: path))
    let storeUUID = database.storeUUID ?? path
    let extraKey = SwiftDataFormat.extraKey
    var listIDs: [Int64: String] = [:]
    for row in database.lists {
      let id = StableID.derived([storeUUID, SwiftDataRemindersDatabase.listTable, String(row.key)])
      listIDs[row.key] = id
      var list = ReminderList(
        id: id, name: row.name ?? "Untitled", symbol: row.symbol ?? ReminderList.defaultSymbol,
        createdAt: CoreDataValues.timestamp(row.createdAt))
      if case .text(let text) = row.color, let color = ListColor.normalized(text) {
        list.color = color
      } else if row.color != .null {
        list.extra = [extraKey: .object(["color": CoreDataValues.json(row.color)])]
      }
      records.append(.list(list))
    }
    for row in database.reminders {
      let id = StableID.derived([storeUUID, SwiftDataRemindersDatabase.reminderTable, String(row.key)])
      var reminder = Reminder(
        id: id, listID: row.listKey.flatMap { listIDs[$0] } ?? "", title: row.title ?? "", notes: row.notes ?? "",
        isDone: row.isDone, flagged: row.flagged,
        dueDate: row.dueDate.flatMap(CoreDataValues.utcWallTime).map(DueDate.utc))
      switch row.priority {
      case .null: break
      case .text(let text) where Priority(rawValue: text.lowercased()) != nil:
        reminder.priority = Priority(rawValue: text.lowercased()) ?? .none
      case .integer(let number) where Priority(storedValue: Int(number)) != nil:
        reminder.priority = Priority(storedValue: Int(number)) ?? .none
      default:
        // A raw value the app's enum does not have: kept, not guessed.
        reminder.extra = [extraKey: .object(["priority": CoreDataValues.json(row.priority)])]
      }
      records.append(.reminder(reminder, SourceLocation(file: path)))
    }
    return records
  }
}

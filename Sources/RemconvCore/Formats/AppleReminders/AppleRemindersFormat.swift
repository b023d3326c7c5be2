import Foundation

/// `--format apple-reminders`: Apple Reminders' own database, read only: a `Data-<UUID>.sqlite`
/// (one account) or a folder holding them (the `Stores` folder: every account). The mapping is
/// in `docs/formats-apple.md`; what it does not map is kept in `extra.apple`.
public enum AppleRemindersFormat {
  public static let descriptor = FormatDescriptor(
    name: "apple-reminders", summary: "Apple Reminders' database: Data-*.sqlite or its Stores folder (read only)",
    extensions: [], isDirectory: false,
    makeReader: { context in DecodedRecordsReader(try AppleRemindersRecords.read(context)) },
    makeWriter: nil, sniff: nil)

  static let extraKey = "apple"

  /// True for a device backup's folder (it holds a `Manifest.db`).
  static func isBackup(_ folder: String) -> Bool {
    FileManager.default.fileExists(atPath: folder + "/" + BackupManifest.fileName)
  }

  /// The account files of a `Stores` folder, in name order; the folders above it
  /// (`group.com.apple.reminders`, `Container_v1`) may be given too.
  static func storeFiles(in folder: String) -> [String] {
    for candidate in [folder, folder + "/Stores", folder + "/Container_v1/Stores"] {
      let names = (try? FileManager.default.contentsOfDirectory(atPath: candidate)) ?? []
      let files = names.filter { $0.hasPrefix("Data-") && $0.hasSuffix(".sqlite") }.sorted()
      if !files.isEmpty { return files.map { candidate + "/" + $0 } }
    }
    return []
  }
}

/// `--format swiftdata`: a SwiftData or Core Data `default.store` of the reminders app's model
/// (`ReminderList`, `Reminder`), read only.
public enum SwiftDataFormat {
  public static let descriptor = FormatDescriptor(
    name: "swiftdata", summary: "A SwiftData default.store of ReminderList and Reminder (read only)",
    extensions: ["store"], isDirectory: false,
    makeReader: { context in DecodedRecordsReader(try SwiftDataRecords.read(context)) },
    makeWriter: nil, sniff: nil)

  static let extraKey = "swiftdata"
}

/// Which Core Data format a SQLite file is, from its schema (detection without `--format`).
enum CoreDataDetection {
  /// The format, nil when the schema is no known one (or the file is not readable SQLite).
  /// A database another program is writing is refused here already, with that reason.
  static func format(ofFileAt path: String) throws(RemconvError) -> FormatDescriptor? {
    let file: CoreDataFile
    do {
      // With its -wal: a new store's schema may not be checkpointed into the file yet.
      file = try CoreDataFile(copying: path)
    } catch .storeBusy(let message) {
      throw .storeBusy(message)
    } catch {
      return nil
    }
    if AppleRemindersDatabase.recognizes(file) { return AppleRemindersFormat.descriptor }
    if SwiftDataRemindersDatabase.recognizes(file) { return SwiftDataFormat.descriptor }
    return nil
  }
}

/// Reads every account file of the source, lists first, then reminders (parents before their
/// subtasks).
enum AppleRemindersRecords {
  static func read(_ context: ReaderContext) throws -> [SourceRecord] {
    var records: [SourceRecord] = []
    let files: [AccountFile]
    switch context.source {
    case .file(let path):
      files = [AccountFile(path: path)]
    case .directory(let path) where AppleRemindersFormat.isBackup(path):
      files = try BackupManifest.reminderStores(inBackup: path).map {
        AccountFile(path: $0.path, wal: $0.walPath, name: $0.relativePath)
      }
      guard !files.isEmpty else {
        throw RemconvError.invalidInput("\(path): the backup holds no Apple Reminders database")
      }
    case .directory(let path):
      files = AppleRemindersFormat.storeFiles(in: path).map { AccountFile(path: $0) }
      guard !files.isEmpty else {
        throw RemconvError.invalidInput("\(path): holds no Data-*.sqlite file of Apple Reminders")
      }
    case .standardInput:
      throw RemconvError.invalidInput("<stdin>: apple-reminders reads a Data-*.sqlite file or its folder, not a stream")
    }
    let accounts = try files.map { file throws(RemconvError) in
      (
        path: file.path, name: file.name,
        database: try AppleRemindersDatabase(CoreDataFile(copying: file.path, wal: file.wal))
      )
    }
    // Lists are kept apart by account: a name another account already uses gets the account's
    // name after it, so the store (one list per name) does not merge them.
    var namesTaken: [String: String] = [:]
    for account in accounts {
      let mapping = AppleAccountMapping(
        path: account.path, name: account.name, database: account.database, diagnostics: context.diagnostics)
      for var list in mapping.lists {
        let key = ListName.key(for: list.name)
        if let owner = namesTaken[key], owner != account.path {
          list.name += " (\(mapping.accountName))"
        }
        namesTaken[ListName.key(for: list.name)] = account.path
        records.append(.list(list))
      }
      records += mapping.reminders.map { .reminder($0, SourceLocation(file: account.path)) }
    }
    return records
  }
}

/// A reader of records decoded beforehand: the Core Data readers resolve a database's
/// structure (lists, parents, hashtags by key) across its tables first.
final class DecodedRecordsReader: ReminderReader {
  private var records: IndexingIterator<[SourceRecord]>

  init(_ records: [SourceRecord]) { self.records = records.makeIterator() }

  func next() throws -> SourceRecord? { records.next() }
}

/// One account's database: a file, its write-ahead log, and the name that tells the account
/// (`Data-<UUID>.sqlite`; a backup keeps the file under a hash).
private struct AccountFile {
  var path: String
  var wal: String?
  var name: String

  init(path: String, wal: String? = nil, name: String? = nil) {
    self.path = path
    self.wal = wal
    self.name = name ?? path
  }
}

/// One account's rows as lists and reminders.
private struct AppleAccountMapping {
  let accountName: String
  var lists: [ReminderList] = []
  var reminders: [Reminder] = []

  init(path: String, name: String, database: AppleRemindersDatabase, diagnostics: DiagnosticLog) {
    let fileName = URL(fileURLWithPath: name).deletingPathExtension().lastPathComponent
    accountName = fileName.hasPrefix("Data-") ? String(fileName.dropFirst(5)) : fileName
    let storeKey = database.storeUUID ?? fileName
    let extraKey = AppleRemindersFormat.extraKey

    // Groups are the rows other lists name as parent, and rows of a group entity; smart lists
    // hold no reminders of their own and are left out.
    let parentKeys = Set(database.lists.compactMap(\.parentKey))
    let groupNames = Dictionary(
      database.lists.filter { parentKeys.contains($0.key) || $0.entity.contains("Group") }.map {
        ($0.key, $0.name ?? "")
      }, uniquingKeysWith: { first, _ in first })
    let sections = Dictionary(grouping: database.sections, by: \.listKey)
    var listIDs: [Int64: String] = [:]
    for row in database.lists where groupNames[row.key] == nil && !row.entity.contains("SmartList") {
      let id = row.identifier ?? StableID.derived([storeKey, "list", String(row.key)])
      listIDs[row.key] = id
      var extra: [String: JSONValue] = ["account": .string(accountName)]
      if let group = row.parentKey.flatMap({ groupNames[$0] }) { extra["group"] = .string(group) }
      if !row.otherColumns.isEmpty { extra["columns"] = CoreDataValues.json(row.otherColumns) }
      if let rows = sections[row.key] { extra["sections"] = .array(rows.map { CoreDataValues.json($0.columns) }) }
      let color = row.colorArchive.map(ArchivedColor.init)
      if let name = color?.symbolicName { extra["colorName"] = .string(name) }
      lists.append(
        ReminderList(
          id: id, name: row.name ?? "Untitled", symbol: row.emblem ?? ReminderList.defaultSymbol, color: color?.hex,
          createdAt: CoreDataValues.timestamp(row.creationDate), extra: [extraKey: .object(extra)]))
    }

    var reminderIDs: [Int64: String] = [:]
    for row in database.reminders {
      reminderIDs[row.key] =
        row.calendarItemUID ?? row.identifier ?? StableID.derived([storeKey, "reminder", String(row.key)])
    }
    // Parents before their subtasks (Reminders nests one level).
    let ordered = database.reminders.filter { $0.parentKey == nil } + database.reminders.filter { $0.parentKey != nil }
    for row in ordered {
      guard let id = reminderIDs[row.key] else { continue }
      var extra: [String: JSONValue] = [:]
      if let identifier = row.identifier, identifier != id { extra["identifier"] = .string(identifier) }
      // Recurrence rules and alarms become fields; what does not map stays in extra, reported.
      let mapped = AppleRepeatsAndAlarms.map(
        objects: database.objects[row.key] ?? [], triggers: database.triggers,
        earlyReminders: row.otherColumns[AppleRepeatsAndAlarms.earlyRemindersColumn], allDay: row.allDay,
        timeZone: row.timeZone)
      for reason in mapped.reasons {
        diagnostics.warning(
          "unmapped-value", "\(reason); kept in extra.apple", at: SourceLocation(file: path), uid: id)
      }
      var columns = row.otherColumns
      columns[AppleRepeatsAndAlarms.earlyRemindersColumn] = mapped.keptEarlyReminders.map { .text(JSONText.encode($0)) }
      if !columns.isEmpty { extra["columns"] = CoreDataValues.json(columns) }
      extra["objects"] = AppleRepeatsAndAlarms.extraObjects(mapped.keptObjects)
      let priority = Int(row.priority ?? 0)
      if ![0, 1, 5, 9].contains(priority) { extra["priority"] = .number(String(priority)) }
      var due: DueDate?
      if let seconds = row.dueDate {
        due = CoreDataValues.appleDue(seconds, allDay: row.allDay, timeZone: row.timeZone)
        if let zone = row.timeZone, due?.timeZoneIdentifier == nil, !row.allDay {
          extra["timeZone"] = .string(zone)
          diagnostics.warning(
            "unknown-zone", "the time zone '\(zone)' is unknown here; the due date is kept as a UTC instant",
            at: SourceLocation(file: path), uid: id)
        }
      }
      var reminder = Reminder(
        id: id, listID: row.listKey.flatMap { listIDs[$0] } ?? "", parentID: row.parentKey.flatMap { reminderIDs[$0] },
        title: row.title ?? "", notes: row.notes ?? "", isDone: row.completed,
        completedAt: CoreDataValues.timestamp(row.completionDate), flagged: row.flagged, dueDate: due,
        priority: Priority(iCalendarNumber: priority), tags: database.hashtags[row.key] ?? [],
        createdAt: CoreDataValues.timestamp(row.creationDate),
        editedAt: CoreDataValues.timestamp(row.modificationDate))
      reminder.recurrence = mapped.recurrence
      reminder.alarms = mapped.alarms
      if !extra.isEmpty { reminder.extra = [extraKey: .object(extra)] }
      reminders.append(reminder)
    }
  }
}

/// A list colour as Reminders archives it: an `NSKeyedArchiver` property list whose objects
/// hold the symbolic name (`blue`, or `custom`) and the hex value (`#RRGGBBAA`) (icalPal).
struct ArchivedColor {
  var hex: String?
  var symbolicName: String?

  init(_ archive: [UInt8]) {
    let plist = try? PropertyListSerialization.propertyList(from: Data(archive), options: [], format: nil)
    let objects = ((plist as? [String: Any])?["$objects"] as? [Any]) ?? []
    for case let text as String in objects where text != "$null" {
      if let color = ListColor.normalized(text) {
        hex = hex ?? color
      } else if symbolicName == nil, text != "custom" {
        symbolicName = text
      }
    }
  }
}

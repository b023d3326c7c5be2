import RemconvCore

/// A `ReminderRepository` held in memory: the merge engine's tests run against it, so they
/// test the engine and the seam, not SQLite. It keeps what the seam promises and no more:
/// handles in increasing order, the first reminder of a UID, list names trimmed and
/// NFC-normalised and found by their name key, and transactions that roll back. It uses
/// remconv's public interface only, as a second replica outside the module (a vdir folder, a
/// CalDAV collection) would.
public final class InMemoryRepository: ReminderRepository {
  /// A reminder as kept: its links are handles; its `listID` and `parentID` are read from them.
  struct Entry {
    var reminder: Reminder
    var list: ListHandle
    var parent: ReminderHandle?
    var sourceDigest: RecordDigest?
  }

  private struct Contents {
    var lists: [ListHandle: ReminderList] = [:]
    var reminders: [ReminderHandle: Entry] = [:]
    var lastList: Int64 = 0
    var lastReminder: Int64 = 0
  }

  private var contents = Contents()
  /// How many times anything was written: an unchanged merge writes nothing.
  public private(set) var writeCount = 0
  /// How many times a merge asked for the reminder under a UID (`reminderState(uid:)`).
  public private(set) var uidLookups = 0
  /// How many times a merge asked for the handle under a UID (`reminderHandle(uid:)`).
  public private(set) var handleLookups = 0
  /// How many times a merge asked for the reminders of a list by parent and title.
  public private(set) var titleLookups = 0
  /// How many times a list was sought by a former UID.
  public private(set) var aliasLookups = 0

  public init() {}

  // MARK: What the tests read

  /// Every list, in the order they were added.
  public var allLists: [ReminderList] {
    contents.lists.sorted { $0.key.ordinal < $1.key.ordinal }.map(\.value)
  }

  /// Every reminder as read back (list and parent UIDs from their links), in the order added.
  public var allReminders: [Reminder] {
    contents.reminders.keys.sorted().compactMap { readBack($0) }
  }

  /// The first reminder with `uid`, as read back.
  public func reminder(uid: String) -> Reminder? {
    firstHandle(uid: uid).flatMap(readBack)
  }

  /// The source digest kept with the first reminder of `uid`.
  public func sourceDigest(uid: String) -> RecordDigest? {
    firstHandle(uid: uid).flatMap { contents.reminders[$0]?.sourceDigest }
  }

  // MARK: ReminderRepository

  public func write<T>(commit: Bool, _ body: () throws -> T) throws -> T {
    let before = contents
    do {
      let result = try body()
      if !commit { contents = before }
      return result
    } catch {
      contents = before
      throw error
    }
  }

  public func read<T>(_ body: () throws -> T) throws -> T { try body() }

  public func findList(uid: String) throws -> RepositoryList? {
    contents.lists.filter { $0.value.id == uid }.min { $0.key.ordinal < $1.key.ordinal }
      .map { RepositoryList(handle: $0.key, list: $0.value) }
  }

  public func findList(named name: String) throws -> RepositoryList? {
    let key = ListName.key(for: name)
    return contents.lists.first { ListName.key(for: $0.value.name) == key }
      .map { RepositoryList(handle: $0.key, list: $0.value) }
  }

  public func holdsListAliases() throws -> Bool {
    contents.lists.values.contains { $0.extra["mergedLists"] != nil }
  }

  public func findList(alias: String) throws -> RepositoryList? {
    aliasLookups += 1
    return contents.lists.filter { entry in
      entry.value.extra["mergedLists"]?.arrayValue?.contains { $0["id"] == .string(alias) } == true
    }.min { $0.key.ordinal < $1.key.ordinal }.map { RepositoryList(handle: $0.key, list: $0.value) }
  }

  public func addList(_ list: ReminderList) throws -> ListHandle {
    contents.lastList += 1
    let handle = ListHandle(contents.lastList)
    contents.lists[handle] = normalized(list)
    writeCount += 1
    return handle
  }

  public func replaceList(_ handle: ListHandle, with list: ReminderList) throws {
    contents.lists[handle] = normalized(list)
    writeCount += 1
  }

  public func replaceListExtra(_ handle: ListHandle, with extra: [String: JSONValue]) throws {
    contents.lists[handle]?.extra = extra
    writeCount += 1
  }

  public func reminderState(uid: String) throws -> ReminderState? {
    uidLookups += 1
    return try firstHandle(uid: uid).flatMap(reminderState(handle:))
  }

  public func holdsNoReminders() throws -> Bool { contents.reminders.isEmpty }

  private func reminderState(handle: ReminderHandle) throws -> ReminderState? {
    guard let entry = contents.reminders[handle] else { return nil }
    return ReminderState(
      handle: handle, list: entry.list, parent: entry.parent,
      parentUID: entry.parent.flatMap { contents.reminders[$0]?.reminder.id },
      columns: ReminderColumns(entry.reminder), sourceDigest: entry.sourceDigest)
  }

  public func reminder(_ handle: ReminderHandle) throws -> RepositoryReminder? {
    guard let entry = contents.reminders[handle], let reminder = readBack(handle) else { return nil }
    return RepositoryReminder(handle: handle, list: entry.list, reminder: reminder)
  }

  public func reminderHandle(uid: String) throws -> ReminderHandle? {
    handleLookups += 1
    return firstHandle(uid: uid)
  }

  public func reminderStates(list: ListHandle, parent: ReminderHandle?, title: String) throws -> [ReminderState] {
    titleLookups += 1
    return try contents.reminders.filter {
      $0.value.list == list && $0.value.parent == parent && $0.value.reminder.title == title
    }
    .keys.sorted().compactMap { try reminderState(handle: $0) }
  }

  public func parent(of handle: ReminderHandle) throws -> ReminderHandle? { contents.reminders[handle]?.parent }

  public func lastReminderHandle() throws -> ReminderHandle { ReminderHandle(contents.lastReminder) }

  public func addReminder(
    _ reminder: Reminder, list: ListHandle, parent: ReminderHandle?, sourceDigest: RecordDigest?
  ) throws -> ReminderHandle {
    contents.lastReminder += 1
    let handle = ReminderHandle(contents.lastReminder)
    contents.reminders[handle] = Entry(reminder: reminder, list: list, parent: parent, sourceDigest: sourceDigest)
    writeCount += 1
    return handle
  }

  public func replaceReminder(
    _ handle: ReminderHandle, with reminder: Reminder, list: ListHandle, parent: ReminderHandle?,
    sourceDigest: RecordDigest?
  ) throws {
    contents.reminders[handle] = Entry(reminder: reminder, list: list, parent: parent, sourceDigest: sourceDigest)
    writeCount += 1
  }

  public func setParent(of handle: ReminderHandle, to parent: ReminderHandle?) throws {
    contents.reminders[handle]?.parent = parent
    // As the store's triggers do: a row changed by anything but a merge loses its digest.
    contents.reminders[handle]?.sourceDigest = nil
    writeCount += 1
  }

  public func children(of handle: ReminderHandle) throws -> [ReminderHandle] {
    contents.reminders.filter { $0.value.parent == handle }.keys.sorted()
  }

  public func removeReminder(_ handle: ReminderHandle) throws {
    for child in try children(of: handle) { try removeReminder(child) }
    contents.reminders[handle] = nil
    writeCount += 1
  }

  public func hasSourceDigests() throws -> Bool {
    contents.reminders.values.contains { $0.sourceDigest != nil }
  }

  public func reminderHandle(sourceDigest digest: RecordDigest) throws -> ReminderHandle? {
    contents.reminders.first { $0.value.sourceDigest == digest }?.key
  }

  public func setSourceDigest(_ digest: RecordDigest, of handle: ReminderHandle) throws {
    contents.reminders[handle]?.sourceDigest = digest
    writeCount += 1
  }

  // MARK: Keeping

  private func firstHandle(uid: String) -> ReminderHandle? {
    contents.reminders.filter { $0.value.reminder.id == uid }.keys.min()
  }

  private func readBack(_ handle: ReminderHandle) -> Reminder? {
    guard let entry = contents.reminders[handle] else { return nil }
    var reminder = entry.reminder
    reminder.listID = contents.lists[entry.list]?.id ?? ""
    reminder.parentID = entry.parent.flatMap { contents.reminders[$0]?.reminder.id }
    return reminder
  }

  private func normalized(_ list: ReminderList) -> ReminderList {
    var list = list
    list.name = ListName.normalized(list.name)
    return list
  }
}

/// A replica of lists and reminders that the merge engine writes into, keyed by UID.
///
/// The seam between the pipeline and a store: `Store` is its SQLite implementation (the only
/// code that holds SQL); a folder of `.ics` files or a remote calendar collection can be
/// another, merged by the same `MergeEngine`. The engine calls it inside `write { }`; what it
/// sees of a stored item is a handle, never where or how the item is kept.
public protocol ReminderRepository: AnyObject {
  /// Runs `body` in one transaction that sees nothing of other writers; `commit: false`
  /// rolls it back (a dry run).
  func write<T>(commit: Bool, _ body: () throws -> T) throws -> T
  /// Runs `body` on one consistent snapshot.
  func read<T>(_ body: () throws -> T) throws -> T

  // MARK: Lists

  func findList(uid: String) throws -> RepositoryList?
  /// The list whose name has the same key (`ListName.key(for:)`) as `name`.
  func findList(named name: String) throws -> RepositoryList?
  /// The list that had the UID `alias` before it took another: one whose `extra.mergedLists`
  /// has an entry with that `id`.
  func findList(alias: String) throws -> RepositoryList?
  /// Whether any list may have had another UID before (`findList(alias:)` may find one): a
  /// merge that knows none did asks for no former UID. True when the repository cannot tell cheaply.
  func holdsListAliases() throws -> Bool
  /// Adds a list; its name is kept trimmed and NFC-normalised.
  func addList(_ list: ReminderList) throws -> ListHandle
  func replaceList(_ handle: ListHandle, with list: ReminderList) throws
  /// Replaces a list's `extra` alone (its name is not normalised again).
  func replaceListExtra(_ handle: ListHandle, with extra: [String: JSONValue]) throws

  // MARK: Reminders

  /// How the first reminder with `uid` is kept, without decoding it: what a merge compares.
  func reminderState(uid: String) throws -> ReminderState?
  /// The reminder behind `handle`, decoded.
  func reminder(_ handle: ReminderHandle) throws -> RepositoryReminder?
  /// The first reminder with `uid`.
  func reminderHandle(uid: String) throws -> ReminderHandle?
  /// The reminders of a list under `parent` (top-level for nil) with exactly this title, oldest
  /// first: the candidates for a reminder of a source without UIDs.
  func reminderStates(list: ListHandle, parent: ReminderHandle?, title: String) throws -> [ReminderState]
  func parent(of handle: ReminderHandle) throws -> ReminderHandle?
  /// The newest handle so far: every reminder added later gets a greater one.
  func lastReminderHandle() throws -> ReminderHandle
  /// Whether it holds no reminder at all: a merge into it then knows every UID it meets
  /// without asking (`UIDFilter`). False when the repository cannot tell cheaply.
  func holdsNoReminders() throws -> Bool
  /// Adds a reminder; `sourceDigest` is the digest of the record it comes from, when a merge
  /// wrote it cleanly.
  func addReminder(
    _ reminder: Reminder, list: ListHandle, parent: ReminderHandle?, sourceDigest: RecordDigest?
  ) throws -> ReminderHandle
  /// Replaces a reminder; its source digest becomes `sourceDigest`.
  func replaceReminder(
    _ handle: ReminderHandle, with reminder: Reminder, list: ListHandle, parent: ReminderHandle?,
    sourceDigest: RecordDigest?
  ) throws
  func setParent(of handle: ReminderHandle, to parent: ReminderHandle?) throws
  /// The subtasks of a reminder, oldest first.
  func children(of handle: ReminderHandle) throws -> [ReminderHandle]
  /// Removes a reminder and its subtasks.
  func removeReminder(_ handle: ReminderHandle) throws

  // MARK: Record digests (`KnownRecords`)

  /// Whether any reminder is kept with a source digest.
  func hasSourceDigests() throws -> Bool
  /// The reminder kept from a record with this digest and unchanged since.
  func reminderHandle(sourceDigest digest: RecordDigest) throws -> ReminderHandle?
  /// Notes that a reminder is as the record with this digest leaves it.
  func setSourceDigest(_ digest: RecordDigest, of handle: ReminderHandle) throws
}

/// A list in a repository. Opaque: only the repository that issued it knows what it names.
public struct ListHandle: Hashable, Sendable {
  /// `Store`: the row id. Another repository numbers its lists as it likes.
  public let ordinal: Int64

  public init(_ ordinal: Int64) { self.ordinal = ordinal }
}

/// A reminder in a repository. Opaque outside this module; handles of reminders added later
/// compare greater, which is how a merge tells what it wrote itself.
public struct ReminderHandle: Hashable, Comparable, Sendable {
  /// `Store`: the row id. Another repository issues increasing numbers from 1.
  public let ordinal: Int64

  public init(_ ordinal: Int64) { self.ordinal = ordinal }

  public static func < (left: Self, right: Self) -> Bool { left.ordinal < right.ordinal }
}

extension ReminderRepository {
  public func holdsNoReminders() throws -> Bool { false }
  public func holdsListAliases() throws -> Bool { true }
}

/// A list as a repository keeps it.
public struct RepositoryList: Hashable, Sendable {
  public let handle: ListHandle
  public var list: ReminderList

  public init(handle: ListHandle, list: ReminderList) {
    self.handle = handle
    self.list = list
  }
}

/// A reminder as a repository keeps it, decoded.
public struct RepositoryReminder: Hashable, Sendable {
  public let handle: ReminderHandle
  public let list: ListHandle
  public var reminder: Reminder

  public init(handle: ReminderHandle, list: ListHandle, reminder: Reminder) {
    self.handle = handle
    self.list = list
    self.reminder = reminder
  }
}

/// Where a reminder is kept and what it holds, undecoded: what a merge compares a source's
/// reminder against, so an unchanged one costs one lookup and no parsing.
public struct ReminderState: Sendable {
  public let handle: ReminderHandle
  public let list: ListHandle
  public let parent: ReminderHandle?
  public let parentUID: String?
  public let columns: ReminderColumns
  /// The digest of the record the reminder was last merged from, while it is as that merge
  /// left it (see `RecordDigest`).
  public let sourceDigest: RecordDigest?

  public init(
    handle: ReminderHandle, list: ListHandle, parent: ReminderHandle?, parentUID: String?, columns: ReminderColumns,
    sourceDigest: RecordDigest?
  ) {
    self.handle = handle
    self.list = list
    self.parent = parent
    self.parentUID = parentUID
    self.columns = columns
    self.sourceDigest = sourceDigest
  }
}

/// A reminder's content as it is stored, one field per column: what a merge compares and a
/// store writes. A column added to the store is a field here, and the compiler points at every
/// place that makes or reads one.
public struct ReminderColumns: Hashable, Sendable {
  public var title: String
  public var notes: String
  public var isDone: Int64
  public var completedAt: String? {
    get { completedAtText?.text }
    set { completedAtText = newValue.map(TimestampText.init) }
  }
  var completedAtText: TimestampText?
  public var flagged: Int64
  public var due: String?
  public var dueKind: String?
  public var dueTimeZone: String?
  public var start: String?
  public var startKind: String?
  public var startTimeZone: String?
  /// A JSON object (`ScheduleJSON`), nil for a one-off.
  public var recurrence: String?
  /// A JSON array (`ScheduleJSON`).
  public var alarms: String
  public var priority: Int64
  /// A JSON array of strings.
  public var tags: String
  public var url: String?
  public var createdAt: String? {
    get { createdAtText?.text }
    set { createdAtText = newValue.map(TimestampText.init) }
  }
  var createdAtText: TimestampText?
  public var editedAt: String? {
    get { editedAtText?.text }
    set { editedAtText = newValue.map(TimestampText.init) }
  }
  var editedAtText: TimestampText?
  /// A JSON object.
  public var extra: String
  /// False when a store read a value kept in another form than `init(_:)` makes (a number as
  /// text, a flag of 2): such a row equals no reminder, so a merge writes it again.
  var isCanonical = true
}

extension ReminderColumns {
  /// Every content column by its name in `reminders`, with its text: what the sync's digest
  /// hashes, and what the field table's columns name (`ModelField.columns`, a test holds them
  /// to each other and to the store's).
  var contentColumns: [(name: String, value: String?)] {
    [
      ("title", title), ("notes", notes), ("is_done", String(isDone)), ("completed_at", completedAt),
      ("flagged", String(flagged)), ("due", due), ("due_kind", dueKind), ("due_tz", dueTimeZone), ("start", start),
      ("start_kind", startKind), ("start_tz", startTimeZone), ("recurrence", recurrence), ("alarms", alarms),
      ("priority", String(priority)), ("tags", tags), ("url", url), ("created_at", createdAt),
      ("edited_at", editedAt), ("extra", extra),
    ]
  }

  /// `extra` as an object; empty when it holds none.
  var extraObject: [String: JSONValue] { Store.decodeObject(extra) }

  /// The columns `reminder` is stored as. Borrowed: an initializer's argument is otherwise
  /// passed owned, and the writer's reminder was copied to be read here.
  public init(_ reminder: borrowing Reminder) {
    title = reminder.title
    notes = reminder.notes
    isDone = reminder.isDone ? 1 : 0
    completedAtText = reminder.completedAt.map(TimestampText.init)
    flagged = reminder.flagged ? 1 : 0
    due = reminder.dueDate?.isoText
    dueKind = reminder.dueDate?.kind.rawValue
    dueTimeZone = reminder.dueDate?.timeZoneIdentifier
    start = reminder.startDate?.isoText
    startKind = reminder.startDate?.kind.rawValue
    startTimeZone = reminder.startDate?.timeZoneIdentifier
    recurrence = reminder.recurrence.map(ScheduleJSON.text)
    // Most reminders have no alarms, tags or extra: their columns are the empty JSON texts,
    // which JSONText.encode would spell the same after building a value and a buffer.
    alarms = reminder.alarms.isEmpty ? "[]" : ScheduleJSON.text(reminder.alarms)
    priority = Int64(reminder.priority.storedValue)
    tags = Self.tagsText(reminder.tags)
    url = reminder.url
    createdAtText = reminder.createdAt.map(TimestampText.init)
    editedAtText = reminder.editedAt.map(TimestampText.init)
    extra = reminder.extra.isEmpty ? "{}" : JSONText.encode(.object(reminder.extra))
  }

  /// The tags as a JSON array of strings, as `JSONText.encode` writes one, without a
  /// `JSONValue` per tag.
  static func tagsText(_ tags: [String]) -> String {
    guard !tags.isEmpty else { return "[]" }
    var output: [UInt8] = []
    JSONText.appendStrings(tags, to: &output)
    return String(decoding: output, as: UTF8.self)
  }
}

/// The text of a timestamp column, kept as the instant it is written from until it is read:
/// a row written straight from a reminder spells its times into the statement's parameters,
/// without a `String` for each (one allocation apiece, at two or three times a row).
/// Equal when the texts are, however either is kept.
struct TimestampText: Hashable, Sendable {
  private enum Form: Hashable, Sendable {
    case instant(Timestamp)
    case text(String)
  }

  private let form: Form

  init(_ instant: Timestamp) { form = .instant(instant) }
  init(_ text: String) { form = .text(text) }

  /// `Timestamp.description` of an instant, or the text as it was given.
  var text: String {
    switch form {
    case .instant(let instant): instant.description
    case .text(let text): text
    }
  }

  /// Appends the UTF-8 of `text`.
  func append(to bytes: inout [UInt8]) {
    switch form {
    case .instant(let instant): instant.appendDescription(to: &bytes)
    case .text(var text): text.withUTF8 { bytes.append(contentsOf: $0) }
    }
  }

  static func == (lhs: TimestampText, rhs: TimestampText) -> Bool {
    // One instant has one text, and the text tells its instant apart from every other.
    if case .instant(let left) = lhs.form, case .instant(let right) = rhs.form { return left == right }
    return lhs.text == rhs.text
  }

  func hash(into hasher: inout Hasher) { hasher.combine(text) }
}

/// One reminder (a to-do), with everything a source carried.
public struct Reminder: Hashable, Sendable {
  /// A stable UID.
  public var id: String
  /// The UID of the reminder's list.
  public var listID: String
  /// The UID of the parent reminder when this is a subtask.
  public var parentID: String?
  public var title: String
  public var notes: String
  public var isDone: Bool
  public var completedAt: Timestamp?
  public var flagged: Bool
  public var dueDate: DueDate?
  /// When work on it can start (DTSTART, Taskwarrior's `scheduled`): the same kinds as `dueDate`.
  public var startDate: DueDate?
  /// How it repeats; nil for a one-off.
  public var recurrence: Recurrence?
  public var alarms: [Alarm]
  public var priority: Priority
  public var tags: [String]
  public var url: String?
  public var createdAt: Timestamp?
  public var editedAt: Timestamp?
  /// Everything the source carried that the model does not, kept so it can be written back.
  /// Keys are namespaced by the format that owns them (`ical`, `csv`, `taskwarrior`, ...).
  public var extra: [String: JSONValue]

  public init(
    id: String, listID: String, parentID: String? = nil, title: String, notes: String = "",
    isDone: Bool = false, completedAt: Timestamp? = nil, flagged: Bool = false,
    dueDate: DueDate? = nil, startDate: DueDate? = nil, recurrence: Recurrence? = nil, alarms: [Alarm] = [],
    priority: Priority = .none, tags: [String] = [], url: String? = nil, createdAt: Timestamp? = nil,
    editedAt: Timestamp? = nil, extra: [String: JSONValue] = [:]
  ) {
    self.id = id
    self.listID = listID
    self.parentID = parentID
    self.title = title
    self.notes = notes
    self.isDone = isDone
    self.completedAt = completedAt
    self.flagged = flagged
    self.dueDate = dueDate
    self.startDate = startDate
    self.recurrence = recurrence
    self.alarms = alarms
    self.priority = priority
    self.tags = tags
    self.url = url
    self.createdAt = createdAt
    self.editedAt = editedAt
    self.extra = extra
  }
}

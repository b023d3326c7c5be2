/// One field of a reminder's or a list's content, declared once (`Reminder.fields`,
/// `ReminderList.fields`): its name, where JSON and the store keep it, and how it merges.
///
/// The merge of an import and the three-way merge of a sync walk these tables (`FieldMerge`);
/// the sync's change digest hashes every stored column the table names; a test holds the store's
/// columns, the JSON contract, the JSON schema and the carriage table of docs/formats.md to it,
/// naming any declared field one of them leaves out. How to add a field: docs/architecture.md.
public struct ModelField<Item>: Sendable {
  /// What a three-way merge keeps when both sides changed the field to different values.
  public enum OnBothChanged: Sendable {
    /// A conflict: the incoming side's value is kept, the local version whole in a copy.
    case conflict
    /// The incoming side's value, silently: a time another app recorded (creation, completion).
    case incoming
    /// The later of the two (`isLater(a, b)`: a's value is after b's): the time of an edit.
    case later(@Sendable (Item, Item) -> Bool)
  }

  /// How the field merges.
  public enum Merging: Sendable {
    /// As one value.
    case whole(OnBothChanged)
    /// Key by key (`extra`): the keys in `nestedKeys` merge their own members the same way.
    case perKey(nestedKeys: Set<String>)
  }

  /// The model's name: the carriage table's, the reports' (`fieldChanges`, conflicts).
  public let name: String
  /// The members of remconv's JSON that hold it.
  public let jsonKeys: [String]
  /// The columns of `reminders` (or `lists`) that hold it.
  public let columns: [String]
  public let merging: Merging
  let isSame: @Sendable (Item, Item) -> Bool
  /// Copies the field's value from the first item into the second.
  let copy: @Sendable (Item, inout Item) -> Void
  /// The object of a field that merges per key.
  let object: (any WritableKeyPath<Item, [String: JSONValue]> & Sendable)?

  init<Value: Equatable & Sendable>(
    _ name: String, _ path: any WritableKeyPath<Item, Value> & Sendable, json: [String]? = nil, columns: [String],
    bothChanged: OnBothChanged = .conflict
  ) {
    self.name = name
    jsonKeys = json ?? [name]
    self.columns = columns
    merging = .whole(bothChanged)
    isSame = { $0[keyPath: path] == $1[keyPath: path] }
    copy = { $1[keyPath: path] = $0[keyPath: path] }
    object = nil
  }

  init(
    _ name: String, object path: any WritableKeyPath<Item, [String: JSONValue]> & Sendable, json: [String]? = nil,
    columns: [String], nestedKeys: Set<String>
  ) {
    self.name = name
    jsonKeys = json ?? [name]
    self.columns = columns
    merging = .perKey(nestedKeys: nestedKeys)
    isSame = { $0[keyPath: path] == $1[keyPath: path] }
    copy = { $1[keyPath: path] = $0[keyPath: path] }
    object = path
  }
}

extension Reminder {
  /// Every field of a reminder's content, in the order of the JSON contract. A reminder's UID,
  /// list and parent are not content: they say where it is, and the merge engine places it.
  public static let fields: [ModelField<Reminder>] = [
    ModelField("title", \.title, columns: ["title"]),
    ModelField("notes", \.notes, columns: ["notes"]),
    ModelField("isDone", \.isDone, columns: ["is_done"]),
    ModelField("completedAt", \.completedAt, columns: ["completed_at"], bothChanged: .incoming),
    ModelField("flagged", \.flagged, columns: ["flagged"]),
    ModelField(
      "dueDate", \.dueDate, json: ["dueDate", "dueTimeZone"], columns: ["due", "due_kind", "due_tz"]),
    ModelField(
      "startDate", \.startDate, json: ["startDate", "startTimeZone"], columns: ["start", "start_kind", "start_tz"]),
    ModelField("recurrence", \.recurrence, columns: ["recurrence"]),
    ModelField("alarms", \.alarms, columns: ["alarms"]),
    ModelField("priority", \.priority, columns: ["priority"]),
    ModelField("tags", \.tags, columns: ["tags"]),
    ModelField("url", \.url, columns: ["url"]),
    ModelField("createdAt", \.createdAt, columns: ["created_at"], bothChanged: .incoming),
    ModelField(
      "editedAt", \.editedAt, columns: ["edited_at"],
      bothChanged: .later { first, second in
        guard let edited = first.editedAt else { return false }
        return second.editedAt.map { edited > $0 } ?? true
      }),
    // What the iCalendar reader keeps of properties remconv does not model merges per property.
    ModelField("extra", object: \.extra, columns: ["extra"], nestedKeys: ["ical"]),
  ]

  /// The fields that say where a reminder is, beside its content: the carriage table's rows.
  public static let placementFields = ["parent"]
}

extension ReminderList {
  /// Every field of a list, in the order of the JSON contract. Its UID is its identity.
  public static let fields: [ModelField<ReminderList>] = [
    ModelField("list.name", \.name, json: ["name"], columns: ["name"]),
    ModelField("list.symbol", \.symbol, json: ["symbol"], columns: ["symbol"]),
    ModelField("list.color", \.color, json: ["color"], columns: ["color"]),
    ModelField("list.createdAt", \.createdAt, json: ["createdAt"], columns: ["created_at"], bothChanged: .incoming),
    ModelField("list.extra", object: \.extra, json: ["extra"], columns: ["extra"], nestedKeys: []),
  ]
}

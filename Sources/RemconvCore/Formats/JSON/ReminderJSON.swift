/// The JSON form of lists and reminders: the public contract of `--format json` and `jsonl`,
/// also used for the values of remconv's own CSV.
public enum ReminderJSON {
  /// Reminder keys, in the order they are written.
  public static let reminderKeys = [
    "id", "title", "notes", "isDone", "completedAt", "flagged", "dueDate", "dueTimeZone", "startDate",
    "startTimeZone", "recurrence", "alarms", "priority", "parentId", "tags", "url", "createdAt", "editedAt", "extra",
  ]
  /// List keys, in the order they are written (`reminders` follows in `json`).
  public static let listKeys = ["id", "name", "symbol", "color", "createdAt", "extra"]

  static func string(_ value: String?) -> String { value.map(JSONText.quoted) ?? "null" }

  /// Each reminder member in contract order: its key and how its value is written. The one
  /// definition behind `reminderMembers` (texts) and `appendMembers` (bytes, for the writers,
  /// which make no string per value).
  private static let reminderMemberWriters: [(key: String, write: @Sendable (Reminder, inout [UInt8]) -> Void)] = [
    ("id", { JSONText.appendString($0.id, to: &$1) }),
    ("title", { JSONText.appendString($0.title, to: &$1) }),
    ("notes", { JSONText.appendString($0.notes, to: &$1) }),
    ("isDone", { $1 += ($0.isDone ? "true" : "false").utf8 }),
    ("completedAt", { appendString($0.completedAt?.description, to: &$1) }),
    ("flagged", { $1 += ($0.flagged ? "true" : "false").utf8 }),
    ("dueDate", { appendString($0.dueDate?.isoText, to: &$1) }),
    ("dueTimeZone", { appendString($0.dueDate?.timeZoneIdentifier, to: &$1) }),
    ("startDate", { appendString($0.startDate?.isoText, to: &$1) }),
    ("startTimeZone", { appendString($0.startDate?.timeZoneIdentifier, to: &$1) }),
    (
      "recurrence",
      { reminder, output in
        if let recurrence = reminder.recurrence {
          ScheduleJSON.append(recurrence, to: &output)
        } else {
          output += "null".utf8
        }
      }
    ),
    ("alarms", { ScheduleJSON.append($0.alarms, to: &$1) }),
    ("priority", { JSONText.appendString($0.priority.rawValue, to: &$1) }),
    ("parentId", { appendString($0.parentID, to: &$1) }),
    ("tags", { JSONText.appendStrings($0.tags, to: &$1) }),
    ("url", { appendString($0.url, to: &$1) }),
    ("createdAt", { appendString($0.createdAt?.description, to: &$1) }),
    ("editedAt", { appendString($0.editedAt?.description, to: &$1) }),
    ("extra", { JSONText.append(.object($0.extra), to: &$1) }),
  ]

  /// `"key":` of each reminder member, as bytes.
  private static let reminderMemberPrefixes: [[UInt8]] = reminderMemberWriters.map { member in
    var prefix: [UInt8] = []
    JSONText.appendString(member.key, to: &prefix)
    prefix.append(UInt8(ascii: ":"))
    return prefix
  }

  private static func appendString(_ value: String?, to output: inout [UInt8]) {
    if let value { JSONText.appendString(value, to: &output) } else { output += "null".utf8 }
  }

  /// The members of a reminder object, in contract order, as `"key":value` texts.
  public static func reminderMembers(_ reminder: Reminder) -> [(String, String)] {
    reminderMemberWriters.map { member in
      var value: [UInt8] = []
      member.write(reminder, &value)
      return (member.key, String(decoding: value, as: UTF8.self))
    }
  }

  /// Appends the members of a reminder object, in contract order, separated by commas.
  static func appendMembers(of reminder: Reminder, to output: inout [UInt8]) {
    for (index, member) in reminderMemberWriters.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      output += reminderMemberPrefixes[index]
      member.write(reminder, &output)
    }
  }

  public static func listMembers(_ list: ReminderList) -> [(String, String)] {
    [
      ("id", JSONText.quoted(list.id)),
      ("name", JSONText.quoted(list.name)),
      ("symbol", JSONText.quoted(list.symbol)),
      ("color", string(list.color)),
      ("createdAt", string(list.createdAt?.description)),
      ("extra", JSONText.encode(.object(list.extra))),
    ]
  }

  /// `{"key":value,…}` from members whose values are JSON text already, in their order.
  public static func object(_ members: [(String, String)]) -> String {
    var output: [UInt8] = []
    appendObject(members, to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  static func appendObject(_ members: [(String, String)], to output: inout [UInt8]) {
    output.append(UInt8(ascii: "{"))
    appendMembers(members, to: &output)
    output.append(UInt8(ascii: "}"))
  }

  /// `"key":value` pairs separated by commas.
  static func appendMembers(_ members: [(String, String)], to output: inout [UInt8]) {
    for (index, (key, value)) in members.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      JSONText.appendString(key, to: &output)
      output.append(UInt8(ascii: ":"))
      output += value.utf8
    }
  }

  /// Reads a list object's members (not `reminders`). Unknown keys go to `extra.json`.
  static func decodeList(
    _ members: [String: JSONValue], fallbackName: String, at location: SourceLocation, diagnostics: DiagnosticLog
  ) -> ReminderList {
    decodeList(ObjectMembers(members), fallbackName: fallbackName, at: location, diagnostics: diagnostics)
  }

  static func decodeList(
    _ members: ObjectMembers<ListKey>, fallbackName: String, at location: SourceLocation, diagnostics: DiagnosticLog
  ) -> ReminderList {
    let decoder = FieldDecoder(members: members, location: location, uid: nil, diagnostics: diagnostics)
    let name = decoder.string(.name) ?? fallbackName
    let id = decoder.string(.id) ?? StableID.derived(["list", ListName.key(for: name)])
    decoder.uid = id
    var color: String?
    if let text = decoder.string(.color) {
      color = ListColor.normalized(text)
      if color == nil { decoder.invalid(.color, .string(text), "'\(text)' is not a #RRGGBB colour") }
    }
    let list = ReminderList(
      id: id, name: name, symbol: decoder.string(.symbol) ?? ReminderList.defaultSymbol, color: color,
      createdAt: decoder.timestamp(.createdAt), extra: decoder.object(.extra))
    var result = list
    result.extra = decoder.finish(extra: list.extra)
    return result
  }

  /// Reads a reminder object. Values of the wrong type or shape are warnings and are kept in
  /// `extra.invalid`; unknown keys are kept in `extra.json`, but for those in `ignoring` (which
  /// the caller reads).
  /// `duplicates` are the member names that came twice in the record: each is reported and
  /// its earlier value kept in `extra.duplicateKeys`.
  public static func decodeReminder(
    _ members: [String: JSONValue], listID: String, at location: SourceLocation,
    diagnostics: DiagnosticLog, derivedIDs: DerivedIDGenerator, ignoring: Set<String> = [],
    duplicates: [JSONDuplicateKey] = []
  ) -> Reminder {
    decodeReminder(
      ObjectMembers(members, ignoring: ignoring), listID: listID, at: location, diagnostics: diagnostics,
      derivedIDs: derivedIDs, duplicates: duplicates)
  }

  static func decodeReminder(
    _ members: ObjectMembers<ReminderKey>, listID: String, at location: SourceLocation,
    diagnostics: DiagnosticLog, derivedIDs: DerivedIDGenerator, duplicates: [JSONDuplicateKey] = []
  ) -> Reminder {
    let decoder = FieldDecoder(
      members: members, location: location, uid: members[.id]?.stringValue, diagnostics: diagnostics)
    let title = decoder.string(.title) ?? ""
    let due = decoder.date(.dueDate, zone: .dueTimeZone)
    let start = decoder.date(.startDate, zone: .startTimeZone)
    var recurrence: Recurrence?
    if let value = members[.recurrence], !value.isNull {
      do {
        recurrence = try ScheduleJSON.recurrence(value)
      } catch {
        decoder.invalid(.recurrence, value, "recurrence: \(error)")
      }
    }
    var alarms: [Alarm] = []
    if let value = members[.alarms], !value.isNull {
      do {
        alarms = try ScheduleJSON.alarms(value)
      } catch {
        decoder.invalid(.alarms, value, "alarms: \(error)")
      }
    }
    var priority = Priority.none
    if let text = decoder.string(.priority) {
      if let value = Priority(rawValue: text.lowercased()) {
        priority = value
      } else {
        decoder.invalid(.priority, .string(text), "'\(text)' is not a priority (none, low, medium, high)")
      }
    }
    let parentID = decoder.string(.parentId)
    let id =
      decoder.string(.id) ?? derivedIDs.next(["reminder", listID, parentID ?? "", title, due?.description ?? ""])
    let notes = decoder.string(.notes) ?? ""
    let isDone = decoder.bool(.isDone) ?? false
    let completedAt = decoder.timestamp(.completedAt)
    let flagged = decoder.bool(.flagged) ?? false
    let tags = decoder.strings(.tags)
    let url = decoder.string(.url)
    let createdAt = decoder.timestamp(.createdAt)
    let editedAt = decoder.timestamp(.editedAt)
    let extraObject = decoder.object(.extra)
    var extra = decoder.finish(extra: extraObject)
    for duplicate in duplicates {
      duplicate.report(to: diagnostics, uid: id, keptIn: "extra.duplicateKeys")
    }
    if !duplicates.isEmpty { JSONDuplicateKey.keep(duplicates, in: &extra) }
    // Made once, whole: a reminder changed after it is made was copied on every record.
    return Reminder(
      id: id, listID: listID, parentID: parentID, title: title, notes: notes, isDone: isDone,
      completedAt: completedAt, flagged: flagged, dueDate: due, startDate: start, recurrence: recurrence,
      alarms: alarms, priority: priority, tags: tags, url: url, createdAt: createdAt, editedAt: editedAt,
      extra: extra)
  }
}

/// The keys of an object remconv reads, each with a slot in `ObjectMembers`.
protocol MemberKey: CaseIterable, RawRepresentable<Int>, Sendable {
  /// The key as written in JSON.
  var name: String { get }
  /// Every key by its name.
  static var byName: [String: Self] { get }
  /// The keys by the length of their names in UTF-8 bytes, for `named(_:)`.
  static var byLength: [[(name: String, key: Self)]] { get }
}

extension MemberKey {
  static func makeIndex() -> [String: Self] {
    Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
  }

  static func makeLengthIndex() -> [[(name: String, key: Self)]] {
    var index = [[(name: String, key: Self)]](repeating: [], count: allCases.map(\.name.utf8.count).max()! + 1)
    for key in allCases { index[key.name.utf8.count].append((key.name, key)) }
    return index
  }

  /// The key a member name stands for, as `byName` finds it. The name is compared with the
  /// two or three keys of its length instead of being hashed: hashing every name of every
  /// record took a tenth of reading JSON Lines. Key names are ASCII, so a name that is ASCII
  /// and matches none of them byte for byte is none of them; only a name beyond ASCII can
  /// still equal one canonically (a Kelvin sign for a `K`) and is looked up in `byName`.
  static func named(_ name: String) -> Self? {
    let length = name.utf8.count
    if length < byLength.count {
      for candidate in byLength[length] where candidate.name == name { return candidate.key }
    }
    guard name.utf8.contains(where: { $0 >= 0x80 }) else { return nil }
    return byName[name]
  }
}

/// The keys of a reminder object, in the order they are written.
enum ReminderKey: Int, MemberKey {
  case id, title, notes, isDone, completedAt, flagged, dueDate, dueTimeZone, startDate, startTimeZone, recurrence,
    alarms, priority, parentId, tags, url, createdAt, editedAt, extra
  var name: String { ReminderJSON.reminderKeys[rawValue] }
  static let byName = makeIndex()
  static let byLength = makeLengthIndex()
}

/// The keys of a list object (`reminders` holds its reminders in `--format json`).
enum ListKey: Int, MemberKey {
  case id, name, symbol, color, createdAt, extra, reminders
  var name: String { rawValue < ReminderJSON.listKeys.count ? ReminderJSON.listKeys[rawValue] : "reminders" }
  static let byName = makeIndex()
  static let byLength = makeLengthIndex()
}

/// The members of an object: a slot for each key remconv knows, read without hashing (a CSV
/// reader fills them straight from its columns), and the others by name.
struct ObjectMembers<Key: MemberKey> {
  private var slots = [JSONValue?](repeating: nil, count: Key.allCases.count)
  /// Members under keys that are not `Key`s.
  private(set) var others: [String: JSONValue] = [:]

  init() {}

  /// The members of a parsed object, but those named in `ignoring` (read by the caller).
  init(_ members: [String: JSONValue], ignoring: Set<String> = []) {
    for (name, value) in members {
      if let key = Key.named(name) {
        slots[key.rawValue] = value
      } else if !ignoring.contains(name) {
        others[name] = value
      }
    }
  }

  subscript(key: Key) -> JSONValue? {
    get { slots[key.rawValue] }
    set { slots[key.rawValue] = newValue }
  }

  /// Puts the member `name` in its slot, or among the others; false when the object had a
  /// member of that name already (one name as a dictionary tells names apart), then replaced.
  mutating func add(_ name: String, _ value: JSONValue) -> Bool {
    if let key = Key.named(name) { return add(key, value) }
    return others.updateValue(value, forKey: name) == nil
  }

  /// Puts a member in the slot of `key`; false when the slot was filled already, then replaced.
  mutating func add(_ key: Key, _ value: JSONValue) -> Bool {
    let isNew = slots[key.rawValue] == nil
    slots[key.rawValue] = value
    return isNew
  }

  /// Empties every slot and the others, keeping their storage for the next object.
  mutating func removeAll() {
    for index in slots.indices { slots[index] = nil }
    others.removeAll(keepingCapacity: true)
  }

  var isEmpty: Bool { others.isEmpty && slots.allSatisfy { $0 == nil } }
}

/// Reads typed members of a JSON object, reporting and keeping what does not fit. A class: as
/// a struct of a record's members it was copied, whole, twice a record.
final class FieldDecoder<Key: MemberKey> {
  let members: ObjectMembers<Key>
  let location: SourceLocation
  var uid: String?
  let diagnostics: DiagnosticLog
  private var invalidValues: [String: JSONValue] = [:]

  init(members: ObjectMembers<Key>, location: SourceLocation, uid: String?, diagnostics: DiagnosticLog) {
    self.members = members
    self.location = location
    self.uid = uid
    self.diagnostics = diagnostics
  }

  func invalid(_ key: Key, _ value: JSONValue, _ message: String?) {
    invalidValues[key.name] = value
    if let message {
      diagnostics.warning("invalid-value", "\(message) (kept in extra.invalid)", at: location, uid: uid)
    }
  }

  func string(_ key: Key) -> String? {
    guard let value = members[key], !value.isNull else { return nil }
    if let text = value.stringValue { return text }
    invalid(key, value, "\(key.name) should be a string")
    return nil
  }

  /// A date and its zone (`dueDate` and `dueTimeZone`, `startDate` and `startTimeZone`).
  func date(_ key: Key, zone zoneKey: Key) -> DueDate? {
    guard let text = string(key) else {
      if let zone = string(zoneKey) { invalid(zoneKey, .string(zone), "\(zoneKey.name) without a \(key.name)") }
      return nil
    }
    let zone = string(zoneKey)
    do {
      return try DueDate(isoText: text, timeZone: zone)
    } catch {
      invalid(key, .string(text), "\(key.name): \(error)")
      if let zone { invalid(zoneKey, .string(zone), nil) }
      return nil
    }
  }

  func bool(_ key: Key) -> Bool? {
    guard let value = members[key], !value.isNull else { return nil }
    if let flag = value.boolValue { return flag }
    invalid(key, value, "\(key.name) should be true or false")
    return nil
  }

  func timestamp(_ key: Key) -> Timestamp? {
    guard let text = string(key) else { return nil }
    if let value = Timestamp(iso: text) { return value }
    invalid(key, .string(text), "\(key.name): '\(text)' is not an ISO 8601 instant with a zone")
    return nil
  }

  func strings(_ key: Key) -> [String] {
    guard let value = members[key], !value.isNull else { return [] }
    guard let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
      invalid(key, value, "\(key.name) should be an array of strings")
      return []
    }
    return items.compactMap(\.stringValue)
  }

  func object(_ key: Key) -> [String: JSONValue] {
    guard let value = members[key], !value.isNull else { return [:] }
    guard let object = value.objectValue else {
      invalid(key, value, "\(key.name) should be an object")
      return [:]
    }
    return object
  }

  /// `extra` with the members under unknown keys in `json` and rejected values in `invalid`.
  func finish(extra: [String: JSONValue]) -> [String: JSONValue] {
    var result = extra
    if !members.others.isEmpty {
      var bag = result["json"]?.objectValue ?? [:]
      bag.merge(members.others) { _, new in new }
      result["json"] = .object(bag)
    }
    if !invalidValues.isEmpty {
      var bag = result["invalid"]?.objectValue ?? [:]
      bag.merge(invalidValues) { _, new in new }
      result["invalid"] = .object(bag)
    }
    return result
  }
}

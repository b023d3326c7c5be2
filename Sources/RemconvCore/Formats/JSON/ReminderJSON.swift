/// The JSON form of lists and reminders: the public contract of `--format json` and `jsonl`,
/// also used for the values of remconv's own CSV.
public enum ReminderJSON {
  /// Reminder keys, in the order they are written.
  public static let reminderKeys = [
    "id", "title", "notes", "isDone", "completedAt", "flagged", "dueDate", "dueTimeZone",
    "priority", "parentId", "tags", "url", "createdAt", "editedAt", "extra",
  ]
  /// List keys, in the order they are written (`reminders` follows in `json`).
  public static let listKeys = ["id", "name", "symbol", "color", "createdAt", "extra"]
  static let knownReminderKeys = Set(reminderKeys)
  static let knownListKeys = Set(listKeys + ["reminders"])

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
    ("priority", { JSONText.appendString($0.priority.rawValue, to: &$1) }),
    ("parentId", { appendString($0.parentID, to: &$1) }),
    ("tags", { JSONText.append(.array($0.tags.map(JSONValue.string)), to: &$1) }),
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
    var decoder = FieldDecoder(members: members, location: location, uid: nil, diagnostics: diagnostics)
    let name = decoder.string("name") ?? fallbackName
    let id = decoder.string("id") ?? StableID.derived(["list", ListName.key(for: name)])
    decoder.uid = id
    var color: String?
    if let text = decoder.string("color") {
      color = ListColor.normalized(text)
      if color == nil { decoder.invalid("color", .string(text), "'\(text)' is not a #RRGGBB colour") }
    }
    let list = ReminderList(
      id: id, name: name, symbol: decoder.string("symbol") ?? ReminderList.defaultSymbol, color: color,
      createdAt: decoder.timestamp("createdAt"), extra: decoder.object("extra"))
    var result = list
    result.extra = decoder.finish(known: knownListKeys, extra: list.extra)
    return result
  }

  /// Reads a reminder object. Values of the wrong type or shape are warnings and are kept in
  /// `extra.invalid`; unknown keys are kept in `extra.json`.
  public static func decodeReminder(
    _ members: [String: JSONValue], listID: String, at location: SourceLocation,
    diagnostics: DiagnosticLog, derivedIDs: DerivedIDGenerator, ignoring: Set<String> = []
  ) -> Reminder {
    var decoder = FieldDecoder(
      members: members, location: location, uid: members["id"]?.stringValue, diagnostics: diagnostics)
    let title = decoder.string("title") ?? ""
    var due: DueDate?
    if let text = decoder.string("dueDate") {
      let zone = decoder.string("dueTimeZone")
      do {
        due = try DueDate(isoText: text, timeZone: zone)
      } catch {
        decoder.invalid("dueDate", .string(text), "dueDate: \(error)")
        if let zone { decoder.invalid("dueTimeZone", .string(zone), nil) }
      }
    } else if let zone = decoder.string("dueTimeZone") {
      decoder.invalid("dueTimeZone", .string(zone), "dueTimeZone without a dueDate")
    }
    var priority = Priority.none
    if let text = decoder.string("priority") {
      if let value = Priority(rawValue: text.lowercased()) {
        priority = value
      } else {
        decoder.invalid("priority", .string(text), "'\(text)' is not a priority (none, low, medium, high)")
      }
    }
    let parentID = decoder.string("parentId")
    let id = decoder.string("id") ?? derivedIDs.next(["reminder", listID, parentID ?? "", title, due?.description ?? ""])
    var reminder = Reminder(
      id: id, listID: listID, parentID: parentID, title: title, notes: decoder.string("notes") ?? "",
      isDone: decoder.bool("isDone") ?? false, completedAt: decoder.timestamp("completedAt"),
      flagged: decoder.bool("flagged") ?? false, dueDate: due, priority: priority,
      tags: decoder.strings("tags"), url: decoder.string("url"), createdAt: decoder.timestamp("createdAt"),
      editedAt: decoder.timestamp("editedAt"))
    reminder.extra = decoder.finish(known: knownReminderKeys, ignoring: ignoring, extra: decoder.object("extra"))
    return reminder
  }
}

/// Reads typed members of a JSON object, reporting and keeping what does not fit.
struct FieldDecoder {
  let members: [String: JSONValue]
  let location: SourceLocation
  var uid: String?
  let diagnostics: DiagnosticLog
  private var invalidValues: [String: JSONValue] = [:]

  init(members: [String: JSONValue], location: SourceLocation, uid: String?, diagnostics: DiagnosticLog) {
    self.members = members
    self.location = location
    self.uid = uid
    self.diagnostics = diagnostics
  }

  mutating func invalid(_ key: String, _ value: JSONValue, _ message: String?) {
    invalidValues[key] = value
    if let message {
      diagnostics.warning("invalid-value", "\(message) (kept in extra.invalid)", at: location, uid: uid)
    }
  }

  mutating func string(_ key: String) -> String? {
    guard let value = members[key], !value.isNull else { return nil }
    if let text = value.stringValue { return text }
    invalid(key, value, "\(key) should be a string")
    return nil
  }

  mutating func bool(_ key: String) -> Bool? {
    guard let value = members[key], !value.isNull else { return nil }
    if let flag = value.boolValue { return flag }
    invalid(key, value, "\(key) should be true or false")
    return nil
  }

  mutating func timestamp(_ key: String) -> Timestamp? {
    guard let text = string(key) else { return nil }
    if let value = Timestamp(iso: text) { return value }
    invalid(key, .string(text), "\(key): '\(text)' is not an ISO 8601 instant with a zone")
    return nil
  }

  mutating func strings(_ key: String) -> [String] {
    guard let value = members[key], !value.isNull else { return [] }
    guard let items = value.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
      invalid(key, value, "\(key) should be an array of strings")
      return []
    }
    return items.compactMap(\.stringValue)
  }

  mutating func object(_ key: String) -> [String: JSONValue] {
    guard let value = members[key], !value.isNull else { return [:] }
    guard let object = value.objectValue else {
      invalid(key, value, "\(key) should be an object")
      return [:]
    }
    return object
  }

  /// `extra` with unknown members under `json` and rejected values under `invalid`.
  func finish(known: Set<String>, ignoring: Set<String> = [], extra: [String: JSONValue]) -> [String: JSONValue] {
    var result = extra
    let isKnown = { (key: String) in known.contains(key) || ignoring.contains(key) }
    guard !invalidValues.isEmpty || !members.keys.allSatisfy(isKnown) else { return result }
    let unknown = members.filter { !isKnown($0.key) }
    if !unknown.isEmpty {
      var bag = result["json"]?.objectValue ?? [:]
      bag.merge(unknown) { _, new in new }
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

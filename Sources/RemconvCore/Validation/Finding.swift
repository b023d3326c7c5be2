/// One problem `remconv validate` found in the store.
public struct Finding: Hashable, Sendable {
  public var rule: ValidationRule
  /// The row the finding is about (the one a repair changes).
  public var subject: FindingSubject
  /// Other rows involved: the missing list, the parent, the other holders of a UID, the rest
  /// of a cycle.
  public var related: [FindingSubject]
  /// What is wrong, in words, without the subject (the report prints that first).
  public var message: String
  /// What `--fix` does about it; nil when nothing safe can be done automatically.
  public var fix: Fix?

  public init(
    rule: ValidationRule, subject: FindingSubject, related: [FindingSubject] = [], message: String, fix: Fix?
  ) {
    self.rule = rule
    self.subject = subject
    self.related = related
    self.message = message
    self.fix = fix
  }

  public var severity: Diagnostic.Severity { rule.severity }

  /// `error[orphan-reminder] 3F2A9C01-… "Call plumber": list #7 does not exist`, without the fix.
  public var headline: String {
    "\(severity.rawValue)[\(rule.id)] \(subject.label): \(message)"
  }

  /// `{rule, severity, table, id, rowId, title, related, message, fix: {action, description}}`.
  public var json: JSONValue {
    var members = subject.jsonMembers
    members["rule"] = .string(rule.id)
    members["severity"] = .string(severity.rawValue)
    members["related"] = .array(related.map { .object($0.jsonMembers) })
    members["message"] = .string(message)
    members["fix"] =
      fix.map { .object(["action": .string($0.action), "description": .string($0.description(applied: false))]) }
      ?? .null
    return .object(members)
  }
}

/// A row a finding names: its table, row id, UID and title (a list's name).
public struct FindingSubject: Hashable, Sendable {
  /// `lists`, `reminders`, another table for a foreign key, or `database` for SQLite's checks.
  public var table: String
  public var rowID: Int64?
  public var uid: String?
  public var title: String?

  public init(table: String, rowID: Int64?, uid: String? = nil, title: String? = nil) {
    self.table = table
    self.rowID = rowID
    self.uid = uid
    self.title = title
  }

  public static func list(_ rowID: Int64, uid: String? = nil, name: String? = nil) -> FindingSubject {
    FindingSubject(table: "lists", rowID: rowID, uid: uid, title: name)
  }

  public static func reminder(_ rowID: Int64, uid: String? = nil, title: String? = nil) -> FindingSubject {
    FindingSubject(table: "reminders", rowID: rowID, uid: uid, title: title)
  }

  public static let database = FindingSubject(table: "database", rowID: nil)

  /// `3F2A9C01-… "Call plumber"` with the whole UID, `list … "Groceries"`, `#12` without a
  /// UID, `database`. The UID is never shortened: UIDs from one generator often share their
  /// first groups, and a finding must name one item.
  public var label: String {
    guard let rowID else { return table }
    var text = table == "lists" ? "list " : (table == "reminders" ? "" : "\(table) ")
    if let uid, !uid.isEmpty {
      text += uid
    } else {
      text += "#\(rowID)"
    }
    if let title { text += " " + Self.quotedTitle(title) }
    return text
  }

  /// A title in quotes, escaped like a JSON string and cut to 60 characters.
  static func quotedTitle(_ title: String) -> String {
    JSONText.quoted(title.count > 60 ? String(title.prefix(59)) + "…" : title)
  }

  var jsonMembers: [String: JSONValue] {
    [
      "table": .string(table),
      "rowId": rowID.map { .number(String($0)) } ?? .null,
      "id": uid.map(JSONValue.string) ?? .null,
      "title": title.map(JSONValue.string) ?? .null,
    ]
  }
}

/// What an import did (or, with `--dry-run`, would do).
public struct ImportReport: Sendable {
  public var source: String
  public var format: String
  public var added = 0
  public var updated = 0
  public var unchanged = 0
  public var rejected = 0
  public var listsAdded = 0
  public var listsUpdated = 0
  /// How many reminders and lists each field changed in, by the field's name (`notes`,
  /// `extra.ical`, `list.color`, `list.id` for a list that took a source's UID).
  public var fieldChanges: [String: Int] = [:]
  /// Components that are not reminders, by kind (`VEVENT`: 2).
  public var skipped: [String: Int] = [:]
  /// The reminders a three-way merge (a sync's) found changed on both sides in the same field.
  public var conflicts: [MergeConflict] = []
  public var dryRun = false
  public var committed = false
  /// The diagnostics kept by the run's log (`DiagnosticLog.retainedLimit`).
  public var diagnostics: [Diagnostic] = []
  /// Diagnostics beyond those kept, counted by code.
  public var omittedDiagnostics: [String: Int] = [:]
  public private(set) var warningCount = 0
  public private(set) var errorCount = 0

  public init(source: String, format: String) {
    self.source = source
    self.format = format
  }

  /// Takes what `log` holds so far: its kept diagnostics, the omitted counts and the totals.
  public mutating func record(_ log: DiagnosticLog) {
    diagnostics = log.entries
    omittedDiagnostics = log.omitted
    warningCount = log.warningCount
    errorCount = log.errorCount
  }

  /// The machine-readable report (`--report json`), with sorted keys.
  public var json: JSONValue {
    .object([
      "version": .number(1),
      "source": .string(source),
      "format": .string(format),
      "added": .number(added),
      "updated": .number(updated),
      "unchanged": .number(unchanged),
      "rejected": .number(rejected),
      "listsAdded": .number(listsAdded),
      "listsUpdated": .number(listsUpdated),
      "fieldChanges": .object(fieldChanges.mapValues { .number($0) }),
      "skipped": .object(skipped.mapValues { .number($0) }),
      "dryRun": .bool(dryRun),
      "committed": .bool(committed),
      "diagnostics": .array(diagnostics.map(\.json)),
      "omittedDiagnostics": .object(omittedDiagnostics.mapValues { .number($0) }),
    ])
  }

  /// One line for people: `imported tasks.ics: 12 added, 3 updated, 40 unchanged, 0 rejected`.
  public var summary: String {
    var text =
      "\(dryRun ? "would import" : "imported") \(source): \(added) added, \(updated) updated, \(unchanged) unchanged, \(rejected) rejected"
    if listsAdded > 0 { text += ", \(listsAdded) new list\(listsAdded == 1 ? "" : "s")" }
    if listsUpdated > 0 { text += ", \(listsUpdated) list\(listsUpdated == 1 ? "" : "s") updated" }
    let skippedTotal = skipped.values.reduce(0, +)
    if skippedTotal > 0 {
      text += "; skipped " + skipped.keys.sorted().map { "\(skipped[$0] ?? 0) \($0)" }.joined(separator: ", ")
    }
    if warningCount > 0 { text += "; \(warningCount) warning\(warningCount == 1 ? "" : "s")" }
    return text
  }
}

/// A reminder whose same fields both sides of a sync changed to different values: the merge
/// kept the incoming side's values, and the store's version whole in a copy.
public struct MergeConflict: Sendable, Hashable {
  public var uid: String
  /// The store's title before the merge.
  public var title: String
  /// The fields (`ModelField.name`, `parent`, `extra.ical.<key>`).
  public var fields: [String]
  public var copyUID: String
}

extension Diagnostic {
  /// `{severity, code, message, file, line, column, uid}`.
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "severity": .string(severity.rawValue), "code": .string(code), "message": .string(message),
    ]
    if let location {
      members["file"] = .string(location.file)
      if let line = location.line { members["line"] = .number(line) }
      if let column = location.column { members["column"] = .number(column) }
    }
    if let uid { members["uid"] = .string(uid) }
    return .object(members)
  }
}

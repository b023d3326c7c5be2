import Foundation

/// One finding of a repair run and what was done about it.
public struct RepairRecord: Hashable, Sendable {
  public enum Outcome: Hashable, Sendable {
    /// The fix was applied; the text says what it did ("moved to \"Recovered\"").
    case repaired(String)
    /// An earlier fix of the same run already mended it (a merge brought a subtask and its
    /// parent into one list).
    case resolvedByOtherRepair
    /// No automatic fix: the finding remains.
    case remains

    /// `repaired`, `resolved` or `remains`, for `--json`.
    public var status: String {
      switch self {
      case .repaired: "repaired"
      case .resolvedByOtherRepair: "resolved"
      case .remains: "remains"
      }
    }
  }

  public var finding: Finding
  public var outcome: Outcome
}

/// What `remconv validate --fix` did (or, with `--dry-run`, would do).
public struct RepairReport: Sendable {
  /// Every finding met, in the order met (a repair can bring a new one to light: an orphan
  /// subtask moved to the recovery list may then sit in another list than its parent), each
  /// with what was done.
  public var records: [RepairRecord] = []
  /// What is left after the repairs: findings with no automatic fix.
  public var remaining: [Finding] = []
  /// The verified backup taken before the first change (none in a dry run or when nothing
  /// needed repairing).
  public var backup: StoreBackup?
  public var dryRun: Bool
  /// True when SQLite reported the file damaged: nothing was repaired.
  public var refusedBecauseDamaged = false
  public var listCount = 0
  public var reminderCount = 0

  public var repairedCount: Int { records.count { $0.outcome != .remains } }
}

/// The repair loop did not settle: a bug in a fix. Everything was rolled back.
public struct RepairDidNotConverge: Error, CustomStringConvertible {
  public let findings: [Finding]

  public var description: String {
    let rules = Set(findings.map(\.rule.id)).sorted().joined(separator: ", ")
    return
      "the repair did not settle after \(Repairer.maximumRounds) rounds (\(rules) kept coming back); nothing was changed"
  }
}

/// Repairs what the validator found, in one transaction after a verified backup.
///
/// The repair validates, applies every fix, and validates again, until nothing fixable is
/// left: a fix can reveal another finding (an orphan moved to the recovery list may then be in
/// another list than its parent), and the loop makes a second `--fix` find nothing to do. It
/// gives up (and rolls everything back) after `maximumRounds`.
public enum Repairer {
  static let maximumRounds = 4

  /// Validates and repairs `store`. `dryRun` runs every repair and rolls it back.
  public static func run(
    store: Store, options: ValidationOptions, dryRun: Bool, now: Date, backupLabel: String = "pre-validate-fix"
  ) throws -> RepairReport {
    do {
      return try repair(store: store, options: options, dryRun: dryRun, now: now, backupLabel: backupLabel)
    } catch let damaged as DamagedStore {
      return damaged.report
    }
  }

  /// Thrown out of the write transaction to roll it back: after SQLite met damage inside a
  /// transaction, even a COMMIT of nothing fails.
  private struct DamagedStore: Error {
    let report: RepairReport
  }

  private static func repair(
    store: Store, options: ValidationOptions, dryRun: Bool, now: Date, backupLabel: String
  ) throws -> RepairReport {
    try store.write(commit: !dryRun) {
      var report = RepairReport(dryRun: dryRun)
      var result = try Validator(store: store, options: options).run()
      report.listCount = result.listCount
      report.reminderCount = result.reminderCount
      if result.isDamaged {
        report.refusedBecauseDamaged = true
        report.records = result.findings.map { RepairRecord(finding: $0, outcome: .remains) }
        report.remaining = result.findings
        throw DamagedStore(report: report)
      }
      var laterOptions = options
      laterOptions.checksFileIntegrity = false
      var reported = Set<Finding>()
      var round = 0
      while true {
        let fixable = result.findings.filter { $0.fix != nil }
        var outcomes: [Finding: RepairRecord.Outcome] = [:]
        if !fixable.isEmpty {
          round += 1
          guard round <= maximumRounds else { throw RepairDidNotConverge(findings: fixable) }
          if !dryRun, report.backup == nil {
            report.backup = try StoreBackup.make(of: store, label: backupLabel, now: now)
          }
          outcomes = try FixApplier(store: store, now: now).apply(fixable)
        }
        // Reported in the validator's order; a finding without a fix only the first time met.
        for finding in result.findings {
          if let outcome = outcomes[finding] {
            report.records.append(RepairRecord(finding: finding, outcome: outcome))
          } else if reported.insert(finding).inserted {
            report.records.append(RepairRecord(finding: finding, outcome: .remains))
          }
        }
        if fixable.isEmpty { break }
        result = try Validator(store: store, options: laterOptions).run()
      }
      report.remaining = result.findings
      return report
    }
  }
}

/// Applies fixes to the store, in an order where each step's preconditions hold: extras are
/// made readable first, UIDs unique, values set straight, then lists renamed or merged, names
/// rekeyed, orphans moved and broken links cut.
struct FixApplier {
  let store: Store
  let now: Date

  /// Applies the fix of each finding; returns what became of each.
  func apply(_ findings: [Finding]) throws -> [Finding: RepairRecord.Outcome] {
    let ordered = findings.enumerated().sorted { left, right in
      let leftPhase = Self.phase(of: left.element.fix)
      let rightPhase = Self.phase(of: right.element.fix)
      return leftPhase != rightPhase ? leftPhase < rightPhase : left.offset < right.offset
    }.map(\.element)
    var outcomes: [Finding: RepairRecord.Outcome] = [:]
    var normalizedNames: [(rowID: Int64, name: String)] = []
    for finding in ordered {
      guard let row = finding.subject.rowID else { continue }
      switch finding.fix {
      case .normalizeListName(_, let name), .storeListNameAsText(_, let name): normalizedNames.append((row, name))
      default: break
      }
    }
    var rekeyed = false
    for finding in ordered {
      guard let fix = finding.fix, let row = finding.subject.rowID else { continue }
      if Self.isNameNormalization(fix), !rekeyed {
        // Every list's name and key in one two-pass rekey, once renames and merges have freed
        // the keys (so fixing several stale keys never trips the UNIQUE constraint).
        try store.rekeyLists(normalizedNames)
        rekeyed = true
      }
      outcomes[finding] = try apply(fix, for: finding, row: row)
    }
    return outcomes
  }

  private static func isNameNormalization(_ fix: Fix) -> Bool {
    switch fix {
    case .normalizeListName, .storeListNameAsText: true
    default: false
    }
  }

  private static func phase(of fix: Fix?) -> Int {
    switch fix {
    case .wrapExtra: 0
    case .assignFreshUID: 1
    case .inferCompletion, .clearCompletion, .raiseEditedAt, .keepInvalidDue, .keepInvalidTimestamp,
      .keepInvalidPriority, .keepInvalidTags, .dropDueTimeZone, .setDueKind, .recomputeIndexColumns:
      2
    case .renameList, .mergeList: 3
    case .normalizeListName, .storeListNameAsText: 4
    case .moveToList: 5
    case .detachFromParent: 6
    case nil: 7
    }
  }

  private func apply(_ fix: Fix, for finding: Finding, row: Int64) throws -> RepairRecord.Outcome {
    let isList = finding.subject.table == "lists"
    let done = fix.description(applied: true)
    switch fix {
    case .wrapExtra(let value):
      let wrapped = JSONText.encode(.object(["invalid": .object(["extra": .string(value)])]))
      if isList {
        try store.updateListRow(row, [(.extra, .text(wrapped))])
      } else {
        try store.updateReminderRow(row, [(.extra, .text(wrapped))])
      }

    case .assignFreshUID(let original):
      let fresh = StableID.make()
      let keepOriginal: (inout [String: JSONValue]) -> Void = { extra in
        if let original { ExtraRecord.keep(.string(original), at: "originalId", in: &extra) }
      }
      if isList {
        try editList(row, [(.uid, .text(fresh))], keepOriginal)
      } else {
        try editReminder(row, [(.uid, .text(fresh))], keepOriginal)
      }
      return .repaired(
        "gave it the fresh UID \(fresh)" + (original == nil ? "" : "; the old one is kept in extra.originalId"))

    case .inferCompletion(_, let value):
      try editReminder(row, [(.completedAt, .text(value))]) {
        ExtraRecord.keep(.null, at: "completedAt", under: "repaired", in: &$0)
      }
    case .clearCompletion(let value):
      try editReminder(row, [(.completedAt, .null)]) {
        ExtraRecord.keep(.string(value), at: "completedAt", under: "repaired", in: &$0)
      }
    case .raiseEditedAt(let old, let created):
      try editReminder(row, [(.editedAt, .text(created))]) {
        ExtraRecord.keep(.string(old), at: "editedAt", under: "repaired", in: &$0)
      }
    case .keepInvalidDue(let due, let zone, let storedKind):
      try editReminder(row, [(.due, .null), (.dueKind, .null), (.dueTimeZone, .null)]) {
        ExtraRecord.keep(.string(due), at: "dueDate", under: "invalid", in: &$0)
        if let zone { ExtraRecord.keep(.string(zone), at: "dueTimeZone", under: "invalid", in: &$0) }
        Self.keepDueKind(storedKind, replacedBy: nil, in: &$0)
      }
    case .keepInvalidTimestamp(let column, let value):
      if isList {
        // A list's creation time cannot be empty; the epoch is what remconv stores for unknown.
        try editList(row, [(.createdAt, .text(Timestamp(millisecondsSinceEpoch: 0).description))]) {
          ExtraRecord.keep(.string(value), at: column.rawValue, under: "invalid", in: &$0)
        }
      } else {
        try editReminder(row, [(Self.column(for: column), .null)]) {
          ExtraRecord.keep(.string(value), at: column.rawValue, under: "invalid", in: &$0)
        }
      }
    case .keepInvalidPriority(let value):
      try editReminder(row, [(.priority, .integer(0))]) {
        ExtraRecord.keep(.string(value), at: "priority", under: "invalid", in: &$0)
      }
    case .keepInvalidTags(let value):
      try editReminder(row, [(.tags, .text("[]"))]) {
        ExtraRecord.keep(.string(value), at: "tags", under: "invalid", in: &$0)
      }
    case .dropDueTimeZone(let zone, let kind, let storedKind):
      try editReminder(row, [(.dueTimeZone, .null), (.dueKind, kind.map { .text($0.rawValue) } ?? .null)]) {
        ExtraRecord.keep(.string(zone), at: "dueTimeZone", under: "invalid", in: &$0)
        Self.keepDueKind(storedKind, replacedBy: kind, in: &$0)
      }
    case .setDueKind(let storedKind, let kind):
      try editReminder(row, [(.dueKind, kind.map { .text($0.rawValue) } ?? .null)]) {
        Self.keepDueKind(storedKind, replacedBy: kind, in: &$0)
      }
    case .recomputeIndexColumns:
      try store.recomputeIndexColumns(ofReminderRow: row)

    case .renameList(let old, let name):
      let bytes = try store.listNameBytes(rowID: row)
      try store.rekeyLists([(row, name)])
      try editList(row) { extra in
        if let bytes {
          ExtraRecord.keep(.string(ExtraRecord.hex(bytes)), at: "nameBytes", under: "repaired", in: &extra)
        } else {
          ExtraRecord.keep(.string(old), at: "name", under: "repaired", in: &extra)
        }
      }
    case .mergeList(let target, _):
      try merge(listRow: row, into: target)
    case .normalizeListName(let old, let name):
      // Rekeyed with every other list of this round (see `apply(_:)`); keep the old spelling,
      // compared by scalars so that a decomposed one is kept too.
      if !ListName.sameScalars(old, name) {
        try editList(row) { ExtraRecord.keep(.string(old), at: "name", under: "repaired", in: &$0) }
      }
    case .storeListNameAsText(let bytes, _):
      try editList(row) {
        ExtraRecord.keep(.string(ExtraRecord.hex(bytes)), at: "nameBytes", under: "repaired", in: &$0)
      }

    case .moveToList(let name, let missingRow):
      let list = try recoveryList(named: name)
      try editReminder(row, [(.listRowID, .integer(list.rowID))]) {
        ExtraRecord.keep(.number(String(missingRow)), at: "listRow", under: "repaired", in: &$0)
      }
      return .repaired(done + (list.created ? "; created the list" : ""))

    case .detachFromParent(let parentRow, let parentUID):
      guard try linkIsStillBroken(child: row, parent: parentRow, rule: finding.rule) else {
        return .resolvedByOtherRepair
      }
      try editReminder(row, [(.parentRowID, .null)]) {
        if let parentUID {
          ExtraRecord.keep(.string(parentUID), at: "brokenParent", in: &$0)
        } else {
          ExtraRecord.keep(.number(String(parentRow)), at: "parentRow", under: "repaired", in: &$0)
        }
      }
    }
    return .repaired(done)
  }

  /// Keeps a stored `due_kind` that a fix replaces with another in `extra.repaired.dueKind`.
  private static func keepDueKind(
    _ stored: String?, replacedBy kind: DueDate.Kind?, in extra: inout [String: JSONValue]
  ) {
    guard let stored, stored != kind?.rawValue else { return }
    ExtraRecord.keep(.string(stored), at: "dueKind", under: "repaired", in: &extra)
  }

  private static func column(for column: Fix.TimestampColumn) -> ReminderRepairColumn {
    switch column {
    case .createdAt: .createdAt
    case .editedAt: .editedAt
    case .completedAt: .completedAt
    }
  }

  // MARK: Extra

  /// Sets columns of a reminder and edits its extra in the same statement.
  private func editReminder(
    _ row: Int64, _ changes: [(ReminderRepairColumn, SQLValue)], _ edit: (inout [String: JSONValue]) -> Void
  ) throws {
    var extra = ExtraRecord.decode(try store.reminderExtraText(rowID: row))
    edit(&extra)
    try store.updateReminderRow(row, changes + [(.extra, .text(JSONText.encode(.object(extra))))])
  }

  /// Sets columns of a list and edits its extra in the same statement.
  private func editList(
    _ row: Int64, _ changes: [(ListRepairColumn, SQLValue)] = [], _ edit: (inout [String: JSONValue]) -> Void
  ) throws {
    var extra = ExtraRecord.decode(try store.listExtraText(rowID: row))
    edit(&extra)
    try store.updateListRow(row, changes + [(.extra, .text(JSONText.encode(.object(extra))))])
  }

  // MARK: Structure

  /// The list orphans go to, found by name key or created.
  private func recoveryList(named name: String) throws -> (rowID: Int64, created: Bool) {
    if let existing = try store.list(named: name) { return (existing.rowID, false) }
    let derived = StableID.derived(["list", ListName.key(for: name)])
    let uid = try store.list(uid: derived) == nil ? derived : StableID.make()
    let row = try store.insertList(ReminderList(id: uid, name: name, createdAt: Timestamp(now)))
    return (row, true)
  }

  /// Moves a list's reminders into `target` and removes it, keeping everything it carried in
  /// the survivor's `extra.mergedLists`.
  private func merge(listRow row: Int64, into target: Int64) throws {
    guard let merged = try store.list(rowID: row) else { return }
    let nameBytes = try store.listNameBytes(rowID: row)
    try store.moveAllReminders(fromListRow: row, toListRow: target)
    var kept: [String: JSONValue] = [
      "id": .string(merged.list.id), "name": .string(merged.list.name), "symbol": .string(merged.list.symbol),
      "extra": .object(merged.list.extra),
    ]
    if let nameBytes { kept["nameBytes"] = .string(ExtraRecord.hex(nameBytes)) }
    if let color = merged.list.color { kept["color"] = .string(color) }
    if let created = merged.list.createdAt { kept["createdAt"] = .string(created.description) }
    try editList(target) { extra in
      extra["mergedLists"] = .array((extra["mergedLists"]?.arrayValue ?? []) + [.object(kept)])
    }
    try store.deleteEmptyList(rowID: row)
  }

  /// Whether a link found broken is still broken: an earlier fix of the same round (a merge
  /// that brought parent and subtask into one list, another cut of the same cycle) may have
  /// mended it, and cutting it then would lose structure for nothing.
  private func linkIsStillBroken(child: Int64, parent: Int64, rule: ValidationRule) throws -> Bool {
    let links = try store.reminderLinks(rowIDs: [child])
    guard let link = links.first?.link, link.parentRowID == parent else { return false }
    switch rule {
    case .orphanSubtask:
      return link.parent == nil
    case .subtaskOtherList:
      guard let parentLink = link.parent else { return false }
      return parentLink.listRowID != link.listRowID
    default:
      // A cycle: still one when walking up from the parent comes back to the child.
      var seen = Set<Int64>()
      var current: Int64? = parent
      while let row = current, seen.insert(row).inserted {
        if row == child { return true }
        current = try store.parentRowID(ofReminderRow: row)
      }
      return false
    }
  }
}

/// Records kept in `extra` by repairs, never overwriting: a second value for the same key
/// turns it into an array of every value seen.
enum ExtraRecord {
  /// The members of a stored `extra`; one that is not a JSON object is kept as text under
  /// `invalid.extra` (what the `invalid-extra` fix stores).
  static func decode(_ text: String?) -> [String: JSONValue] {
    guard let text, !text.isEmpty else { return [:] }
    if let value = try? JSONParser.parse(text), let members = value.objectValue { return members }
    return ["invalid": .object(["extra": .string(text)])]
  }

  /// Keeps `value` at `extra[key]`, or at `extra[bag][key]` when a bag is named.
  static func keep(_ value: JSONValue, at key: String, under bag: String? = nil, in extra: inout [String: JSONValue]) {
    guard let bag else {
      extra[key] = merged(extra[key], value)
      return
    }
    var members: [String: JSONValue]
    if let existing = extra[bag] {
      // Someone else's value under our bag's name: keep it inside rather than replace it.
      members = existing.objectValue ?? ["previous": existing]
    } else {
      members = [:]
    }
    members[key] = merged(members[key], value)
    extra[bag] = .object(members)
  }

  /// Bytes as lowercase hex: how a value that is not text (a BLOB) is kept in `extra`.
  static func hex(_ bytes: [UInt8]) -> String {
    let digits = Array("0123456789abcdef".utf8)
    var text: [UInt8] = []
    text.reserveCapacity(bytes.count * 2)
    for byte in bytes {
      text.append(digits[Int(byte >> 4)])
      text.append(digits[Int(byte & 0x0F)])
    }
    return String(decoding: text, as: UTF8.self)
  }

  private static func merged(_ existing: JSONValue?, _ value: JSONValue) -> JSONValue {
    guard let existing, !same(existing, value) else { return value }
    if case .array(let items) = existing {
      return items.contains { same($0, value) } ? existing : .array(items + [value])
    }
    return .array([existing, value])
  }

  /// Equal as stored: by their JSON text, so that two canonically equivalent spellings (which
  /// Swift's `==` takes for one) are both kept.
  private static func same(_ left: JSONValue, _ right: JSONValue) -> Bool {
    JSONText.encode(left).utf8.elementsEqual(JSONText.encode(right).utf8)
  }
}

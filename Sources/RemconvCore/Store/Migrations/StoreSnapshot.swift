import Foundation

/// A problem in a store's data: a foreign key that points nowhere, or a broken domain rule.
///
/// The migrator compares the findings before and after every step: one that a step
/// introduced rolls the upgrade back and names the step; one that was there before is
/// reported and does not stop the upgrade (a store may already hold an orphan; refusing to
/// upgrade it would lock the user out, the lesson of Canonry #914 in migrations.md §7).
public struct IntegrityFinding: Sendable, Hashable, Comparable {
  public enum Kind: String, Sendable {
    /// A reminder whose list does not exist.
    case orphanReminder = "orphan-reminder"
    /// A subtask whose parent reminder does not exist.
    case orphanSubtask = "orphan-subtask"
    /// A subtask whose parent is in another list.
    case subtaskInOtherList = "subtask-in-other-list"
    /// Two or more lists whose names have the same key (trimmed, NFC, case-folded).
    case duplicateListName = "duplicate-list-name"
    /// Any other row `PRAGMA foreign_key_check` reports.
    case foreignKey = "foreign-key"
  }

  public let kind: Kind
  /// What the finding is about, such as `reminders:12` or `lists:home`: its identity when
  /// findings before and after a step are compared.
  public let subject: String
  public let message: String

  public static func < (left: IntegrityFinding, right: IntegrityFinding) -> Bool {
    (left.kind.rawValue, left.subject) < (right.kind.rawValue, right.subject)
  }

  public static func == (left: IntegrityFinding, right: IntegrityFinding) -> Bool {
    left.kind == right.kind && left.subject == right.subject
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(subject)
  }
}

/// What the migrator counts and checks before and after each step.
struct StoreSnapshot {
  /// The reminders of one list: how many, and the sum of their row ids (so that a step that
  /// swaps one reminder for another does not go unnoticed).
  struct ListContent: Equatable {
    var count: Int
    var idSum: Int64

    static func + (left: ListContent, right: ListContent) -> ListContent {
      ListContent(count: left.count + right.count, idSum: left.idSum &+ right.idSum)
    }
  }

  /// Rows per table, the history table included.
  var tableCounts: [String: Int] = [:]
  /// Every list's reminders by list row id, lists without reminders included.
  var lists: [Int64: ListContent] = [:]
  var findings: Set<IntegrityFinding> = []

  static let empty = StoreSnapshot()

  /// Counts and checks the store as `database` sees it (inside the migration's transaction).
  /// Without `findings` only the counts: the invariants the migrator checks after every step
  /// (one read of an index per table and of the reminders' list index), where the findings
  /// read every reminder and look up its list and parent.
  static func capture(_ database: Database, findings withFindings: Bool = true) throws -> StoreSnapshot {
    var snapshot = StoreSnapshot()
    snapshot.tableCounts = try tableCounts(database)
    guard snapshot.tableCounts["lists"] != nil, snapshot.tableCounts["reminders"] != nil else {
      return snapshot
    }
    // What `lists LEFT JOIN reminders` gives, in one pass over the reminders' list index
    // without a lookup per list; reminders whose list does not exist are not a list's (the
    // findings report them). A third cheaper than the join at a million reminders, after
    // every step (docs/migrations.md, "Cost").
    for row in try database.rows("SELECT id FROM lists") {
      snapshot.lists[row.int(0) ?? 0] = ListContent(count: 0, idSum: 0)
    }
    for row in try database.rows("SELECT list_id, count(*), sum(id) FROM reminders GROUP BY list_id") {
      guard let list = row.int(0), snapshot.lists[list] != nil else { continue }
      snapshot.lists[list] = ListContent(count: Int(row.int(1) ?? 0), idSum: row.int(2) ?? 0)
    }
    if withFindings { snapshot.findings = try findings(database) }
    return snapshot
  }

  /// Foreign-key violations and broken domain rules, whatever the schema version. Unordered
  /// (a set): in row-id order SQLite would read the whole table instead of an index (reminders
  /// by list; subtasks only, by parent), at a million reminders ten times as long.
  static func findings(_ database: Database) throws -> Set<IntegrityFinding> {
    var found: Set<IntegrityFinding> = []
    for row in try database.rows(
      "SELECT id, list_id FROM reminders WHERE list_id IS NULL OR list_id NOT IN (SELECT id FROM lists)")
    {
      let id = row.int(0) ?? 0
      found.insert(
        IntegrityFinding(
          kind: .orphanReminder, subject: "reminders:\(id)",
          message: "reminder \(id) belongs to list \(row.int(1).map(String.init) ?? "NULL"), which does not exist"))
    }
    if try columns(of: "reminders", in: database).contains("parent_id") {
      for row in try database.rows(
        """
        SELECT r.id, r.parent_id, p.id, p.list_id, r.list_id FROM reminders r
        LEFT JOIN reminders p ON p.id = r.parent_id
        WHERE r.parent_id IS NOT NULL AND (p.id IS NULL OR p.list_id IS NOT r.list_id)
        """)
      {
        let id = row.int(0) ?? 0
        let parent = row.int(1) ?? 0
        if row.int(2) == nil {
          found.insert(
            IntegrityFinding(
              kind: .orphanSubtask, subject: "reminders:\(id)",
              message: "reminder \(id) is a subtask of reminder \(parent), which does not exist"))
        } else {
          found.insert(
            IntegrityFinding(
              kind: .subtaskInOtherList, subject: "reminders:\(id)",
              message:
                "reminder \(id) in list \(row.int(4) ?? 0) is a subtask of reminder \(parent) in list \(row.int(3) ?? 0)"
            ))
        }
      }
    }
    for row in try database.rows(
      """
      SELECT remconv_name_key(name) AS key, group_concat(id, ', '), count(*) FROM lists
      GROUP BY key HAVING count(*) > 1 ORDER BY min(id)
      """)
    {
      found.insert(
        IntegrityFinding(
          kind: .duplicateListName, subject: "lists:\(row.string(0) ?? "")",
          message: "lists \(row.string(1) ?? "") have names that collide ('\(row.string(0) ?? "")')"))
    }
    // What foreign_key_check reports for reminders is covered above, under the same subject;
    // when a reminder's list and parent are all its foreign keys, its rows are not checked
    // again (a lookup per reminder, a tenth of a second at a million).
    let remindersCovered = try database.rows(
      "SELECT DISTINCT \"table\" FROM pragma_foreign_key_list('reminders')"
    ).allSatisfy { $0.string(0) == "lists" || $0.string(0) == "reminders" }
    for checked in try userTables(database) where checked != "reminders" || !remindersCovered {
      for row in try database.rows(
        "SELECT \"table\", rowid, parent FROM pragma_foreign_key_check(?)", [.text(checked)])
      {
        let table = row.string(0) ?? ""
        let rowID = row.int(1)
        let parent = row.string(2) ?? ""
        if table == "reminders", parent == "lists" || parent == "reminders" { continue }
        let subject = "\(table):\(rowID.map(String.init) ?? "?")"
        found.insert(
          IntegrityFinding(
            kind: .foreignKey, subject: subject + "->\(parent)",
            message: "row \(rowID.map(String.init) ?? "?") of \(table) refers to a missing row of \(parent)"))
      }
    }
    return found
  }

  /// What changed from `before` to this snapshot that a step may not do. `merged` maps each
  /// list the preflight merged away to the list that received its reminders.
  func problems(since before: StoreSnapshot, merged: [Int64: Int64] = [:]) -> [String] {
    var problems: [String] = []
    for (table, count) in before.tableCounts.sorted(by: { $0.key < $1.key }) where table != MigrationHistory.table {
      guard let now = tableCounts[table] else {
        if count > 0 { problems.append("table \(table) with \(count) row(s) is gone") }
        continue
      }
      let expected = table == "lists" ? count - merged.count : count
      if now != expected { problems.append("table \(table) had \(expected) row(s) expected, now \(now)") }
    }
    var expectedLists = before.lists
    for (gone, survivor) in merged {
      if let content = expectedLists.removeValue(forKey: gone) {
        expectedLists[survivor] = (expectedLists[survivor] ?? ListContent(count: 0, idSum: 0)) + content
      }
    }
    for (list, expected) in expectedLists.sorted(by: { $0.key < $1.key }) {
      guard let now = lists[list] else {
        problems.append("list \(list) with \(expected.count) reminder(s) is gone")
        continue
      }
      if now.count != expected.count {
        problems.append("list \(list) had \(expected.count) reminder(s), now \(now.count)")
      } else if now.idSum != expected.idSum {
        problems.append("list \(list) holds \(now.count) reminder(s) as before, but not the same ones")
      }
    }
    for finding in findings.subtracting(before.findings).sorted() {
      problems.append("new problem: \(finding.message)")
    }
    return problems
  }

  /// The rows of every table, the history table included.
  static func tableCounts(_ database: Database) throws -> [String: Int] {
    var counts: [String: Int] = [:]
    for table in try userTables(database) {
      if case .integer(let count) = try database.scalar("SELECT count(*) FROM \(quoted(table))") {
        counts[table] = Int(count)
      }
    }
    return counts
  }

  static func userTables(_ database: Database) throws -> [String] {
    try database.rows(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    ).compactMap { $0.string(0) }
  }

  static func columns(of table: String, in database: Database) throws -> Set<String> {
    Set(try database.rows("SELECT name FROM pragma_table_info(?)", [.text(table)]).compactMap { $0.string(0) })
  }

  static func quoted(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// How much of the file a check reads against what.
  enum IntegrityCheck: String {
    /// `integrity_check`: also every index against its table and every UNIQUE constraint,
    /// which costs a lookup per row and index (O(N log N)).
    case full = "integrity_check"
    /// `quick_check`: pages, records, NOT NULL and CHECK constraints in one pass (O(N)).
    case quick = "quick_check"
  }

  /// The messages of `PRAGMA integrity_check` (or `quick_check`), empty when it says `ok`.
  static func integrityProblems(_ database: Database, schema: String = "main", check: IntegrityCheck = .full) throws
    -> [String]
  {
    let messages = try database.rows("PRAGMA \(schema).\(check.rawValue)").compactMap { $0.string(0) }
    return messages == ["ok"] ? [] : messages
  }
}

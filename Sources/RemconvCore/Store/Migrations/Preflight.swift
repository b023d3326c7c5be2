import Foundation

/// Lists whose names collide under the unique-name rule (`ListName.key`), oldest first.
public struct DuplicateListGroup: Sendable, Hashable {
  public struct Member: Sendable, Hashable {
    public let rowID: Int64
    public let name: String
    public let reminderCount: Int
  }

  /// The key they share.
  public let key: String
  public let lists: [Member]
}

/// What the preflight does (or would do) to the data before a step that would fail on it.
public enum PreflightAction: Sendable, Hashable {
  /// A list whose name collides gets a numbered name.
  case rename(listRowID: Int64, from: String, to: String)
  /// A list's reminders move into an older list with the same name key, and the list goes.
  case merge(listRowID: Int64, name: String, into: Int64, intoName: String, movedReminders: Int)
  /// A list stored without a UID gets a fresh one (the unique-name step makes the column NOT NULL).
  case assignUID(listRowID: Int64, name: String)

  /// One line for the user.
  public var description: String {
    switch self {
    case .rename(let id, let from, let to):
      "renamed list \(id) '\(from)' to '\(to)': its name collided with an older list's"
    case .merge(let id, let name, let into, let intoName, let moved):
      "merged list \(id) '\(name)' into list \(into) '\(intoName)' (\(moved) reminder\(moved == 1 ? "" : "s") moved)"
    case .assignUID(let id, let name):
      "list \(id) '\(name)' had no UID: it got a fresh one"
    }
  }

  /// One line for a plan: what the upgrade will do.
  public var plannedDescription: String {
    switch self {
    case .rename(let id, let from, let to):
      "list \(id) '\(from)' will be renamed '\(to)'"
    case .merge(let id, let name, let into, let intoName, let moved):
      "list \(id) '\(name)' will be merged into list \(into) '\(intoName)' (\(moved) reminder\(moved == 1 ? "" : "s") moved)"
    case .assignUID(let id, let name):
      "list \(id) '\(name)' has no UID: it will get a fresh one"
    }
  }
}

/// What the data would make a step fail on, found before anything changes.
public struct PreflightFindings: Sendable {
  /// The step the findings are about.
  public var step: String?
  public var duplicates: [DuplicateListGroup] = []
  public var actions: [PreflightAction] = []

  public var isEmpty: Bool { duplicates.isEmpty && actions.isEmpty }

  /// Lines naming each group of colliding names, for the user.
  public var duplicateDescriptions: [String] {
    duplicates.map { group in
      "lists with colliding names: "
        + group.lists.map {
          "'\($0.name)' (list \($0.rowID), \($0.reminderCount) reminder\($0.reminderCount == 1 ? "" : "s"))"
        }.joined(separator: ", ")
    }
  }
}

/// Checks and resolves the data a step can fail on, before the step runs.
///
/// Only the unique-name step (0005) can fail on data: two lists whose names differ only in
/// case, surrounding white space or Unicode normalisation (`Home`, `home`, ` HOME `) would
/// break its UNIQUE column, and a list without a UID its NOT NULL one. The first is listed
/// before anything changes and resolved by `--on-duplicate` (migrations.md §8 G3); the
/// second is filled by the step itself and reported here.
enum Preflight {
  static let uniqueListNamesStep = "0005_unique_list_names"

  /// What stands in the way of the steps in `plan`, with the actions `policy` takes for it.
  /// Reads only: the data is that of the store before the first pending step, and names and
  /// UIDs do not change between the first schema and the unique-name step.
  static func findings(
    in database: Database, plan: [Migration], policy: DuplicateNamePolicy
  ) throws -> PreflightFindings {
    guard plan.contains(where: { $0.id == uniqueListNamesStep }),
      try MigrationHistory.tableExists("lists", in: database)
    else { return PreflightFindings() }
    var findings = PreflightFindings(step: uniqueListNamesStep)
    let rows = try database.rows(
      """
      SELECT l.id, l.name, (SELECT count(*) FROM reminders r WHERE r.list_id = l.id)
      FROM lists l ORDER BY l.id
      """)
    var membersByKey: [String: [DuplicateListGroup.Member]] = [:]
    var keyOrder: [String] = []
    for row in rows {
      let name = row.string(1) ?? ""
      let key = ListName.key(for: name)
      if membersByKey[key] == nil { keyOrder.append(key) }
      membersByKey[key, default: []].append(
        DuplicateListGroup.Member(rowID: row.int(0) ?? 0, name: name, reminderCount: Int(row.int(2) ?? 0)))
    }
    for key in keyOrder {
      if let members = membersByKey[key], members.count > 1 {
        findings.duplicates.append(DuplicateListGroup(key: key, lists: members))
      }
    }
    findings.actions = resolution(of: findings.duplicates, takenKeys: Set(keyOrder), policy: policy)
    if try StoreSnapshot.columns(of: "lists", in: database).contains("uid") {
      for row in try database.rows("SELECT id, name FROM lists WHERE uid IS NULL ORDER BY id") {
        findings.actions.append(.assignUID(listRowID: row.int(0) ?? 0, name: row.string(1) ?? ""))
      }
    }
    return findings
  }

  /// What a renamed list whose name is empty once trimmed is numbered after.
  static let unnamedListName = "Untitled list"

  /// The renames or merges that make every name key unique; deterministic, so that a plan
  /// shows exactly what the upgrade will do. The oldest list of a group (smallest row id)
  /// keeps its name; each later one becomes `<its name> (n)` with the smallest n ≥ 2 whose
  /// key no list has, or merges into the oldest. Names made are trimmed and NFC; lists whose
  /// names are empty once trimmed (`''` and `'  '` collide) are numbered after
  /// `unnamedListName`, never given a name such as `' (2)'`.
  static func resolution(
    of groups: [DuplicateListGroup], takenKeys: Set<String>, policy: DuplicateNamePolicy
  ) -> [PreflightAction] {
    var taken = takenKeys
    var actions: [PreflightAction] = []
    for group in groups {
      guard let oldest = group.lists.first else { continue }
      for member in group.lists.dropFirst() {
        switch policy {
        case .rename:
          let trimmed = ListName.normalized(member.name)
          let base = trimmed.isEmpty ? unnamedListName : trimmed
          var number = 2
          while taken.contains(ListName.key(for: "\(base) (\(number))")) { number += 1 }
          let name = "\(base) (\(number))"
          taken.insert(ListName.key(for: name))
          actions.append(.rename(listRowID: member.rowID, from: member.name, to: name))
        case .merge:
          actions.append(
            .merge(
              listRowID: member.rowID, name: member.name, into: oldest.rowID, intoName: oldest.name,
              movedReminders: member.reminderCount))
        case .fail:
          break
        }
      }
    }
    return actions
  }

  /// Carries out the renames and merges inside the migration's transaction, just before the
  /// step they are for. Returns the lists merged away, each mapped to the list that took its
  /// reminders (the domain checks expect those lists to go).
  static func apply(_ actions: [PreflightAction], in database: Database) throws -> [Int64: Int64] {
    var merged: [Int64: Int64] = [:]
    let listColumns = try StoreSnapshot.columns(of: "lists", in: database)
    for action in actions {
      switch action {
      case .rename(let id, _, let name):
        try database.run("UPDATE lists SET name = ? WHERE id = ?", [.text(name), .integer(id)])
      case .merge(let id, _, let survivor, _, _):
        try database.run("UPDATE reminders SET list_id = ? WHERE list_id = ?", [.integer(survivor), .integer(id)])
        if listColumns.contains("extra") {
          try recordMergedList(id, into: survivor, columns: listColumns, in: database)
        }
        try database.run("DELETE FROM lists WHERE id = ?", [.integer(id)])
        merged[id] = survivor
      case .assignUID:
        break  // the step's own SQL fills missing UIDs
      }
    }
    return merged
  }

  /// Keeps what a merged list carried in the surviving list's `extra.mergedLists`, so that a
  /// merge drops no data (UID, name, symbol, colour, creation time, its own extra).
  private static func recordMergedList(
    _ id: Int64, into survivor: Int64, columns: Set<String>, in database: Database
  ) throws {
    let kept = ["uid", "name", "symbol", "color", "created_at", "extra"].filter(columns.contains)
    guard
      let row = try database.rows(
        "SELECT \(kept.joined(separator: ", ")) FROM lists WHERE id = ?", [.integer(id)]
      ).first
    else { return }
    var entry: [String: JSONValue] = [:]
    for (index, column) in kept.enumerated() {
      guard let text = row.string(index) else { continue }
      let key = column == "created_at" ? "createdAt" : column
      entry[key] = column == "extra" ? .object(Store.decodeObject(text)) : .string(text)
    }
    var extra = Store.decodeObject(
      try database.scalar("SELECT extra FROM lists WHERE id = ?", [.integer(survivor)]).textValue)
    extra["mergedLists"] = .array((extra["mergedLists"]?.arrayValue ?? []) + [.object(entry)])
    try database.run(
      "UPDATE lists SET extra = ? WHERE id = ?", [.text(Store.encodeObject(extra)), .integer(survivor)])
  }
}

extension SQLValue {
  /// The text of a `.text` value, or nil.
  var textValue: String? {
    if case .text(let text) = self { return text }
    return nil
  }
}

import Foundation

/// What an upgrade did.
public struct MigrationReport: Sendable {
  public let store: String
  /// The last step applied before, nil for a new store.
  public var from: String?
  /// The last step applied after.
  public var to: String?
  /// The steps this run applied, in order (empty: the store was up to date).
  public var applied: [String] = []
  /// The verified backup taken before the first step (none for a new or up-to-date store).
  public var backup: MigrationBackup?
  /// What the preflight changed (renamed or merged lists, UIDs given).
  public var preflight: [PreflightAction] = []
  /// Problems that were in the store before the upgrade: reported, not fatal.
  public var preexisting: [IntegrityFinding] = []
  /// Older backups removed to keep the last few.
  public var prunedBackups: [String] = []

  public var isUpToDate: Bool { applied.isEmpty }

  /// The report as JSON (`remconv migrate up --json`).
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "store": .string(store),
      "from": from.map(JSONValue.string) ?? .null,
      "to": to.map(JSONValue.string) ?? .null,
      "applied": .array(applied.map(JSONValue.string)),
      "upToDate": .bool(isUpToDate),
      "backup": backup.map { .string($0.path) } ?? .null,
      "preflight": .array(preflight.map(\.json)),
      "preexisting": .array(preexisting.map(\.json)),
      "prunedBackups": .array(prunedBackups.map(JSONValue.string)),
    ]
    members["toolVersion"] = .string(RemconvVersion.current)
    return .object(members)
  }
}

/// What `remconv migrate plan` shows: the steps, the backup, and what stands in their way.
public struct MigrationPlan: Sendable {
  public let status: MigrationStatus
  /// The steps an upgrade would apply, in order.
  public var steps: [Migration] = []
  /// The path the backup would get (nil when no backup is needed: new or up-to-date store).
  public var backupPath: String?
  public var policy: DuplicateNamePolicy
  public var preflight = PreflightFindings()
  /// Problems already in the store: reported by the upgrade, not fatal.
  public var preexisting: [IntegrityFinding] = []
  /// Why the upgrade would stop before changing anything (empty: it would run).
  public var blockers: [String] = []

  public var json: JSONValue {
    .object([
      "store": .string(status.path),
      "state": .string(status.state.name),
      "from": status.version.map(JSONValue.string) ?? .null,
      "to": steps.last.map { .string($0.id) } ?? status.version.map(JSONValue.string) ?? .null,
      "steps": .array(steps.map { .string($0.id) }),
      "backup": backupPath.map(JSONValue.string) ?? .null,
      "onDuplicate": .string(policy.rawValue),
      "duplicateNames": .array(preflight.duplicates.map(\.json)),
      "preflight": .array(preflight.actions.map(\.json)),
      "preexisting": .array(preexisting.map(\.json)),
      "blockers": .array(blockers.map(JSONValue.string)),
    ])
  }
}

extension MigrationStatus {
  public var json: JSONValue {
    var members: [String: JSONValue] = [
      "store": .string(path),
      "state": .string(state.name),
      "version": version.map(JSONValue.string) ?? .null,
      "head": .string(Migration.head.id),
      "userVersion": .number(userVersion),
      "applied": .array(
        applied.map { step in
          .object([
            "id": .string(step.id), "checksum": .string(step.checksum), "toolVersion": .string(step.toolVersion),
            "appliedAt": .string(step.appliedAt), "known": .bool(!unknown.contains(step)),
            "earlierRelease": step.earlierRelease.map(JSONValue.string) ?? .null,
          ])
        }),
      "pending": .array(pending.map { .string($0.id) }),
      "unknown": .array(unknown.map { .string($0.id) }),
      "backups": .array(MigrationBackup.list(for: path).map { .string($0.path) }),
    ]
    if case .tampered(let reason) = state { members["problem"] = .string(reason) }
    if state == .newer { members["neededVersion"] = neededVersion.map(JSONValue.string) ?? .null }
    return .object(members)
  }
}

extension PreflightAction {
  public var json: JSONValue {
    switch self {
    case .rename(let id, let from, let to):
      .object(["action": .string("rename"), "list": .number(Int(id)), "from": .string(from), "to": .string(to)])
    case .merge(let id, let name, let into, let intoName, let moved):
      .object([
        "action": .string("merge"), "list": .number(Int(id)), "name": .string(name), "into": .number(Int(into)),
        "intoName": .string(intoName), "movedReminders": .number(moved),
      ])
    case .assignUID(let id, let name):
      .object(["action": .string("assign-uid"), "list": .number(Int(id)), "name": .string(name)])
    }
  }
}

extension DuplicateListGroup {
  public var json: JSONValue {
    .object([
      "key": .string(key),
      "lists": .array(
        lists.map {
          .object(["list": .number(Int($0.rowID)), "name": .string($0.name), "reminders": .number($0.reminderCount)])
        }),
    ])
  }
}

extension IntegrityFinding {
  public var json: JSONValue {
    .object(["kind": .string(kind.rawValue), "subject": .string(subject), "message": .string(message)])
  }
}

/// What `remconv validate --fix` does about one finding.
///
/// Every fix keeps what it replaces: a moved value goes to `extra` (`invalid.*` for values that
/// do not parse, as reading the store does; `repaired.*` for values a repair replaced;
/// `originalId`, `brokenParent` and `mergedLists` as the merge engine names them). Nothing a
/// user wrote is deleted. Each case carries what applying it needs, so a repair never has to
/// guess from the row again.
public enum Fix: Hashable, Sendable {
  /// Moves an orphan reminder to the recovery list (created if needed); the row id of the
  /// missing list goes to `extra.repaired.listRow`.
  case moveToList(name: String, missingListRowID: Int64)
  /// Makes a subtask top-level. With the parent's UID (cycle, other list) it goes to
  /// `extra.brokenParent`; when the parent row is gone its row id goes to
  /// `extra.repaired.parentRow`.
  case detachFromParent(parentRowID: Int64, parentUID: String?)
  /// Gives a list or reminder a new UID; an old one goes to `extra.originalId`.
  case assignFreshUID(originalUID: String?)
  /// Renames a list whose name collides with an older list's; the old name goes to
  /// `extra.repaired.name`.
  case renameList(from: String, to: String)
  /// Moves a colliding list's reminders into the oldest list of that name and removes the
  /// emptied list, whose UID, name, symbol, colour, creation time and extra are appended to the
  /// survivor's `extra.mergedLists`.
  case mergeList(intoRowID: Int64, intoName: String)
  /// Stores a list's name trimmed and NFC-normalised and recomputes its name key; a spelling
  /// that differs (by Unicode scalars) goes to `extra.repaired.name`.
  case normalizeListName(from: String, to: String)
  /// Stores a list name kept as a BLOB as text (its bytes read as UTF-8, trimmed and
  /// NFC-normalised); the bytes go to `extra.repaired.nameBytes` in hex.
  case storeListNameAsText(bytes: [UInt8], name: String)
  /// Sets a missing completion time from the edit (or creation) time; `extra.repaired.completedAt`
  /// records that there was none.
  case inferCompletion(from: TimestampColumn, value: String)
  /// Clears the completion time of an undone reminder into `extra.repaired.completedAt`.
  case clearCompletion(value: String)
  /// Raises an edit time that precedes the creation time to it; the old one goes to
  /// `extra.repaired.editedAt`.
  case raiseEditedAt(from: String, to: String)
  /// Moves a due date that does not parse (and its zone) to `extra.invalid`, clearing the due;
  /// the stored `due_kind` goes to `extra.repaired.dueKind`.
  case keepInvalidDue(due: String, timeZone: String?, storedKind: String?)
  /// Moves a timestamp that does not parse to `extra.invalid`; a list's creation time (which
  /// cannot be empty) becomes the epoch, remconv's "unknown".
  case keepInvalidTimestamp(column: TimestampColumn, value: String)
  /// Moves a priority outside 0...3 to `extra.invalid.priority`, leaving none.
  case keepInvalidPriority(value: String)
  /// Moves a tags column that is not an array of strings to `extra.invalid.tags`, leaving none.
  case keepInvalidTags(value: String)
  /// Moves a zone that a date or a UTC time cannot have to `extra.invalid.dueTimeZone`, keeping
  /// the due date and the kind its text has (a stored `due_kind` that differs goes to
  /// `extra.repaired.dueKind`).
  case dropDueTimeZone(zone: String, kind: DueDate.Kind?, storedKind: String?)
  /// Sets `due_kind` to the kind the due date's shape gives (nil: no due date); the stored one
  /// goes to `extra.repaired.dueKind`.
  case setDueKind(from: String?, to: DueDate.Kind?)
  /// Keeps an `extra` that is not a JSON object as text under `extra.invalid.extra`.
  case wrapExtra(value: String)
  /// Recomputes the columns the views, counts and search read (`due_day`, `search_text`) from
  /// the due date, title and notes, as the write path does: they hold nothing of their own.
  case recomputeIndexColumns

  /// The stored timestamps, by the names `extra` uses for them.
  public enum TimestampColumn: String, Sendable {
    case createdAt, editedAt, completedAt
  }

  /// The fix's stable name in `--json`.
  public var action: String {
    switch self {
    case .moveToList: "move-to-list"
    case .detachFromParent: "detach-from-parent"
    case .assignFreshUID: "assign-fresh-uid"
    case .renameList: "rename-list"
    case .mergeList: "merge-list"
    case .normalizeListName, .storeListNameAsText: "normalize-list-name"
    case .inferCompletion: "infer-completion"
    case .clearCompletion: "clear-completion"
    case .raiseEditedAt: "raise-edited-at"
    case .keepInvalidDue, .keepInvalidTimestamp, .keepInvalidPriority, .keepInvalidTags: "keep-invalid-value"
    case .dropDueTimeZone: "drop-due-time-zone"
    case .setDueKind: "set-due-kind"
    case .wrapExtra: "wrap-extra"
    case .recomputeIndexColumns: "recompute-index-columns"
    }
  }

  /// What the fix does (`applied: false`, "move to …") or did (`applied: true`, "moved to …").
  public func description(applied: Bool) -> String {
    func say(_ planned: String, _ done: String) -> String { applied ? done : planned }
    switch self {
    case .moveToList(let name, _):
      return say("move to ", "moved to ") + JSONText.quoted(name)
    case .detachFromParent(let row, let uid):
      let kept = uid.map { "extra.brokenParent keeps \($0)" } ?? "extra.repaired.parentRow keeps #\(row)"
      return say("make it top-level", "made it top-level") + "; \(kept)"
    case .assignFreshUID(let original):
      let kept = original.map { _ in "; the old one is kept in extra.originalId" } ?? ""
      return say("give it a fresh UID", "gave it a fresh UID") + kept
    case .renameList(_, let name):
      return say("rename it ", "renamed it ") + JSONText.quoted(name)
    case .mergeList(let row, let name):
      return say("merge it into ", "merged it into ") + "\(JSONText.quoted(name)) (#\(row))"
        + "; the emptied list is kept in extra.mergedLists"
    case .normalizeListName(_, let name):
      return say("store the name as ", "stored the name as ") + JSONText.quoted(name) + " with its key"
    case .storeListNameAsText(_, let name):
      return say("store the name as the text ", "stored the name as the text ") + JSONText.quoted(name)
        + " with its key; the bytes are kept in extra.repaired.nameBytes"
    case .inferCompletion(let column, let value):
      return say("set completedAt to ", "set completedAt to ") + "its \(column.rawValue) \(value)"
    case .clearCompletion:
      return say("move completedAt to ", "moved completedAt to ") + "extra.repaired.completedAt"
    case .raiseEditedAt(_, let value):
      return say("raise editedAt to ", "raised editedAt to ")
        + "its createdAt \(value); the old value is kept in extra.repaired.editedAt"
    case .keepInvalidDue:
      return say("move the due date to ", "moved the due date to ") + "extra.invalid.dueDate"
    case .keepInvalidTimestamp(let column, _):
      return say("move it to ", "moved it to ") + "extra.invalid.\(column.rawValue)"
    case .keepInvalidPriority:
      return say("move it to ", "moved it to ") + "extra.invalid.priority"
    case .keepInvalidTags:
      return say("move it to ", "moved it to ") + "extra.invalid.tags"
    case .dropDueTimeZone:
      return say("move the zone to ", "moved the zone to ") + "extra.invalid.dueTimeZone, keeping the due date"
    case .setDueKind(_, let kind):
      return say("set due_kind to ", "set due_kind to ") + (kind.map { "'\($0.rawValue)'" } ?? "NULL")
    case .wrapExtra:
      return say("keep the text in ", "kept the text in ") + "extra.invalid.extra"
    case .recomputeIndexColumns:
      return say("recompute ", "recomputed ") + "due_day and search_text"
    }
  }
}

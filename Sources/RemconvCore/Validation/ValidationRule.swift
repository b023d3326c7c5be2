/// A check `remconv validate` runs, with its stable id and severity.
///
/// The ids are part of the interface (scripts match on them, `docs/validate.md` lists them):
/// never rename one. Severity follows one rule: an **error** is a broken structure (a
/// relationship, a uniqueness rule, SQLite's own checks) that makes remconv misplace or miss an
/// item; a **warning** is a value that is inconsistent or unreadable but is carried losslessly
/// (reading the store keeps the raw text in `extra.invalid`).
public enum ValidationRule: String, CaseIterable, Sendable, Comparable {
  case integrity
  case foreignKey = "foreign-key"
  case orphanReminder = "orphan-reminder"
  case orphanSubtask = "orphan-subtask"
  case parentCycle = "parent-cycle"
  case subtaskOtherList = "subtask-other-list"
  case missingUID = "missing-uid"
  case duplicateListUID = "duplicate-list-uid"
  case duplicateReminderUID = "duplicate-reminder-uid"
  case listNameCollision = "list-name-collision"
  case listNameKey = "list-name-key"
  case invalidExtra = "invalid-extra"
  case emptyTitle = "empty-title"
  case doneWithoutCompletion = "done-without-completion"
  case completionWithoutDone = "completion-without-done"
  case invalidPriority = "invalid-priority"
  case invalidDate = "invalid-date"
  case invalidTimeZone = "invalid-time-zone"
  case dueKindMismatch = "due-kind-mismatch"
  case editedBeforeCreated = "edited-before-created"
  case invalidTags = "invalid-tags"
  case invalidRecurrence = "invalid-recurrence"
  case invalidAlarm = "invalid-alarm"
  case startAfterDue = "start-after-due"
  case staleIndexColumns = "stale-index-columns"

  public var id: String { rawValue }

  public var severity: Diagnostic.Severity {
    switch self {
    case .integrity, .foreignKey, .orphanReminder, .orphanSubtask, .parentCycle, .subtaskOtherList,
      .missingUID, .duplicateListUID, .duplicateReminderUID, .listNameCollision:
      .error
    case .listNameKey, .invalidExtra, .emptyTitle, .doneWithoutCompletion, .completionWithoutDone,
      .invalidPriority, .invalidDate, .invalidTimeZone, .dueKindMismatch, .editedBeforeCreated, .invalidTags,
      .invalidRecurrence, .invalidAlarm, .startAfterDue, .staleIndexColumns:
      .warning
    }
  }

  /// What the rule looks for, in one line (for `docs/validate.md` and `--help`).
  public var summary: String {
    switch self {
    case .integrity: "SQLite's quick_check (integrity_check with --deep) reports damage"
    case .foreignKey: "a row breaks a foreign key that no other rule covers"
    case .orphanReminder: "a reminder's list does not exist"
    case .orphanSubtask: "a subtask's parent does not exist"
    case .parentCycle: "subtasks are each other's parents (a cycle)"
    case .subtaskOtherList: "a subtask is in another list than its parent"
    case .missingUID: "a list or reminder has no UID"
    case .duplicateListUID: "two lists share a UID"
    case .duplicateReminderUID: "two reminders share a UID"
    case .listNameCollision: "list names collide after trimming, NFC and case folding"
    case .listNameKey: "a list's stored name or name key is not the normalised one"
    case .invalidExtra: "the extra column is not a JSON object"
    case .emptyTitle: "a reminder's title is empty"
    case .doneWithoutCompletion: "a reminder is done but has no completion time"
    case .completionWithoutDone: "a reminder has a completion time but is not done"
    case .invalidPriority: "a priority is not 0, 1, 2 or 3"
    case .invalidDate: "a due date or timestamp does not parse"
    case .invalidTimeZone: "a due date's time zone is unknown or does not fit its kind"
    case .dueKindMismatch: "due_kind does not match the due date's shape"
    case .editedBeforeCreated: "a reminder was edited before it was created"
    case .invalidTags: "the tags column is not a JSON array of strings"
    case .invalidRecurrence: "a recurrence is unreadable, or libical refuses its RRULE (with libical's reason)"
    case .invalidAlarm:
      "an alarm is unreadable, has no trigger, or is relative to a due or start date the reminder lacks"
    case .startAfterDue: "a reminder's start date is after its due date"
    case .staleIndexColumns: "due_day or search_text is not what the due date, title and notes make"
    }
  }

  /// Rules are reported in declaration order: structure first, then values.
  public static func < (lhs: ValidationRule, rhs: ValidationRule) -> Bool {
    order[lhs, default: 0] < order[rhs, default: 0]
  }

  private static let order: [ValidationRule: Int] = Dictionary(
    uniqueKeysWithValues: allCases.enumerated().map { ($1, $0) })
}

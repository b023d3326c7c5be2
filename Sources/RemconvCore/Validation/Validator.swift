import Foundation

/// What a validation run checks and how it words its fixes.
public struct ValidationOptions: Sendable {
  /// `--deep`: SQLite's full `integrity_check` instead of `quick_check`.
  public var deep = false
  /// How colliding list names are repaired (`--on-duplicate`): `rename` (the default: nothing
  /// merges without being asked) or `merge`; `fail` reports them without a fix.
  public var onDuplicate: DuplicateNamePolicy = .rename
  /// The list orphan reminders are moved to (created when no list has this name).
  public var recoveredListName = ReminderList.recoveredName
  /// Runs SQLite's `quick_check`/`integrity_check` (whole-store runs only; the repair loop
  /// runs it once, before anything is written).
  public var checksFileIntegrity = true

  public init() {}
}

/// What a validation run found, and how much it looked at.
public struct ValidationResult: Sendable {
  public var findings: [Finding]
  public var listCount: Int
  public var reminderCount: Int

  public var errorCount: Int { findings.count { $0.severity == .error } }
  public var warningCount: Int { findings.count { $0.severity == .warning } }
  /// True when SQLite itself reports the file damaged: nothing may be repaired then.
  public var isDamaged: Bool { findings.contains { $0.rule == .integrity } }
}

/// Checks a store's relationships and values and says what `--fix` would do about each problem.
///
/// Relationship and uniqueness checks are set-based SQL (`Store+Integrity`); parent cycles are
/// found by an iterative walk over the (row, parent) pairs; values are parsed with the model's
/// own parsers in one streaming pass that holds one reminder at a time. Reads only: run it
/// inside `Store.read` (or the repair's write transaction) to see one snapshot.
public struct Validator {
  public let store: Store
  public let options: ValidationOptions

  public init(store: Store, options: ValidationOptions = ValidationOptions()) {
    self.store = store
    self.options = options
  }

  /// Checks the whole store.
  public func run() throws -> ValidationResult {
    let run = ValidationRun(store: store, options: options, scope: .everything, listScope: nil)
    return try run.execute()
  }

  /// Checks only the reminders an import wrote (`Store.withIntegrityScope`) and the lists
  /// they are in or that the import added (row ids above `listsAddedAfter`). SQLite's file
  /// checks are skipped: they read the whole file. The values of the rows were checked as the
  /// import wrote them (`writtenValues`): they are not read back.
  func runOnImported(
    _ scope: IntegrityScope, listsAddedAfter: Int64, writtenValues: WrittenValueChecks
  ) throws -> ValidationResult {
    var scopedOptions = options
    scopedOptions.checksFileIntegrity = false
    let lists = try store.listRowsHoldingReminders(in: scope).union(
      store.integrityLists().map(\.rowID).filter { $0 > listsAddedAfter })
    let run = ValidationRun(
      store: store, options: scopedOptions, scope: scope, listScope: lists, writtenValues: writtenValues)
    return try run.execute()
  }
}

/// One run of the checks, collecting findings.
private final class ValidationRun {
  let store: Store
  let options: ValidationOptions
  let scope: IntegrityScope
  /// In an import-scoped run, the lists whose findings are reported.
  let listScope: Set<Int64>?
  var findings: [Finding] = []
  var lists: [Int64: IntegrityList] = [:]
  /// The value findings of an import's rows, checked as they were written.
  let writtenValues: WrittenValueChecks?
  /// Set once SQLite reports damage: later checks that fail are reported, not thrown.
  var isDamaged = false

  /// Rows seen by the list check and the value pass (no separate count: a count may read an
  /// index, and the file may be damaged).
  var listCount = 0
  var reminderCount = 0

  init(
    store: Store, options: ValidationOptions, scope: IntegrityScope, listScope: Set<Int64>?,
    writtenValues: WrittenValueChecks? = nil
  ) {
    self.store = store
    self.options = options
    self.scope = scope
    self.listScope = listScope
    self.writtenValues = writtenValues
  }

  func execute() throws -> ValidationResult {
    if scope == .everything, options.checksFileIntegrity {
      try checkFileIntegrity()
    }
    if scope == .everything { try guarded("foreign-key", checkForeignKeys) }
    try guarded("list", checkLists)
    try guarded("orphan", checkOrphans)
    try guarded("parent", checkParentLinks)
    try guarded("cycle", checkCycles)
    try guarded("duplicate UID", checkDuplicateReminderUIDs)
    try guarded("value", checkReminderValues)
    // The write path keeps these columns; only a whole-store run looks for rows edited outside it.
    if scope == .everything { try guarded("derived column", checkIndexColumns) }
    // Stable order: by rule, then by row; the sort keeps each rule's own order of discovery.
    let ordered = findings.enumerated().sorted { left, right in
      if left.element.rule != right.element.rule { return left.element.rule < right.element.rule }
      let leftRow = left.element.subject.rowID ?? 0
      let rightRow = right.element.subject.rowID ?? 0
      return leftRow != rightRow ? leftRow < rightRow : left.offset < right.offset
    }.map(\.element)
    return ValidationResult(findings: ordered, listCount: listCount, reminderCount: reminderCount)
  }

  /// Runs one check; on a damaged file a failing check becomes an `integrity` finding instead
  /// of ending the run, so the damage report still comes out.
  private func guarded(_ name: String, _ check: () throws -> Void) throws {
    do {
      try check()
    } catch let error as SQLiteError where isDamaged {
      findings.append(
        Finding(
          rule: .integrity, subject: .database, message: "the \(name) checks could not run: \(error.message)", fix: nil)
      )
    }
  }

  // MARK: SQLite

  private func checkFileIntegrity() throws {
    let problems: [String]
    do {
      problems = try store.integrityProblems(deep: options.deep)
    } catch let error as SQLiteError {
      problems = [error.message]
    }
    // SQLite may return several problems in one row, under a "*** in database main ***" header.
    let lines = problems.flatMap { $0.split(separator: "\n") }.map(String.init).filter {
      !$0.hasPrefix("*** in database")
    }
    for line in lines {
      findings.append(Finding(rule: .integrity, subject: .database, message: line, fix: nil))
    }
    isDamaged = !problems.isEmpty
  }

  /// Foreign-key violations the domain rules do not already name (orphan reminders and orphan
  /// subtasks are both), such as those in tables of a newer remconv.
  private func checkForeignKeys() throws {
    for violation in try store.foreignKeyViolations() {
      if violation.table == "reminders", violation.columns == ["list_id"] || violation.columns == ["parent_id"] {
        continue
      }
      let from = "\(violation.table)(\(violation.columns.joined(separator: ", ")))"
      let to = "\(violation.parentTable)(\(violation.parentColumns.joined(separator: ", ")))"
      findings.append(
        Finding(
          rule: .foreignKey, subject: FindingSubject(table: violation.table, rowID: violation.rowID),
          related: [FindingSubject(table: violation.parentTable, rowID: nil)],
          message: "foreign key violation from \(from) to \(to)", fix: nil))
    }
  }

  // MARK: Lists

  private func checkLists() throws {
    let all = try store.integrityLists()
    lists = Dictionary(uniqueKeysWithValues: all.map { ($0.rowID, $0) })
    listCount = all.count
    var found: [Finding] = []
    func subject(_ list: IntegrityList) -> FindingSubject { .list(list.rowID, uid: list.uid, name: list.name) }

    // UIDs: the oldest list keeps its UID.
    var firstByUID: [String: IntegrityList] = [:]
    for list in all {
      if list.uid.isBlank {
        found.append(
          Finding(
            rule: .missingUID, subject: subject(list), message: "the list has no UID",
            fix: .assignFreshUID(originalUID: nil)))
      } else if let first = firstByUID[list.uid] {
        found.append(
          Finding(
            rule: .duplicateListUID, subject: subject(list), related: [subject(first)],
            message: "its UID is also the UID of list #\(first.rowID) \(FindingSubject.quotedTitle(first.name))",
            fix: .assignFreshUID(originalUID: list.uid)))
      } else {
        firstByUID[list.uid] = list
      }
    }

    // Names: keys are recomputed from the names, because a stale stored key (a hand edit) is
    // exactly how two colliding names get past the UNIQUE constraint.
    var groups: [String: [IntegrityList]] = [:]
    var keyOrder: [String] = []
    for list in all {
      let key = ListName.key(for: list.name)
      if groups[key] == nil { keyOrder.append(key) }
      groups[key, default: []].append(list)
    }
    var takenKeys = Set(all.map(\.nameKey)).union(groups.keys)
    var renamedOrMerged = Set<Int64>()
    for key in keyOrder {
      guard let group = groups[key], let oldest = group.first, group.count > 1 else { continue }
      for later in group.dropFirst() {
        let fix: Fix?
        switch options.onDuplicate {
        case .rename:
          let name = Self.freeName(for: ListName.normalized(later.name), taken: &takenKeys)
          fix = .renameList(from: later.name, to: name)
        case .merge: fix = .mergeList(intoRowID: oldest.rowID, intoName: oldest.name)
        case .fail: fix = nil
        }
        renamedOrMerged.insert(later.rowID)
        found.append(
          Finding(
            rule: .listNameCollision, subject: subject(later), related: [subject(oldest)],
            message:
              "its name collides with list #\(oldest.rowID) \(FindingSubject.quotedTitle(oldest.name)) (same after trimming, NFC and case folding)",
            fix: fix))
      }
    }
    // Spellings compare by Unicode scalars: Swift's `==` takes a decomposed name for its NFC form.
    for list in all where !renamedOrMerged.contains(list.rowID) {
      let normalized = ListName.normalized(list.name)
      if let bytes = list.nameBytes {
        let encoding = String(validating: bytes, as: UTF8.self) == nil ? ", not valid UTF-8" : ""
        found.append(
          Finding(
            rule: .listNameKey, subject: subject(list),
            message: "its name is stored as a BLOB of \(bytes.count) bytes\(encoding), not as text",
            fix: .storeListNameAsText(bytes: bytes, name: normalized)))
      } else if !ListName.sameScalars(normalized, list.name) {
        let trimmed = ListName.sameScalars(list.name.trimmingCharacters(in: .whitespacesAndNewlines), list.name)
        found.append(
          Finding(
            rule: .listNameKey, subject: subject(list),
            message: trimmed
              ? "its name is not NFC-normalised (stored decomposed, \(list.name.unicodeScalars.count) scalars for \(normalized.unicodeScalars.count))"
              : "its name is stored untrimmed or not NFC-normalised",
            fix: .normalizeListName(from: list.name, to: normalized)))
      } else if !ListName.sameScalars(list.nameKey, ListName.key(for: list.name)) {
        found.append(
          Finding(
            rule: .listNameKey, subject: subject(list),
            message:
              "its stored name key \(ValueRules.quoted(list.nameKey)) is not the key of its name (\(ValueRules.quoted(ListName.key(for: list.name))))",
            fix: .normalizeListName(from: list.name, to: normalized)))
      }
    }

    // Values.
    for list in all {
      if let created = list.createdAt, Timestamp(iso: created) == nil {
        found.append(
          Finding(
            rule: .invalidDate, subject: subject(list),
            message: "its createdAt \(ValueRules.quoted(created)) is not an ISO 8601 instant with a zone",
            fix: .keepInvalidTimestamp(column: .createdAt, value: created)))
      }
      if let finding = ValueRules.extraFinding(list.extra, subject: subject(list)) { found.append(finding) }
    }

    if let listScope {
      found = found.filter { finding in
        ([finding.subject] + finding.related).contains { $0.table == "lists" && listScope.contains($0.rowID ?? -1) }
      }
    }
    findings += found
  }

  /// `base (2)`, `base (3)`, … : the first whose key no list has or will have.
  static func freeName(for base: String, taken: inout Set<String>) -> String {
    var number = 2
    while true {
      let candidate = "\(base) (\(number))"
      let key = ListName.key(for: candidate)
      if !taken.contains(key) {
        taken.insert(key)
        return candidate
      }
      number += 1
    }
  }

  // MARK: Relationships

  private func listLabel(_ rowID: Int64) -> String {
    guard let list = lists[rowID] else { return "#\(rowID)" }
    return "\(FindingSubject.quotedTitle(list.name)) (#\(rowID))"
  }

  private func checkOrphans() throws {
    let target = recoveredListName()
    for orphan in try store.orphanReminders(in: scope) {
      findings.append(
        Finding(
          rule: .orphanReminder, subject: .reminder(orphan.rowID, uid: orphan.uid, title: orphan.title),
          related: [.list(orphan.listRowID)], message: "list #\(orphan.listRowID) does not exist",
          fix: .moveToList(name: target, missingListRowID: orphan.listRowID)))
    }
  }

  /// The name of the list orphans go to: an existing list with that name key keeps its own
  /// spelling.
  private func recoveredListName() -> String {
    let key = ListName.key(for: options.recoveredListName)
    return lists.values.sorted { $0.rowID < $1.rowID }.first { ListName.key(for: $0.name) == key }?.name
      ?? options.recoveredListName
  }

  private func checkParentLinks() throws {
    for link in try store.brokenParentLinks(in: scope) {
      guard let parentRow = link.parentRowID else { continue }
      let subject = FindingSubject.reminder(link.rowID, uid: link.uid, title: link.title)
      if let parent = link.parent {
        let parentSubject = FindingSubject.reminder(parentRow, uid: parent.uid, title: parent.title)
        findings.append(
          Finding(
            rule: .subtaskOtherList, subject: subject, related: [parentSubject],
            message:
              "its parent \(parentSubject.label) is in list \(listLabel(parent.listRowID)), the subtask in \(listLabel(link.listRowID))",
            fix: .detachFromParent(parentRowID: parentRow, parentUID: Self.nonEmpty(parent.uid))))
      } else {
        findings.append(
          Finding(
            rule: .orphanSubtask, subject: subject, related: [.reminder(parentRow)],
            message: "its parent #\(parentRow) does not exist",
            fix: .detachFromParent(parentRowID: parentRow, parentUID: nil)))
      }
    }
  }

  private func checkCycles() throws {
    let cycles: [[Int64]]
    switch scope {
    case .everything:
      var finder = ParentCycleFinder()
      try store.forEachParentLink { row, parent in finder.add(row: row, parent: parent) }
      cycles = finder.cycles()
    case .importedReminders, .importedEveryReminder:
      var search = ParentCycleFinder.ScopedSearch()
      try store.forEachSubtaskLink(in: scope) { start, startParent in
        try search.walk(from: start) { row in row == start ? startParent : try store.parentRowID(ofReminderRow: row) }
      }
      cycles = search.cycles
    }
    for cycle in cycles {
      let members = try store.reminderLinks(rowIDs: cycle)
      // Break the newest link: the member edited last (unknown or unreadable times count as
      // oldest), then the highest row.
      guard
        let newest = members.max(by: { left, right in
          let leftTime = left.editedAt.flatMap(Timestamp.init(iso:))?.millisecondsSinceEpoch ?? Int64.min
          let rightTime = right.editedAt.flatMap(Timestamp.init(iso:))?.millisecondsSinceEpoch ?? Int64.min
          return leftTime != rightTime ? leftTime < rightTime : left.link.rowID < right.link.rowID
        }),
        let parentRow = newest.link.parentRowID
      else { continue }
      let chain = (cycle + [cycle[0]]).map { "#\($0)" }.joined(separator: " → ")
      let others = members.filter { $0.link.rowID != newest.link.rowID }.map {
        FindingSubject.reminder($0.link.rowID, uid: $0.link.uid, title: $0.link.title)
      }
      findings.append(
        Finding(
          rule: .parentCycle,
          subject: .reminder(newest.link.rowID, uid: newest.link.uid, title: newest.link.title), related: others,
          message: "its parents form a cycle \(chain); its link to #\(parentRow) is the newest",
          fix: .detachFromParent(parentRowID: parentRow, parentUID: Self.nonEmpty(newest.link.parent?.uid))))
    }
  }

  private func checkDuplicateReminderUIDs() throws {
    var first: IntegrityReminderLink?
    for row in try store.duplicateReminderUIDRows(in: scope) {
      guard let uid = row.uid else { continue }
      guard let holder = first, holder.uid == uid else {
        first = row
        continue
      }
      findings.append(
        Finding(
          rule: .duplicateReminderUID, subject: .reminder(row.rowID, uid: uid, title: row.title),
          related: [.reminder(holder.rowID, uid: uid, title: holder.title)],
          message: "its UID is also the UID of #\(holder.rowID) \(FindingSubject.quotedTitle(holder.title))",
          fix: .assignFreshUID(originalUID: uid)))
    }
  }

  // MARK: Values

  private func checkReminderValues() throws {
    if let checked = writtenValues {
      findings += checked.findings
      reminderCount = checked.rowCount
      return
    }
    let scheduleTexts = ScheduleTextVerdicts()
    try store.forEachReminderValues(in: scope) { row in
      reminderCount += 1
      ValueRules.checkReminder(row, scheduleTexts: scheduleTexts, into: &findings)
    }
  }

  /// Rows edited outside remconv. A row another finding names is left out: it is being
  /// reported for the edit already, and every repair of a row recomputes these columns.
  private func checkIndexColumns() throws {
    let named = Set(findings.filter { $0.subject.table == "reminders" }.compactMap(\.subject.rowID))
    for row in try store.staleIndexColumnRows(in: scope) where !named.contains(row.rowID) {
      let stale = [row.dueDay ? "due_day" : nil, row.searchText ? "search_text" : nil].compactMap { $0 }
      findings.append(
        Finding(
          rule: .staleIndexColumns, subject: .reminder(row.rowID, uid: row.uid, title: row.title),
          message:
            "its \(stale.joined(separator: " and ")) \(stale.count == 1 ? "is" : "are") not what its due date, title and notes make (an edit outside remconv); views, counts and search read \(stale.count == 1 ? "it" : "them")",
          fix: .recomputeIndexColumns))
    }
  }

  static func nonEmpty(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}

/// The checks of `remconv validate`, run by an import on what it wrote.
///
/// Scoped to the reminders the import added or changed and the lists they are in (or that it
/// added), so a small import into a big store stays cheap. Each finding becomes a warning
/// whose code is the rule id; what the merge engine already reported for the same item is not
/// repeated. Nothing is repaired: `remconv validate --fix` does that, after a backup.
public enum ImportValidation {
  /// Checks what `engine` wrote and reports the findings in `diagnostics`. Returns how many
  /// warnings it added.
  @discardableResult
  public static func check(
    store: Store, engine: MergeEngine, writtenValues: WrittenValueChecks, listsAddedAfter: Int64,
    diagnostics: DiagnosticLog
  ) throws -> Int {
    let written = engine.writtenReminders
    let result = try store.withIntegrityScope(
      addedAfter: written.addedAfter.ordinal, updated: written.updated.map(\.ordinal)
    ) { scope in
      try Validator(store: store).runOnImported(scope, listsAddedAfter: listsAddedAfter, writtenValues: writtenValues)
    }
    let alreadyReported = Set(diagnostics.entries.map { ReportedItem(code: $0.code, uid: $0.uid) })
    let reportedCodes = Set(alreadyReported.map(\.code))
    /// Whether the merge engine reported this finding's item already: under its UID, or under
    /// the source's UID when the engine gave it a fresh one (a UID that came twice), which it
    /// kept in `extra.originalId`.
    func wasReported(_ finding: Finding) throws -> Bool {
      let code = finding.rule.id
      guard reportedCodes.contains(code) else { return false }
      if alreadyReported.contains(ReportedItem(code: code, uid: finding.subject.uid)) { return true }
      guard finding.subject.table == "reminders", let row = finding.subject.rowID,
        case .string(let original)? = Store.decodeObject(try store.reminderExtraText(rowID: row))["originalId"]
      else { return false }
      return alreadyReported.contains(ReportedItem(code: code, uid: original))
    }
    var added = 0
    for finding in result.findings where try !wasReported(finding) {
      let advice = finding.fix == nil ? "" : " (remconv validate --fix repairs it)"
      diagnostics.warning(
        finding.rule.id, "in the store after this import, \(finding.subject.label): \(finding.message)\(advice)",
        uid: finding.subject.uid)
      added += 1
    }
    return added
  }

  private struct ReportedItem: Hashable {
    let code: String
    let uid: String?
  }
}

/// The value findings of the reminder rows an import writes, checked as the store binds them.
///
/// The rules are `validate`'s (`ValueRules`), on the same raw column values; reading the rows
/// back to check them cost an eighth of an import. Every row an import writes goes through
/// `Store.insertReminder` or `Store.updateReminder` (its other writes are parent links and
/// digests, which no value rule reads), so the rows checked are the rows of the import's
/// scope. A row written twice (a subtask whose parent never came is rewritten by
/// `MergeEngine.finish()`) keeps the findings of its last write.
public final class WrittenValueChecks {
  private let store: Store
  private var findingsByRow: [Int64: [Finding]] = [:]
  private var scratch: [Finding] = []
  private let scheduleTexts = ScheduleTextVerdicts()
  /// Rows written, a row written twice counted twice.
  private(set) var rowCount = 0

  /// Starts checking what `store` writes, until `stop()`.
  public init(watching store: Store) {
    self.store = store
    store.reminderRowWritten = { [weak self] values, dates in self?.check(values, dates) }
  }

  public func stop() {
    store.reminderRowWritten = nil
  }

  /// The findings, by row.
  var findings: [Finding] {
    findingsByRow.keys.sorted().flatMap { findingsByRow[$0] ?? [] }
  }

  private func check(_ values: WrittenReminderValues, _ dates: EncodedDates) {
    rowCount += 1
    scratch.removeAll(keepingCapacity: true)
    // Every row an import writes was encoded by the store from a reminder's model.
    ValueRules.checkReminder(values, encoded: dates, scheduleTexts: scheduleTexts, into: &scratch)
    if !scratch.isEmpty {
      findingsByRow[values.rowID] = scratch
    } else if !findingsByRow.isEmpty {
      findingsByRow.removeValue(forKey: values.rowID)
    }
  }
}

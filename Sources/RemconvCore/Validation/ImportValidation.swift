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
    store: Store, engine: MergeEngine, listsAddedAfter: Int64, diagnostics: DiagnosticLog
  ) throws -> Int {
    let written = engine.writtenReminderRows
    let result = try store.withIntegrityScope(addedAfter: written.addedAfter, updated: written.updated) { _ in
      try Validator(store: store).runOnImported(listsAddedAfter: listsAddedAfter)
    }
    let alreadyReported = Set(diagnostics.entries.map { ReportedItem(code: $0.code, uid: $0.uid) })
    var added = 0
    for finding in result.findings
    where !alreadyReported.contains(ReportedItem(code: finding.rule.id, uid: finding.subject.uid)) {
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

/// How validation results read: one line per finding for people, one JSON document for
/// pipelines (`version` 1, sorted keys, the same exit codes as the text).

extension Finding {
  /// `error[orphan-reminder] 3F2A9C01-… "Call plumber": list #7 does not exist (fix: move to "Recovered")`.
  public var reportLine: String {
    headline + (fix.map { " (fix: \($0.description(applied: false)))" } ?? " (no automatic fix)")
  }
}

extension RepairRecord {
  /// The finding's line with what `--fix` did (or, in a dry run, would do) about it.
  public func reportLine(dryRun: Bool) -> String {
    let note: String
    switch outcome {
    case .repaired(let done):
      note = dryRun ? "would fix: \(finding.fix?.description(applied: false) ?? done)" : "fixed: \(done)"
    case .resolvedByOtherRepair:
      note = dryRun ? "would be resolved by another fix" : "resolved by another fix"
    case .remains:
      note = "no automatic fix"
    }
    return "\(finding.headline) (\(note))"
  }

  /// The finding's JSON with `repair: {status, result}`.
  public var json: JSONValue {
    guard case .object(var members) = finding.json else { return finding.json }
    var repair: [String: JSONValue] = ["status": .string(outcome.status)]
    if case .repaired(let done) = outcome { repair["result"] = .string(done) }
    members["repair"] = .object(repair)
    return .object(members)
  }
}

extension ValidationResult {
  /// `{version, mode: "check", store, lists, reminders, findings, summary: {errors, warnings}}`.
  public func json(storePath: String) -> JSONValue {
    .object([
      "version": .number(1),
      "mode": .string("check"),
      "store": .string(storePath),
      "lists": .number(listCount),
      "reminders": .number(reminderCount),
      "findings": .array(findings.map(\.json)),
      "summary": .object(["errors": .number(errorCount), "warnings": .number(warningCount)]),
    ])
  }

  /// `checked 3 lists and 41 reminders: 2 errors, 1 warning`.
  public var summary: String {
    "checked \(plural(listCount, "list")) and \(plural(reminderCount, "reminder")): "
      + (findings.isEmpty ? "no problems" : "\(plural(errorCount, "error")), \(plural(warningCount, "warning"))")
  }
}

extension RepairReport {
  /// `{version, mode: "fix", dryRun, store, lists, reminders, backup, damaged, findings (each
  /// with its repair), remaining, summary: {found, repaired, remaining, errors, warnings}}`.
  public func json(storePath: String) -> JSONValue {
    .object([
      "version": .number(1),
      "mode": .string("fix"),
      "dryRun": .bool(dryRun),
      "store": .string(storePath),
      "lists": .number(listCount),
      "reminders": .number(reminderCount),
      "backup": backup.map { .string($0.path) } ?? .null,
      "damaged": .bool(refusedBecauseDamaged),
      "findings": .array(records.map(\.json)),
      "remaining": .array(remaining.map(\.json)),
      "summary": .object([
        "found": .number(records.count),
        "repaired": .number(repairedCount),
        "remaining": .number(remaining.count),
        "errors": .number(remaining.count { $0.severity == .error }),
        "warnings": .number(remaining.count { $0.severity == .warning }),
      ]),
    ])
  }

  /// `repaired 4 of 5 findings, 1 remains; backup: …` (`would repair` in a dry run).
  public var summary: String {
    if refusedBecauseDamaged {
      return "the store is damaged (see the integrity findings): nothing was repaired; restore a backup"
    }
    let checked = "checked \(plural(listCount, "list")) and \(plural(reminderCount, "reminder"))"
    if repairedCount == 0 {
      let left = remaining.isEmpty ? "" : ", \(plural(remaining.count, "finding")) without an automatic fix"
      return "\(checked): nothing to repair\(left)"
    }
    var text = "\(dryRun ? "would repair" : "repaired") \(repairedCount) of \(plural(records.count, "finding"))"
    text += remaining.isEmpty ? ", none remains" : ", \(remaining.count) remain\(remaining.count == 1 ? "s" : "")"
    if dryRun { text += "; nothing was changed" }
    if let backup { text += "; backup: \(backup.path)" }
    return text
  }
}

private func plural(_ count: Int, _ noun: String) -> String {
  "\(count) \(noun)\(count == 1 ? "" : "s")"
}

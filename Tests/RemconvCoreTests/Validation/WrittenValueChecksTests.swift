import Foundation
import RemconvTestSupport
import Testing

@testable import RemconvCore

/// An import checks the values of its rows as it writes them (`WrittenValueChecks`) instead of
/// reading them back: these tests hold it to what `validate` reads from the same rows.
@Suite struct WrittenValueChecksTests {
  /// Every value rule an import can break, a row rewritten by the merge engine's finish (its
  /// parent never comes), and rows with nothing wrong.
  static let lines = [
    #"{"list":"L","listId":"L1","id":"done-1","title":"done, no completion time","isDone":true}"#,
    #"{"list":"L","listId":"L1","id":"open-1","title":"open","completedAt":"2026-01-02T00:00:00Z"}"#,
    #"{"list":"L","listId":"L1","id":"edit-1","title":"edited early","createdAt":"2026-03-01T00:00:00Z","editedAt":"2026-02-01T00:00:00Z"}"#,
    #"{"list":"L","listId":"L1","id":"sub-1","title":"done subtask","isDone":true,"parentId":"NOT-THERE"}"#,
    #"{"list":"L","listId":"L1","id":"blank-1","title":" \u00a0"}"#,
    #"{"list":"L","listId":"L1","id":"fine-1","title":"fine","dueDate":"2026-05-01T09:00:00","dueTimeZone":"Europe/Berlin","tags":["a"]}"#,
  ]

  private static let valueRules: Set<ValidationRule> = [
    .missingUID, .emptyTitle, .doneWithoutCompletion, .completionWithoutDone, .editedBeforeCreated,
    .invalidPriority, .invalidDate, .invalidTimeZone, .dueKindMismatch, .invalidTags, .invalidExtra,
  ]

  @Test func anImportWarnsOfWhatValidateFindsInTheValuesOfItsRows() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let report = try importLines(Self.lines, into: store)

    let warned = report.diagnostics.filter { ValidationRule(rawValue: $0.code).map(Self.valueRules.contains) ?? false }
      .map { "\($0.code) \($0.uid ?? "")" }
    let validated = try Validator(store: store).run().findings.filter { Self.valueRules.contains($0.rule) }
      .map { "\($0.rule.id) \($0.subject.uid ?? "")" }
    #expect(warned.sorted() == validated.sorted())
    #expect(
      Set(warned) == [
        "done-without-completion done-1", "completion-without-done open-1", "edited-before-created edit-1",
        "done-without-completion sub-1", "empty-title blank-1",
      ])
    // sub-1 was written twice (finish() takes its missing parent away): reported once.
    #expect(warned.filter { $0.hasSuffix(" sub-1") }.count == 1)
    // The merge engine reports an empty title itself, under the same code: not twice.
    #expect(report.diagnostics.filter { $0.uid == "blank-1" && $0.code == "empty-title" }.count == 1)
  }

  @Test func anItemGivenAFreshUIDIsNotReportedTwiceForWhatTheMergeReported() throws {
    // The second "dup" gets a fresh UID; the merge engine warned of its empty title under
    // "dup", and the post-import check finds it under the fresh UID: one warning, not two.
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let report = try importLines(
      [
        #"{"list":"L","listId":"L1","id":"dup","title":"first"}"#,
        #"{"list":"L","listId":"L1","id":"dup","title":""}"#,
      ], into: store)
    #expect(report.diagnostics.filter { $0.code == "duplicate-uid" }.count == 1)
    #expect(report.diagnostics.filter { $0.code == "empty-title" }.map(\.uid) == ["dup"])
    // validate still finds it, under the UID it has now.
    let found = try Validator(store: store).run().findings.filter { $0.rule == .emptyTitle }
    #expect(found.count == 1)
    #expect(found.first?.subject.uid != "dup")
  }

  @Test func aRowKeepsTheFindingsOfItsLastWrite() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let checks = WrittenValueChecks(watching: store)
    try store.write {
      let list = try store.insertList(ReminderList(id: "L1", name: "L"))
      var reminder = Reminder(id: "R1", listID: "L1", title: "done", isDone: true)
      let row = try store.insertReminder(reminder, listRowID: list, parentRowID: nil)
      #expect(checks.findings.map(\.rule) == [.doneWithoutCompletion])
      #expect(checks.findings.first?.subject.rowID == row)

      reminder.completedAt = Timestamp(iso: "2026-01-02T00:00:00Z")
      try store.updateReminder(rowID: row, reminder, listRowID: list, parentRowID: nil)
      #expect(checks.findings.isEmpty)
      #expect(checks.rowCount == 2)
    }
    checks.stop()
    // Stopped: later writes are not checked.
    try store.write {
      let list = try #require(try store.list(uid: "L1"))
      try store.insertReminder(Reminder(id: "R2", listID: "L1", title: " "), listRowID: list.rowID, parentRowID: nil)
    }
    #expect(checks.rowCount == 2)
    #expect(checks.findings.isEmpty)
  }

  /// The recurrence and alarm rules on rows that repeat their texts: each text is read once
  /// (`ScheduleTextVerdicts`), and every row still gets the findings `validate` reads from it.
  @Test func rowsThatRepeatTheirScheduleTextsEachGetTheirFindings() throws {
    let directory = TemporaryDirectory()
    let store = try Store(path: directory.file("store.sqlite"))
    defer { store.close() }
    let checks = WrittenValueChecks(watching: store)
    let due = try DueDate(isoText: "2026-05-01", timeZone: nil)
    let toStart = Alarm(trigger: .relative(seconds: -900, to: .start))
    let toDue = Alarm(trigger: .relative(seconds: -600, to: .due))
    try store.write {
      let list = try store.insertList(ReminderList(id: "L1", name: "L"))
      for round in 1...3 {
        // Invalid for libical, then a rule it reads; an alarm whose anchor the row lacks, then one it has.
        try store.insertReminder(
          Reminder(id: "bad-\(round)", listID: "L1", title: "bad", recurrence: Recurrence(rule: "FREQ=FORTNIGHTLY")),
          listRowID: list, parentRowID: nil)
        try store.insertReminder(
          Reminder(
            id: "good-\(round)", listID: "L1", title: "good", dueDate: due, recurrence: Recurrence(rule: "FREQ=WEEKLY"),
            alarms: [toStart, toDue]), listRowID: list, parentRowID: nil)
        try store.insertReminder(
          Reminder(id: "undated-\(round)", listID: "L1", title: "undated", alarms: [toStart, toDue]),
          listRowID: list, parentRowID: nil)
      }
    }
    checks.stop()
    let described = { (findings: [Finding]) in
      findings.map { "\($0.rule.id) \($0.subject.uid ?? "") \($0.message)" }.sorted()
    }
    let scheduleRules: Set<ValidationRule> = [.invalidRecurrence, .invalidAlarm]
    let written = described(checks.findings)
    #expect(written == described(try Validator(store: store).run().findings.filter { scheduleRules.contains($0.rule) }))
    #expect(written.filter { $0.hasPrefix("invalid-recurrence bad-") }.count == 3)
    // good-N lacks its start (alarm 1); undated-N lacks both (alarms 1 and 2).
    #expect(written.filter { $0.hasPrefix("invalid-alarm good-") }.count == 3)
    #expect(written.filter { $0.hasPrefix("invalid-alarm undated-") }.count == 6)
    #expect(written.count == 12)
  }

  @Test func aScheduleTextReadsTheSameRememberedAsFresh() {
    let verdicts = ScheduleTextVerdicts()
    let texts = [
      #"{"rule":"FREQ=FORTNIGHTLY"}"#, #"{"rule":"FREQ=DAILY;COUNT=3"}"#, #"{"rule":""}"#, "not json", "[]",
    ]
    for text in texts + texts {
      #expect(verdicts.recurrenceProblem(text) == ScheduleTextVerdicts.readRecurrence(text))
    }
    #expect(verdicts.recurrenceProblem(#"{"rule":"FREQ=DAILY;COUNT=3"}"#) == nil)
    #expect(verdicts.recurrenceProblem(#"{"rule":"FREQ=FORTNIGHTLY"}"#) != nil)
    let alarms = [
      #"[{"offset":-900,"relatedTo":"start"},{"at":"2026-12-08T07:45:00Z"},{"offset":0}]"#, "{}", "[1]",
    ]
    for text in alarms + alarms {
      #expect(verdicts.alarms(text) == ScheduleTextVerdicts.readAlarms(text))
    }
    #expect(
      verdicts.alarms(alarms[0]) == .relative([.init(index: 0, anchor: .start), .init(index: 2, anchor: .due)]))
    if case .unreadable = verdicts.alarms("{}") {} else { Issue.record("an object is not an alarms array") }
  }

  /// An import's tags are not parsed again: what `ReminderColumns(_:)` writes for any tags is
  /// an array of strings as a parse reads it, so the brackets are all there is to check.
  @Test func encodedTagsAreAnArrayOfStringsWhateverTheyHold() {
    let awkward = [
      "", " ", "\"", "\\", "a,b", "[x]", "\u{0}", "\u{1F}", "\n\t\r", "😀", "naïve", "\u{301}", "]", "[", "{}", "null",
    ]
    var lists = awkward.map { [$0] }
    lists.append(awkward)
    lists.append([])
    for tags in lists {
      let text = ReminderColumns(Reminder(id: "r", listID: "l", title: "t", tags: tags)).tags
      #expect(ValueRules.isStringArray(text), "\(text)")
      #expect(ValueRules.isStringArray(text, isEncoded: true))
    }
    // Not encoded by remconv: parsed.
    #expect(!ValueRules.isStringArray("[1]"))
    #expect(!ValueRules.isStringArray("[\"a\""))
  }
}

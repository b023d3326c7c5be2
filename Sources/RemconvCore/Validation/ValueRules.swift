import Foundation

/// The value rules of `remconv validate`: what a stored value must look like, checked with the
/// model's own parsers on the raw columns.
///
/// One place for both callers: `validate`'s value pass, which reads the columns back, and an
/// import, which checks them as they are written (`WrittenValueChecks`).
enum ValueRules {
  /// Appends what is wrong with one reminder row's values, in the order `validate` reports.
  /// `encoded` is given for a row remconv is writing from a reminder (an import's rows,
  /// `ReminderColumns(_:)`): its `extra` and `tags` are what remconv's own JSON encoder wrote
  /// from an object and an array of strings, and its dates the texts of `encoded`'s values, so
  /// they are those by construction and are not parsed again (a date only when its text reads
  /// back as it). `validate` reads stores that others may have written, and parses them.
  /// `scheduleTexts` remembers what the recurrence and alarm texts read as, for a caller that
  /// checks many rows (they repeat few texts).
  static func checkReminder(
    _ row: some ReminderValueRow, encoded: EncodedDates? = nil, scheduleTexts: ScheduleTextVerdicts,
    into findings: inout [Finding]
  ) {
    let isEncoded = encoded != nil
    let subject = FindingSubject.reminder(row.rowID, uid: row.uid, title: row.title)
    func add(_ rule: ValidationRule, _ message: String, _ fix: Fix?) {
      findings.append(Finding(rule: rule, subject: subject, message: message, fix: fix))
    }
    if (row.uid ?? "").isBlank {
      add(.missingUID, "the reminder has no UID", .assignFreshUID(originalUID: nil))
    }
    if row.title.isBlank {
      add(.emptyTitle, "its title is empty", nil)
    }
    let created = instant(row.createdAtText, encoded?.createdAt, .createdAt, add)
    let edited = instant(row.editedAtText, encoded?.editedAt, .editedAt, add)
    let completed = instant(row.completedAtText, encoded?.completedAt, .completedAt, add)
    if row.isDone, row.completedAtText == nil {
      let fix: Fix? =
        edited.map { .inferCompletion(from: .editedAt, value: $0.description) }
        ?? created.map { .inferCompletion(from: .createdAt, value: $0.description) }
      add(.doneWithoutCompletion, "it is done but has no completion time", fix)
    }
    if !row.isDone, let completedText = row.completedAtText?.text, completed != nil {
      add(
        .completionWithoutDone, "it is not done but has the completion time \(completedText)",
        .clearCompletion(value: completedText))
    }
    if let created, let edited, edited < created, let createdText = row.createdAtText?.text,
      let editedText = row.editedAtText?.text
    {
      add(
        .editedBeforeCreated, "its editedAt \(editedText) is before its createdAt \(createdText)",
        .raiseEditedAt(from: editedText, to: createdText))
    }
    if encoded?.due?.readsBackFromText(zoneIsKnown: TimeZoneNames.isKnown) != true { checkDue(row, add) }
    checkSchedule(row, encoded, scheduleTexts, add)
    checkPriority(row.priority, add)
    if let tags = row.tags, !isStringArray(tags, isEncoded: isEncoded) {
      add(.invalidTags, "its tags \(quoted(tags)) are not a JSON array of strings", .keepInvalidTags(value: tags))
    }
    if let finding = extraFinding(row.extra, subject: subject, isEncoded: isEncoded) { findings.append(finding) }
  }

  /// The instant a timestamp column holds: `encoded`, the value its text was written from,
  /// when that text reads back as it; otherwise the text read, reported if it is not one.
  private static func instant(
    _ stored: TimestampText?, _ encoded: Timestamp?, _ column: Fix.TimestampColumn,
    _ add: (ValidationRule, String, Fix?) -> Void
  ) -> Timestamp? {
    if let encoded, encoded.readsBackFromText { return encoded }
    guard let text = stored?.text else { return nil }
    if let value = Timestamp(iso: text) { return value }
    add(
      .invalidDate, "its \(column.rawValue) \(quoted(text)) is not an ISO 8601 instant with a zone",
      .keepInvalidTimestamp(column: column, value: text))
    return nil
  }

  private static func checkDue(_ row: some ReminderValueRow, _ add: (ValidationRule, String, Fix?) -> Void) {
    guard let due = row.due else {
      if let zone = row.dueTimeZone {
        add(
          .invalidTimeZone, "it has the time zone \(quoted(zone)) but no due date",
          .dropDueTimeZone(zone: zone, kind: nil, storedKind: row.dueKind))
      } else if let kind = row.dueKind {
        add(
          .dueKindMismatch, "its due_kind is \(quoted(kind)) but it has no due date", .setDueKind(from: kind, to: nil))
      }
      return
    }
    do {
      let parsed = try DueDate(isoText: due, timeZone: row.dueTimeZone)
      if row.dueKind != parsed.kind.rawValue {
        add(
          .dueKindMismatch,
          "its due_kind is \(row.dueKind.map(quoted) ?? "NULL") but the due date \(quoted(due)) is \(kindPhrase(parsed.kind))",
          .setDueKind(from: row.dueKind, to: parsed.kind))
      }
    } catch {
      switch error {
      case .unparsable:
        add(
          .invalidDate, "its due date: \(error)",
          .keepInvalidDue(due: due, timeZone: row.dueTimeZone, storedKind: row.dueKind))
      case .zoneOnDate, .zoneOnUTC:
        // The text alone is a valid date or UTC time: keep it and its kind, set the zone aside.
        let kind = (try? DueDate(isoText: due, timeZone: nil))?.kind
        add(
          .invalidTimeZone, "its due date: \(error)",
          .dropDueTimeZone(zone: row.dueTimeZone ?? "", kind: kind, storedKind: row.dueKind))
      case .unknownZone:
        // Without its zone the time would read as floating: a different kind. Keep both aside.
        add(
          .invalidTimeZone, "its due date: \(error)",
          .keepInvalidDue(due: due, timeZone: row.dueTimeZone, storedKind: row.dueKind))
      }
    }
  }

  /// The recurrence, the alarms and the start date (issue 22). Nothing here is repaired: the
  /// values are kept as they are, and reported.
  private static func checkSchedule(
    _ row: some ReminderValueRow, _ encoded: EncodedDates?, _ scheduleTexts: ScheduleTextVerdicts,
    _ add: (ValidationRule, String, Fix?) -> Void
  ) {
    if let text = row.recurrence, let problem = scheduleTexts.recurrenceProblem(text) {
      add(.invalidRecurrence, problem, nil)
    }
    if let text = row.alarms, text != "[]" {
      switch scheduleTexts.alarms(text) {
      case .unreadable(let problem):
        add(.invalidAlarm, problem, nil)
      case .relative(let anchors):
        for alarm in anchors where alarm.anchor == .due ? row.due == nil : row.start == nil {
          add(
            .invalidAlarm,
            "its alarm \(alarm.index + 1) is relative to the \(alarm.anchor == .due ? "due" : "start") date, which it does not have",
            nil)
        }
      }
    }
    if row.start != nil, row.due != nil,
      let start = date(row.start, zone: row.startTimeZone, encoded: encoded?.start),
      let due = date(row.due, zone: row.dueTimeZone, encoded: encoded?.due),
      start.sortKey(in: comparisonZone) > due.sortKey(in: comparisonZone)
    {
      add(.startAfterDue, "its start date \(start) is after its due date \(due)", nil)
    }
  }

  /// The due or start date a row holds: `encoded`, the value its texts were written from, when
  /// they read back as it; otherwise the texts read, nil if they are not one.
  private static func date(_ text: String?, zone: String?, encoded: DueDate?) -> DueDate? {
    if let encoded, encoded.readsBackFromText(zoneIsKnown: TimeZoneNames.isKnown) { return encoded }
    return text.flatMap { try? DueDate(isoText: $0, timeZone: zone) }
  }

  /// The zone a floating or all-day date is compared in: UTC, so a store validates alike on
  /// every machine.
  private static let comparisonZone = TimeZone(identifier: "UTC") ?? .current

  private static func checkPriority(_ value: SQLValue, _ add: (ValidationRule, String, Fix?) -> Void) {
    let raw: String
    switch value {
    case .integer(let number):
      if (0...3).contains(number) { return }
      raw = String(number)
    case .real(let number): raw = String(number)
    case .text(let text): raw = text
    case .null: raw = "NULL"
    case .blob(let bytes): raw = "<\(bytes.count) bytes>"
    }
    add(.invalidPriority, "its priority \(quoted(raw)) is not 0, 1, 2 or 3", .keepInvalidPriority(value: raw))
  }

  /// `invalid-extra` for an `extra` text that is not a JSON object (reading the store would
  /// drop it silently). An `isEncoded` text came from remconv's encoder of an object, so its
  /// braces are all there is to check: parsing it again cost a twentieth of an import of notes
  /// with long `extra`s (bench/findings.md, R4).
  static func extraFinding(_ extra: String?, subject: FindingSubject, isEncoded: Bool = false) -> Finding? {
    guard let extra, !extra.isEmpty, extra != "{}" else { return nil }
    if isEncoded, extra.utf8.first == UInt8(ascii: "{"), extra.utf8.last == UInt8(ascii: "}") { return nil }
    if let value = try? JSONParser.parse(extra), value.objectValue != nil { return nil }
    return Finding(
      rule: .invalidExtra, subject: subject, message: "its extra \(quoted(extra)) is not a JSON object",
      fix: .wrapExtra(value: extra))
  }

  /// Whether `text` is a JSON array of strings; an `isEncoded` one came from remconv's encoder
  /// of such an array, so its brackets are all there is to check (parsing it was a fifteenth
  /// of an import's value checks).
  static func isStringArray(_ text: String, isEncoded: Bool = false) -> Bool {
    if text.isEmpty || text == "[]" { return true }
    if isEncoded, text.utf8.first == UInt8(ascii: "["), text.utf8.last == UInt8(ascii: "]") { return true }
    guard let items = (try? JSONParser.parse(text))?.arrayValue else { return false }
    return items.allSatisfy { $0.stringValue != nil }
  }

  /// A stored value in single quotes, cut to 40 characters.
  static func quoted(_ value: String) -> String {
    "'" + (value.count > 40 ? String(value.prefix(39)) + "…" : value) + "'"
  }

  static func kindPhrase(_ kind: DueDate.Kind) -> String {
    switch kind {
    case .date: "a date"
    case .floating: "a floating time"
    case .utc: "a UTC time"
    case .zoned: "a zoned time"
    }
  }
}

/// The dates of a reminder a row is being written from, each the value its column's text was
/// made of: the value rules read these rather than parse the texts again.
struct EncodedDates {
  let createdAt: Timestamp?
  let editedAt: Timestamp?
  let completedAt: Timestamp?
  let due: DueDate?
  let start: DueDate?

  init(_ reminder: borrowing Reminder) {
    createdAt = reminder.createdAt
    editedAt = reminder.editedAt
    completedAt = reminder.completedAt
    due = reminder.dueDate
    start = reminder.startDate
  }
}

/// What a recurrence or alarms text reads as, remembered by the text: both are functions of
/// the text alone (libical's verdict on a rule included), and the rows of an import or a store
/// repeat few of them, so each is parsed and given to libical once (the libical check of every
/// written row was a sixth of an import's value checks; docs/benchmarks.md, branch i20-first).
/// At most `capacity` texts are kept; others are read each time.
final class ScheduleTextVerdicts {
  /// The alarms' anchors as far as the rules need them.
  enum Alarms: Equatable {
    case unreadable(String)
    /// The position and anchor of each alarm relative to a date, in order.
    case relative([Anchored])
  }

  struct Anchored: Equatable {
    let index: Int
    let anchor: Alarm.Anchor
  }

  static let capacity = 4096
  private var recurrences: [String: String?] = [:]
  private var alarmTexts: [String: Alarms] = [:]

  /// Why a stored recurrence is wrong, as `validate` words it, or nil.
  func recurrenceProblem(_ text: String) -> String? {
    if let known = recurrences[text] { return known }
    let problem = Self.readRecurrence(text)
    if recurrences.count < Self.capacity { recurrences[text] = problem }
    return problem
  }

  func alarms(_ text: String) -> Alarms {
    if let known = alarmTexts[text] { return known }
    let verdict = Self.readAlarms(text)
    if alarmTexts.count < Self.capacity { alarmTexts[text] = verdict }
    return verdict
  }

  static func readRecurrence(_ text: String) -> String? {
    do {
      let recurrence = try ScheduleJSON.recurrence(JSONParser.parse(text))
      guard let reason = RecurrenceRule.problem(in: recurrence.rule) else { return nil }
      return "its RRULE \(ValueRules.quoted(recurrence.rule)) is invalid: \(reason)"
    } catch {
      return "its recurrence \(ValueRules.quoted(text)) is not readable: \(error)"
    }
  }

  static func readAlarms(_ text: String) -> Alarms {
    do {
      let alarms = try ScheduleJSON.alarms(JSONParser.parse(text))
      return .relative(
        alarms.enumerated().compactMap { index, alarm in
          guard case .relative(_, let anchor) = alarm.trigger else { return nil }
          return Anchored(index: index, anchor: anchor)
        })
    } catch {
      return .unreadable("its alarms \(ValueRules.quoted(text)) are not readable: \(error)")
    }
  }
}

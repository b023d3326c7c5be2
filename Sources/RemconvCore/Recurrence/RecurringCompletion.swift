import Foundation

/// What `done` does to a repeating reminder, as Apple Reminders does it: the occurrence due
/// now is completed, kept as a completed copy (the history), and the reminder itself moves to
/// its next occurrence.
///
/// The series is anchored at the reminder's due date (its start date when it has no due):
/// after each `done` the reminder's due date is the first occurrence of what is left, and a
/// COUNT is lowered by the occurrences passed, so the rule read from the new due date makes
/// exactly the occurrences still to come. Docs: docs/recurrence.md, "done on a repeating
/// reminder".
public struct RecurringCompletion: Sendable {
  /// The reminder at its next occurrence: not done, due (and start) moved, COUNT lowered,
  /// absolute alarms moved by as much as the due date.
  public let advanced: Reminder
  /// A completed copy of the occurrence just done: a reminder of its own (`historyID`) in
  /// the same list, not repeating, with `extra.completedOccurrenceOf` naming the series.
  public let history: Reminder

  /// The `extra` key of a completed copy holding the repeating reminder's UID.
  public static let seriesKey = "completedOccurrenceOf"

  /// Completes `reminder`'s current occurrence at `moment`. Nil when `done` completes it as
  /// any reminder: it does not repeat, libical does not read its rule, it has neither a due
  /// nor a start date, or its series has ended. `localZone` is the zone a date or floating
  /// time is read in (the day of a completion, the move of an absolute alarm).
  public static func complete(_ reminder: Reminder, at moment: Timestamp, in localZone: TimeZone, historyID: String)
    -> RecurringCompletion?
  {
    guard !reminder.isDone, let recurrence = reminder.recurrence,
      let rule = try? RecurrenceRule(recurrence.rule), let anchor = reminder.dueDate ?? reminder.startDate,
      let next = nextOccurrence(of: rule, recurrence, from: anchor, completedAt: moment, in: localZone)
    else { return nil }

    var advanced = reminder
    var moved = recurrence
    if let count = rule.count {
      moved.rule = rule.withCount(max(1, count - next.ruleOccurrencesUsed)).text
    }
    advanced.recurrence = moved
    advanced.editedAt = moment
    let shift = Shift(from: anchor, to: next.value, in: localZone)
    if reminder.dueDate != nil {
      advanced.dueDate = next.value
      advanced.startDate = reminder.startDate.map(shift.applied(to:))
    } else {
      advanced.startDate = next.value
    }
    advanced.alarms = reminder.alarms.map { alarm in
      guard case .absolute(let time) = alarm.trigger else { return alarm }
      var shifted = alarm
      shifted.trigger = .absolute(
        Timestamp(millisecondsSinceEpoch: time.millisecondsSinceEpoch + shift.instantSeconds * 1000))
      return shifted
    }

    var history = reminder
    history.id = historyID
    history.isDone = true
    history.completedAt = moment
    history.recurrence = nil
    history.createdAt = moment
    history.editedAt = moment
    history.extra[seriesKey] = .string(reminder.id)
    return RecurringCompletion(advanced: advanced, history: history)
  }

  /// The UID of the completed copy of `reminder`'s occurrence at `due`, derived so that the
  /// same occurrence completed in two stores gets the same UID; `attempt` tells apart an
  /// occurrence completed more than once (after moving the due date back).
  public static func historyID(of reminder: Reminder, attempt: Int) -> String {
    let occurrence = (reminder.dueDate ?? reminder.startDate)?.description ?? ""
    return StableID.derived(
      ["completed occurrence", reminder.id, occurrence] + (attempt == 0 ? [] : [String(attempt)]))
  }

  /// The next occurrence and how many of the rule's occurrences it uses up (COUNT counts them).
  private static func nextOccurrence(
    of rule: RecurrenceRule, _ recurrence: Recurrence, from anchor: DueDate, completedAt moment: Timestamp,
    in localZone: TimeZone
  ) -> (value: DueDate, ruleOccurrencesUsed: Int)? {
    switch recurrence.basis {
    case .dueDate:
      let series = RecurrenceSeries(
        rule: rule, start: anchor, exceptionDates: recurrence.exceptionDates,
        additionalDates: recurrence.additionalDates)
      guard let step = try? series.step(after: anchor) else { return nil }
      return (step.value, step.ruleOccurrencesBefore)
    case .completion:
      // The series starts again on the day of the completion, at the due date's time of day.
      let restart = onDay(of: moment, like: anchor, in: localZone)
      let series = RecurrenceSeries(
        rule: rule, start: restart, exceptionDates: recurrence.exceptionDates,
        additionalDates: recurrence.additionalDates)
      guard let step = try? series.step(after: restart) else { return nil }
      return (step.value, 1)
    }
  }

  /// `anchor`'s kind and time of day on the day `moment` falls on in `anchor`'s zone (the
  /// local zone for a date or floating time, UTC for a UTC time).
  private static func onDay(of moment: Timestamp, like anchor: DueDate, in localZone: TimeZone) -> DueDate {
    let seconds = moment.millisecondsSinceEpoch.floorDivided(by: 1000)
    let zone: TimeZone
    switch anchor {
    case .date, .floating: zone = localZone
    case .utc: zone = TimeZone(identifier: "UTC") ?? localZone
    case .zoned(_, let identifier): zone = TimeZone(identifier: identifier) ?? localZone
    }
    let day = RecurrenceSeries.wallTime(ofUTCSeconds: seconds, in: zone).date
    let time = RecurrenceSeries.wallTime(of: anchor)
    let wallTime = LocalDateTime(date: day, hour: time.hour, minute: time.minute, second: time.second) ?? time
    switch anchor {
    case .date: return .date(day)
    case .floating: return .floating(wallTime)
    case .utc: return .utc(wallTime)
    case .zoned(_, let identifier): return .zoned(wallTime, timeZone: identifier)
    }
  }

  /// How far the reminder moved: in days (for dates), in wall-clock seconds (for times, so a
  /// start at 08:00 stays at 08:00 across a DST change) and in real seconds (for instants).
  private struct Shift {
    let days: Int
    let wallSeconds: Int64
    let instantSeconds: Int64

    init(from old: DueDate, to new: DueDate, in localZone: TimeZone) {
      let oldWall = RecurrenceSeries.wallTime(of: old)
      let newWall = RecurrenceSeries.wallTime(of: new)
      days = newWall.date.daysSinceEpoch - oldWall.date.daysSinceEpoch
      wallSeconds = newWall.secondsSinceEpoch - oldWall.secondsSinceEpoch
      func instant(_ value: DueDate) -> Int64 {
        RecurrenceSeries.instant(of: value)
          ?? DueDate.utcSeconds(ofWallTime: RecurrenceSeries.wallTime(of: value), in: localZone)
      }
      instantSeconds = instant(new) - instant(old)
    }

    func applied(to value: DueDate) -> DueDate {
      switch value {
      case .date(let date): .date(LocalDate(daysSinceEpoch: date.daysSinceEpoch + days))
      case .floating(let time): .floating(moved(time))
      case .utc(let time): .utc(moved(time))
      case .zoned(let time, let zone): .zoned(moved(time), timeZone: zone)
      }
    }

    private func moved(_ time: LocalDateTime) -> LocalDateTime {
      LocalDateTime(secondsSinceEpoch: time.secondsSinceEpoch + wallSeconds)
    }
  }
}

import Foundation

/// The smart lists of a reminders app: Today, Scheduled, Flagged, All and Completed.
///
/// `contains(_:today:)` is the one rule behind the counts of `remconv lists`, the views of
/// `remconv show --scope` and `remconv export --scope`, so that a count, a view and an export
/// can never disagree.
public enum ReminderScope: String, CaseIterable, Sendable {
  /// Not done, due on the local calendar day of the machine (an all-day due or a timed one).
  case today
  /// Not done, with a due date.
  case scheduled
  /// Not done, flagged.
  case flagged
  /// Not done.
  case all
  /// Done.
  case completed

  /// The scopes `remconv lists` counts, in the order a reminders app shows them.
  public static let counted: [ReminderScope] = [.today, .scheduled, .flagged, .all]

  /// The name a reminders app shows: `Today`, `Scheduled`, ...
  public var title: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

  /// Whether a reminder with these facts is in the scope.
  public func contains(_ facts: ReminderFacts, today: Today) -> Bool {
    switch self {
    case .completed: facts.isDone
    default: !facts.isDone && matchesIgnoringCompletion(facts, today: today)
    }
  }

  public func contains(_ reminder: Reminder, today: Today) -> Bool {
    contains(reminder.facts, today: today)
  }

  /// The scope's own condition with the done state left out: due today, has a due date,
  /// flagged. A smart view shows the done reminders that meet it in its Completed section.
  public func matchesIgnoringCompletion(_ facts: ReminderFacts, today: Today) -> Bool {
    switch self {
    case .today: facts.dueDate.map(today.contains) ?? false
    case .scheduled: facts.dueDate != nil
    case .flagged: facts.flagged
    case .all, .completed: true
    }
  }
}

/// What the scopes look at in a reminder: the store reads only these when it counts.
public struct ReminderFacts: Hashable, Sendable {
  public var isDone: Bool
  public var flagged: Bool
  public var dueDate: DueDate?

  public init(isDone: Bool, flagged: Bool, dueDate: DueDate?) {
    self.isDone = isDone
    self.flagged = flagged
    self.dueDate = dueDate
  }
}

extension Reminder {
  public var facts: ReminderFacts { ReminderFacts(isDone: isDone, flagged: flagged, dueDate: dueDate) }
}

/// The local calendar day a view is drawn on, and the zone that tells which day a timed due
/// falls on.
public struct Today: Hashable, Sendable {
  public let date: LocalDate
  public let timeZone: TimeZone

  public init(date: LocalDate, timeZone: TimeZone) {
    self.date = date
    self.timeZone = timeZone
  }

  /// The day that `now` is in `timeZone`.
  public init(now: Date, timeZone: TimeZone) {
    let seconds = Int64((now.timeIntervalSince1970).rounded(.down))
    self.init(date: DueDate.localDay(ofUTCSeconds: seconds, in: timeZone), timeZone: timeZone)
  }

  /// Whether `due` falls on this day: an all-day due on its date, a floating time on its own
  /// date, a UTC or zoned time on the local day of its instant.
  public func contains(_ due: DueDate) -> Bool { due.day(in: timeZone) == date }

  /// The local day `due` falls on, for grouping by day.
  public func day(of due: DueDate) -> LocalDate { due.day(in: timeZone) }
}

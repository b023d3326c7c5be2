/// How a reminder repeats: an RFC 5545 rule with its exceptions and extra dates.
///
/// The rule is kept as the source wrote it (libical validates and expands it); remconv does no
/// date arithmetic of its own on it.
public struct Recurrence: Hashable, Sendable {
  /// What the next occurrence is counted from.
  public enum Basis: String, Hashable, Sendable {
    /// From the due date: a weekly reminder stays on its weekday however late it is done.
    case dueDate = "due"
    /// From the day it was completed (Todoist's `every!`, Taskwarrior's periodic `wait`).
    case completion
  }

  /// The RRULE value as RFC 5545 writes it, without the "RRULE:" name: "FREQ=WEEKLY;BYDAY=TU".
  public var rule: String
  /// Occurrences that are skipped (EXDATE).
  public var exceptionDates: [DueDate]
  /// Occurrences beside the rule's (RDATE).
  public var additionalDates: [DueDate]
  /// From the due date (default) or from completion.
  public var basis: Basis

  public init(
    rule: String, exceptionDates: [DueDate] = [], additionalDates: [DueDate] = [], basis: Basis = .dueDate
  ) {
    self.rule = rule
    self.exceptionDates = exceptionDates
    self.additionalDates = additionalDates
    self.basis = basis
  }
}

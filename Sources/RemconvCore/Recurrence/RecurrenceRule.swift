/// An RFC 5545 RRULE value (`FREQ=WEEKLY;BYDAY=TU`) that libical reads and can expand.
///
/// The text is kept as given: libical checks it, and every occurrence is libical's
/// (`RecurrenceSeries`); remconv does no recurrence arithmetic of its own.
public struct RecurrenceRule: Hashable, Sendable, CustomStringConvertible {
  /// The RRULE value, without the `RRULE:` name.
  public let text: String

  /// Reads `text` with libical; throws libical's reason when it refuses it.
  public init(_ text: String) throws(RecurrenceRuleError) {
    if let reason = ICalRecurrence.problem(in: text) { throw RecurrenceRuleError(rule: text, reason: reason) }
    self.text = text
  }

  /// Why `text` is not a rule libical reads and expands, or nil when it is.
  public static func problem(in text: String) -> String? { ICalRecurrence.problem(in: text) }

  public var description: String { text }

  /// How many occurrences the rule makes (its COUNT), nil when it has no COUNT.
  public var count: Int? { ICalRecurrence.bounds(of: text).count }

  /// The rule's UNTIL: a date, a UTC time, or a floating time; nil when it has none.
  public var until: DueDate? {
    guard let until = ICalRecurrence.bounds(of: text).until else { return nil }
    if until.isDate { return .date(until.time.date) }
    return until.utc ? .utc(until.time) : .floating(until.time)
  }

  /// The rule with COUNT set to `count`, written as libical writes rules (its parts may come
  /// in another order than the original's).
  func withCount(_ count: Int) -> RecurrenceRule {
    RecurrenceRule(checked: ICalRecurrence.rule(text, withCount: count) ?? text)
  }

  private init(checked text: String) { self.text = text }
}

/// An RRULE libical refuses, with its reason.
public struct RecurrenceRuleError: Error, Equatable, Sendable, CustomStringConvertible {
  public let rule: String
  public let reason: String

  public var description: String { "the RRULE '\(rule)' is invalid: \(reason)" }
}

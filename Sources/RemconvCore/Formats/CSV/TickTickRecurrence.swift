import Foundation

/// TickTick's `Repeat` and `Reminder` cells.
///
/// `Repeat` is an RRULE value, with or without an `RRULE:` prefix
/// (`RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU`). TickTick also writes rules no other app reads:
/// `ERULE:NAME=CUSTOM;BYDATE=…` (chosen dates), `ERULE:NAME=FORGETTINGCURVE…`, `LUNAR:…`
/// (the Chinese calendar) and RRULEs with its own `TT_SKIP` part (skip holidays or weekends).
/// Those are no RRULE: the caller keeps the cell and reports it.
///
/// `Reminder` is a comma-separated list of `TRIGGER:` durations (`TRIGGER:-PT15M`,
/// `TRIGGER:P0DT9H0M0S`, `TRIGGER:PT0S`), each an offset from the task's time.
enum TickTickRecurrence {
  /// The rule of a `Repeat` cell, or nil when it holds none other apps can read. Its parts in
  /// RFC 5545's order, without `INTERVAL=1` (TickTick writes one in every rule).
  static func rule(ofRepeat cell: String) -> String? {
    var text = Substring(cell.trimmingCharacters(in: .whitespacesAndNewlines))
    if text.uppercased().hasPrefix("RRULE:") { text = text.dropFirst("RRULE:".count) }
    guard let parts = RecurrenceRuleParts(text: String(text)) else { return nil }
    let known = Set(RecurrenceRuleParts.partNames)
    guard parts.values.keys.allSatisfy(known.contains) else { return nil }
    return parts.canonicalText
  }

  /// What a TickTick backup holds of a stored reminder's start, repeat and alarms
  /// (`FormatCarriage`): a start only when it differs from the due; the rule from the due
  /// date, without exceptions or added dates; the alarms relative to the start (the due
  /// without one), with no text of their own.
  static func carried(_ reminder: Reminder) -> Reminder {
    var carried = reminder
    if reminder.startDate == reminder.dueDate { carried.startDate = nil }
    carried.recurrence = reminder.recurrence.flatMap { recurrence in
      rule(ofRepeat: recurrence.rule).map {
        Recurrence(rule: $0, exceptionDates: [], additionalDates: [], basis: .dueDate)
      }
    }
    let anchor: Alarm.Anchor = carried.startDate == nil ? .due : .start
    carried.alarms = reminder.alarms.compactMap { alarm in
      guard case .relative(_, let to) = alarm.trigger, to == anchor else { return nil }
      return Alarm(trigger: alarm.trigger, action: "DISPLAY", text: nil)
    }
    return carried
  }

  /// The offsets in seconds of a `Reminder` cell, or nil when one of them is not a duration.
  static func offsets(ofReminder cell: String) -> [Int]? {
    var offsets: [Int] = []
    for item in cell.split(separator: ",") {
      var text = Substring(item.trimmingCharacters(in: .whitespacesAndNewlines))
      if text.uppercased().hasPrefix("TRIGGER:") { text = text.dropFirst("TRIGGER:".count) }
      guard let seconds = ICSDuration.seconds(text) else { return nil }
      offsets.append(seconds)
    }
    return offsets
  }
}

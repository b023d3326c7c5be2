import Foundation

/// An alarm as `add` and `edit` take it (`--alarm`), made an `Alarm` once the reminder's
/// dates are known.
public enum AlarmRequest: Sendable, Equatable {
  /// Seconds after (negative: before) the due or start date: `-15m`, `-1h`, `-2d`, `start-10m`.
  /// A relative alarm follows a repeating reminder to each occurrence.
  case offset(seconds: Int, to: Alarm.Anchor)
  /// A time of day on the day the reminder is due: `08:30`. Kept relative to the due date
  /// (08:30 of an all-day due is 8.5 hours after its start), so it follows each occurrence.
  case timeOfDay(hour: Int, minute: Int)
  /// An instant: `2026-12-01T08:00Z`, or a wall time read in the editor's zone.
  case at(LocalDateTime, utc: Bool)

  /// The forms `--alarm` takes, for help and errors.
  public static let forms =
    "-15m, -1h, -2d, -1w (before the due date), start-10m (before the start date), "
    + "08:30 (on the due day), 2026-12-01T08:00 or 2026-12-01T08:00Z (at that time)"

  /// Reads one `--alarm` value; nil when it is none of the forms.
  public init?(text: String) {
    let trimmed = text.trimmingCharacters(in: .whitespaces)
    if let value = LocalDateTime(iso: trimmed) {
      self = .at(value, utc: false)
      return
    }
    var rest = Substring(trimmed.lowercased())
    if rest.last == "z", let value = LocalDateTime(iso: String(trimmed.dropLast())) {
      self = .at(value, utc: true)
      return
    }
    let clock = rest.split(separator: ":", omittingEmptySubsequences: false)
    if clock.count == 2, clock.allSatisfy({ $0.count == 2 && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
      let hour = Int(clock[0]),
      let minute = Int(clock[1]), (0...23).contains(hour), (0...59).contains(minute)
    {
      self = .timeOfDay(hour: hour, minute: minute)
      return
    }
    var anchor = Alarm.Anchor.due
    for (word, named) in [("start", Alarm.Anchor.start), ("due", .due)] where rest.hasPrefix(word) {
      anchor = named
      rest = rest.dropFirst(word.count)
    }
    if rest.isEmpty {
      self = .offset(seconds: 0, to: anchor)
      return
    }
    guard let sign = rest.first, sign == "-" || sign == "+", let unit = rest.last,
      let unitSeconds = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800][String(unit)],
      let amount = Int(rest.dropFirst().dropLast()), amount >= 0, amount <= 10_000, rest.count > 2
    else { return nil }
    self = .offset(seconds: (sign == "-" ? -1 : 1) * amount * unitSeconds, to: anchor)
  }

  /// The alarm of `reminder` (its dates as they will be stored); a time of day needs a due date.
  public func alarm(for reminder: Reminder, in zone: TimeZone) throws -> Alarm {
    switch self {
    case .offset(let seconds, let anchor):
      return Alarm(trigger: .relative(seconds: seconds, to: anchor))
    case .timeOfDay(let hour, let minute):
      guard let due = reminder.dueDate else {
        throw RemconvError.invalidInput(
          "an alarm at a time of day is on the day the reminder is due: give it a due date")
      }
      let dueWall = RecurrenceSeries.wallTime(of: due)
      let seconds = Int64(hour * 3600 + minute * 60) - Int64(dueWall.hour * 3600 + dueWall.minute * 60 + dueWall.second)
      return Alarm(trigger: .relative(seconds: Int(seconds), to: .due))
    case .at(let time, let utc):
      let seconds = utc ? time.secondsSinceEpoch : DueDate.utcSeconds(ofWallTime: time, in: zone)
      return Alarm(trigger: .absolute(Timestamp(millisecondsSinceEpoch: seconds * 1000)))
    }
  }
}

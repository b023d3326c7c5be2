internal import CICal
import Foundation

/// libical's reading and expansion of an RRULE: remconv does no recurrence arithmetic of its
/// own (`RecurrenceRule` and `RecurrenceSeries` are the public face).
///
/// Every series is expanded in wall time: the start given to libical has no zone, so
/// libical steps days, months and years on the calendar and keeps the time of day (libical
/// 3.0's own zoned iteration moves a time that falls in a DST gap and then stays moved).
/// Turning a wall time into an instant is `DueDate`'s business, by RFC 5545's gap rule.
enum ICalRecurrence {
  /// The first instant a series may start from: the wall time and whether it is a whole day.
  struct Start {
    var wallTime: LocalDateTime
    var isDate: Bool
  }

  /// Why libical refused a rule, or nil when it reads it.
  static func problem(in rule: String) -> String? {
    libicalLock.withLock {
      switch parse(rule) {
      case .failure(let refusal): return refusal.reason
      case .success(let parsed):
        // Some combinations are refused only when an iterator is made (BYWEEKNO with a
        // FREQ other than YEARLY, ...).
        let start = Start(wallTime: LocalDateTime(secondsSinceEpoch: 0), isDate: false)
        guard let iterator = icalrecur_iterator_new(parsed, time(of: start)) else {
          return Refusal.iterator(cical_errno()).reason
        }
        icalrecur_iterator_free(iterator)
        return nil
      }
    }
  }

  /// The rule's COUNT (nil when it has none) and UNTIL: a date, a UTC time (`utc`) or a
  /// floating time; nil when the rule is not readable or has neither.
  static func bounds(of rule: String) -> (count: Int?, until: (time: LocalDateTime, isDate: Bool, utc: Bool)?) {
    libicalLock.withLock {
      guard case .success(let parsed) = parse(rule) else { return (nil, nil) }
      let count = parsed.count > 0 ? Int(parsed.count) : nil
      guard icaltime_is_null_time(parsed.until) == 0, let time = wallTime(of: parsed.until) else {
        return (count, nil)
      }
      return (count, (time, parsed.until.is_date != 0, icaltime_is_utc(parsed.until) != 0))
    }
  }

  /// The rule with its COUNT set to `count`, as libical writes a rule. Nil when unreadable.
  static func rule(_ rule: String, withCount count: Int) -> String? {
    libicalLock.withLock {
      guard case .success(var parsed) = parse(rule) else { return nil }
      parsed.count = Int32(count)
      guard let text = icalrecurrencetype_as_string_r(&parsed) else { return nil }
      defer { icalmemory_free_buffer(text) }
      return String(cString: text)
    }
  }

  /// Calls `body` with each occurrence of `rule` from `start` in order (the start first when
  /// it matches the rule), until `body` returns false or the series ends. `until` replaces the
  /// rule's UNTIL with a wall time of the series' own clock (the caller converts a UTC UNTIL of
  /// a zoned series). Throws libical's reason when it refuses the rule. `body` runs with
  /// `libicalLock` held and must not call into libical.
  static func forEachOccurrence(
    of rule: String, from start: Start, until: LocalDateTime?, _ body: (Start) -> Bool
  ) throws(Refusal) {
    let outcome: Result<Void, Refusal> = libicalLock.withLock {
      guard case .success(var parsed) = parse(rule) else { return parse(rule).map { _ in () } }
      if let until {
        parsed.until = time(of: Start(wallTime: until, isDate: start.isDate))
      }
      let dtstart = time(of: start)
      guard hasSomeDay(parsed, from: dtstart) else { return .success(()) }
      guard let iterator = icalrecur_iterator_new(parsed, dtstart) else { return .failure(.iterator(cical_errno())) }
      defer { icalrecur_iterator_free(iterator) }
      while true {
        let occurrence = icalrecur_iterator_next(iterator)
        guard icaltime_is_null_time(occurrence) == 0, let wall = wallTime(of: occurrence),
          body(Start(wallTime: wall, isDate: start.isDate))
        else { return .success(()) }
      }
    }
    try outcome.get()
  }

  /// Why libical refused a rule, in words.
  struct Refusal: Error, Equatable {
    let reason: String

    /// `icalrecurrencetype_from_string` failed with `error`.
    static func unreadable(_ error: icalerrorenum) -> Refusal {
      Refusal(reason: "libical cannot read it (\(String(cString: icalerror_strerror(error))))")
    }

    static let noFrequency = Refusal(reason: "libical finds no FREQ in it")

    /// `icalrecur_iterator_new` refused the combination of parts with `error`.
    static func iterator(_ error: icalerrorenum) -> Refusal {
      Refusal(
        reason: "libical cannot expand this combination of parts (\(String(cString: icalerror_strerror(error))))")
    }
  }

  /// Call with `libicalLock` held.
  private static func parse(_ rule: String) -> Result<icalrecurrencetype, Refusal> {
    icalerror_clear_errno()
    let parsed = icalrecurrencetype_from_string(rule)
    guard parsed.freq != ICAL_NO_RECURRENCE else {
      let error = cical_errno()
      return .failure(error == ICAL_NO_ERROR ? .noFrequency : .unreadable(error))
    }
    return .success(parsed)
  }

  /// libical steps a sub-daily rule (HOURLY, MINUTELY, SECONDLY) through every hour, minute or
  /// second up to the year 2582 looking for one its day parts allow: minutes to hours for a
  /// rule whose days never come (`BYMONTH=2;BYMONTHDAY=30`). Whether any day comes is asked of
  /// the same rule made DAILY without its time parts, which libical answers in under a second.
  /// Call with `libicalLock` held.
  private static func hasSomeDay(_ rule: icalrecurrencetype, from dtstart: icaltimetype) -> Bool {
    guard
      rule.freq == ICAL_HOURLY_RECURRENCE || rule.freq == ICAL_MINUTELY_RECURRENCE
        || rule.freq == ICAL_SECONDLY_RECURRENCE
    else { return true }
    var daily = rule
    let unset = Int16(truncatingIfNeeded: ICAL_RECURRENCE_ARRAY_MAX.rawValue)
    daily.freq = ICAL_DAILY_RECURRENCE
    daily.interval = 1
    daily.count = 0
    daily.until = icaltime_null_time()
    daily.by_hour.0 = unset
    daily.by_minute.0 = unset
    daily.by_second.0 = unset
    daily.by_set_pos.0 = unset
    guard let iterator = icalrecur_iterator_new(daily, dtstart) else { return true }
    defer { icalrecur_iterator_free(iterator) }
    return icaltime_is_null_time(icalrecur_iterator_next(iterator)) == 0
  }

  private static func time(of start: Start) -> icaltimetype {
    var time = icaltime_null_time()
    time.year = Int32(start.wallTime.date.year)
    time.month = Int32(start.wallTime.date.month)
    time.day = Int32(start.wallTime.date.day)
    if start.isDate {
      time.is_date = 1
    } else {
      time.hour = Int32(start.wallTime.hour)
      time.minute = Int32(start.wallTime.minute)
      time.second = Int32(start.wallTime.second)
    }
    return time
  }

  private static func wallTime(of time: icaltimetype) -> LocalDateTime? {
    guard let date = LocalDate(year: Int(time.year), month: Int(time.month), day: Int(time.day)) else { return nil }
    if time.is_date != 0 { return LocalDateTime(date: date, hour: 0, minute: 0, second: 0) }
    return LocalDateTime(date: date, hour: Int(time.hour), minute: Int(time.minute), second: Int(time.second))
  }
}

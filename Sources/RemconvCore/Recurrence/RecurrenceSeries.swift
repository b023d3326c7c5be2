import Foundation

/// The occurrences of a rule from a first occurrence (its DTSTART), with the dates it skips
/// (EXDATE) and the dates it adds (RDATE), as RFC 5545 §3.8.5 makes the set.
///
/// Occurrences keep the kind of `start`: a date series gives dates, a zoned one wall times in
/// its zone (a time a DST change skips stays the wall time asked for; `DueDate` reads it as
/// an instant by RFC 5545's rule). The rule's occurrences are libical's, expanded in wall time.
public struct RecurrenceSeries: Sendable {
  public var rule: RecurrenceRule
  /// The first occurrence: the reminder's due date (or its start when it has no due).
  public var start: DueDate
  /// Occurrences left out (EXDATE), matched by instant, or by day in a series of dates.
  public var exceptionDates: [DueDate]
  /// Occurrences added (RDATE), read in the series' kind.
  public var additionalDates: [DueDate]

  public init(
    rule: RecurrenceRule, start: DueDate, exceptionDates: [DueDate] = [], additionalDates: [DueDate] = []
  ) {
    self.rule = rule
    self.start = start
    self.exceptionDates = exceptionDates
    self.additionalDates = additionalDates
  }

  /// The first `limit` occurrences, in order.
  public func occurrences(limit: Int) throws(RecurrenceRuleError) -> [DueDate] {
    var found: [DueDate] = []
    guard limit > 0 else { return found }
    try walk { occurrence in
      found.append(occurrence.value)
      return found.count < limit
    }
    return found
  }

  /// The first occurrence later than `moment`; nil when the series has ended (COUNT, UNTIL).
  public func occurrence(after moment: DueDate) throws(RecurrenceRuleError) -> DueDate? {
    try step(after: moment)?.value
  }

  /// One occurrence and whether the rule made it (an RDATE is not counted by COUNT).
  struct Occurrence {
    let value: DueDate
    let key: Int64
    let isRuleOccurrence: Bool
  }

  /// The first occurrence later than `moment`, and how many of the rule's occurrences (the
  /// skipped ones too, which COUNT counts) came before it.
  func step(after moment: DueDate) throws(RecurrenceRuleError) -> (value: DueDate, ruleOccurrencesBefore: Int)? {
    let threshold = key(of: moment)
    var ruleOccurrencesBefore = 0
    var next: DueDate?
    try walk(includingExceptions: true) { occurrence in
      if occurrence.key > threshold, !isException(occurrence.key) {
        next = occurrence.value
        return false
      }
      if occurrence.isRuleOccurrence { ruleOccurrencesBefore += 1 }
      return true
    }
    return next.map { ($0, ruleOccurrencesBefore) }
  }

  /// Calls `body` with each occurrence in order until it returns false: the rule's and the
  /// added dates merged, an added date on a rule's occurrence given once, the exceptions left
  /// out unless `includingExceptions`.
  func walk(includingExceptions: Bool = false, _ body: (Occurrence) -> Bool) throws(RecurrenceRuleError) {
    var added = additionalDates.map { value in
      let converted = inSeriesKind(value)
      return Occurrence(value: converted, key: key(of: converted), isRuleOccurrence: false)
    }.sorted { $0.key < $1.key }[...]
    var stopped = false
    func offer(_ occurrence: Occurrence) -> Bool {
      if !includingExceptions, isException(occurrence.key) { return true }
      return body(occurrence)
    }
    let kind = start
    do {
      try ICalRecurrence.forEachOccurrence(of: rule.text, from: libicalStart, until: untilInSeriesClock) { found in
        let value = Self.value(found.wallTime, like: kind)
        let occurrence = Occurrence(value: value, key: key(of: value), isRuleOccurrence: true)
        while let first = added.first, first.key <= occurrence.key {
          added.removeFirst()
          if first.key < occurrence.key, !offer(first) {
            stopped = true
            return false
          }
        }
        stopped = !offer(occurrence)
        return !stopped
      }
    } catch {
      throw RecurrenceRuleError(rule: rule.text, reason: error.reason)
    }
    guard !stopped else { return }
    for occurrence in added where !offer(occurrence) { return }
  }

  private func isException(_ key: Int64) -> Bool {
    exceptionDates.contains { self.key(of: inSeriesKind($0)) == key }
  }

  private var libicalStart: ICalRecurrence.Start {
    switch start {
    case .date(let date): ICalRecurrence.Start(wallTime: Self.midnight(of: date), isDate: true)
    case .floating(let time), .utc(let time), .zoned(let time, _): ICalRecurrence.Start(wallTime: time, isDate: false)
    }
  }

  /// A UTC UNTIL of a zoned series as the wall time its zone shows then: libical compares the
  /// series' wall times with it. Nil (the rule's own UNTIL) otherwise.
  private var untilInSeriesClock: LocalDateTime? {
    guard case .zoned(_, let identifier) = start, let zone = TimeZone(identifier: identifier),
      case .utc(let until)? = rule.until
    else { return nil }
    return Self.wallTime(ofUTCSeconds: until.secondsSinceEpoch, in: zone)
  }

  /// A value of the series' kind for `wallTime`.
  private static func value(_ wallTime: LocalDateTime, like start: DueDate) -> DueDate {
    switch start {
    case .date: .date(wallTime.date)
    case .floating: .floating(wallTime)
    case .utc: .utc(wallTime)
    case .zoned(_, let zone): .zoned(wallTime, timeZone: zone)
    }
  }

  /// `value` as the series' kind: the same instant on the series' clock, a date's day at the
  /// start's time of day, a time's day in a series of dates.
  func inSeriesKind(_ value: DueDate) -> DueDate {
    guard value.kind != start.kind || value.timeZoneIdentifier != start.timeZoneIdentifier else { return value }
    let startTime: LocalDateTime
    switch start {
    case .date: return .date(Self.wallTime(of: value).date)
    case .floating(let time), .utc(let time), .zoned(let time, _): startTime = time
    }
    switch value {
    case .date(let date):
      let time = LocalDateTime(date: date, hour: startTime.hour, minute: startTime.minute, second: startTime.second)
      return Self.value(time ?? startTime, like: start)
    case .floating(let time):
      return Self.value(time, like: start)
    case .utc, .zoned:
      guard let seconds = Self.instant(of: value) else { return Self.value(Self.wallTime(of: value), like: start) }
      switch start {
      case .zoned(_, let identifier):
        guard let zone = TimeZone(identifier: identifier) else {
          return Self.value(Self.wallTime(of: value), like: start)
        }
        return Self.value(Self.wallTime(ofUTCSeconds: seconds, in: zone), like: start)
      case .utc: return .utc(LocalDateTime(secondsSinceEpoch: seconds))
      default: return Self.value(Self.wallTime(of: value), like: start)
      }
    }
  }

  /// Where `value` (of the series' kind) sorts: a day by its start, a zoned time by its
  /// instant, a floating or UTC time by its wall time.
  func key(of value: DueDate) -> Int64 {
    switch inSeriesKind(value) {
    case .date(let date): Int64(date.daysSinceEpoch) * 86_400
    case .floating(let time), .utc(let time): time.secondsSinceEpoch
    case .zoned(let time, let identifier):
      TimeZone(identifier: identifier).map { DueDate.utcSeconds(ofWallTime: time, in: $0) } ?? time.secondsSinceEpoch
    }
  }

  static func midnight(of date: LocalDate) -> LocalDateTime {
    LocalDateTime(secondsSinceEpoch: Int64(date.daysSinceEpoch) * 86_400)
  }

  /// The wall time a value shows (a date's midnight).
  static func wallTime(of value: DueDate) -> LocalDateTime {
    switch value {
    case .date(let date): midnight(of: date)
    case .floating(let time), .utc(let time), .zoned(let time, _): time
    }
  }

  /// The instant of a UTC or zoned value, in seconds since 1970.
  static func instant(of value: DueDate) -> Int64? {
    switch value {
    case .date, .floating: nil
    case .utc(let time): time.secondsSinceEpoch
    case .zoned(let time, let identifier):
      TimeZone(identifier: identifier).map { DueDate.utcSeconds(ofWallTime: time, in: $0) }
    }
  }

  static func wallTime(ofUTCSeconds seconds: Int64, in zone: TimeZone) -> LocalDateTime {
    LocalDateTime(
      secondsSinceEpoch: seconds + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds)))))
  }
}

import Foundation

/// When a reminder is due, keeping the kind the source gave it.
///
/// Peer tools lose data by turning one kind into another (an all-day due becoming a midnight
/// instant that then shifts a day in another zone). remconv never converts between kinds: a
/// value read as one kind is written back as the same kind.
public enum DueDate: Hashable, Sendable, CustomStringConvertible {
  /// A whole day: `2026-11-30`.
  case date(LocalDate)
  /// A wall time wherever the user is: `2026-11-30T09:00:00`.
  case floating(LocalDateTime)
  /// An instant, written in UTC: `2026-11-30T09:00:00Z`.
  case utc(LocalDateTime)
  /// A wall time in an IANA zone: `2026-11-30T09:00:00` in `Europe/Berlin`.
  case zoned(LocalDateTime, timeZone: String)

  /// The kind as stored in the `due_kind` column.
  public enum Kind: String, Sendable, CaseIterable {
    case date, floating, utc, zoned
  }

  public var kind: Kind {
    switch self {
    case .date: .date
    case .floating: .floating
    case .utc: .utc
    case .zoned: .zoned
    }
  }

  /// The ISO text without the zone: what the JSON `dueDate` key holds.
  public var isoText: String {
    switch self {
    case .date(let date): date.description
    case .floating(let time), .zoned(let time, _): time.description
    case .utc(let time): time.description + "Z"
    }
  }

  /// The IANA zone of a zoned due date: what the JSON `dueTimeZone` key holds.
  public var timeZoneIdentifier: String? {
    if case .zoned(_, let zone) = self { return zone }
    return nil
  }

  public var description: String {
    timeZoneIdentifier.map { "\(isoText) \($0)" } ?? isoText
  }

  /// Whether `isoText` and `timeZoneIdentifier` read back as this value
  /// (`init(isoText:timeZone:)`): its year is one that four digits spell, and its zone, if it
  /// has one, is one `zoneIsKnown` knows.
  func readsBackFromText(zoneIsKnown: (String) -> Bool) -> Bool {
    switch self {
    case .date(let date): LocalDate.textYears.contains(date.year)
    case .floating(let time), .utc(let time): LocalDate.textYears.contains(time.date.year)
    case .zoned(let time, let zone): LocalDate.textYears.contains(time.date.year) && zoneIsKnown(zone)
    }
  }

  /// Reads the JSON pair (`dueDate`, `dueTimeZone`). The kind follows from the text's shape:
  /// a date, a date-time ending in `Z` (UTC) or a bare date-time (floating, or zoned when a
  /// zone is given). A zone with a date or a UTC time is refused, as is an unknown zone.
  public init(isoText text: String, timeZone: String?) throws(DueDateError) {
    try self.init(isoText: text, timeZone: timeZone, zoneIsKnown: TimeZoneNames.isKnown)
  }

  /// `init(isoText:timeZone:)` with the zone checked by `zoneIsKnown` (which says what
  /// `TimeZoneNames.isKnown` says): for a reader that meets a few zones many times.
  init(isoText text: String, timeZone: String?, zoneIsKnown: (String) -> Bool) throws(DueDateError) {
    var text = text
    self = try text.withUTF8 { Self.parse(isoBytes: $0, timeZone: timeZone, zoneIsKnown: zoneIsKnown) }.get()
  }

  /// `init(isoText:timeZone:zoneIsKnown:)` of the text's UTF-8 bytes, read in place: a view
  /// reads a due date a row, which it need not make a string of.
  init(isoBytes bytes: UnsafeBufferPointer<UInt8>, timeZone: String?, zoneIsKnown: (String) -> Bool)
    throws(DueDateError)
  {
    self = try Self.parse(isoBytes: bytes, timeZone: timeZone, zoneIsKnown: zoneIsKnown).get()
  }

  private static func parse(
    isoBytes text: UnsafeBufferPointer<UInt8>, timeZone: String?, zoneIsKnown: (String) -> Bool
  ) -> Result<DueDate, DueDateError> {
    func named() -> String { String(decoding: text, as: UTF8.self) }
    if let date = DigitScanner.scanWhole(text, LocalDate.scan) {
      guard timeZone == nil else { return .failure(.zoneOnDate(named())) }
      return .success(.date(date))
    }
    if text.last == UInt8(ascii: "Z") {
      let utcTime = DigitScanner.scanWhole(text) { scanner in
        LocalDateTime.scan(&scanner).flatMap { scanner.expect(UInt8(ascii: "Z")) ? $0 : nil }
      }
      guard let time = utcTime else { return .failure(.unparsable(named())) }
      guard timeZone == nil else { return .failure(.zoneOnUTC(named())) }
      return .success(.utc(time))
    }
    guard let time = DigitScanner.scanWhole(text, LocalDateTime.scan) else { return .failure(.unparsable(named())) }
    guard let timeZone else { return .success(.floating(time)) }
    guard zoneIsKnown(timeZone) else { return .failure(.unknownZone(timeZone)) }
    return .success(.zoned(time, timeZone: timeZone))
  }

  /// The local calendar day this due falls on for someone in `zone`: a date is itself, a
  /// floating time is its own date, UTC and zoned times are converted to `zone`.
  public func day(in zone: TimeZone) -> LocalDate {
    switch self {
    case .date(let date): return date
    case .floating(let time): return time.date
    case .utc(let time):
      return Self.localDay(ofUTCSeconds: time.secondsSinceEpoch, in: zone)
    case .zoned(let time, let identifier):
      guard let source = TimeZone(identifier: identifier) else { return time.date }
      let utcSeconds = Self.utcSeconds(ofWallTime: time, in: source)
      return Self.localDay(ofUTCSeconds: utcSeconds, in: zone)
    }
  }

  /// A sort key in seconds: dates sort at the start of their day, zoned times at their instant.
  public func sortKey(in zone: TimeZone) -> Int64 {
    switch self {
    case .date(let date): return Int64(date.daysSinceEpoch) * 86400
    case .floating(let time): return time.secondsSinceEpoch
    case .utc(let time):
      return time.secondsSinceEpoch
        + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(time.secondsSinceEpoch))))
    case .zoned(let time, let identifier):
      guard let source = TimeZone(identifier: identifier) else { return time.secondsSinceEpoch }
      let instant = Self.utcSeconds(ofWallTime: time, in: source)
      return instant + Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(instant))))
    }
  }

  static func localDay(ofUTCSeconds seconds: Int64, in zone: TimeZone) -> LocalDate {
    let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    return LocalDateTime(secondsSinceEpoch: seconds + offset).date
  }

  /// The instant at which `zone`'s clocks show `time`, by RFC 5545 §3.3.5: a wall time the
  /// clocks skip (a gap, when they are set forward) is read with the offset in force before
  /// the gap; a wall time they show twice (an overlap, when they are set back) is its first
  /// occurrence. Every conversion of a zoned wall time to an instant goes through here, so
  /// readers and writers of every format agree on it.
  static func utcSeconds(ofWallTime time: LocalDateTime, in zone: TimeZone) -> Int64 {
    let wall = time.secondsSinceEpoch
    func offset(at seconds: Int64) -> Int64 {
      Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(seconds))))
    }
    // A day either side of the wall time read as UTC lies outside any transition that could
    // concern it (offsets are within ±26 hours): the offsets in force before and after.
    let before = offset(at: wall - 86_400)
    let after = offset(at: wall + 86_400)
    // A candidate instant is real when the offset in force at it is the one it was made with.
    let earlier = wall - before
    let later = wall - after
    let earlierIsReal = offset(at: earlier) == before
    let laterIsReal = offset(at: later) == after
    switch (earlierIsReal, laterIsReal) {
    case (true, true): return min(earlier, later)  // an overlap (or no transition): the first
    case (true, false): return earlier
    case (false, true): return later
    case (false, false): return earlier  // a gap: the offset before it
    }
  }
}

/// Why a due date could not be read.
public enum DueDateError: Error, Equatable, Sendable, CustomStringConvertible {
  case unparsable(String)
  case zoneOnDate(String)
  case zoneOnUTC(String)
  case unknownZone(String)

  public var description: String {
    switch self {
    case .unparsable(let text): "'\(text)' is not a date or date-time"
    case .zoneOnDate(let text): "the date '\(text)' has no time, so it cannot have a time zone"
    case .zoneOnUTC(let text): "'\(text)' is in UTC, so it cannot have another time zone"
    case .unknownZone(let zone): "'\(zone)' is not an IANA time zone"
    }
  }
}

/// IANA zone names known to this system's time-zone database.
public enum TimeZoneNames {
  private static let known: Set<String> = Set(TimeZone.knownTimeZoneIdentifiers)

  /// True for names in the zone database (`Europe/Berlin`, `UTC`). Abbreviations and offsets
  /// (`EST`, `GMT+1`) are not zones a wall time can be kept in, and are refused.
  public static func isKnown(_ identifier: String) -> Bool {
    if known.contains(identifier) || identifier == "UTC" { return true }
    // ICU's list lags the tz database's renames (Asia/Kolkata vs Asia/Calcutta).
    return identifier.contains("/") && TimeZone(identifier: identifier) != nil
  }

  /// `isKnown`, without the list of every name (some 8 million instructions to read) for a
  /// name with a slash, which is known exactly when Foundation makes a zone of it (every
  /// name of the list does, `TimeZoneNamesTests`): for a reader that meets a few names and
  /// keeps the answers.
  static func isKnownWithoutTheList(_ identifier: String) -> Bool {
    identifier.contains("/") ? TimeZone(identifier: identifier) != nil : isKnown(identifier)
  }
}

import Foundation

/// The time zones of one input: its VTIMEZONEs and how each TZID resolves, with one warning
/// per TZID that is not an IANA name.
final class TimeZoneBook {
  /// What a TZID stands for once resolved.
  enum Zone {
    case iana(String)
    /// Only the input's VTIMEZONE defines the zone (libical computes its instants).
    case vtimezone(ICalTimeZone)
    case unknown
  }

  /// VTIMEZONEs of the input by TZID (the first of each wins).
  private(set) var blocks: [String: ComponentBlock] = [:]
  /// The zones built from the VTIMEZONEs whose TZID maps to no IANA zone (not those libical
  /// cannot read as a zone).
  private var defined: [String: ICalTimeZone] = [:]
  private var resolved: [String: Zone] = [:]
  private let diagnostics: DiagnosticLog
  private let file: String

  init(file: String, diagnostics: DiagnosticLog) {
    self.file = file
    self.diagnostics = diagnostics
  }

  /// Adds a VTIMEZONE of the input. One that no real zone looks like is refused here, before
  /// anything expands it (`TimeZoneBounds`); one whose TZID maps to no IANA zone is built now,
  /// so that its expansion is counted (and refused when too large) while the input is read.
  func add(_ block: ComponentBlock) throws(RemconvError) {
    // A VTIMEZONE repeated line for line (a calendar per list, each with the zones its
    // reminders use) is one this book checked and kept already: the bounds are a function of
    // the lines, and the first of a TZID wins. Checking each copy again was a quarter of the
    // pre-scan (docs/benchmarks.md, branch i20-first).
    if let tzid = block.firstValue(of: .tzid), let kept = blocks[tzid],
      kept.lines.elementsEqual(block.lines, by: { $0.text == $1.text })
    {
      return
    }
    if let problem = TimeZoneBounds.problem(in: block) {
      throw .malformedInput(
        "VTIMEZONE\(block.firstValue(of: .tzid).map { " '\($0)'" } ?? ""): \(problem)",
        at: SourceLocation(file: file, line: block.startLine))
    }
    guard let tzid = block.firstValue(of: .tzid), blocks[tzid] == nil else { return }
    blocks[tzid] = block
    resolved[tzid] = nil
    guard TimeZoneResolver.resolve(tzid, vtimezone: block) == .unresolved else { return }
    do throws(ICalTimeZone.Refusal) {
      let zone = try ICalTimeZone(
        vtimezone: block.text, lastYear: TimeZoneBounds.lastConvertedYear, maximumChanges: TimeZoneBounds.maximumChanges
      )
      defined[tzid] = zone
    } catch .tooManyChanges(let limit, let year) {
      throw .malformedInput(
        "VTIMEZONE '\(tzid)': its observances change the offset more than \(limit) times up to \(year): the limit of one time zone",
        at: SourceLocation(file: file, line: block.startLine))
    } catch {
      // Unreadable as a zone: its times are read without one, with the warning `zone(for:)` gives.
    }
  }

  /// The zone a TZID stands for. The first time a TZID needs mapping or cannot be mapped, a
  /// `time-zone` warning says what remconv does with it.
  func zone(for tzid: String, at location: SourceLocation, uid: String?) -> Zone {
    if let known = resolved[tzid] { return known }
    let block = blocks[tzid]
    let zone: Zone
    switch TimeZoneResolver.resolve(tzid, vtimezone: block) {
    case .iana(let name):
      zone = .iana(name)
    case .mapped(let name, let reason):
      diagnostics.warning(
        "time-zone", "TZID '\(tzid)' is not an IANA zone name; it is read as \(name) (\(reason))", at: location,
        uid: uid)
      zone = .iana(name)
    case .unresolved:
      if let block, let icalZone = defined[tzid] {
        diagnostics.warning(
          "time-zone",
          "TZID '\(tzid)' matches no IANA zone; its times are converted to UTC with the file's VTIMEZONE (line \(block.startLine))",
          at: location, uid: uid)
        zone = .vtimezone(icalZone)
      } else {
        diagnostics.warning(
          "time-zone",
          "TZID '\(tzid)' matches no IANA zone and the file has no usable VTIMEZONE for it; its times are read without a zone",
          at: location, uid: uid)
        zone = .unknown
      }
    }
    resolved[tzid] = zone
    return zone
  }

  /// The instant of `time` in the zone `tzid`, or nil when the zone is unknown or the time
  /// lies past the years an input's own zone is converted for.
  func utcSeconds(of time: LocalDateTime, tzid: String, at location: SourceLocation, uid: String?) -> Int64? {
    switch zone(for: tzid, at: location, uid: uid) {
    case .iana(let name):
      guard let timeZone = TimeZone(identifier: name) else { return nil }
      return DueDate.utcSeconds(ofWallTime: time, in: timeZone)
    case .vtimezone(let icalZone):
      return utcSeconds(of: time, in: icalZone, tzid: tzid, at: location, uid: uid)
    case .unknown:
      return nil
    }
  }

  /// The instant of `time` in a zone only the input's VTIMEZONE defines; nil, with a warning,
  /// for a year past `TimeZoneBounds.lastConvertedYear`, which the zone was not counted for.
  func utcSeconds(
    of time: LocalDateTime, in zone: ICalTimeZone, tzid: String, at location: SourceLocation, uid: String?
  ) -> Int64? {
    guard time.date.year <= TimeZoneBounds.lastConvertedYear else {
      diagnostics.warning(
        "time-zone",
        "\(time.date.year) is past \(TimeZoneBounds.lastConvertedYear), the last year a time in an input's own VTIMEZONE ('\(tzid)') is converted for; the value is not converted",
        at: location, uid: uid)
      return nil
    }
    return zone.utcSeconds(of: time)
  }
}

/// What a VTIMEZONE may hold. Real zones (IANA's, Outlook's, Apple's) have a few observances,
/// or a few hundred RDATEs for a zone with its whole history, and repeat yearly; a zone that
/// changes its offset every second or holds thousands of observances is an attack on the
/// expansion libical does when it converts a time.
enum TimeZoneBounds {
  /// The most observances (STANDARD and DAYLIGHT components, and RDATE values) of one VTIMEZONE.
  static let maximumObservances = 1_000
  /// The most offset changes libical may expand one VTIMEZONE into, up to the last year
  /// converted: an Outlook zone's two yearly rules from 1601 are about 1,200.
  static let maximumChanges = 10_000
  /// The last year a time is converted for through an input's own VTIMEZONE (libical expands
  /// its zones to the year asked for).
  static let lastConvertedYear = 2200
  /// Recurrence frequencies a zone's observance may have: zones change with the seasons.
  static let frequencies: Set<String> = ["YEARLY", "MONTHLY"]

  /// Why `block` (a VTIMEZONE) is no time zone, or nil; from its lines alone.
  static func problem(in block: ComponentBlock) -> String? {
    var observances = 0
    var depth = 0
    for line in block.lines {
      switch line.boundary {
      case .begin:
        depth += 1
        if depth == 2 { observances += 1 }
      case .end:
        depth -= 1
      case nil:
        if line.known == .rdate, let parts = line.parts {
          observances += parts.value.utf8.reduce(1) { $1 == UInt8(ascii: ",") ? $0 + 1 : $0 }
        } else if line.known == .rrule, let parts = line.parts, let frequency = frequency(in: parts.value),
          !frequencies.contains(frequency)
        {
          return "RRULE FREQ=\(frequency) at line \(line.line): a time zone's observances repeat yearly or monthly"
        }
      }
      if observances > maximumObservances {
        return
          "more than \(maximumObservances) observances (STANDARD, DAYLIGHT and RDATE values): the limit of one time zone"
      }
    }
    return nil
  }

  private static func frequency(in rule: String) -> String? {
    for part in rule.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1)
      if pair.count == 2, pair[0].uppercased() == "FREQ" { return pair[1].uppercased() }
    }
    return nil
  }
}

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
  private var resolved: [String: Zone] = [:]
  private let diagnostics: DiagnosticLog

  init(diagnostics: DiagnosticLog) {
    self.diagnostics = diagnostics
  }

  func add(_ block: ComponentBlock) {
    guard let tzid = block.firstValue(of: .tzid), blocks[tzid] == nil else { return }
    blocks[tzid] = block
    resolved[tzid] = nil
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
        "time-zone", "TZID '\(tzid)' is not an IANA zone name; it is read as \(name) (\(reason))", at: location, uid: uid)
      zone = .iana(name)
    case .unresolved:
      if let block, let icalZone = ICalTimeZone(vtimezone: block.text) {
        diagnostics.warning(
          "time-zone",
          "TZID '\(tzid)' matches no IANA zone; its times are converted to UTC with the file's VTIMEZONE (line \(block.startLine))",
          at: location, uid: uid)
        zone = .vtimezone(icalZone)
      } else {
        diagnostics.warning(
          "time-zone", "TZID '\(tzid)' matches no IANA zone and the file has no usable VTIMEZONE for it; its times are read without a zone",
          at: location, uid: uid)
        zone = .unknown
      }
    }
    resolved[tzid] = zone
    return zone
  }

  /// The instant of `time` in the zone `tzid`, or nil when the zone is unknown.
  func utcSeconds(of time: LocalDateTime, tzid: String, at location: SourceLocation, uid: String?) -> Int64? {
    switch zone(for: tzid, at: location, uid: uid) {
    case .iana(let name):
      guard let timeZone = TimeZone(identifier: name) else { return nil }
      return DueDate.utcSeconds(ofWallTime: time, in: timeZone)
    case .vtimezone(let icalZone):
      return icalZone.utcSeconds(of: time)
    case .unknown:
      return nil
    }
  }
}

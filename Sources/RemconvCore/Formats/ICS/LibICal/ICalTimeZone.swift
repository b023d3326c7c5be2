import Foundation
internal import CICal

/// A time zone defined by a VTIMEZONE from the input, owned and freed by this value.
///
/// remconv reads IANA zone names itself; libical is needed for the zones only a VTIMEZONE
/// defines (an Outlook zone that maps to no IANA name), to find the instant of a wall time.
final class ICalTimeZone {
  private let zone: OpaquePointer

  /// Builds the zone from a VTIMEZONE's text; nil when libical cannot read it as one.
  init?(vtimezone text: [UInt8]) {
    let built: OpaquePointer? = libicalLock.withLock {
      guard let parsed = ICalComponent.parse(text),
        icalcomponent_isa(parsed.handle) == ICAL_VTIMEZONE_COMPONENT,
        let component = icalcomponent_new_clone(parsed.handle),
        let zone = icaltimezone_new()
      else { return nil }
      // The zone takes ownership of the component and frees it with itself.
      guard icaltimezone_set_component(zone, component) != 0 else {
        icalcomponent_free(component)
        icaltimezone_free(zone, 1)
        return nil
      }
      return zone
    }
    guard let built else { return nil }
    zone = built
  }

  deinit {
    libicalLock.withLock { icaltimezone_free(zone, 1) }
  }

  /// Seconds since 1970 (UTC) of the instant at which this zone's clocks show `wallTime`.
  func utcSeconds(of wallTime: LocalDateTime) -> Int64 {
    libicalLock.withLock {
      var time = icaltime_null_time()
      time.year = Int32(wallTime.date.year)
      time.month = Int32(wallTime.date.month)
      time.day = Int32(wallTime.date.day)
      time.hour = Int32(wallTime.hour)
      time.minute = Int32(wallTime.minute)
      time.second = Int32(wallTime.second)
      time.is_date = 0
      time.zone = zone
      return Int64(icaltime_as_timet_with_zone(time, zone))
    }
  }
}

extension LibICal {
  /// The VTIMEZONE libical builds from the system's time-zone database for an IANA name, as
  /// unfolded content lines with `TZID` set to the plain name (libical prefixes its own ids
  /// with `/freeassociation.sourceforge.net/`). Nil when libical does not know the zone or has
  /// no component for it (UTC).
  static func builtinTimeZoneLines(for name: String) -> [String]? {
    libicalLock.withLock {
      guard let zone = icaltimezone_get_builtin_timezone(name),
        let component = icaltimezone_get_component(zone),
        let clone = icalcomponent_new_clone(component)
      else { return nil }
      let owned = ICalComponent(owning: clone)
      if let tzid = icalcomponent_get_first_property(owned.handle, ICAL_TZID_PROPERTY) {
        icalproperty_set_tzid(tzid, name)
      }
      return ICSText.unfoldedLines(of: owned.serialized)
    }
  }
}

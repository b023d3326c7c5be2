internal import CICal
import Foundation

/// A time zone defined by a VTIMEZONE from the input, owned and freed by this value.
///
/// remconv reads IANA zone names itself; libical is needed for the zones only a VTIMEZONE
/// defines (an Outlook zone that maps to no IANA name), to find the instant of a wall time.
final class ICalTimeZone {
  private let zone: OpaquePointer

  /// Why a VTIMEZONE was not made a zone.
  enum Refusal: Error, Equatable {
    /// libical cannot read the text as a VTIMEZONE.
    case unreadable
    /// Its observances change the offset more often than `limit` times up to `year`.
    case tooManyChanges(limit: Int, year: Int)
  }

  /// Builds the zone from a VTIMEZONE's text. libical expands a zone's observances, the first
  /// time a time is converted, from each observance's DTSTART to five years past the year asked
  /// for (or the current year), into an array it keeps: a rule a real zone never has (a change
  /// every second, a list of hours) would take hours and gigabytes. So the changes up to
  /// `lastYear` (the last year a conversion may ask for, plus libical's five) are counted here
  /// first with libical's own recurrence iterator, stopping at `maximumChanges`.
  init(vtimezone text: [UInt8], lastYear: Int, maximumChanges: Int) throws(Refusal) {
    let built: Result<OpaquePointer, Refusal> = libicalLock.withLock {
      guard let parsed = ICalComponent.parse(text),
        icalcomponent_isa(parsed.handle) == ICAL_VTIMEZONE_COMPONENT
      else { return .failure(.unreadable) }
      let throughYear = lastYear + Self.libicalExtraYears
      guard
        Self.changeCount(of: parsed.handle, throughYear: throughYear, stoppingAfter: maximumChanges) <= maximumChanges
      else { return .failure(.tooManyChanges(limit: maximumChanges, year: throughYear)) }
      guard let component = icalcomponent_new_clone(parsed.handle), let zone = icaltimezone_new()
      else { return .failure(.unreadable) }
      // The zone takes ownership of the component and frees it with itself.
      guard icaltimezone_set_component(zone, component) != 0 else {
        icalcomponent_free(component)
        icaltimezone_free(zone, 1)
        return .failure(.unreadable)
      }
      return .success(zone)
    }
    zone = try built.get()
  }

  /// The years libical expands past the year asked for (`ICALTIMEZONE_EXTRA_COVERAGE`).
  static let libicalExtraYears = 5

  /// How many offset changes libical's expansion of `vtimezone` through `throughYear` holds,
  /// counted as it expands (one per observance without a rule, its DTSTART and each occurrence
  /// of each RRULE, each RDATE), stopping once past `limit`. Call with `libicalLock` held.
  private static func changeCount(of vtimezone: OpaquePointer, throughYear: Int, stoppingAfter limit: Int) -> Int {
    var count = 0
    var observance = icalcomponent_get_first_component(vtimezone, ICAL_ANY_COMPONENT)
    while let current = observance, count <= limit {
      let kind = icalcomponent_isa(current)
      if kind == ICAL_XSTANDARD_COMPONENT || kind == ICAL_XDAYLIGHT_COMPONENT {
        count += changeCount(ofObservance: current, throughYear: throughYear, stoppingAfter: limit - count)
      }
      observance = icalcomponent_get_next_component(vtimezone, ICAL_ANY_COMPONENT)
    }
    return count
  }

  private static func changeCount(ofObservance observance: OpaquePointer, throughYear: Int, stoppingAfter limit: Int)
    -> Int
  {
    guard let start = icalcomponent_get_first_property(observance, ICAL_DTSTART_PROPERTY) else { return 0 }
    let dtstart = icalproperty_get_dtstart(start)
    var count = icalcomponent_get_first_property(observance, ICAL_RRULE_PROPERTY) == nil ? 1 : 0
    var property = icalcomponent_get_first_property(observance, ICAL_ANY_PROPERTY)
    while let current = property, count <= limit {
      switch icalproperty_isa(current) {
      case ICAL_RDATE_PROPERTY:
        count += 1
      case ICAL_RRULE_PROPERTY:
        count += 1
        if let iterator = icalrecur_iterator_new(icalproperty_get_rrule(current), dtstart) {
          defer { icalrecur_iterator_free(iterator) }
          while count <= limit {
            let occurrence = icalrecur_iterator_next(iterator)
            if icaltime_is_null_time(occurrence) != 0 || Int(occurrence.year) > throughYear { break }
            if icaltime_compare(dtstart, occurrence) != 0 { count += 1 }
          }
        }
      default:
        break
      }
      property = icalcomponent_get_next_property(observance, ICAL_ANY_PROPERTY)
    }
    return count
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

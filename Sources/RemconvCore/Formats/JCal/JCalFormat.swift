import Foundation

/// `--format jcal`: iCalendar as JSON arrays (RFC 7265), read and written.
///
/// A VCALENDAR is a list and its VTODOs are reminders, with the VTODO properties the model
/// carries mapped as on the iCalendar path (`SUMMARY`, `DESCRIPTION`, `STATUS`, `COMPLETED`,
/// `PRIORITY`, `DUE`, `CATEGORIES`, `URL`, `RELATED-TO`, `X-REMCONV-*`). Every other property
/// and sub-component is kept as its raw jCal array in `extra.jcal` and written back. The
/// writer writes a JSON array of VCALENDARs, one per list (what ical.js's `ICAL.parse` gives
/// for a stream of several); the reader also takes a single VCALENDAR or a bare VTODO.
public enum JCalFormat {
  public static let descriptor = FormatDescriptor(
    name: "jcal", summary: "jCal: iCalendar as JSON (RFC 7265)", extensions: ["jcal"],
    isDirectory: false,
    makeReader: { context in try JCalReader(context: context) },
    makeWriter: { context in try JCalWriter(context: context) },
    sniff: { head in
      // `["vcalendar",` or `[["vcalendar",` (several), allowing white space anywhere.
      let significant = head.lazy.filter { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }.prefix(16)
      let text = String(decoding: Array(significant), as: UTF8.self).lowercased()
      return text.hasPrefix("[\"vcalendar\"") || text.hasPrefix("[[\"vcalendar\"") || text.hasPrefix("[\"vtodo\"")
    })

  static let extraKey = "jcal"
  static let productID = "-//remconv//remconv \(RemconvVersion.current)//EN"
}

/// A jCal component: `[name, [properties], [components]]`.
struct JCalComponent {
  /// Lower case, as jCal writes it.
  let name: String
  let properties: [JSONValue]
  let components: [JSONValue]

  init?(_ value: JSONValue) {
    guard let items = value.arrayValue, items.count == 3, let name = items[0].stringValue,
      let properties = items[1].arrayValue, let components = items[2].arrayValue
    else { return nil }
    self.name = name.lowercased()
    self.properties = properties
    self.components = components
  }

  init(name: String, properties: [JSONValue], components: [JSONValue]) {
    self.name = name
    self.properties = properties
    self.components = components
  }

  var json: JSONValue { .array([.string(name), .array(properties), .array(components)]) }
}

/// A jCal property: `[name, {parameters}, type, value, …]`.
struct JCalProperty {
  /// Lower case, as jCal writes it.
  let name: String
  let parameters: [String: JSONValue]
  let type: String
  let values: [JSONValue]

  /// Nil when `value` is not shaped as a property. A property with no value (ical.js writes
  /// `["x-empty",{},"text"]`) has no `values`.
  init?(_ value: JSONValue) {
    guard let items = value.arrayValue, items.count >= 3, let name = items[0].stringValue,
      let parameters = items[1].objectValue, let type = items[2].stringValue
    else { return nil }
    self.name = name.lowercased()
    self.parameters = parameters
    self.type = type.lowercased()
    values = Array(items.dropFirst(3))
  }

  init(_ name: String, _ parameters: [String: JSONValue] = [:], _ type: String, _ values: [JSONValue]) {
    self.name = name
    self.parameters = parameters
    self.type = type
    self.values = values
  }

  init(_ name: String, text: String) {
    self.init(name, [:], "text", [.string(text)])
  }

  var json: JSONValue { .array([.string(name), .object(parameters), .string(type)] + values) }

  /// The first value when it is a string.
  var text: String? { values.first?.stringValue }

  /// A parameter's value (names are matched without regard to case).
  func parameter(_ name: String) -> String? {
    parameters.first { $0.key.lowercased() == name }?.value.stringValue
  }
}

/// jCal date and date-time values: `2024-11-30`, `2024-11-30T09:00:00`, `2024-11-30T09:00:00Z`.
enum JCalTime {
  /// A DUE value as a due date of the kind it has: a date, a UTC time, a time in its TZID, or
  /// a floating time. Fails with a reason.
  static func dueDate(_ property: JCalProperty) -> Result<(DueDate, note: String?), JCalValueError> {
    guard let text = property.text else { return .failure(.missing) }
    if property.type == "date" {
      guard let date = LocalDate(iso: text) else { return .failure(.notADate(text)) }
      return .success((.date(date), nil))
    }
    guard property.type == "date-time" else { return .failure(.type(property.type)) }
    if text.hasSuffix("Z") || text.hasSuffix("z") {
      guard let time = LocalDateTime(iso: String(text.dropLast())) else { return .failure(.notADate(text)) }
      return .success((.utc(time), nil))
    }
    guard let time = LocalDateTime(iso: text) else { return .failure(.notADate(text)) }
    guard let tzid = property.parameter("tzid") else { return .success((.floating(time), nil)) }
    if TimeZoneNames.isKnown(tzid) { return .success((.zoned(time, timeZone: tzid), nil)) }
    // Producers prefix zone names (`/softwarestudio.org/Olson_20011030_5/America/Chicago`).
    let parts = tzid.split(separator: "/").map(String.init)
    for count in stride(from: min(3, parts.count), through: 1, by: -1) {
      let tail = parts.suffix(count).joined(separator: "/")
      if TimeZoneNames.isKnown(tail) {
        return .success((.zoned(time, timeZone: tail), "the TZID '\(tzid)' is read as the zone \(tail)"))
      }
    }
    return .failure(.unknownZone(tzid))
  }

  /// An instant (`COMPLETED`, `CREATED`, `LAST-MODIFIED`): UTC, or a time in a known TZID.
  static func timestamp(_ property: JCalProperty) -> Result<Timestamp, JCalValueError> {
    guard let text = property.text else { return .failure(.missing) }
    guard property.type == "date-time" else { return .failure(.type(property.type)) }
    if text.hasSuffix("Z") || text.hasSuffix("z") {
      guard let time = LocalDateTime(iso: String(text.dropLast())) else { return .failure(.notADate(text)) }
      return .success(Timestamp(utc: time))
    }
    guard let time = LocalDateTime(iso: text) else { return .failure(.notADate(text)) }
    guard let tzid = property.parameter("tzid"), let zone = TimeZone(identifier: tzid), TimeZoneNames.isKnown(tzid)
    else {
      return .failure(.notAnInstant(text))
    }
    return .success(Timestamp(millisecondsSinceEpoch: DueDate.utcSeconds(ofWallTime: time, in: zone) * 1000))
  }

  /// `2026-11-30T09:00:00Z`, whole seconds.
  static func utcText(_ timestamp: Timestamp) -> String { timestamp.utcWallTime.description + "Z" }
}

enum JCalValueError: Error, CustomStringConvertible {
  case missing
  case type(String)
  case notADate(String)
  case notAnInstant(String)
  case unknownZone(String)

  var description: String {
    switch self {
    case .missing: "the property has no value"
    case .type(let type): "the value type '\(type)' is not a date or date-time"
    case .notADate(let text): "'\(text)' is not a jCal date or date-time"
    case .notAnInstant(let text): "'\(text)' has neither Z nor a known TZID, so it is not an instant"
    case .unknownZone(let tzid): "the TZID '\(tzid)' is not a known time zone"
    }
  }
}

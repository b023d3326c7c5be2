import Foundation

/// `--format jcal`: iCalendar as JSON arrays (RFC 7265), read and written.
///
/// jCal is iCalendar in JSON: it is translated to and from iCalendar content lines
/// (`JCalTranslation`) and read and written by the iCalendar mapping (`docs/formats-ics.md`),
/// so a VCALENDAR is a list, its VTODOs are reminders, and every other property, parameter
/// and component crosses between `.ics` and jCal as itself. The writer writes a JSON array of
/// VCALENDARs, one per list (what ical.js's `ICAL.parse` gives for a stream of several); the
/// reader also takes a single VCALENDAR or a bare VTODO.
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

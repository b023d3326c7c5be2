import Foundation

/// RFC 7265's mapping between jCal and iCalendar content lines, in both directions, so that
/// jCal is read and written by the iCalendar mapping itself (`VTodoDecoder`, `VTodoEncoder`,
/// `VCalendarDecoder`): one model of a VTODO, whatever the syntax.
///
/// Every property crosses as a property of its own, with its parameters and its value type.
/// A value that does not convert back to exactly the text it came from (an odd escape, a
/// date-time a producer wrote wrongly) crosses as RFC 7265's `unknown` type, which carries
/// the iCalendar text as it is, so nothing changes on the way. The parts of a recurrence rule
/// come back in RFC 5545's order, and parameters in the order of their names.
enum JCalTranslation {
  // MARK: Value types

  /// The value type of a property without `VALUE` (RFC 5545 §3.7–3.8, RFC 7986, and the
  /// extensions remconv writes), by lower-case name; others are `unknown`.
  static func defaultType(of name: String) -> String {
    switch name {
    case "calscale", "method", "prodid", "version", "categories", "class", "comment", "description", "location",
      "resources", "status", "summary", "tzid", "tzname", "contact", "related-to", "uid", "action", "request-status",
      "name", "color", "x-wr-calname", "x-wr-timezone", "x-apple-calendar-color", "x-remconv-symbol", "x-remconv-extra",
      "x-remconv-invalid":
      "text"
    case "attach", "tzurl", "url", "source", "image", "conference": "uri"
    case "percent-complete", "priority", "repeat", "sequence": "integer"
    case "geo": "float"
    case "completed", "dtend", "due", "dtstart", "recurrence-id", "exdate", "rdate", "created", "dtstamp",
      "last-modified", "x-remconv-created":
      "date-time"
    case "duration", "trigger", "refresh-interval": "duration"
    case "freebusy": "period"
    case "organizer", "attendee": "cal-address"
    case "tzoffsetfrom", "tzoffsetto": "utc-offset"
    case "rrule", "exrule": "recur"
    case "x-remconv-flagged": "boolean"
    default: "unknown"
    }
  }

  /// Properties whose value is a list, one jCal value per item.
  private static let listValued: Set<String> = ["categories", "resources", "exdate", "rdate", "freebusy"]
  /// Properties whose value is structured (`;`-separated), one jCal array.
  private static let structured: Set<String> = ["geo", "request-status"]

  // MARK: jCal to iCalendar

  /// A jCal component as unfolded content lines, `BEGIN` to `END`, its components inside.
  static func lines(of component: JCalComponent) throws(JCalShapeError) -> [String] {
    let name = component.name.uppercased()
    var lines = ["BEGIN:" + name]
    for property in component.properties { lines.append(try line(of: property)) }
    for inner in component.components {
      guard let inner = JCalComponent(inner) else { throw JCalShapeError(value: inner, what: "component") }
      lines += try self.lines(of: inner)
    }
    lines.append("END:" + name)
    return lines
  }

  /// A jCal property (`[name, {parameters}, type, value, …]`) as a content line.
  static func line(of json: JSONValue) throws(JCalShapeError) -> String {
    guard let property = JCalProperty(json) else { throw JCalShapeError(value: json, what: "property") }
    var line = property.name.uppercased()
    for (name, value) in property.parameters.sorted(by: { $0.key < $1.key }) {
      let values = value.arrayValue.map { $0.map(parameterText) } ?? [parameterText(value)]
      line += ";" + ContentLineParameter.format(name: name.uppercased(), values: values)
    }
    let type = property.type
    if type != "unknown", type != defaultType(of: property.name), property.parameter("value") == nil {
      line += ";VALUE=" + type.uppercased()
    }
    return line + ":" + property.values.map { icsText(of: $0, type: type) }.joined(separator: ",")
  }

  private static func parameterText(_ value: JSONValue) -> String {
    value.stringValue ?? JSONText.encode(value)
  }

  /// One jCal value as iCalendar text of `type`.
  private static func icsText(of value: JSONValue, type: String) -> String {
    switch value {
    case .string(let text):
      switch type {
      case "text": return ICSText.escape(text)
      case "date", "date-time", "time": return basic(text)
      case "utc-offset": return String(decoding: text.utf8.filter { $0 != UInt8(ascii: ":") }, as: UTF8.self)
      case "period":
        return text.split(separator: "/", omittingEmptySubsequences: false).map { part in
          part.contains("P") ? String(part) : basic(String(part))
        }.joined(separator: "/")
      default: return text
      }
    case .number(let text): return text
    case .bool(let flag): return flag ? "TRUE" : "FALSE"
    case .array(let items): return items.map { icsText(of: $0, type: type) }.joined(separator: ";")
    case .object(let parts): return recurText(parts)
    case .null: return ""
    }
  }

  /// A jCal date, time or date-time in iCalendar's basic form: without `-` and `:`.
  private static func basic(_ text: String) -> String {
    String(decoding: text.utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: ":") }, as: UTF8.self)
  }

  /// Whether `text` is a JSON number, which a jCal `integer` or `float` value is written as.
  private static func isJSONNumber(_ text: String, integer: Bool) -> Bool {
    var bytes = Array(text.utf8)[...]
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
    let whole = bytes.prefix(while: isDigit)
    guard !whole.isEmpty, whole.count == 1 || whole.first != UInt8(ascii: "0") else { return false }
    bytes = bytes.dropFirst(whole.count)
    if integer { return bytes.isEmpty }
    if bytes.first == UInt8(ascii: ".") {
      let fraction = bytes.dropFirst().prefix(while: isDigit)
      guard !fraction.isEmpty else { return false }
      bytes = bytes.dropFirst(1 + fraction.count)
    }
    return bytes.isEmpty
  }

  /// RFC 5545's order of the parts of a recurrence rule.
  private static let recurOrder = [
    "freq", "until", "count", "interval", "bysecond", "byminute", "byhour", "byday", "bymonthday", "byyearday",
    "byweekno", "bymonth", "bysetpos", "wkst",
  ]

  private static func recurText(_ parts: [String: JSONValue]) -> String {
    let names = recurOrder.filter { parts[$0] != nil } + parts.keys.filter { !recurOrder.contains($0) }.sorted()
    return names.compactMap { name -> String? in
      guard let value = parts[name] else { return nil }
      let items = value.arrayValue ?? [value]
      let text = items.map { item -> String in
        let raw = item.stringValue ?? item.numberText ?? JSONText.encode(item)
        return name == "until" ? basic(raw) : raw
      }
      return name.uppercased() + "=" + text.joined(separator: ",")
    }.joined(separator: ";")
  }

  /// `extra.jcal` of stores that imported jCal before it shared the iCalendar mapping: the
  /// raw properties, components and unreadable properties it kept, as content lines (those
  /// that could not be read wrapped in `X-REMCONV-INVALID`, as `.ics` keeps them). Shapes
  /// that are not jCal are left out.
  static func legacyLines(_ jcal: [String: JSONValue], components: Bool) -> [String] {
    var lines: [String] = []
    for (_, property) in (jcal["invalid"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
      if let line = try? line(of: property) { lines.append(VTodoDecoder.encodedInvalid(line)) }
    }
    for property in jcal["properties"]?.arrayValue ?? [] {
      if let line = try? line(of: property) { lines.append(line) }
    }
    guard components else { return lines }
    for component in jcal["components"]?.arrayValue ?? [] {
      if let component = JCalComponent(component), let inner = try? self.lines(of: component) { lines += inner }
    }
    return lines
  }

  // MARK: iCalendar to jCal

  /// Unfolded content lines (one or more components, `BEGIN` to `END`) as jCal components.
  static func components(of lines: [String]) -> [JSONValue] {
    var stack: [(name: String, properties: [JSONValue], components: [JSONValue])] = []
    var result: [JSONValue] = []
    for text in lines {
      let line = ContentLine(text: text, line: 0)
      switch line.boundary {
      case .begin(let name):
        stack.append((name.lowercased(), [], []))
      case .end:
        guard let done = stack.popLast() else { continue }
        let component = JCalComponent(name: done.name, properties: done.properties, components: done.components).json
        if stack.isEmpty { result.append(component) } else { stack[stack.count - 1].components.append(component) }
      case nil:
        guard !stack.isEmpty else { continue }
        stack[stack.count - 1].properties.append(property(of: text))
      }
    }
    return result
  }

  /// A content line as a jCal property. A line without a value separator (which remconv's
  /// writers never make) crosses whole as an `x-remconv-invalid` text.
  static func property(of text: String) -> JSONValue {
    guard let parts = ContentLineParts(text) else {
      return JCalProperty("x-remconv-invalid", text: text).json
    }
    let name = parts.name.lowercased()
    let declared = parts.parameter("VALUE")?.lowercased()
    let type = declared ?? defaultType(of: name)
    var parameters: [String: JSONValue] = [:]
    for parameter in parts.parameters where parameter.name != "VALUE" {
      let values = parameter.values.map(decodedParameter)
      parameters[parameter.name.lowercased()] =
        values.count == 1 ? .string(values[0]) : .array(values.map { .string($0) })
    }
    if let values = jcalValues(of: parts.value, name: name, type: type),
      values.map({ icsText(of: $0, type: type) }).joined(separator: ",") == parts.value
        || recurMatches(values, parts.value, type: type)
    {
      return JCalProperty(name, parameters, type, values).json
    }
    // The text as it is; a declared type stays a parameter, so the line comes back whole.
    if let declared = parts.parameters.first(where: { $0.name == "VALUE" }) {
      parameters["value"] = .string(declared.values.first ?? "")
    }
    return JCalProperty(name, parameters, "unknown", [.string(parts.value)]).json
  }

  /// RFC 6868's `^^`, `^'` and `^n` in a parameter value.
  private static func decodedParameter(_ text: String) -> String {
    guard text.contains("^") else { return text }
    var result = ""
    var caret = false
    for character in text {
      if caret {
        switch character {
        case "^": result.append("^")
        case "'": result.append("\"")
        case "n": result.append("\n")
        default: result += "^" + String(character)
        }
        caret = false
      } else if character == "^" {
        caret = true
      } else {
        result.append(character)
      }
    }
    if caret { result.append("^") }
    return result
  }

  /// The jCal values of an iCalendar value of `type`, or nil when it does not have the shape.
  private static func jcalValues(of value: String, name: String, type: String) -> [JSONValue]? {
    if type == "recur" { return recurObject(value).map { [$0] } }
    if structured.contains(name) {
      let items = value.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
      let converted = items.map { item in type == "text" ? .string(ICSText.unescape(item)) : jcalValue(item, type: type)
      }
      guard converted.allSatisfy({ $0 != nil }) else { return nil }
      return [.array(converted.compactMap { $0 })]
    }
    if listValued.contains(name) {
      if type == "text" { return ICSText.splitList(value).map { .string($0) } }
      let items = value.split(separator: ",", omittingEmptySubsequences: false).map {
        jcalValue(String($0), type: type)
      }
      guard items.allSatisfy({ $0 != nil }) else { return nil }
      return items.compactMap { $0 }
    }
    return jcalValue(value, type: type).map { [$0] }
  }

  /// One item of an iCalendar value as a jCal value, or nil when it does not have the shape.
  private static func jcalValue(_ text: String, type: String) -> JSONValue? {
    let bytes = Array(text.utf8)
    func digits(_ range: Range<Int>) -> Bool {
      range.upperBound <= bytes.count && bytes[range].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
    func slice(_ range: Range<Int>) -> String { String(decoding: bytes[range], as: UTF8.self) }
    func date() -> String? {
      bytes.count == 8 && digits(0..<8) ? slice(0..<4) + "-" + slice(4..<6) + "-" + slice(6..<8) : nil
    }
    func time(from start: Int) -> String? {
      let length = bytes.count - start
      guard length == 6 || (length == 7 && bytes.last == UInt8(ascii: "Z")), digits(start..<start + 6) else {
        return nil
      }
      return slice(start..<start + 2) + ":" + slice(start + 2..<start + 4) + ":" + slice(start + 4..<bytes.count)
    }
    func dateTime() -> String? {
      guard bytes.count >= 15, digits(0..<8), bytes[8] == UInt8(ascii: "T"), let time = time(from: 9) else {
        return nil
      }
      return slice(0..<4) + "-" + slice(4..<6) + "-" + slice(6..<8) + "T" + time
    }
    switch type {
    case "text": return .string(ICSText.unescape(text))
    case "date": return date().map { .string($0) }
    case "date-time": return dateTime().map { .string($0) }
    case "time": return time(from: 0).map { .string($0) }
    case "utc-offset":
      guard [5, 7].contains(bytes.count), bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
        digits(1..<bytes.count)
      else { return nil }
      let seconds = bytes.count == 7 ? ":" + slice(5..<7) : ""
      return .string(slice(0..<3) + ":" + slice(3..<5) + seconds)
    case "period":
      let ends = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
      guard ends.count == 2, let start = jcalValue(ends[0], type: "date-time")?.stringValue else { return nil }
      let end = ends[1].contains("P") ? ends[1] : jcalValue(ends[1], type: "date-time")?.stringValue
      return end.map { .string(start + "/" + $0) }
    case "integer", "float":
      return isJSONNumber(text, integer: type == "integer") ? .number(text) : nil
    case "boolean":
      switch text.uppercased() {
      case "TRUE": return .bool(true)
      case "FALSE": return .bool(false)
      default: return nil
      }
    default: return .string(text)
    }
  }

  /// `FREQ=WEEKLY;COUNT=3;BYDAY=MO,WE` as `{"freq":"WEEKLY","count":3,"byday":["MO","WE"]}`.
  private static func recurObject(_ text: String) -> JSONValue? {
    var parts: [String: JSONValue] = [:]
    for part in text.split(separator: ";", omittingEmptySubsequences: false) {
      let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2, !pair[0].isEmpty else { return nil }
      let name = pair[0].lowercased()
      guard parts[name] == nil else { return nil }
      let items = pair[1].split(separator: ",", omittingEmptySubsequences: false).map { item -> JSONValue in
        let text = String(item)
        if name == "until" {
          return jcalValue(text, type: "date-time") ?? jcalValue(text, type: "date") ?? .string(text)
        }
        if name != "freq", name != "wkst", name != "byday", let number = jcalValue(text, type: "integer") {
          return number
        }
        return .string(text)
      }
      parts[name] = items.count == 1 ? items[0] : .array(items)
    }
    return .object(parts)
  }

  /// Whether a recurrence rule's jCal object gives the rule back, its parts perhaps reordered.
  private static func recurMatches(_ values: [JSONValue], _ text: String, type: String) -> Bool {
    guard type == "recur", values.count == 1 else { return false }
    let back = icsText(of: values[0], type: type).split(separator: ";").map(String.init).sorted()
    return back
      == text.split(separator: ";").map { part in
        let pair = part.split(separator: "=", maxSplits: 1)
        return pair.count == 2 ? pair[0].uppercased() + "=" + pair[1] : String(part)
      }.sorted()
  }
}

/// A jCal array that is not shaped as a component or property.
struct JCalShapeError: Error {
  let value: JSONValue
  let what: String

  var message: String {
    what == "component"
      ? "malformed jCal: a component must be [name, [properties], [components]], not \(JSONText.encode(value))"
      : "malformed jCal: a property must be [name, {parameters}, type, value, …], not \(JSONText.encode(value))"
  }
}

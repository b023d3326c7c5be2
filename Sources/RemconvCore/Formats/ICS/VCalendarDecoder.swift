/// Turns a VCALENDAR's own properties into a list.
///
/// Name from `NAME` (RFC 7986), else `X-WR-CALNAME`; colour from `X-APPLE-CALENDAR-COLOR`
/// (`#RRGGBB` or Apple's `#RRGGBBAA`), else a hex `COLOR`; symbol from `X-REMCONV-SYMBOL`;
/// the list's UID from `UID` (RFC 7986) and its creation time from `X-REMCONV-CREATED`.
/// `PRODID` and `VERSION` are the writer's own and are written anew; every other property is
/// kept in `extra["ical"]["lines"]`, unreadable values in `extra["ical"]["invalid"]`.
struct VCalendarDecoder {
  let session: ICSReadSession

  func decode(_ properties: [ContentLine], fallbackName: String) -> ReminderList {
    var names: [String: String] = [:]
    var color: String?
    var colorFromCOLOR: String?
    var symbol: String?
    var createdAt: Timestamp?
    var uid: String?
    var lines: [String] = []
    var invalid: [String] = []
    var passedThrough: [String: JSONValue] = [:]
    var seen: Set<String> = []

    func keepInvalid(_ parts: ContentLineParts, _ line: ContentLine, _ reason: String) {
      session.warn(
        "invalid-value", "\(parts.name): \(reason); the line is kept in the list's extra.ical.invalid", line: line.line,
        uid: uid)
      invalid.append(line.text)
    }

    for line in properties {
      guard let parts = line.parts else {
        lines.append(line.text)
        continue
      }
      let name = parts.name
      if name == "PRODID" || name == "VERSION" { continue }
      guard seen.insert(name).inserted || !Self.interpreted.contains(name) else {
        lines.append(line.text)
        continue
      }
      let value = ICSText.unescape(parts.value).trimmingASCIIWhitespace()
      switch name {
      case "NAME", "X-WR-CALNAME":
        names[name] = value
      case "X-APPLE-CALENDAR-COLOR":
        if let normalized = ListColor.normalized(value) {
          color = normalized
        } else {
          keepInvalid(parts, line, "'\(value)' is not a #RRGGBB colour")
        }
      case "COLOR":
        if let normalized = ListColor.normalized(value) { colorFromCOLOR = normalized } else { lines.append(line.text) }
      case "X-REMCONV-SYMBOL":
        if value.isEmpty { keepInvalid(parts, line, "the symbol is empty") } else { symbol = value }
      case "X-REMCONV-CREATED":
        if case .utc(let time) = ICSDateValue(parts) {
          createdAt = Timestamp(utc: time)
        } else {
          keepInvalid(parts, line, "'\(parts.value)' is not a UTC date-time")
        }
      case "UID":
        if value.isEmpty { lines.append(line.text) } else { uid = value }
      case "X-REMCONV-EXTRA":
        if let object = ICSPassThrough.decode(ICSText.unescape(parts.value)) {
          passedThrough.merge(object) { _, new in new }
        } else {
          keepInvalid(parts, line, "the value is not a JSON object")
        }
      default:
        lines.append(line.text)
      }
    }

    if let name = names["NAME"], let calendarName = names["X-WR-CALNAME"], name != calendarName {
      session.warn(
        "list-name", "NAME '\(name)' and X-WR-CALNAME '\(calendarName)' differ; the list is named '\(name)'",
        line: properties.first?.line, uid: uid)
    }
    let name =
      names["NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? names["X-WR-CALNAME"].flatMap { $0.isEmpty ? nil : $0 }
      ?? fallbackName
    var extra = passedThrough
    var ical: [String: JSONValue] = [:]
    if !lines.isEmpty { ical["lines"] = .array(lines.map(JSONValue.string)) }
    if !invalid.isEmpty { ical["invalid"] = .array(invalid.map(JSONValue.string)) }
    if !ical.isEmpty { extra["ical"] = .object(ical) }
    return ReminderList(
      id: uid ?? StableID.derived(["list", ListName.key(for: name)]), name: name,
      symbol: symbol ?? ReminderList.defaultSymbol, color: color ?? colorFromCOLOR, createdAt: createdAt, extra: extra)
  }

  /// Whether the calendar names itself (a list is made for it even without any VTODO).
  static func hasName(_ properties: [ContentLine]) -> Bool {
    properties.contains { line in
      let name = line.name
      return (name == "NAME" || name == "X-WR-CALNAME")
        && !(line.parts?.value.trimmingASCIIWhitespace().isEmpty ?? true)
    }
  }

  /// Properties read into the list; a second one of these is kept as it is.
  private static let interpreted: Set<String> = [
    "NAME", "X-WR-CALNAME", "X-APPLE-CALENDAR-COLOR", "COLOR", "X-REMCONV-SYMBOL", "X-REMCONV-CREATED", "UID",
    "X-REMCONV-EXTRA",
  ]
}

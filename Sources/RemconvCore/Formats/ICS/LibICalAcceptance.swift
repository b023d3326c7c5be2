/// Tells, without libical, that libical would find nothing to report in a VTODO: every line is
/// of a small, common shape that libical is known to accept. Then the reader skips libical's
/// parse of the component, which is a fifth of the time of reading an iCalendar file.
///
/// The test is one-sided: `true` only for components made of the lines below, anything else
/// (another property or sub-component, a parameter, an unusual value) is `false` and goes to
/// libical as before. `LibICalAcceptanceTests` checks it against libical itself on every
/// fixture and the shared corpus, line by line, and on variations of each accepted line.
///
/// Accepted, upper case exactly as written:
/// - `BEGIN:`/`END:` of VTODO and VALARM;
/// - text properties (`UID`, `SUMMARY`, `DESCRIPTION`, `CATEGORIES`, `URL`, `RELATED-TO`
///   with no parameter or `RELTYPE=PARENT|CHILD|SIBLING`, and `X-` properties but libical's
///   own `X-LIC-`): no control character but tab, only the escapes `\\ \, \; \n \N`;
/// - UTC timestamps (`DTSTAMP`, `CREATED`, `LAST-MODIFIED`, `COMPLETED`): `YYYYMMDDTHHMMSSZ`;
/// - `DUE`/`DTSTART`: `;VALUE=DATE:YYYYMMDD`, `:YYYYMMDDTHHMMSS[Z]`, `;TZID=Area/City:YYYYMMDDTHHMMSS`;
/// - `STATUS` (the four VTODO statuses), `PRIORITY` (0–9), `PERCENT-COMPLETE` (0–100);
/// - `RRULE` of FREQ, INTERVAL, COUNT or UNTIL, BYDAY (plain days), BYMONTHDAY (1–31),
///   BYMONTH (1–12), WKST, each part once;
/// - in a VALARM: `ACTION:DISPLAY|AUDIO`, `DESCRIPTION`, `TRIGGER[;RELATED=START|END]:` with
///   a duration, and `X-` properties.
/// Every value must be non-empty: libical drops a property without one.
enum LibICalAcceptance {
  static func accepts(_ block: ComponentBlock) -> Bool {
    guard block.name == "VTODO", block.lines.count >= 2, block.lines[0].text == "BEGIN:VTODO",
      block.lines[block.lines.count - 1].text == "END:VTODO"
    else { return false }
    var inAlarm = false
    for line in block.lines.dropFirst().dropLast() {
      switch line.boundary {
      case .begin:
        guard !inAlarm, line.text == "BEGIN:VALARM" else { return false }
        inAlarm = true
      case .end:
        guard inAlarm, line.text == "END:VALARM" else { return false }
        inAlarm = false
      case nil:
        var text = line.text
        let accepted = text.withUTF8 { bytes in
          Line(bytes).map {
            inAlarm ? acceptsAlarmProperty(line.known, line.name, $0) : acceptsTodoProperty(line.known, line.name, $0)
          } ?? false
        }
        if !accepted { return false }
      }
    }
    return !inAlarm
  }

  // MARK: Lines

  /// A line split as `NAME[;PARAMETER]:VALUE` (one `KEY=VALUE` parameter at most), its name
  /// written in upper case.
  private struct Line {
    var name: Slice<UnsafeBufferPointer<UInt8>>
    var parameter: Slice<UnsafeBufferPointer<UInt8>>?
    var value: Slice<UnsafeBufferPointer<UInt8>>

    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
      guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
      let head = bytes[..<colon]
      if let semicolon = head.firstIndex(of: UInt8(ascii: ";")) {
        name = head[..<semicolon]
        parameter = head[(semicolon + 1)...]
      } else {
        name = head
        parameter = nil
      }
      value = bytes[(colon + 1)...]
      guard !name.isEmpty, !value.isEmpty, name.allSatisfy(Self.isNameByte) else { return nil }
    }

    static func isNameByte(_ byte: UInt8) -> Bool {
      (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || byte == UInt8(ascii: "-")
    }

    /// True when the parameter is absent, or is `key=` one of `values`.
    func parameter(absentOr key: StaticString, in values: [StaticString]) -> Bool {
      guard let parameter else { return true }
      let keyBytes = UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount)
      guard parameter.count > keyBytes.count, parameter.starts(with: keyBytes),
        parameter[parameter.startIndex + keyBytes.count] == UInt8(ascii: "=")
      else { return false }
      let value = parameter.dropFirst(keyBytes.count + 1)
      return values.contains { equals(value, $0) }
    }
  }

  /// Whether the bytes are the ASCII text `text`.
  private static func equals(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ text: StaticString) -> Bool {
    bytes.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  private static func acceptsTodoProperty(_ known: ICSName?, _ name: String, _ line: Line) -> Bool {
    switch known {
    case .uid, .summary, .description, .categories, .url:
      return line.parameter == nil && isText(line.value)
    case .relatedTo:
      return line.parameter(absentOr: "RELTYPE", in: ["PARENT", "CHILD", "SIBLING"]) && isText(line.value)
    case .dtstamp, .created, .lastModified, .completed:
      return line.parameter == nil && isUTCDateTime(line.value)
    case .due, .dtstart:
      return isDateValue(line)
    case .status:
      return line.parameter == nil
        && (equals(line.value, "NEEDS-ACTION") || equals(line.value, "COMPLETED") || equals(line.value, "IN-PROCESS")
          || equals(line.value, "CANCELLED"))
    case .priority:
      return line.parameter == nil && line.value.count == 1 && isDigits(line.value)
    case .percentComplete:
      return line.parameter == nil && number(line.value, digits: 1...3).map { $0 <= 100 } == true
    case .rrule:
      return line.parameter == nil && isRecurrenceRule(line.value)
    default:
      return isExtension(name) && line.parameter == nil && isText(line.value)
    }
  }

  private static func acceptsAlarmProperty(_ known: ICSName?, _ name: String, _ line: Line) -> Bool {
    switch known {
    case .description:
      return line.parameter == nil && isText(line.value)
    case .action:
      return line.parameter == nil && (equals(line.value, "DISPLAY") || equals(line.value, "AUDIO"))
    case .trigger:
      return line.parameter(absentOr: "RELATED", in: ["START", "END"]) && isDuration(line.value)
    default:
      return isExtension(name) && line.parameter == nil && isText(line.value)
    }
  }

  /// An `X-` property that libical does not interpret (its own are `X-LIC-…`).
  private static func isExtension(_ name: String) -> Bool {
    name.utf8.count > 2 && name.hasPrefix("X-") && !name.hasPrefix("X-LIC-")
  }

  // MARK: Values

  /// TEXT without control characters (tab aside) and with only RFC 5545's escapes.
  private static func isText(_ value: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    var escaped = false
    for byte in value {
      if escaped {
        guard byte == UInt8(ascii: "\\") || byte == UInt8(ascii: ",") || byte == UInt8(ascii: ";")
          || byte == UInt8(ascii: "n") || byte == UInt8(ascii: "N")
        else { return false }
        escaped = false
      } else if byte == UInt8(ascii: "\\") {
        escaped = true
      } else if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
        return false
      }
    }
    return !escaped
  }

  private static func isDigits(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    bytes.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  private static func number(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, digits: ClosedRange<Int>) -> Int? {
    guard digits.contains(bytes.count), isDigits(bytes) else { return nil }
    return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
  }

  /// `YYYYMMDD` with a plausible month and day, year 1000–9999.
  private static func isDate(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    guard bytes.count == 8, let year = number(bytes.prefix(4), digits: 4...4),
      let month = number(bytes.dropFirst(4).prefix(2), digits: 2...2),
      let day = number(bytes.dropFirst(6), digits: 2...2)
    else { return false }
    return year >= 1000 && (1...12).contains(month) && (1...CivilTime.daysInMonth(year: year, month: month)).contains(day)
  }

  /// `YYYYMMDDTHHMMSS`, optionally followed by `Z` when `utc` allows it.
  private static func isDateTime(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, utc: Bool) -> Bool {
    var time = bytes
    if utc {
      guard time.last == UInt8(ascii: "Z") else { return false }
      time = time.dropLast()
    }
    guard time.count == 15, time[time.startIndex + 8] == UInt8(ascii: "T"), isDate(time.prefix(8)),
      let hour = number(time.dropFirst(9).prefix(2), digits: 2...2),
      let minute = number(time.dropFirst(11).prefix(2), digits: 2...2),
      let second = number(time.dropFirst(13), digits: 2...2)
    else { return false }
    return hour < 24 && minute < 60 && second < 60
  }

  private static func isUTCDateTime(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool { isDateTime(bytes, utc: true) }

  private static func isDateValue(_ line: Line) -> Bool {
    guard let parameter = line.parameter else {
      return isDateTime(line.value, utc: true) || isDateTime(line.value, utc: false)
    }
    if equals(parameter, "VALUE=DATE") { return isDate(line.value) }
    guard parameter.starts(with: "TZID=".utf8) else { return false }
    let zone = parameter.dropFirst(5)
    let isZoneByte = { (byte: UInt8) in
      Line.isNameByte(byte) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || byte == UInt8(ascii: "/")
        || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+")
    }
    return !zone.isEmpty && zone.allSatisfy(isZoneByte) && isDateTime(line.value, utc: false)
  }

  /// A duration: `[+-]P` then `nW`, or `nD` and/or `T` with `nH`, `nM`, `nS` in that order.
  private static func isDuration(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    var rest = bytes
    if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
    guard rest.first == UInt8(ascii: "P") else { return false }
    rest = rest.dropFirst()
    /// Reads `digits unit` when the next unit is one of `units`; returns the unit read.
    func component(_ units: [UInt8]) -> UInt8? {
      let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
      guard (1...4).contains(digits.count), let unit = rest.dropFirst(digits.count).first, units.contains(unit) else {
        return nil
      }
      rest = rest.dropFirst(digits.count + 1)
      return unit
    }
    if component([UInt8(ascii: "W")]) != nil { return rest.isEmpty }
    let hasDays = component([UInt8(ascii: "D")]) != nil
    guard rest.first == UInt8(ascii: "T") else { return hasDays && rest.isEmpty }
    rest = rest.dropFirst()
    var units = [UInt8(ascii: "H"), UInt8(ascii: "M"), UInt8(ascii: "S")]
    var sawTime = false
    while let unit = component(units) {
      sawTime = true
      units = Array(units.drop { $0 != unit }.dropFirst())
    }
    return sawTime && rest.isEmpty
  }

  private static let days: [StaticString] = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

  /// A recurrence rule of the common parts, each once, FREQ among them.
  private static func isRecurrenceRule(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Bool {
    var seen: [String] = []
    for part in bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
      guard let separator = part.firstIndex(of: UInt8(ascii: "=")) else { return false }
      let key = String(decoding: part[..<separator], as: UTF8.self)
      let value = part[(separator + 1)...]
      guard !seen.contains(key), !value.isEmpty else { return false }
      seen.append(key)
      let items = value.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
      let valid: Bool
      switch key {
      case "FREQ": valid = (["DAILY", "WEEKLY", "MONTHLY", "YEARLY"] as [StaticString]).contains { equals(value, $0) }
      case "INTERVAL", "COUNT": valid = number(value, digits: 1...3).map { $0 >= 1 } == true
      case "UNTIL": valid = isDate(value) || isUTCDateTime(value)
      case "BYDAY": valid = items.allSatisfy { item in days.contains { equals(item, $0) } }
      case "WKST": valid = days.contains { equals(value, $0) }
      case "BYMONTHDAY": valid = items.allSatisfy { number($0, digits: 1...2).map { (1...31).contains($0) } == true }
      case "BYMONTH": valid = items.allSatisfy { number($0, digits: 1...2).map { (1...12).contains($0) } == true }
      default: valid = false
      }
      if !valid { return false }
    }
    return seen.contains("FREQ") && !(seen.contains("COUNT") && seen.contains("UNTIL"))
  }
}

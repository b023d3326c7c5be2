import Foundation

/// remconv's own verdict on a property line inside a VTODO or one of its sub-components: a line
/// that breaks one of these rules is not read, but kept as written in `extra.ical.invalid` (or,
/// inside a sub-component or an override, as `X-REMCONV-INVALID`), with an `ical-error` warning.
///
/// remconv keeps what it does not model verbatim and writes it back, so these rules are what
/// stops it from writing invalid iCalendar it was given. They were libical's verdicts (one parse
/// of every VTODO) until remconv's parser became the only parser of the import; libical now
/// checks them in the tests (`LibICalDifferentialTests`), where every divergence is listed.
///
/// 1. The line is `NAME[;PARAMETER…]:VALUE` (RFC 5545 §3.1).
/// 2. The name is letters, digits and `-`, and either an `X-` name or a property registered with
///    IANA (RFC 5545, 7986, 9073, 9253 and the iTIP/CAP names libical knows): a misspelt
///    `LAST-MOD` or `PERCENT_COMPLETE` is not silently a new property.
/// 3. The value is not empty: no property of RFC 5545 has an empty value but TEXT, and an empty
///    TEXT carries nothing.
/// 4. A typed value has its type's syntax: DATE and DATE-TIME (lists of them), INTEGER,
///    DURATION, PERIOD, RECUR and GEO, chosen by the property or its `VALUE` parameter.
///    The values remconv reads itself (DUE, COMPLETED, CREATED, LAST-MODIFIED, DTSTAMP,
///    PRIORITY, PERCENT-COMPLETE of the VTODO) are checked by their readers instead, which
///    warn `invalid-value` and keep the line the same way; `checksReadValues` is for lines kept
///    whole (sub-components, overrides), where nothing else reads them.
enum ICSPropertyRules {
  /// Why the line cannot be kept as a property, or nil when it can.
  static func problem(in line: ContentLine, parts: ContentLineParts?, checksReadValues: Bool) -> String? {
    guard let parts else { return "could not find a property name and its colon: the line is not NAME:VALUE" }
    let name = parts.name
    if line.known == nil {
      guard isNameSyntax(name) else { return "'\(name)' is not a property name" }
      guard name.hasPrefix("X-") || registeredNames.contains(name) else {
        return "\(name) is not a registered property; an unregistered one must begin with X-"
      }
    }
    guard !parts.value.isEmpty else { return "\(name) has no value" }
    guard let type = valueType(of: line.known, parts: parts, checksReadValues: checksReadValues) else { return nil }
    guard isValid(parts, as: type) else { return "\(name): '\(parts.value)' is not a \(type.rawValue) value" }
    return nil
  }

  /// True when `line` passes every rule by what is known without splitting it: a known name
  /// whose value has no syntax to check, or an `X-` name; a first colon with no quote before it
  /// (so it ends the name and parameters) and a value after it. Most kept lines are of this
  /// kind, and their parts are never needed.
  static func passesWithoutParsing(_ line: ContentLine, checksReadValues: Bool) -> Bool {
    if let known = line.known, hasTypedValue(known, checksReadValues: checksReadValues) { return false }
    return line.text.utf8.withContiguousStorageIfAvailable { bytes in
      guard let base = bytes.baseAddress, let colon = memchr(base, Int32(UInt8(ascii: ":")), bytes.count) else {
        return false
      }
      let head = base.distance(to: colon.assumingMemoryBound(to: UInt8.self))
      guard head + 1 < bytes.count, memchr(base, Int32(UInt8(ascii: "\"")), head) == nil else { return false }
      return line.known != nil || isExtensionName(UnsafeBufferPointer(rebasing: bytes[..<head]))
    } ?? false
  }

  /// `X-` (either case) and name bytes up to the first `;` of `head`.
  private static func isExtensionName(_ head: UnsafeBufferPointer<UInt8>) -> Bool {
    guard head.count > 2, head[0] | 0x20 == UInt8(ascii: "x"), head[1] == UInt8(ascii: "-") else { return false }
    for byte in head[2...] {
      if byte == UInt8(ascii: ";") { return true }
      let letter = byte | 0x20
      guard
        (letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
          || byte == UInt8(ascii: "-")
      else { return false }
    }
    return true
  }

  /// Whether a property may have a value of a type whose syntax is checked.
  private static func hasTypedValue(_ name: ICSName, checksReadValues: Bool) -> Bool {
    switch name {
    case .dtstart, .recurrenceID, .exdate, .rdate, .sequence, .repeatCount, .duration, .trigger, .rrule, .geo: true
    case .due, .completed, .created, .lastModified, .dtstamp, .priority, .percentComplete: checksReadValues
    default: false
    }
  }

  private enum ValueType: String {
    case dateTimeList = "DATE-TIME"
    case integer = "INTEGER"
    case duration = "DURATION"
    case period = "PERIOD"
    case recur = "RECUR"
    case geo = "GEO"
  }

  /// The type the value must have, or nil for types with no syntax to check (TEXT, URI, …).
  private static func valueType(of name: ICSName?, parts: ContentLineParts, checksReadValues: Bool) -> ValueType? {
    guard let name else { return nil }
    let declared = parts.parameter("VALUE")?.uppercased()
    switch name {
    case .dtstart, .recurrenceID, .exdate:
      return .dateTimeList
    case .rdate:
      return declared == "PERIOD" ? .period : .dateTimeList
    case .due, .completed, .created, .lastModified, .dtstamp:
      return checksReadValues ? .dateTimeList : nil
    case .priority, .percentComplete:
      return checksReadValues ? .integer : nil
    case .sequence, .repeatCount:
      return .integer
    case .duration:
      return .duration
    case .trigger:
      return declared == "DATE-TIME" ? .dateTimeList : .duration
    case .rrule:
      return .recur
    case .geo:
      return .geo
    default:
      return nil
    }
  }

  private static func isValid(_ parts: ContentLineParts, as type: ValueType) -> Bool {
    let value = parts.value
    switch type {
    case .dateTimeList:
      // One date (nearly every line): read as it is, not split and copied.
      guard value.utf8.contains(UInt8(ascii: ",")) else { return ICSDateValue(parts) != nil }
      return value.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { item in
        var single = parts
        single.value = String(item)
        return ICSDateValue(single) != nil
      }
    case .integer:
      return isInteger(value[...])
    case .duration:
      return isDuration(value[...])
    case .period:
      return value.split(separator: ",", omittingEmptySubsequences: false).allSatisfy { period in
        let ends = period.split(separator: "/", omittingEmptySubsequences: false)
        guard ends.count == 2 else { return false }
        var start = parts
        start.parameters = []
        start.value = String(ends[0])
        var end = start
        end.value = String(ends[1])
        return ICSDateValue(start) != nil && (ICSDateValue(end) != nil || isDuration(ends[1]))
      }
    case .recur:
      return isRecurrenceRule(value)
    case .geo:
      let halves = value.split(separator: ";", omittingEmptySubsequences: false)
      return halves.count == 2 && halves.allSatisfy { Double($0) != nil }
    }
  }

  // MARK: Syntax

  private static func isNameSyntax(_ name: String) -> Bool {
    !name.isEmpty
      && name.utf8.allSatisfy { byte in
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
          || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
          || byte == UInt8(ascii: "-")
      }
  }

  private static func isDigits(_ text: Substring) -> Bool {
    !text.isEmpty && text.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// `[+|-]digits` (RFC 5545 §3.3.8).
  private static func isInteger(_ text: Substring) -> Bool {
    isDigits(text.first == "+" || text.first == "-" ? text.dropFirst() : text)
  }

  /// RFC 5545 §3.3.6.
  private static func isDuration(_ text: Substring) -> Bool { ICSDuration.isWellFormed(text) }

  private static let frequencies: Set<String> = [
    "SECONDLY", "MINUTELY", "HOURLY", "DAILY", "WEEKLY", "MONTHLY", "YEARLY",
  ]
  private static let weekdays: Set<String> = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]

  /// RFC 5545 §3.3.10 (and RFC 7529's RSCALE and SKIP): `KEY=VALUE` parts, each key once, a
  /// FREQ, and every value of its key's form.
  private static func isRecurrenceRule(_ text: String) -> Bool {
    var seen: Set<String> = []
    for part in text.split(separator: ";", omittingEmptySubsequences: false) {
      let pair = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
      guard pair.count == 2, !pair[1].isEmpty else { return false }
      let key = pair[0].uppercased()
      let value = pair[1]
      guard seen.insert(key).inserted else { return false }
      let items = value.split(separator: ",", omittingEmptySubsequences: false)
      let valid: Bool
      switch key {
      case "FREQ": valid = frequencies.contains(value.uppercased())
      case "UNTIL":
        valid = ContentLineParts("UNTIL:" + value).flatMap(ICSDateValue.init) != nil
      case "COUNT", "INTERVAL": valid = isDigits(value)
      case "BYSECOND", "BYMINUTE", "BYHOUR", "BYMONTHDAY", "BYYEARDAY", "BYWEEKNO", "BYSETPOS":
        valid = items.allSatisfy(isInteger)
      case "BYMONTH": valid = items.allSatisfy { isDigits($0.last == "L" ? $0.dropLast() : $0) }
      case "BYDAY":
        valid = items.allSatisfy { item in
          let day = item.suffix(2)
          let ordinal = item.dropLast(2)
          return weekdays.contains(day.uppercased()) && (ordinal.isEmpty || isInteger(ordinal))
        }
      case "WKST": valid = weekdays.contains(value.uppercased())
      case "RSCALE", "SKIP": valid = true
      default: valid = false
      }
      if !valid { return false }
    }
    return seen.contains("FREQ")
  }

  /// Property names registered with IANA (RFC 5545 §8.3.2, RFC 7986, RFC 9073, RFC 9253) and
  /// the iTIP, CAP and VPOLL names that calendar servers write; those remconv reads are
  /// `ICSName` cases and never looked up here.
  private static let registeredNames: Set<String> = [
    "CALSCALE", "METHOD", "PRODID", "VERSION", "ATTACH", "CATEGORIES", "CLASS", "COMMENT", "DESCRIPTION", "GEO",
    "LOCATION", "PERCENT-COMPLETE", "PRIORITY", "RESOURCES", "STATUS", "SUMMARY", "COMPLETED", "DTEND", "DUE",
    "DTSTART", "DURATION", "FREEBUSY", "TRANSP", "TZID", "TZNAME", "TZOFFSETFROM", "TZOFFSETTO", "TZURL",
    "ATTENDEE", "CONTACT", "ORGANIZER", "RECURRENCE-ID", "RELATED-TO", "URL", "UID", "EXDATE", "EXRULE", "RDATE",
    "RRULE", "ACTION", "REPEAT", "TRIGGER", "CREATED", "DTSTAMP", "LAST-MODIFIED", "SEQUENCE", "REQUEST-STATUS",
    "NAME", "REFRESH-INTERVAL", "SOURCE", "COLOR", "IMAGE", "CONFERENCE", "LOCATION-TYPE", "PARTICIPANT-TYPE",
    "CALENDAR-ADDRESS", "STYLED-DESCRIPTION", "STRUCTURED-DATA", "RESOURCE-TYPE", "LINK", "CONCEPT", "REFID",
    "ACKNOWLEDGED", "BUSYTYPE", "ESTIMATED-DURATION", "POLL-ITEM-ID", "POLL-MODE", "POLL-PROPERTIES",
    "POLL-COMPLETION", "POLL-WINNER", "VOTER", "ACCEPT-RESPONSE", "TASK-MODE", "TZUNTIL", "TZID-ALIAS-OF",
  ]
}

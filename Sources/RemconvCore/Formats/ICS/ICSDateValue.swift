/// A DATE or DATE-TIME value as written (RFC 5545 §3.3.4, §3.3.5), before any zone is applied.
enum ICSDateValue: Equatable {
  case date(LocalDate)
  /// FORM #1: no zone.
  case floating(LocalDateTime)
  /// FORM #2: a trailing `Z`.
  case utc(LocalDateTime)
  /// FORM #3: a `TZID` parameter.
  case zoned(LocalDateTime, tzid: String)

  /// Reads the value of a date property. `VALUE=DATE` requires a date; a bare 8-digit value
  /// is read as a date too, as lenient readers do. Nil for anything else.
  init?(_ parts: ContentLineParts) {
    let text = parts.value.trimmingASCIIWhitespace()
    let declared = parts.parameter("VALUE")?.uppercased()
    if declared == "DATE" || (declared == nil && text.utf8.count == 8) {
      guard text.utf8.count == 8, let date = LocalDate(iso: text) else { return nil }
      self = .date(date)
      return
    }
    guard declared == nil || declared == "DATE-TIME" else { return nil }
    // The trailing Z is found and dropped as a byte: as a Character, from the end, it cost
    // more than the rest of the parse (a time is ASCII; anything else fails either way).
    let utf8 = text.utf8
    if let last = utf8.last, last == UInt8(ascii: "Z") || last == UInt8(ascii: "z") {
      guard let time = Self.basicDateTime(utf8.dropLast()) else { return nil }
      self = .utc(time)
    } else if let tzid = parts.parameter("TZID"), !tzid.isEmpty {
      guard let time = Self.basicDateTime(utf8[...]) else { return nil }
      self = .zoned(time, tzid: tzid)
    } else {
      guard let time = Self.basicDateTime(utf8[...]) else { return nil }
      self = .floating(time)
    }
  }

  /// `YYYYMMDDTHHMMSS` exactly.
  private static func basicDateTime(_ bytes: Substring.UTF8View) -> LocalDateTime? {
    guard bytes.count == 15 else { return nil }
    return LocalDateTime(iso: String(decoding: bytes, as: UTF8.self))
  }
}

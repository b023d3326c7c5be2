import Foundation

/// Date-times as the OPML specification writes them (RFC 822, as updated by RFC 2822):
/// `Fri, 27 Nov 2026 18:02:11 GMT`.
enum RFC822Date {
  private static let months = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
  ]
  private static let weekdays = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"]  // from 1970-01-01
  /// The zone names RFC 822 defines, in minutes east of UTC. Military letters are read as UTC,
  /// as RFC 2822 §4.3 advises (their signs were defined backwards).
  private static let namedZones: [String: Int] = [
    "UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "EST": -300, "EDT": -240, "CST": -360, "CDT": -300,
    "MST": -420, "MDT": -360, "PST": -480, "PDT": -420,
  ]

  /// `Fri, 27 Nov 2026 18:02:11 GMT`: whole seconds, always in GMT.
  static func format(_ timestamp: Timestamp) -> String {
    let wall = timestamp.utcWallTime
    let weekday = weekdays[Int(Int64(wall.date.daysSinceEpoch).floorModulo(7))]
    return
      "\(weekday), \(pad(wall.date.day, 2)) \(months[wall.date.month - 1].prefix(3).capitalized) \(pad(wall.date.year, 4)) "
      + "\(pad(wall.hour, 2)):\(pad(wall.minute, 2)):\(pad(wall.second, 2)) GMT"
  }

  /// Reads `[Day,] DD Mon YY[YY] HH:MM[:SS] ZONE`, a zone being `+HHMM`, `-HHMM` or a name; also
  /// an ISO 8601 instant, which some producers write instead. Nil when it is neither.
  static func parse(_ text: String) -> Timestamp? {
    if let iso = Timestamp(iso: trimmed(text)) { return iso }
    var tokens = text.split { $0 == " " || $0 == "\t" || $0 == "," }.map(String.init)
    if let first = tokens.first, first.allSatisfy(\.isLetter) { tokens.removeFirst() }  // the weekday
    guard tokens.count == 5, let day = Int(tokens[0]), tokens[0].count <= 2,
      let monthIndex = monthIndex(tokens[1]),
      var year = Int(tokens[2]), tokens[2].count == 2 || tokens[2].count == 4
    else { return nil }
    if tokens[2].count == 2 { year += year < 50 ? 2000 : 1900 }
    let clock = tokens[3].split(separator: ":").map { Int($0) }
    guard clock.count == 2 || clock.count == 3, clock.allSatisfy({ $0 != nil }), tokens[3].count >= 5,
      let date = LocalDate(year: year, month: monthIndex + 1, day: day),
      let wall = LocalDateTime(
        date: date, hour: clock[0] ?? -1, minute: clock[1] ?? -1, second: clock.count == 3 ? clock[2] ?? -1 : 0),
      let offsetMinutes = zoneOffset(tokens[4])
    else { return nil }
    return Timestamp(millisecondsSinceEpoch: (wall.secondsSinceEpoch - Int64(offsetMinutes) * 60) * 1000)
  }

  /// `text` without surrounding white space. Foundation's trimming (a quarter of reading an
  /// outline when run on every date) only when an end could be white space: a printable ASCII
  /// byte at both ends means there is nothing to trim.
  private static func trimmed(_ text: String) -> String {
    guard let first = text.utf8.first, let last = text.utf8.last else { return text }
    let isPlain = { (byte: UInt8) in byte > 0x20 && byte < 0x7F }
    return isPlain(first) && isPlain(last) ? text : text.trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// The month of `Nov` or `November`, in any case.
  private static func monthIndex(_ token: String) -> Int? {
    let name = token.lowercased()
    return months.firstIndex { $0 == name || (name.count == 3 && $0.hasPrefix(name)) }
  }

  private static func zoneOffset(_ token: String) -> Int? {
    if let named = namedZones[token.uppercased()] { return named }
    if token.count == 1, token.first?.isLetter == true { return 0 }
    let bytes = Array(token.utf8)
    guard bytes.count == 5, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"),
      let hours = Int(token.dropFirst().prefix(2)), let minutes = Int(token.suffix(2)), minutes < 60
    else { return nil }
    return (hours * 60 + minutes) * (bytes[0] == UInt8(ascii: "-") ? -1 : 1)
  }
}

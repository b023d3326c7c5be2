import Foundation

/// Values as Core Data stores them, read as the model's.
enum CoreDataValues {
  /// Core Data's reference date, 2001-01-01T00:00:00Z, in Unix seconds.
  static let referenceDateOffset: Double = 978_307_200

  /// A timestamp column (seconds since 2001-01-01, UTC) as an instant.
  static func timestamp(_ seconds: Double?) -> Timestamp? {
    guard let seconds, seconds.isFinite, abs(seconds) < 1e12 else { return nil }
    return Timestamp(millisecondsSinceEpoch: Int64(((seconds + referenceDateOffset) * 1000).rounded()))
  }

  /// The UTC wall time of a timestamp column, to the second.
  static func utcWallTime(_ seconds: Double) -> LocalDateTime? {
    timestamp(seconds)?.utcWallTime
  }

  /// Apple Reminders' due date: all-day ones are stored as midnight UTC of their day; timed
  /// ones as an instant, shown as the wall time in the reminder's zone when it has a known
  /// one, else kept as the instant.
  static func appleDue(_ seconds: Double, allDay: Bool, timeZone: String?) -> DueDate? {
    guard let instant = timestamp(seconds) else { return nil }
    let wall = instant.utcWallTime
    if allDay { return .date(wall.date) }
    if let timeZone, TimeZoneNames.isKnown(timeZone), let zone = TimeZone(identifier: timeZone) {
      let utcSeconds = wall.secondsSinceEpoch
      let offset = Int64(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utcSeconds))))
      return .zoned(LocalDateTime(secondsSinceEpoch: utcSeconds + offset), timeZone: timeZone)
    }
    return .utc(wall)
  }

  /// A column value as JSON for `extra`.
  static func json(_ value: SQLValue) -> JSONValue {
    switch value {
    case .null, .blob: .null
    case .integer(let number): .number(String(number))
    case .real(let number): number.isFinite ? .number(String(number)) : .null
    case .text(let text): .string(text)
    }
  }

  static func json(_ columns: [String: SQLValue]) -> JSONValue {
    .object(columns.mapValues(json))
  }
}

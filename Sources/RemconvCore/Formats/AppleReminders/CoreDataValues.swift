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

import Foundation

/// An instant, kept to the millisecond: creation, edit and completion times.
///
/// Written as RFC 3339 in UTC (`2026-11-30T09:00:00Z`, `2026-11-30T09:00:00.250Z` when the
/// source had a fraction). Parsing accepts `Z` and numeric offsets, extended and basic forms.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let millisecondsSinceEpoch: Int64

  public init(millisecondsSinceEpoch: Int64) {
    self.millisecondsSinceEpoch = millisecondsSinceEpoch
  }

  public init(_ date: Date) {
    millisecondsSinceEpoch = Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  public init(utc wallTime: LocalDateTime) {
    millisecondsSinceEpoch = wallTime.secondsSinceEpoch * 1000
  }

  public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSinceEpoch) / 1000) }

  /// The wall time of this instant in UTC, dropping milliseconds.
  public var utcWallTime: LocalDateTime {
    LocalDateTime(secondsSinceEpoch: millisecondsSinceEpoch.floorDivided(by: 1000))
  }

  /// Parses an RFC 3339 / ISO 8601 instant. A value without `Z` or offset is rejected: an
  /// instant needs a zone (callers with floating sources decide what zone to assume).
  public init?(iso text: String) {
    var text = text
    guard let parsed = text.withUTF8({ Self.scanWritten($0) ?? DigitScanner.scanWhole($0, Self.scan) }) else {
      return nil
    }
    self = parsed
  }

  /// `2026-11-30T09:00:00Z`, the form remconv writes and most sources give, read at its fixed
  /// offsets; nil for any other text (which `scan` reads) or a date or time that is not one.
  static func scanWritten(_ text: UnsafeBufferPointer<UInt8>) -> Timestamp? {
    guard text.count == 20, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"), text[10] == UInt8(ascii: "T"),
      text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"), text[19] == UInt8(ascii: "Z")
    else { return nil }
    func number(at offset: Int, digits: Int) -> Int? {
      var value = 0
      for index in offset..<offset + digits {
        let digit = text[index] &- 0x30
        guard digit <= 9 else { return nil }
        value = value &* 10 &+ Int(digit)
      }
      return value
    }
    guard let year = number(at: 0, digits: 4), let month = number(at: 5, digits: 2), let day = number(at: 8, digits: 2),
      let hour = number(at: 11, digits: 2), let minute = number(at: 14, digits: 2),
      let second = number(at: 17, digits: 2), let date = LocalDate(year: year, month: month, day: day),
      let wall = LocalDateTime(date: date, hour: hour, minute: minute, second: second)
    else { return nil }
    return Timestamp(utc: wall)
  }

  static func scan(_ scanner: inout DigitScanner) -> Timestamp? {
    guard let wall = LocalDateTime.scan(&scanner) else { return nil }
    var milliseconds: Int64 = 0
    if scanner.expect(UInt8(ascii: ".")) || scanner.expect(UInt8(ascii: ",")) {
      var scale: Int64 = 100
      var sawDigit = false
      while let byte = scanner.peek(), byte >= 0x30, byte <= 0x39 {
        milliseconds += Int64(byte - 0x30) * scale
        scale /= 10
        scanner.index += 1
        sawDigit = true
      }
      guard sawDigit else { return nil }
    }
    var offsetSeconds = 0
    if scanner.expect(UInt8(ascii: "Z")) || scanner.expect(UInt8(ascii: "z")) {
    } else if let sign = scanner.peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      scanner.index += 1
      guard let hours = scanner.number(digits: 2) else { return nil }
      _ = scanner.expect(UInt8(ascii: ":"))
      let minutes = scanner.number(digits: 2) ?? 0
      offsetSeconds = (hours * 3600 + minutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
    } else {
      return nil
    }
    return Timestamp(millisecondsSinceEpoch: (wall.secondsSinceEpoch - Int64(offsetSeconds)) * 1000 + milliseconds)
  }

  /// Whether `description` reads back as this instant (`init(iso:)`): its year is one that
  /// four ISO 8601 digits spell, 1 to 9999.
  var readsBackFromText: Bool { Self.textYears.contains(millisecondsSinceEpoch) }

  private static let textYears =
    Int64(CivilTime.days(year: 1, month: 1, day: 1)) * 86_400_000...Int64(
      CivilTime.days(year: 10_000, month: 1, day: 1)) * 86_400_000 - 1

  public var description: String { written.string }

  /// Appends the UTF-8 of `description` to `bytes`. A year of four digits, the year of
  /// almost every time there is, is spelled straight into place (a store writes two or three
  /// times a row); any other goes through `description`'s general writer.
  func appendDescription(to bytes: inout [UInt8]) {
    let seconds = millisecondsSinceEpoch.floorDivided(by: 1000)
    let days = seconds.floorDivided(by: 86_400)
    let date = CivilTime.date(days: Int(days))
    guard date.year >= 0, date.year <= 9999 else { return written.append(to: &bytes) }
    let secondOfDay = Int(seconds - days * 86_400)
    let fraction = Int(millisecondsSinceEpoch - seconds * 1000)
    // 2026-11-30T09:00:00Z, or 2026-11-30T09:00:00.250Z: at most 24 bytes, made on the stack.
    var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
    let length = withUnsafeMutableBytes(of: &text) { text in
      func two(_ value: Int, at offset: Int) {
        text[offset] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10)
        text[offset + 1] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10)
      }
      two(date.year / 100, at: 0)
      two(date.year % 100, at: 2)
      text[4] = UInt8(ascii: "-")
      two(date.month, at: 5)
      text[7] = UInt8(ascii: "-")
      two(date.day, at: 8)
      text[10] = UInt8(ascii: "T")
      two(secondOfDay / 3600, at: 11)
      text[13] = UInt8(ascii: ":")
      two(secondOfDay / 60 % 60, at: 14)
      text[16] = UInt8(ascii: ":")
      two(secondOfDay % 60, at: 17)
      guard fraction != 0 else {
        text[19] = UInt8(ascii: "Z")
        return 20
      }
      text[19] = UInt8(ascii: ".")
      text[20] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: fraction / 100)
      two(fraction % 100, at: 21)
      text[23] = UInt8(ascii: "Z")
      return 24
    }
    withUnsafeBytes(of: &text) { bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[..<length])) }
  }

  private var written: DigitWriter {
    var text = DigitWriter()
    utcWallTime.append(to: &text)
    let fraction = millisecondsSinceEpoch.floorModulo(1000)
    if fraction != 0 {
      text.byte(UInt8(ascii: "."))
      text.digits(Int(fraction), 3)
    }
    text.byte(UInt8(ascii: "Z"))
    return text
  }

  public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
    lhs.millisecondsSinceEpoch < rhs.millisecondsSinceEpoch
  }
}

extension Int64 {
  func floorDivided(by divisor: Int64) -> Int64 {
    let quotient = self / divisor
    return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
  }

  func floorModulo(_ divisor: Int64) -> Int64 { self - floorDivided(by: divisor) * divisor }
}

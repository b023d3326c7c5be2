/// A calendar date with no time and no zone, as `2026-11-30`.
public struct LocalDate: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let year: Int
  public let month: Int
  public let day: Int

  /// The years a date's text spells, in four digits.
  static let textYears = 1...9999

  /// Nil when the parts do not form a real date (month 13, 31 April, ...).
  public init?(year: Int, month: Int, day: Int) {
    guard Self.textYears.contains(year), (1...12).contains(month),
      (1...CivilTime.daysInMonth(year: year, month: month)).contains(day)
    else { return nil }
    self.year = year
    self.month = month
    self.day = day
  }

  init(daysSinceEpoch: Int) {
    let parts = CivilTime.date(days: daysSinceEpoch)
    (year, month, day) = (parts.year, parts.month, parts.day)
  }

  /// Parses `YYYY-MM-DD` or `YYYYMMDD`.
  public init?(iso text: String) {
    guard let parsed = DigitScanner.scanWhole(text, Self.scan) else { return nil }
    self = parsed
  }

  static func scan(_ scanner: inout DigitScanner) -> LocalDate? {
    guard let year = scanner.number(digits: 4) else { return nil }
    let extended = scanner.expect(UInt8(ascii: "-"))
    guard let month = scanner.number(digits: 2) else { return nil }
    if extended { guard scanner.expect(UInt8(ascii: "-")) else { return nil } }
    guard let day = scanner.number(digits: 2) else { return nil }
    return LocalDate(year: year, month: month, day: day)
  }

  public var daysSinceEpoch: Int { CivilTime.days(year: year, month: month, day: day) }

  /// `2026-11-30`.
  public var description: String {
    var text = DigitWriter()
    append(to: &text)
    return text.string
  }

  func append(to text: inout DigitWriter) {
    text.digits(year, 4)
    text.byte(UInt8(ascii: "-"))
    text.digits(month, 2)
    text.byte(UInt8(ascii: "-"))
    text.digits(day, 2)
  }

  /// `20261130`, the iCalendar and Taskwarrior basic form.
  public var basicString: String { pad(year, 4) + pad(month, 2) + pad(day, 2) }

  public static func < (lhs: LocalDate, rhs: LocalDate) -> Bool {
    (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
  }
}

/// A wall-clock date and time with no zone, as `2026-11-30T09:00:00`.
public struct LocalDateTime: Hashable, Comparable, Sendable, CustomStringConvertible {
  public let date: LocalDate
  public let hour: Int
  public let minute: Int
  public let second: Int

  public init?(date: LocalDate, hour: Int, minute: Int, second: Int) {
    guard (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second) else {
      return nil
    }
    self.date = date
    self.hour = hour
    self.minute = minute
    self.second = min(second, 59)  // a leap second is kept as :59, the nearest representable
  }

  init(secondsSinceEpoch: Int64) {
    let days = Int((Double(secondsSinceEpoch) / 86400).rounded(.down))
    var rest = Int(secondsSinceEpoch - Int64(days) * 86400)
    date = LocalDate(daysSinceEpoch: days)
    hour = rest / 3600
    rest %= 3600
    minute = rest / 60
    second = rest % 60
  }

  /// Seconds since 1970-01-01T00:00:00 of this wall time read as UTC.
  public var secondsSinceEpoch: Int64 {
    Int64(date.daysSinceEpoch) * 86400 + Int64(hour * 3600 + minute * 60 + second)
  }

  /// Parses `YYYY-MM-DDTHH:MM[:SS]` (extended) or `YYYYMMDDTHHMMSS` (basic). A trailing `Z` or
  /// offset is not accepted here: see `DueDate` and `Timestamp`.
  public init?(iso text: String) {
    guard let parsed = DigitScanner.scanWhole(text, Self.scan) else { return nil }
    self = parsed
  }

  static func scan(_ scanner: inout DigitScanner) -> LocalDateTime? {
    guard let date = LocalDate.scan(&scanner) else { return nil }
    guard scanner.expect(UInt8(ascii: "T")) || scanner.expect(UInt8(ascii: " ")) else {
      return nil
    }
    guard let hour = scanner.number(digits: 2) else { return nil }
    let extended = scanner.expect(UInt8(ascii: ":"))
    guard let minute = scanner.number(digits: 2) else { return nil }
    var second = 0
    if extended {
      if scanner.expect(UInt8(ascii: ":")) {
        guard let value = scanner.number(digits: 2) else { return nil }
        second = value
      }
    } else {
      guard let value = scanner.number(digits: 2) else { return nil }
      second = value
    }
    return LocalDateTime(date: date, hour: hour, minute: minute, second: second)
  }

  /// `2026-11-30T09:00:00`.
  public var description: String {
    var text = DigitWriter()
    append(to: &text)
    return text.string
  }

  func append(to text: inout DigitWriter) {
    date.append(to: &text)
    text.byte(UInt8(ascii: "T"))
    text.digits(hour, 2)
    text.byte(UInt8(ascii: ":"))
    text.digits(minute, 2)
    text.byte(UInt8(ascii: ":"))
    text.digits(second, 2)
  }

  /// `20261130T090000`.
  public var basicString: String {
    date.basicString + "T" + pad(hour, 2) + pad(minute, 2) + pad(second, 2)
  }

  public static func < (lhs: LocalDateTime, rhs: LocalDateTime) -> Bool {
    lhs.secondsSinceEpoch < rhs.secondsSinceEpoch
  }
}

/// Builds short ASCII texts of fixed-width numbers without intermediate strings (dates and
/// times are written once per field of every exported item, and by every import's rows).
///
/// The bytes are held inline, not in an array: a text's only allocation is its `String`'s.
/// The longest text written is a timestamp with the widest year an `Int` day count gives
/// (about 40 bytes), well within `capacity`.
struct DigitWriter {
  private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
  private(set) var count = 0
  static let capacity = 64

  init() {}

  // Inlined, as the scanner's reads are: every byte of every date and time written comes here.
  @inline(__always)
  mutating func byte(_ value: UInt8) {
    precondition(count < Self.capacity, "a date or time text longer than \(Self.capacity) bytes")
    withUnsafeMutableBytes(of: &storage) { $0[count] = value }
    count += 1
  }

  /// Appends `value` zero-padded to `width` digits (more when it needs them).
  @inline(__always)
  mutating func digits(_ value: Int, _ width: Int) {
    // Months, days, hours, minutes and seconds: every date and time has five.
    if width == 2, value >= 0, value < 100 {
      byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
      byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
      return
    }
    // Years: every date has one.
    if width == 4, value >= 0, value < 10_000 {
      byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 1000))
      byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 100 % 10))
      byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10 % 10))
      byte(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
      return
    }
    wideDigits(value, width)
  }

  /// `digits` of any other value and width.
  private mutating func wideDigits(_ value: Int, _ width: Int) {
    guard value >= 0 else {
      byte(UInt8(ascii: "-"))
      digits(-value, width)
      return
    }
    var divisor = 1
    var needed = 1
    while needed < width || value / divisor >= 10 {
      divisor *= 10
      needed += 1
    }
    var rest = value
    while divisor > 0 {
      byte(UInt8(ascii: "0") + UInt8(rest / divisor))
      rest %= divisor
      divisor /= 10
    }
  }

  /// Appends the bytes written to `bytes`.
  func append(to bytes: inout [UInt8]) {
    withUnsafeBytes(of: storage) { bytes.append(contentsOf: $0[..<count]) }
  }

  var string: String {
    withUnsafeBytes(of: storage) { written in
      String(unsafeUninitializedCapacity: count) { text in
        UnsafeMutableRawBufferPointer(text).copyMemory(from: UnsafeRawBufferPointer(rebasing: written[..<count]))
        return count
      }
    }
  }
}

/// Left-pads a non-negative number with zeros.
func pad(_ value: Int, _ width: Int) -> String {
  let digits = String(value)
  return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
}

/// Calendar arithmetic on the proleptic Gregorian calendar, without Foundation's `Calendar`
/// (which is slow and time-zone aware where these values must not be).
enum CivilTime {
  /// Days since 1970-01-01 for a civil date (Howard Hinnant's `days_from_civil`).
  static func days(year: Int, month: Int, day: Int) -> Int {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yearOfEra = y - era * 400
    let shiftedMonth = month > 2 ? month - 3 : month + 9
    let dayOfYear = (153 * shiftedMonth + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146097 + dayOfEra - 719468
  }

  /// The civil date of a day count since 1970-01-01.
  static func date(days: Int) -> (year: Int, month: Int, day: Int) {
    let z = days + 719468
    let era = (z >= 0 ? z : z - 146096) / 146097
    let dayOfEra = z - era * 146097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    return (year, month, day)
  }

  static func daysInMonth(year: Int, month: Int) -> Int {
    switch month {
    case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}

/// A small cursor over ASCII digits, shared by the date parsers.
struct DigitScanner {
  let bytes: UnsafeBufferPointer<UInt8>
  var index = 0

  /// Runs `scan` over the UTF-8 of `text` in place (a timestamp is read for every row of an
  /// import or export: no copy of it is made); nil unless `scan` reads all of it.
  static func scanWhole<Value>(_ text: String, _ scan: (inout DigitScanner) -> Value?) -> Value? {
    var text = text
    return text.withUTF8 { scanWhole($0, scan) }
  }

  /// Runs `scan` over `bytes`; nil unless `scan` reads all of them.
  static func scanWhole<Value>(_ bytes: UnsafeBufferPointer<UInt8>, _ scan: (inout DigitScanner) -> Value?) -> Value? {
    var scanner = DigitScanner(bytes: bytes)
    guard let value = scan(&scanner), scanner.isAtEnd else { return nil }
    return value
  }

  var isAtEnd: Bool { index == bytes.count }
  var remaining: Int { bytes.count - index }

  // Inlined: every field of every date and time read goes through these (a call each cost
  // more than the digits it reads).
  @inline(__always)
  func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

  @inline(__always)
  mutating func number(digits: Int) -> Int? {
    guard remaining >= digits else { return nil }
    var value = 0
    for offset in 0..<digits {
      let digit = bytes[index &+ offset] &- 0x30
      guard digit <= 9 else { return nil }
      value = value &* 10 &+ Int(digit)
    }
    index += digits
    return value
  }

  @inline(__always)
  mutating func expect(_ byte: UInt8) -> Bool {
    guard peek() == byte else { return false }
    index += 1
    return true
  }
}

/// One iCalendar content line after unfolding (RFC 5545 §3.1), with the physical line it
/// started on, for messages.
struct ContentLine: Sendable, Equatable {
  /// The unfolded line, without its terminator.
  let text: String
  /// The 1-based physical line the content line starts on.
  let line: Int
  /// The property or keyword name in upper case: everything before the first `;` or `:`.
  let name: String
  /// `BEGIN:NAME` or `END:NAME`, with the component name in upper case.
  let boundary: ComponentBoundary?

  init(text: String, line: Int) {
    self.text = text
    self.line = line
    // Names and component names are ASCII; reading them as bytes keeps a 100k-item file fast.
    var text = text
    (name, boundary) = text.withUTF8(Self.nameAndBoundary)
  }

  /// A line whose name and boundary were read from its bytes already (`ContentLineReader`).
  init(text: String, line: Int, name: String, boundary: ComponentBoundary?) {
    self.text = text
    self.line = line
    self.name = name
    self.boundary = boundary
  }

  /// The line split into name, parameters and value; nil when it has no `:` outside quotes.
  var parts: ContentLineParts? { ContentLineParts(text) }

  static func nameAndBoundary(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, ComponentBoundary?) {
    var nameEnd = 0
    while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: ";"), bytes[nameEnd] != UInt8(ascii: ":") { nameEnd += 1 }
    let name = asciiUppercased(UnsafeBufferPointer(rebasing: bytes[..<nameEnd]))
    guard nameEnd == 5 || nameEnd == 3, nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: ":"),
      name == "BEGIN" || name == "END"
    else { return (name, nil) }
    let rest = UnsafeBufferPointer(rebasing: bytes[(nameEnd + 1)...])
    let component: String
    if rest.allSatisfy({ $0 < 0x80 }) {
      let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
      let start = rest.firstIndex { !isSpace($0) } ?? rest.endIndex
      let end = rest.lastIndex { !isSpace($0) }.map { $0 + 1 } ?? start
      component = start < end ? asciiUppercased(UnsafeBufferPointer(rebasing: rest[start..<end])) : ""
    } else {
      // Not a component name any producer writes; trimmed as Characters, as ever.
      component = asciiUppercased(rest).trimmingASCIIWhitespace()
    }
    return (name, component.isEmpty ? nil : (name == "BEGIN" ? .begin(component) : .end(component)))
  }

  /// The bytes with ASCII letters in upper case (names are usually upper case already).
  static func asciiUppercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    if let name = KnownName.match(bytes) { return name }
    guard bytes.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) else { return String(decoding: bytes, as: UTF8.self) }
    return String(decoding: bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
  }
}

/// The names a calendar repeats on almost every line, matched without making a string.
///
/// Every line's name (and every parameter's) is upper-cased into a `String`, in the pre-scan
/// and again in the reading pass: decoding those few bytes was a sixth of the pre-scan's
/// instructions. A name is packed, upper-cased, into two words and compared with the packed
/// names of its length; a match returns the literal, which costs nothing to make.
enum KnownName {
  /// Names of at most 16 bytes: properties, components and parameters of RFC 5545 and the
  /// extensions remconv reads and writes.
  private static let names = [
    "BEGIN", "END", "VCALENDAR", "VTODO", "VEVENT", "VJOURNAL", "VTIMEZONE", "VALARM", "STANDARD", "DAYLIGHT",
    "VERSION", "PRODID", "CALSCALE", "METHOD", "NAME", "COLOR", "X-WR-CALNAME", "X-WR-TIMEZONE",
    "UID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "SEQUENCE", "SUMMARY", "DESCRIPTION", "STATUS", "CLASS",
    "DUE", "DTSTART", "DURATION", "COMPLETED", "PERCENT-COMPLETE", "PRIORITY", "CATEGORIES", "RELATED-TO",
    "URL", "LOCATION", "GEO", "COMMENT", "CONTACT", "ATTACH", "ORGANIZER", "ATTENDEE",
    "RRULE", "RDATE", "EXDATE", "RECURRENCE-ID", "TRIGGER", "ACTION", "REPEAT",
    "TZID", "TZNAME", "TZOFFSETFROM", "TZOFFSETTO", "TZURL", "X-LIC-LOCATION",
    "VALUE", "RELTYPE", "RELATED", "LANGUAGE", "ALTREP", "ENCODING", "FMTTYPE",
  ]

  /// The packed names by length (index 0 unused).
  private static let byLength: [[(packed: (UInt64, UInt64), name: String)]] = {
    var table = Array(repeating: [(packed: (UInt64, UInt64), name: String)](), count: 17)
    for name in names {
      let bytes = Array(name.utf8)
      precondition(bytes.count <= 16, "a known name fits two words")
      let packed = bytes.withUnsafeBufferPointer(pack)
      table[bytes.count].append((packed, name))
    }
    return table
  }()

  /// The known name the bytes spell in any case, or nil.
  static func match(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    guard bytes.count > 0, bytes.count <= 16 else { return nil }
    let packed = pack(bytes)
    for candidate in byLength[bytes.count] where candidate.packed == packed { return candidate.name }
    return nil
  }

  /// Up to 16 bytes, ASCII letters upper-cased, little-endian into two words (the rest zero).
  private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> (UInt64, UInt64) {
    var words: (UInt64, UInt64) = (0, 0)
    withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
    return (upper(words.0), upper(words.1))
  }

  /// The eight bytes of `word` with `a`–`z` made `A`–`Z`, all at once: a byte's high bit in
  /// `lower` is set when it is ASCII, at least `a` and at most `z`.
  private static func upper(_ word: UInt64) -> UInt64 {
    let high: UInt64 = 0x8080_8080_8080_8080
    let seven = word & ~high
    let atLeastA = seven &+ 0x1F1F_1F1F_1F1F_1F1F  // 0x80 - 0x61
    let aboveZ = seven &+ 0x0505_0505_0505_0505  // 0x7F - 0x7A
    let lower = ~word & (atLeastA ^ aboveZ) & high
    return word &- (lower >> 2)
  }
}

/// A line that opens or closes a component.
enum ComponentBoundary: Equatable {
  case begin(String)
  case end(String)
}

/// One parameter of a content line: `TZID=Europe/Berlin`, `MEMBER="a","b"`.
struct ContentLineParameter: Sendable, Equatable {
  /// Upper case.
  var name: String
  /// The values, with surrounding quotes removed.
  var values: [String]
  /// The parameter exactly as written, without the leading `;`.
  var raw: String
}

/// A content line split at its delimiters, quotes respected.
struct ContentLineParts: Sendable, Equatable {
  var name: String
  var parameters: [ContentLineParameter]
  /// The raw (still escaped) value.
  var value: String

  init?(_ text: String) {
    var text = text
    guard let parts = text.withUTF8(Self.init(bytes:)) else { return nil }
    self = parts
  }

  private init?(bytes: UnsafeBufferPointer<UInt8>) {
    var index = 0
    while index < bytes.count, bytes[index] != UInt8(ascii: ";"), bytes[index] != UInt8(ascii: ":") { index += 1 }
    guard index < bytes.count else { return nil }
    name = Self.uppercased(UnsafeBufferPointer(rebasing: bytes[0..<index]))
    var parameters: [ContentLineParameter] = []
    while index < bytes.count, bytes[index] == UInt8(ascii: ";") {
      index += 1
      let nameStart = index
      while index < bytes.count, bytes[index] != UInt8(ascii: "="), bytes[index] != UInt8(ascii: ":"),
        bytes[index] != UInt8(ascii: ";")
      {
        index += 1
      }
      let parameterName = Self.uppercased(UnsafeBufferPointer(rebasing: bytes[nameStart..<index]))
      var values: [String] = []
      if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
        repeat {
          index += 1
          if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            let valueStart = index + 1
            guard let closing = bytes[valueStart...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
            values.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<closing]), as: UTF8.self))
            index = closing + 1
          } else {
            let valueStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: ";"),
              bytes[index] != UInt8(ascii: ":")
            {
              index += 1
            }
            values.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<index]), as: UTF8.self))
          }
        } while index < bytes.count && bytes[index] == UInt8(ascii: ",")
      }
      let raw = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<index]), as: UTF8.self)
      parameters.append(ContentLineParameter(name: parameterName, values: values, raw: raw))
    }
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
    self.parameters = parameters
    value = String(decoding: UnsafeBufferPointer(rebasing: bytes[(index + 1)...]), as: UTF8.self)
  }

  /// Upper case: ASCII letters as bytes (names are ASCII), anything else by Unicode's rules.
  private static func uppercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.allSatisfy({ $0 < 0x80 }) else { return String(decoding: bytes, as: UTF8.self).uppercased() }
    return ContentLine.asciiUppercased(bytes)
  }

  /// The first value of the parameter `name` (upper case).
  func parameter(_ name: String) -> String? {
    parameters.first { $0.name == name }?.values.first
  }

  /// The parameters other than `excluded`, as written (`LANGUAGE=de;X-FOO=1`), or nil.
  func parameterText(excluding excluded: Set<String>) -> String? {
    let kept = parameters.filter { !excluded.contains($0.name) }
    guard !kept.isEmpty else { return nil }
    return kept.map(\.raw).joined(separator: ";")
  }
}

extension ContentLineParameter {
  /// `NAME=value[,value]`, quoting values that hold `:`, `;` or `,` (RFC 5545 §3.2). A double
  /// quote cannot appear in a parameter value; it is written as `^'` (RFC 6868), as are `^`
  /// and line breaks.
  static func format(name: String, values: [String]) -> String {
    let encodedValues = values.map { value -> String in
      var encoded = ""
      for character in value {
        switch character {
        case "^": encoded += "^^"
        case "\"": encoded += "^'"
        case "\n", "\r\n", "\r": encoded += "^n"
        default: encoded.append(character)
        }
      }
      let needsQuotes = encoded.contains { $0 == ":" || $0 == ";" || $0 == "," }
      return needsQuotes ? "\"" + encoded + "\"" : encoded
    }
    return name + "=" + encodedValues.joined(separator: ",")
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs.
  func trimmingASCIIWhitespace() -> String {
    // Nothing to trim when neither end is a space or a tab: no Character to walk.
    let text = String(self)
    let isSpaceByte = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    if let first = text.utf8.first, let last = text.utf8.last, !isSpaceByte(first), !isSpaceByte(last) { return text }
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
    guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
      return ""
    }
    return String(self[first...last])
  }
}

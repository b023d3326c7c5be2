/// One iCalendar content line after unfolding (RFC 5545 §3.1), with the physical line it
/// started on, for messages.
struct ContentLine: Sendable, Equatable {
  /// The unfolded line, without its terminator.
  let text: String
  /// The 1-based physical line the content line starts on.
  let line: Int
  /// The name as one of the names decoders dispatch on, when it is one.
  let known: ICSName?
  /// `BEGIN:NAME` or `END:NAME`, with the component name in upper case.
  let boundary: ComponentBoundary?

  init(text: String, line: Int) {
    self.text = text
    self.line = line
    // Names and component names are ASCII; reading them as bytes keeps a 100k-item file fast.
    var text = text
    (known, boundary) = text.withUTF8(Self.nameAndBoundary)
  }

  /// A line whose name and boundary were read from its bytes already (`ContentLineReader`).
  init(text: String, line: Int, known: ICSName?, boundary: ComponentBoundary?) {
    self.text = text
    self.line = line
    self.known = known
    self.boundary = boundary
  }

  /// The property or keyword name in upper case: everything before the first `;` or `:`.
  /// Made when asked for, not stored: a line is copied with every block it is in, and a known
  /// name is a literal while an unknown one (`X-…`) is rarely asked for.
  var name: String {
    if let known { return known.rawValue }
    var text = text
    return text.withUTF8 { bytes in
      var nameEnd = 0
      while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: ";"), bytes[nameEnd] != UInt8(ascii: ":") {
        nameEnd += 1
      }
      return Self.uppercasedUnknown(UnsafeBufferPointer(rebasing: bytes[..<nameEnd]))
    }
  }

  /// The line split into name, parameters and value; nil when it has no `:` outside quotes.
  var parts: ContentLineParts? { ContentLineParts(text) }

  static func nameAndBoundary(_ bytes: UnsafeBufferPointer<UInt8>) -> (ICSName?, ComponentBoundary?) {
    var nameEnd = 0
    while nameEnd < bytes.count, bytes[nameEnd] != UInt8(ascii: ";"), bytes[nameEnd] != UInt8(ascii: ":") {
      nameEnd += 1
    }
    let known = ICSName(UnsafeBufferPointer(rebasing: bytes[..<nameEnd]))
    guard known == .begin || known == .end, nameEnd < bytes.count, bytes[nameEnd] == UInt8(ascii: ":") else {
      return (known, nil)
    }
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
    return (known, component.isEmpty ? nil : (known == .begin ? .begin(component) : .end(component)))
  }

  /// The bytes with ASCII letters in upper case (names are usually upper case already).
  static func asciiUppercased(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    ICSName(bytes)?.rawValue ?? uppercasedUnknown(bytes)
  }

  /// `asciiUppercased` of bytes that spell no `ICSName`.
  private static func uppercasedUnknown(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
    guard bytes.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) else { return String(decoding: bytes, as: UTF8.self) }
    return String(decoding: bytes.map { $0 >= 0x61 && $0 <= 0x7A ? $0 - 0x20 : $0 }, as: UTF8.self)
  }
}

/// The names a calendar repeats on almost every line: properties, components and parameters
/// of RFC 5545 and the extensions remconv reads and writes.
///
/// Every line's name (and every parameter's) is upper-cased into a `String`, in the pre-scan
/// and again in the reading pass, and the decoders dispatch on it: decoding those few bytes
/// was a sixth of the pre-scan, and comparing the name with case after case of a `switch`
/// over strings a twentieth of a conversion. A name is packed, upper-cased, into three words
/// and compared with the packed names of its length; a match gives the case, whose text is a
/// literal that costs nothing to make, and the decoders switch over cases.
enum ICSName: String, CaseIterable {
  case begin = "BEGIN"
  case end = "END"
  case vcalendar = "VCALENDAR"
  case vtodo = "VTODO"
  case vevent = "VEVENT"
  case vjournal = "VJOURNAL"
  case vtimezone = "VTIMEZONE"
  case valarm = "VALARM"
  case standard = "STANDARD"
  case daylight = "DAYLIGHT"
  case version = "VERSION"
  case prodid = "PRODID"
  case calscale = "CALSCALE"
  case method = "METHOD"
  case name = "NAME"
  case color = "COLOR"
  case calendarName = "X-WR-CALNAME"
  case calendarTimeZone = "X-WR-TIMEZONE"
  case appleCalendarColor = "X-APPLE-CALENDAR-COLOR"
  case appleSortOrder = "X-APPLE-SORT-ORDER"
  case uid = "UID"
  case dtstamp = "DTSTAMP"
  case created = "CREATED"
  case lastModified = "LAST-MODIFIED"
  case sequence = "SEQUENCE"
  case summary = "SUMMARY"
  case description = "DESCRIPTION"
  case status = "STATUS"
  case classification = "CLASS"
  case due = "DUE"
  case dtstart = "DTSTART"
  case duration = "DURATION"
  case completed = "COMPLETED"
  case percentComplete = "PERCENT-COMPLETE"
  case priority = "PRIORITY"
  case categories = "CATEGORIES"
  case relatedTo = "RELATED-TO"
  case url = "URL"
  case location = "LOCATION"
  case geo = "GEO"
  case comment = "COMMENT"
  case contact = "CONTACT"
  case attach = "ATTACH"
  case organizer = "ORGANIZER"
  case attendee = "ATTENDEE"
  case rrule = "RRULE"
  case rdate = "RDATE"
  case exdate = "EXDATE"
  case recurrenceID = "RECURRENCE-ID"
  case trigger = "TRIGGER"
  case action = "ACTION"
  case repeatCount = "REPEAT"
  case tzid = "TZID"
  case tzname = "TZNAME"
  case tzoffsetfrom = "TZOFFSETFROM"
  case tzoffsetto = "TZOFFSETTO"
  case tzurl = "TZURL"
  case licLocation = "X-LIC-LOCATION"
  case remconvFlagged = "X-REMCONV-FLAGGED"
  case remconvExtra = "X-REMCONV-EXTRA"
  case remconvInvalid = "X-REMCONV-INVALID"
  case remconvCreated = "X-REMCONV-CREATED"
  case value = "VALUE"
  case reltype = "RELTYPE"
  case related = "RELATED"
  case language = "LANGUAGE"
  case altrep = "ALTREP"
  case encoding = "ENCODING"
  case fmttype = "FMTTYPE"

  /// The longest name packed.
  private static let maximumLength = 24

  /// An open-addressed hash table of the packed names: a lookup is a multiply and one or two
  /// probes. A fixed allocation that lives as long as the process: reading it retains nothing.
  /// Written once, by its initializer (which Swift runs once, thread-safely), and only read
  /// after: safe to share between threads.
  nonisolated(unsafe) private static let table: UnsafeMutableBufferPointer<Entry?> = {
    let table = UnsafeMutableBufferPointer<Entry?>.allocate(capacity: tableSize)
    table.initialize(repeating: nil)
    for name in allCases {
      let bytes = Array(name.rawValue.utf8)
      precondition(bytes.count <= maximumLength, "a name fits three words")
      let packed = bytes.withUnsafeBufferPointer(pack)
      var slot = packed.slot
      while table[slot] != nil { slot = (slot + 1) & (tableSize - 1) }
      table[slot] = Entry(packed: packed, length: bytes.count, name: name)
    }
    return table
  }()

  /// A power of two, several times the number of names: probes stay short.
  private static let tableSize = 512

  private struct Entry {
    let packed: Packed
    /// Bytes that end in NULs pack like the name without them.
    let length: Int
    let name: ICSName
  }

  /// The name the bytes spell in any case of ASCII letters, or nil.
  init?(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard bytes.count > 0, bytes.count <= Self.maximumLength else { return nil }
    let packed = Self.pack(bytes)
    let table = Self.table
    var slot = packed.slot
    while let entry = table[slot] {
      if entry.packed == packed, entry.length == bytes.count {
        self = entry.name
        return
      }
      slot = (slot + 1) & (Self.tableSize - 1)
    }
    return nil
  }

  /// Three words of upper-cased bytes, zero after the last.
  private struct Packed: Equatable {
    var words: (UInt64, UInt64, UInt64)

    static func == (left: Packed, right: Packed) -> Bool {
      left.words.0 == right.words.0 && left.words.1 == right.words.1 && left.words.2 == right.words.2
    }

    /// The slot to start probing at: the high bits of a multiplicative hash.
    var slot: Int {
      let mixed =
        (words.0 &* 0x9E37_79B9_7F4A_7C15) ^ (words.1 &* 0xC2B2_AE3D_27D4_EB4F) ^ (words.2 &* 0x1656_67B1_9E37_79F9)
      return Int(truncatingIfNeeded: mixed >> 55) & (ICSName.tableSize - 1)
    }
  }

  /// Up to 24 bytes, ASCII letters upper-cased, little-endian into three words (the rest zero).
  private static func pack(_ bytes: UnsafeBufferPointer<UInt8>) -> Packed {
    var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
    withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: UnsafeRawBufferPointer(bytes)) }
    return Packed(words: (upper(words.0), upper(words.1), upper(words.2)))
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

  /// Splits `text`. Its parts are slices of it: the line was validated as UTF-8 once, when it
  /// was made a String, and each part ends before an ASCII delimiter, so no part is decoded or
  /// validated again (that was a twentieth of an import of long notes, bench/findings.md R3).
  /// Without `readingValue` the value is left empty: a reader that wants a line's parameters
  /// does not copy a long note.
  init?(_ text: String, readingValue: Bool = true) {
    let utf8 = text.utf8
    let parts = utf8.withContiguousStorageIfAvailable { bytes in
      Self(bytes: bytes, readingValue: readingValue) { start, end in
        // Decoding ASCII is a copy (and a short part becomes a small string held inline); the
        // slice of the line, which has a fixed cost of its own, pays only for a long part
        // with other characters, whose validation goes scalar by scalar.
        let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard part.count > 15, !Self.isASCII(part) else { return String(decoding: part, as: UTF8.self) }
        return String(
          Substring(utf8[utf8.index(utf8.startIndex, offsetBy: start)..<utf8.index(utf8.startIndex, offsetBy: end)]))
      }
    }
    switch parts {
    case .some(.some(let parts)): self = parts
    case .some(.none): return nil
    case .none:
      // A bridged or foreign string: made native (and contiguous) first.
      guard let native = ContentLineParts(String(decoding: Array(utf8), as: UTF8.self), readingValue: readingValue)
      else { return nil }
      self = native
    }
  }

  /// No byte with the high bit set: eight bytes to a test, stopping at the first word with one.
  private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = UnsafeRawPointer(bytes.baseAddress) else { return true }
    var offset = 0
    while offset + 8 <= bytes.count {
      if base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
      offset += 8
    }
    while offset < bytes.count {
      if bytes[offset] >= 0x80 { return false }
      offset += 1
    }
    return true
  }

  /// `slice(start, end)` is the text of bytes `start..<end`.
  private init?(bytes: UnsafeBufferPointer<UInt8>, readingValue: Bool, slice: (Int, Int) -> String) {
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
            values.append(slice(valueStart, closing))
            index = closing + 1
          } else {
            let valueStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: ","), bytes[index] != UInt8(ascii: ";"),
              bytes[index] != UInt8(ascii: ":")
            {
              index += 1
            }
            values.append(slice(valueStart, index))
          }
        } while index < bytes.count && bytes[index] == UInt8(ascii: ",")
      }
      let raw = slice(nameStart, index)
      parameters.append(ContentLineParameter(name: parameterName, values: values, raw: raw))
    }
    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
    self.parameters = parameters
    value = readingValue ? slice(index + 1, bytes.count) : ""
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

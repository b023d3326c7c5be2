/// A streaming JSON parser over a `ByteReader`, tracking line and column for messages.
///
/// Formats use it two ways: `parseValue()` for a whole value (one reminder, one JSON Lines
/// record), and the token-level calls to walk a large document's outer structure without
/// holding it in memory.
public final class JSONParser {
  public let reader: ByteReader
  public private(set) var line = 1
  private var lineStartOffset = 0

  public init(reader: ByteReader) { self.reader = reader }

  /// Parses a complete JSON text held in memory.
  public static func parse(_ text: String, name: String = "<json>") throws(RemconvError) -> JSONValue {
    let parser = JSONParser(reader: ByteReader(bytes: Array(text.utf8), name: name))
    let value = try parser.parseValue()
    try parser.skipWhitespace()
    guard try parser.reader.peek() == nil else { throw parser.error("unexpected text after the JSON value") }
    return value
  }

  public var location: SourceLocation {
    SourceLocation(file: reader.name, line: line, column: reader.offset - lineStartOffset + 1)
  }

  public func error(_ message: String) -> RemconvError {
    .malformedInput("malformed JSON: \(message)", at: location)
  }

  /// Skips white space and returns the next significant byte without consuming it.
  public func peekToken() throws(RemconvError) -> UInt8? {
    try skipWhitespace()
    return try reader.peek()
  }

  /// Consumes `byte` (after white space) or fails.
  public func expect(_ byte: UInt8, _ what: String) throws(RemconvError) {
    guard try peekToken() == byte else { throw error("expected \(what)") }
    _ = try reader.next()
  }

  /// Consumes `byte` if it comes next.
  public func consume(_ byte: UInt8) throws(RemconvError) -> Bool {
    guard try peekToken() == byte else { return false }
    _ = try reader.next()
    return true
  }

  /// Skips a UTF-8 byte order mark at the very start of the input. RFC 8259 (§8.1) lets a
  /// parser ignore one, and Windows tools (PowerShell's `Out-File`, Notepad) write it.
  public func skipByteOrderMark() throws(RemconvError) {
    guard reader.offset == 0, try reader.peekPrefix(3) == [0xEF, 0xBB, 0xBF] else { return }
    for _ in 0..<3 { _ = try reader.next() }
    lineStartOffset = reader.offset
  }

  public func skipWhitespace() throws(RemconvError) {
    while let byte = try reader.peek() {
      switch byte {
      case 0x20, 0x09, 0x0D: _ = try reader.next()
      case 0x0A:
        _ = try reader.next()
        line += 1
        lineStartOffset = reader.offset
      default: return
      }
    }
  }

  public func parseValue(depth: Int = 0) throws(RemconvError) -> JSONValue {
    guard depth < InputLimits.maximumNestingDepth else {
      throw error("nested deeper than the limit of \(InputLimits.maximumNestingDepth)")
    }
    guard let byte = try peekToken() else { throw error("unexpected end of input") }
    switch byte {
    case UInt8(ascii: "{"):
      _ = try reader.next()
      var members: [String: JSONValue] = [:]
      if try consume(UInt8(ascii: "}")) { return .object(members) }
      repeat {
        guard try peekToken() == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
        let key = try parseString()
        try expect(UInt8(ascii: ":"), "':' after a member name")
        members[key] = try parseValue(depth: depth + 1)
      } while try consume(UInt8(ascii: ","))
      try expect(UInt8(ascii: "}"), "',' or '}' in an object")
      return .object(members)
    case UInt8(ascii: "["):
      _ = try reader.next()
      var items: [JSONValue] = []
      if try consume(UInt8(ascii: "]")) { return .array(items) }
      repeat {
        items.append(try parseValue(depth: depth + 1))
      } while try consume(UInt8(ascii: ","))
      try expect(UInt8(ascii: "]"), "',' or ']' in an array")
      return .array(items)
    case UInt8(ascii: "\""):
      return .string(try parseString())
    case UInt8(ascii: "t"):
      try literal("true")
      return .bool(true)
    case UInt8(ascii: "f"):
      try literal("false")
      return .bool(false)
    case UInt8(ascii: "n"):
      try literal("null")
      return .null
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try parseNumber())
    default:
      throw error("unexpected character '\(Self.printable(byte))'")
    }
  }

  /// Parses a string token (the next byte must be a quote).
  public func parseString() throws(RemconvError) -> String {
    try expect(UInt8(ascii: "\""), "a string")
    var bytes: [UInt8] = []
    while true {
      guard let byte = try reader.next() else { throw error("unterminated string") }
      switch byte {
      case UInt8(ascii: "\""):
        guard let text = String(validating: bytes, as: UTF8.self) else {
          throw error("a string is not valid UTF-8")
        }
        return text
      case UInt8(ascii: "\\"):
        guard let escape = try reader.next() else { throw error("unterminated string") }
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): bytes.append(escape)
        case UInt8(ascii: "b"): bytes.append(0x08)
        case UInt8(ascii: "f"): bytes.append(0x0C)
        case UInt8(ascii: "n"): bytes.append(0x0A)
        case UInt8(ascii: "r"): bytes.append(0x0D)
        case UInt8(ascii: "t"): bytes.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hexQuad()
          if (0xD800...0xDBFF).contains(scalar) {
            guard try reader.next() == UInt8(ascii: "\\"), try reader.next() == UInt8(ascii: "u") else {
              throw error("a lone UTF-16 surrogate in a \\u escape")
            }
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone UTF-16 surrogate in a \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00...0xDFFF).contains(scalar) {
            throw error("a lone UTF-16 surrogate in a \\u escape")
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw error("an invalid \\u escape") }
          bytes.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
          throw error("an invalid escape '\\\(Self.printable(escape))'")
        }
      case 0x00..<0x20:
        throw error("a control character inside a string (escape it)")
      default:
        bytes.append(byte)
      }
      if bytes.count > InputLimits.maximumFieldSize {
        throw error("a string is longer than the limit of \(InputLimits.maximumFieldSize) bytes")
      }
    }
  }

  private func hexQuad() throws(RemconvError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard let byte = try reader.next() else { throw error("unterminated \\u escape") }
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw error("an invalid \\u escape")
      }
      value = value * 16 + digit
    }
    return value
  }

  private func parseNumber() throws(RemconvError) -> String {
    var bytes: [UInt8] = []
    while let byte = try reader.peek(),
      (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        || byte == UInt8(ascii: "+") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
        || byte == UInt8(ascii: "E")
    {
      bytes.append(byte)
      _ = try reader.next()
      if bytes.count > 64 { throw error("a number is too long") }
    }
    let text = String(decoding: bytes, as: UTF8.self)
    guard Self.isValidNumber(bytes) else { throw error("'\(text)' is not a valid number") }
    return text
  }

  /// The JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  private static func isValidNumber(_ bytes: [UInt8]) -> Bool {
    var index = 0
    func digits() -> Int {
      let start = index
      while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
      return index - start
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { return false }
    if bytes[index] == UInt8(ascii: "0") { index += 1 } else if digits() == 0 { return false }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      if digits() == 0 { return false }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      if digits() == 0 { return false }
    }
    return index == bytes.count
  }

  private func literal(_ word: StaticString) throws(RemconvError) {
    let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    for byte in expected {
      guard try reader.next() == byte else { throw error("expected '\(word)'") }
    }
  }

  static func printable(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
  }
}

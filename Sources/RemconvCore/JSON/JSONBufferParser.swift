/// Parses one JSON value held in contiguous memory.
///
/// The hot path of every JSON format: a struct over an unsafe buffer, so the compiler checks
/// exclusive access statically and the loops touch no reference counts. UTF-8 is validated
/// once for the whole value, so strings are cut from it without a second check.
struct JSONBufferParser {
  /// A syntax error at a byte offset of the buffer.
  struct SyntaxError: Error {
    let message: String
    let offset: Int
  }

  /// A member name met a second time in one object: its earlier value is replaced.
  struct Duplicate {
    /// The member names and array indexes leading from the parsed value to the object.
    let path: [String]
    /// The name as the replaced member spelled it.
    let key: String
    /// The value the later member replaced.
    let dropped: JSONValue
    /// The offset of the later member's name.
    let offset: Int
  }

  private let bytes: UnsafeBufferPointer<UInt8>
  private(set) var index = 0
  /// Set when an object had a member name twice (its dictionary came out smaller than its
  /// member list): the only trace duplicates leave on the hot path.
  private(set) var sawDuplicate = false

  init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

  /// Parses the whole buffer as one value (white space around it allowed).
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(SyntaxError) -> JSONValue {
    try parse(bytes, findingDuplicates: nil)
  }

  /// Parses the whole buffer as one value and appends every member name that came twice in
  /// one of its objects to `duplicates`.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>, duplicates: inout [Duplicate]) throws(SyntaxError) -> JSONValue
  {
    var found: [Duplicate] = []
    let value = try parse(bytes, findingDuplicates: &found)
    if !found.isEmpty { duplicates += found }
    return value
  }

  private static func parse(
    _ bytes: UnsafeBufferPointer<UInt8>, findingDuplicates duplicates: UnsafeMutablePointer<[Duplicate]>?
  ) throws(SyntaxError) -> JSONValue {
    if let invalid = UTF8Bytes.firstInvalid(bytes) {
      throw SyntaxError(message: "the text is not valid UTF-8", offset: invalid)
    }
    var parser = JSONBufferParser(bytes)
    let value = try parser.parseValue(depth: 0)
    parser.skipWhitespace()
    if parser.index < bytes.count {
      throw SyntaxError(message: "unexpected text after the JSON value", offset: parser.index)
    }
    if parser.sawDuplicate, let duplicates {
      // Rare: walk the value again, this time keeping names, paths and offsets.
      var walker = JSONBufferParser(bytes)
      try walker.collectDuplicates(path: [], depth: 0, into: &duplicates.pointee)
    }
    return value
  }

  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  private func fail(_ message: String) -> SyntaxError { SyntaxError(message: message, offset: index) }

  private mutating func expect(_ byte: UInt8, _ what: String) throws(SyntaxError) {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { throw fail("expected \(what)") }
    index += 1
  }

  private mutating func consume(_ byte: UInt8) -> Bool {
    skipWhitespace()
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }

  mutating func parseValue(depth: Int) throws(SyntaxError) -> JSONValue {
    guard depth < InputLimits.maximumNestingDepth else {
      throw fail("nested deeper than the limit of \(InputLimits.maximumNestingDepth)")
    }
    skipWhitespace()
    guard index < bytes.count else { throw fail("unexpected end of input") }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      // Members are collected first and hashed into a dictionary of the right size once: growing
      // one member at a time rehashes it several times per object.
      var members: [(String, JSONValue)] = []
      try parseMembers(depth: depth) { members.append(($0, $1)) }
      if members.isEmpty { return .object([:]) }
      // A name that comes twice keeps its last value; the merged dictionary is smaller than the
      // member list then, which is all the hot path notes (see `collectDuplicates`).
      let memberCount = members.count
      let object = Dictionary(members, uniquingKeysWith: { _, last in last })
      if object.count != memberCount { sawDuplicate = true }
      return .object(object)
    case UInt8(ascii: "["):
      index += 1
      var items: [JSONValue] = []
      if consume(UInt8(ascii: "]")) { return .array(items) }
      repeat {
        items.append(try parseValue(depth: depth + 1))
      } while consume(UInt8(ascii: ","))
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
      throw fail("unexpected character '\(JSONParser.printable(bytes[index]))'")
    }
  }

  /// Parses the members of the object whose `{` is at `index`, handing each to `member` in order.
  private mutating func parseMembers(depth: Int, _ member: (String, JSONValue) -> Void) throws(SyntaxError) {
    index += 1
    if consume(UInt8(ascii: "}")) { return }
    repeat {
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
        throw fail("expected a member name in quotes")
      }
      let key = try parseString()
      try expect(UInt8(ascii: ":"), "':' after a member name")
      member(key, try parseValue(depth: depth + 1))
    } while consume(UInt8(ascii: ","))
    try expect(UInt8(ascii: "}"), "',' or '}' in an object")
  }

  /// Parses the whole buffer, which must hold one object (white space around it allowed), and
  /// hands each of its members to `member` in order, without building the object's dictionary:
  /// a reader with a slot per name it knows fills them straight (JSON Lines). The same errors as
  /// `parse` for an object. True when a value inside a member had a name twice in one of its
  /// objects (the caller then parses the buffer with `parse(_:duplicates:)` to learn which);
  /// a name the object itself has twice is the caller's to notice.
  static func parseMembers(
    ofObject bytes: UnsafeBufferPointer<UInt8>, _ member: (String, JSONValue) -> Void
  ) throws(SyntaxError) -> Bool {
    if let invalid = UTF8Bytes.firstInvalid(bytes) {
      throw SyntaxError(message: "the text is not valid UTF-8", offset: invalid)
    }
    var parser = JSONBufferParser(bytes)
    parser.skipWhitespace()
    guard parser.index < bytes.count, bytes[parser.index] == UInt8(ascii: "{") else {
      preconditionFailure("parseMembers(ofObject:) of a value that is not an object")
    }
    try parser.parseMembers(depth: 0, member)
    parser.skipWhitespace()
    if parser.index < bytes.count {
      throw SyntaxError(message: "unexpected text after the JSON value", offset: parser.index)
    }
    return parser.sawDuplicate
  }

  /// Walks the value at `index` (already parsed once, so well-formed) and appends each member
  /// whose name an earlier member of the same object had, with the value it replaced. Names
  /// compare as the dictionary compares them: canonically equivalent spellings are one name
  /// there, so they are duplicates here too.
  private mutating func collectDuplicates(path: [String], depth: Int, into duplicates: inout [Duplicate])
    throws(SyntaxError)
  {
    skipWhitespace()
    guard index < bytes.count else { return }
    switch bytes[index] {
    case UInt8(ascii: "{"):
      index += 1
      if consume(UInt8(ascii: "}")) { return }
      var holders: [String: (key: String, value: JSONValue)] = [:]
      repeat {
        skipWhitespace()
        let offset = index
        let key = try parseString()
        try expect(UInt8(ascii: ":"), "':' after a member name")
        let value = try member(path + [key], depth: depth, into: &duplicates)
        if let previous = holders[key] {
          duplicates.append(Duplicate(path: path, key: previous.key, dropped: previous.value, offset: offset))
        }
        holders[key] = (key, value)
      } while consume(UInt8(ascii: ","))
      try expect(UInt8(ascii: "}"), "',' or '}' in an object")
    case UInt8(ascii: "["):
      index += 1
      if consume(UInt8(ascii: "]")) { return }
      var position = 0
      repeat {
        _ = try member(path + [String(position)], depth: depth, into: &duplicates)
        position += 1
      } while consume(UInt8(ascii: ","))
      try expect(UInt8(ascii: "]"), "',' or ']' in an array")
    default:
      _ = try parseValue(depth: depth)
    }
  }

  /// Parses the member or element at `index` and, if it is a container, walks it for duplicates.
  private mutating func member(_ path: [String], depth: Int, into duplicates: inout [Duplicate]) throws(SyntaxError)
    -> JSONValue
  {
    skipWhitespace()
    let start = index
    let value = try parseValue(depth: depth + 1)
    switch value {
    case .object, .array:
      let end = index
      index = start
      try collectDuplicates(path: path, depth: depth + 1, into: &duplicates)
      index = end
    default: break
    }
    return value
  }

  /// Parses a string token; `index` is at its opening quote.
  mutating func parseString() throws(SyntaxError) -> String {
    index += 1
    let start = index
    // Fast path: no escapes, the common case.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        guard index - start <= InputLimits.maximumFieldSize else { throw tooLong(start) }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        index += 1
        return text
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
      index += 1
    }
    var decoded = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\""):
        guard decoded.count <= InputLimits.maximumFieldSize else { throw tooLong(start) }
        return String(decoding: decoded, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard index < bytes.count else { throw fail("unterminated string") }
        let escape = bytes[index]
        index += 1
        switch escape {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
        case UInt8(ascii: "b"): decoded.append(0x08)
        case UInt8(ascii: "f"): decoded.append(0x0C)
        case UInt8(ascii: "n"): decoded.append(0x0A)
        case UInt8(ascii: "r"): decoded.append(0x0D)
        case UInt8(ascii: "t"): decoded.append(0x09)
        case UInt8(ascii: "u"):
          var scalar = try hexQuad()
          if (0xD800...0xDBFF).contains(scalar) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw fail("a lone UTF-16 surrogate in a \\u escape") }
            index += 2
            let low = try hexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw fail("a lone UTF-16 surrogate in a \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
          } else if (0xDC00...0xDFFF).contains(scalar) {
            throw fail("a lone UTF-16 surrogate in a \\u escape")
          }
          guard let unicode = Unicode.Scalar(scalar) else { throw fail("an invalid \\u escape") }
          decoded.append(contentsOf: Array(String(Character(unicode)).utf8))
        default:
          index -= 1
          throw fail("an invalid escape '\\\(JSONParser.printable(escape))'")
        }
      case 0x00..<0x20:
        index -= 1
        throw fail("a control character inside a string (escape it)")
      default:
        decoded.append(byte)
      }
    }
    throw fail("unterminated string")
  }

  private func tooLong(_ start: Int) -> SyntaxError {
    SyntaxError(
      message: "a string is longer than the limit of \(InputLimits.maximumFieldSize) bytes", offset: start - 1)
  }

  private mutating func hexQuad() throws(SyntaxError) -> UInt32 {
    var value: UInt32 = 0
    for _ in 0..<4 {
      guard index < bytes.count else { throw fail("unterminated \\u escape") }
      let byte = bytes[index]
      let digit: UInt32
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
      default: throw fail("an invalid \\u escape")
      }
      value = value * 16 + digit
      index += 1
    }
    return value
  }

  /// The JSON number grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
  private mutating func parseNumber() throws(SyntaxError) -> String {
    let start = index
    func digits(_ parser: inout JSONBufferParser) -> Int {
      let first = parser.index
      while parser.index < parser.bytes.count, (0x30...0x39).contains(parser.bytes[parser.index]) {
        parser.index += 1
      }
      return parser.index - first
    }
    if bytes[index] == UInt8(ascii: "-") { index += 1 }
    guard index < bytes.count else { throw fail("a number ends early") }
    if bytes[index] == UInt8(ascii: "0") {
      index += 1
    } else if digits(&self) == 0 {
      throw fail("'-' is not followed by digits")
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      if digits(&self) == 0 { throw fail("a number has no digits after '.'") }
    }
    if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
      index += 1
      if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
      if digits(&self) == 0 { throw fail("a number has no digits in its exponent") }
    }
    if index < bytes.count, (0x30...0x39).contains(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
      throw fail(
        "'\(String(decoding: UnsafeBufferPointer(rebasing: bytes[start...index]), as: UTF8.self))' is not a valid number"
      )
    }
    guard index - start <= 64 else { throw fail("a number is too long") }
    return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
  }

  private mutating func literal(_ word: StaticString) throws(SyntaxError) {
    let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
    for byte in expected {
      guard index < bytes.count, bytes[index] == byte else { throw fail("expected '\(word)'") }
      index += 1
    }
  }
}

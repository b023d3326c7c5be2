/// A member name that came twice in one JSON object. JSON leaves the meaning open (RFC 8259
/// §4); remconv uses the last value, as most parsers do, and this says what it replaced.
public struct JSONDuplicateKey: Hashable, Sendable {
  /// The member as a JSON Pointer (RFC 6901) from the item that holds it: `/title`, `/extra/a`.
  public let pointer: String
  /// The name, as the replaced member spelled it.
  public let key: String
  /// The earlier value, which the later one replaced.
  public let dropped: JSONValue
  /// Where the later member's name is.
  public let location: SourceLocation

  public init(pointer: String, key: String, dropped: JSONValue, location: SourceLocation) {
    self.pointer = pointer
    self.key = key
    self.dropped = dropped
    self.location = location
  }

  /// `pointer` with `name` appended as a reference token (`~` and `/` escaped, RFC 6901 §3).
  public static func pointer(_ pointer: String, appending name: String) -> String {
    var token = ""
    for character in name.unicodeScalars {
      switch character {
      case "~": token += "~0"
      case "/": token += "~1"
      default: token.unicodeScalars.append(character)
      }
    }
    return pointer + "/" + token
  }

  /// The same duplicate seen from one level up, inside the member or element `name`.
  public func nested(under name: String) -> JSONDuplicateKey {
    JSONDuplicateKey(
      pointer: Self.pointer("", appending: name) + pointer, key: key, dropped: dropped, location: location)
  }

  /// The warning for it; `keptIn` names where the earlier value is kept, if anywhere.
  public func report(to diagnostics: DiagnosticLog, uid: String?, keptIn: String?) {
    let fate =
      keptIn.map { "the earlier value is kept in \($0)" } ?? "the earlier value \(Self.excerpt(dropped)) is not read"
    diagnostics.warning(
      "duplicate-key",
      "the member \(JSONText.quoted(key)) comes twice in one object (\(pointer)): the last value is used, \(fate)",
      at: location, uid: uid)
  }

  /// A value as JSON, shortened for a message.
  private static func excerpt(_ value: JSONValue) -> String {
    let text = JSONText.encode(value)
    return text.count <= 60 ? text : String(text.prefix(57)) + "..."
  }

  /// Keeps each dropped value in `extra.duplicateKeys`, under its pointer, in source order:
  /// an array, since a name may come more than twice.
  public static func keep(_ duplicates: [JSONDuplicateKey], in extra: inout [String: JSONValue]) {
    guard !duplicates.isEmpty else { return }
    var kept: [String: JSONValue]
    switch extra["duplicateKeys"] {
    case nil: kept = [:]
    case .object(let members)?: kept = members
    // Someone else's value under this name: kept inside rather than replaced.
    case let other?: kept = ["": other]
    }
    for duplicate in duplicates {
      kept[duplicate.pointer] = .array((kept[duplicate.pointer]?.arrayValue ?? []) + [duplicate.dropped])
    }
    extra["duplicateKeys"] = .object(kept)
  }
}

/// A streaming JSON parser over a `ByteReader`, tracking line and column for messages.
///
/// Formats use it two ways: `parseValue()` for a whole value (one reminder, one JSON Lines
/// record), and the token-level calls to walk a large document's outer structure without
/// holding it in memory.
public final class JSONParser {
  public let reader: ByteReader
  public private(set) var line = 1
  private var lineStartOffset = 0

  /// Told of each member name that comes twice in an object that `parseValue` or `parse(_:)`
  /// reads (nil: not looked for); readers that parse members one by one report their own.
  public var onDuplicateKey: ((JSONDuplicateKey) -> Void)?

  public init(reader: ByteReader) { self.reader = reader }

  /// Parses a complete JSON text held in memory.
  public static func parse(_ text: String, name: String = "<json>") throws(RemconvError) -> JSONValue {
    try parse(bytes: Array(text.utf8), name: name)
  }

  /// Parses JSON bytes held in memory (a JSON Lines record, a small document). Errors name
  /// `name`, and lines counted from `firstLine`.
  public static func parse(bytes: [UInt8], name: String, firstLine: Int = 1) throws(RemconvError) -> JSONValue {
    try parse(bytes: bytes, name: name, firstLine: firstLine, firstColumn: 1, duplicates: nil, under: "")
  }

  /// `parse(bytes:name:firstLine:)` that also appends each member name met twice in one object.
  public static func parse(
    bytes: [UInt8], name: String, firstLine: Int = 1, duplicates: inout [JSONDuplicateKey]
  ) throws(RemconvError) -> JSONValue {
    try parse(bytes: bytes, name: name, firstLine: firstLine, firstColumn: 1, duplicates: &duplicates, under: "")
  }

  /// The one parse of bytes in memory; duplicates are looked for when `duplicates` is given,
  /// their pointers starting with `pointer`.
  private static func parse(
    bytes: [UInt8], name: String, firstLine: Int, firstColumn: Int,
    duplicates: UnsafeMutablePointer<[JSONDuplicateKey]>?, under pointer: String
  ) throws(RemconvError) -> JSONValue {
    var found: [JSONBufferParser.Duplicate] = []
    let value: JSONValue
    do {
      value = try bytes.withUnsafeBufferPointer { buffer throws(JSONBufferParser.SyntaxError) in
        duplicates == nil ? try JSONBufferParser.parse(buffer) : try JSONBufferParser.parse(buffer, duplicates: &found)
      }
    } catch {
      throw malformed(error, in: bytes, name: name, firstLine: firstLine, firstColumn: firstColumn)
    }
    guard let duplicates, !found.isEmpty else { return value }
    // Inner objects end first; reported in the order the names stand in the text.
    for duplicate in found.sorted(by: { $0.offset < $1.offset }) {
      let position = Self.position(of: duplicate.offset, in: bytes, firstLine: firstLine, firstColumn: firstColumn)
      var path = pointer
      for name in duplicate.path { path = JSONDuplicateKey.pointer(path, appending: name) }
      duplicates.pointee.append(
        JSONDuplicateKey(
          pointer: JSONDuplicateKey.pointer(path, appending: duplicate.key), key: duplicate.key,
          dropped: duplicate.dropped, location: SourceLocation(file: name, line: position.line, column: position.column)
        ))
    }
    return value
  }

  /// Parses JSON bytes held in memory that hold one object (a JSON Lines record), handing each
  /// of its members to `member` in order without building the object's dictionary
  /// (`JSONBufferParser.parseMembers(ofObject:_:)`); errors as `parse(bytes:name:firstLine:)`
  /// gives them. Nil, with nothing parsed, when the bytes do not start with an object. True
  /// when a value inside had a name twice in one object: parse the bytes with
  /// `parse(bytes:name:firstLine:duplicates:)` to learn which.
  static func parseMembers(
    ofObject bytes: [UInt8], name: String, firstLine: Int, _ member: (String, JSONValue) -> Void
  ) throws(RemconvError) -> Bool? {
    let start = bytes.firstIndex { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    guard let start, bytes[start] == UInt8(ascii: "{") else { return nil }
    do {
      return try bytes.withUnsafeBufferPointer { buffer throws(JSONBufferParser.SyntaxError) in
        try JSONBufferParser.parseMembers(ofObject: buffer, member)
      }
    } catch {
      throw malformed(error, in: bytes, name: name, firstLine: firstLine, firstColumn: 1)
    }
  }

  /// The error for a syntax error in `bytes`, which start at (`firstLine`, `firstColumn`) of `name`.
  private static func malformed(
    _ error: JSONBufferParser.SyntaxError, in bytes: [UInt8], name: String, firstLine: Int, firstColumn: Int
  ) -> RemconvError {
    let position = Self.position(of: error.offset, in: bytes, firstLine: firstLine, firstColumn: firstColumn)
    return .malformedInput(
      "malformed JSON: \(error.message)", at: SourceLocation(file: name, line: position.line, column: position.column))
  }

  /// The line and column of `offset` in `bytes`, which start at (`firstLine`, `firstColumn`).
  static func position(of offset: Int, in bytes: [UInt8], firstLine: Int, firstColumn: Int) -> (line: Int, column: Int)
  {
    var line = firstLine
    var lineStart = 0
    var column = firstColumn
    for index in 0..<min(offset, bytes.count) where bytes[index] == 0x0A {
      line += 1
      lineStart = index + 1
    }
    column = line == firstLine ? firstColumn + offset : offset - lineStart + 1
    return (line, column)
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

  /// Parses the next complete value. Its bytes are first cut from the stream by a cheap
  /// scanner (strings, escapes and nesting only), then parsed in memory: the parse is fast
  /// and memory holds one value, however large the document.
  public func parseValue(depth: Int = 0, under pointer: String = "") throws(RemconvError) -> JSONValue {
    let value = try captureValue(depth: depth)
    return try parse(value, under: pointer)
  }

  /// A value's bytes as cut from the stream, and where it starts.
  public struct CapturedValue {
    public let bytes: [UInt8]
    public let location: SourceLocation
  }

  /// Cuts the next complete value from the stream without parsing it: its bytes may be all a
  /// reader needs (a record digest, see `RawRecordReader`). Structure beyond strings and nesting
  /// is checked only by `parse(_:)`.
  /// A value larger than `limit` bytes is refused as it is read: by default one item's size,
  /// since a value is one item or a part of one.
  public func captureValue(depth: Int = 0, limit: Int = InputLimits.maximumItemSize) throws(RemconvError)
    -> CapturedValue
  {
    guard try peekToken() != nil else { throw error("unexpected end of input") }
    let startLocation = location
    let startOffset = reader.offset
    var captured: [UInt8] = []
    var nesting = 0
    var inString = false
    var escaped = false
    var isScalar = false
    var started = false
    var tooDeep = false
    let finished = try reader.scan { buffer throws(RemconvError) in
      var index = 0
      while index < buffer.count {
        let byte = buffer[index]
        if !started {
          started = true
          switch byte {
          case UInt8(ascii: "{"), UInt8(ascii: "["): nesting = 1
          case UInt8(ascii: "\""): inString = true
          default: isScalar = true
          }
          index += 1
          continue
        }
        if isScalar {
          switch byte {
          case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ":"):
            captured.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<index]))
            return (index, true)
          default: break
          }
        } else if inString {
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "\"") {
            inString = false
            if nesting == 0 {
              captured.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0...index]))
              return (index + 1, true)
            }
          }
        } else {
          switch byte {
          case UInt8(ascii: "\""): inString = true
          case UInt8(ascii: "{"), UInt8(ascii: "["):
            nesting += 1
            if nesting + depth > InputLimits.maximumNestingDepth {
              tooDeep = true
              return (index, true)
            }
          case UInt8(ascii: "}"), UInt8(ascii: "]"):
            nesting -= 1
            if nesting == 0 {
              captured.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0...index]))
              return (index + 1, true)
            }
          default: break
          }
        }
        index += 1
      }
      captured.append(contentsOf: buffer)
      if captured.count > limit {
        throw .invalidInput(
          "a JSON value is larger than the limit of \(limit) bytes of one item",
          at: startLocation)
      }
      return (buffer.count, false)
    }
    if tooDeep { throw error("nested deeper than the limit of \(InputLimits.maximumNestingDepth)") }
    if !finished, !isScalar { throw error("unexpected end of input") }
    // Keep line numbers right for what follows the value.
    for (index, byte) in captured.enumerated() where byte == 0x0A {
      line += 1
      lineStartOffset = startOffset + index + 1
    }
    return CapturedValue(bytes: captured, location: startLocation)
  }

  /// Parses a value cut by `captureValue`; `onDuplicateKey` hears of names met twice, their
  /// pointers starting with `pointer` (where the value sits in its item).
  public func parse(_ value: CapturedValue, under pointer: String = "") throws(RemconvError) -> JSONValue {
    guard let onDuplicateKey else { return try parseCaptured(value, duplicates: nil, under: pointer) }
    var found: [JSONDuplicateKey] = []
    let result = try parseCaptured(value, duplicates: &found, under: pointer)
    for duplicate in found { onDuplicateKey(duplicate) }
    return result
  }

  /// Parses a value cut by `captureValue` and appends each member name met twice in one of its
  /// objects to `duplicates`.
  public func parse(
    _ value: CapturedValue, duplicates: inout [JSONDuplicateKey], under pointer: String = ""
  ) throws(RemconvError) -> JSONValue {
    try parseCaptured(value, duplicates: &duplicates, under: pointer)
  }

  private func parseCaptured(
    _ value: CapturedValue, duplicates: UnsafeMutablePointer<[JSONDuplicateKey]>?, under pointer: String
  ) throws(RemconvError) -> JSONValue {
    try Self.parse(
      bytes: value.bytes, name: reader.name, firstLine: value.location.line ?? 1,
      firstColumn: value.location.column ?? 1, duplicates: duplicates, under: pointer)
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

  static func printable(_ byte: UInt8) -> String {
    (0x21...0x7E).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + String(byte, radix: 16)
  }
}

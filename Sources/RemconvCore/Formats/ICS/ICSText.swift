import Foundation

/// iCalendar TEXT values (RFC 5545 §3.3.11) and line folding (§3.1).
enum ICSText {
  /// The longest line, in octets without the line break, that RFC 5545 allows.
  static let maximumLineOctets = 75

  /// Escapes a TEXT value: backslash, semicolon, comma, and line breaks as `\n`.
  static func escape(_ text: String) -> String {
    let utf8 = text.utf8
    guard utf8.contains(where: { $0 == 0x5C || $0 == 0x3B || $0 == 0x2C || $0 == 0x0A || $0 == 0x0D }) else {
      return text
    }
    var escaped: [UInt8] = []
    escaped.reserveCapacity(utf8.count + 8)
    var previous: UInt8 = 0
    for byte in utf8 {
      switch byte {
      case 0x5C, 0x3B, 0x2C: escaped += [0x5C, byte]
      case 0x0D: escaped += [0x5C, UInt8(ascii: "n")]
      case 0x0A where previous == 0x0D: break  // CRLF is one line break
      case 0x0A: escaped += [0x5C, UInt8(ascii: "n")]
      default: escaped.append(byte)
      }
      previous = byte
    }
    return String(decoding: escaped, as: UTF8.self)
  }

  /// Unescapes a TEXT value. Besides the RFC's escapes it accepts `\N` and Outlook's `\:`; a
  /// backslash before any other character is kept as written.
  static func unescape(_ text: some StringProtocol) -> String {
    let utf8 = text.utf8
    // Most values have no backslash: memchr finds that out a dozen times faster than a walk.
    let hasBackslash =
      utf8.withContiguousStorageIfAvailable { bytes in
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, 0x5C, bytes.count) != nil
      } ?? utf8.contains(0x5C)
    guard hasBackslash else { return String(text) }
    var result: [UInt8] = []
    result.reserveCapacity(utf8.count)
    var iterator = utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == 0x5C else {
        result.append(byte)
        continue
      }
      guard let escaped = iterator.next() else {
        result.append(0x5C)
        break
      }
      switch escaped {
      case UInt8(ascii: "n"), UInt8(ascii: "N"): result.append(0x0A)
      case 0x5C, 0x3B, 0x2C, 0x3A: result.append(escaped)
      default: result += [0x5C, escaped]
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// Splits a list value (`CATEGORIES:a\,b,c`) at the commas that are not escaped, and
  /// unescapes each item.
  static func splitList(_ text: String) -> [String] {
    var items: [String] = []
    var current = ""
    var escaping = false
    for character in text {
      if escaping {
        current.append("\\")
        current.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == "," {
        items.append(unescape(current))
        current = ""
      } else {
        current.append(character)
      }
    }
    if escaping { current.append("\\") }
    items.append(unescape(current))
    return items
  }

  /// Appends `line` folded at 75 octets, each physical line ended by CRLF. A fold never falls
  /// inside a UTF-8 sequence; continuation lines start with one space, which counts toward
  /// their 75 octets.
  static func appendFolded(_ line: String, to output: inout [UInt8]) {
    var line = line
    line.withUTF8 { bytes in
      var start = 0
      var limit = maximumLineOctets
      repeat {
        var end = min(start + limit, bytes.count)
        if end < bytes.count {
          // Step back to the first byte of a sequence (continuation bytes are 10xxxxxx).
          while end > start + 1, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        }
        if start > 0 { output.append(0x20) }
        output.append(contentsOf: bytes[start..<end])
        output.append(0x0D)
        output.append(0x0A)
        start = end
        limit = maximumLineOctets - 1
      } while start < bytes.count
    }
  }

  /// Splits serialised iCalendar text (libical's output) into unfolded content lines.
  static func unfoldedLines(of text: String) -> [String] {
    var lines: [String] = []
    for physical in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
      if let lead = physical.first, lead == " " || lead == "\t", !lines.isEmpty {
        lines[lines.count - 1] += physical.dropFirst()
      } else {
        lines.append(String(physical))
      }
    }
    return lines
  }
}

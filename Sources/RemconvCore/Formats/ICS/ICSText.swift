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
  ///
  /// memchr finds each backslash, and the run of bytes before it is appended as a slice of the
  /// value: the value is valid UTF-8 already and a run ends before an ASCII byte, so nothing is
  /// walked byte by byte or validated again (a walk that re-validated the result was a seventh
  /// of an import of long notes, bench/findings.md R2).
  static func unescape(_ text: some StringProtocol) -> String {
    let text = String(text)
    let utf8 = text.utf8
    let unescaped = utf8.withContiguousStorageIfAvailable { bytes -> String? in
      guard let base = bytes.baseAddress, !bytes.isEmpty, memchr(base, 0x5C, bytes.count) != nil else { return nil }
      var result = ""
      result.reserveCapacity(bytes.count)
      var runStart = 0
      var position = 0
      func appendRun(upTo end: Int) {
        guard runStart < end else { return }
        let from = utf8.index(utf8.startIndex, offsetBy: runStart)
        let to = utf8.index(utf8.startIndex, offsetBy: end)
        result.append(contentsOf: Substring(utf8[from..<to]))
      }
      while position < bytes.count, let found = memchr(base + position, 0x5C, bytes.count - position) {
        let backslash = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
        guard backslash + 1 < bytes.count else { break }
        let replacement: String?
        switch bytes[backslash + 1] {
        case UInt8(ascii: "n"), UInt8(ascii: "N"): replacement = "\n"
        case 0x5C: replacement = "\\"
        case 0x3B: replacement = ";"
        case 0x2C: replacement = ","
        case 0x3A: replacement = ":"
        default: replacement = nil
        }
        if let replacement {
          appendRun(upTo: backslash)
          result.append(replacement)
          runStart = backslash + 2
        }
        // An unknown escape stays in the run, backslash and all.
        position = backslash + 2
      }
      appendRun(upTo: bytes.count)
      return result
    }
    switch unescaped {
    case .some(.some(let result)): return result
    case .some(.none): return text
    case .none: return unescape(String(decoding: Array(utf8), as: UTF8.self))
    }
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
    for physical in text.split(
      omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
    {
      if let lead = physical.first, lead == " " || lead == "\t", !lines.isEmpty {
        lines[lines.count - 1] += physical.dropFirst()
      } else {
        lines.append(String(physical))
      }
    }
    return lines
  }
}

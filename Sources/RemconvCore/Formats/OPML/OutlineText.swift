/// What an outline's `text` attribute means, read the way outliners write it.
///
/// The OPML specification lets `text` carry encoded HTML, and Workflowy uses it for bold,
/// italics and links (`&lt;b&gt;bold&lt;/b&gt;`). Logseq puts a task's state and priority into
/// the text itself (`DONE [#A] Pay rent DEADLINE: <2026-11-30 Mon>`). The title is the text
/// with all of that read out; the reader keeps the original beside it, and the writer writes the
/// original back while it still says the same thing.
struct OutlineText: Equatable {
  /// The plain text: markup removed, character references decoded, task markers read out.
  var title: String
  /// The target of the text's only link, when it has exactly one.
  var link: String?
  /// From a Logseq task marker: `DONE` (and the closed `CANCELED`) are done, `TODO`, `NOW`, ... are not.
  var isDone: Bool?
  /// From a Logseq priority, `[#A]` high, `[#B]` medium, `[#C]` low.
  var priority: Priority?
  /// From a Logseq `DEADLINE: <…>`, else `SCHEDULED: <…>`: a date, or a floating time.
  var due: DueDate?

  /// Interprets `text`; `taskMarkers` reads Logseq's markers too (reminders, not lists).
  init(interpreting text: String, taskMarkers: Bool) {
    var rest = text
    if taskMarkers {
      if let (word, after) = Self.firstWord(rest), let done = Self.markers[word] {
        isDone = done
        rest = after
      }
      if let (word, after) = Self.firstWord(rest), let value = Self.priorities[word] {
        priority = value
        rest = after
      }
      // Only text with a `<` can hold a planning date: skip the search otherwise.
      if rest.utf8.contains(UInt8(ascii: "<")) {
        let deadline = Self.removePlanning("DEADLINE: <", from: &rest)
        let scheduled = Self.removePlanning("SCHEDULED: <", from: &rest)
        due = deadline ?? scheduled
      }
      if isDone != nil || priority != nil || due != nil { rest = rest.split(separator: " ").joined(separator: " ") }
    }
    let html = HTMLText.plain(rest)
    title = html.text
    if html.links.count == 1 { link = html.links[0] }
  }

  /// The text up to the first space and the text after it; nil without a space, or when the
  /// first character cannot start a marker or a priority (upper-case letter or `[`).
  private static func firstWord(_ text: String) -> (String, String)? {
    guard let first = text.utf8.first,
      (first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z")) || first == UInt8(ascii: "["),
      let space = text.firstIndex(of: " ")
    else { return nil }
    return (String(text[..<space]), String(text[text.index(after: space)...]))
  }

  /// A text taken as it is: the title and nothing else.
  init(literal text: String) { title = text }

  /// True when the text says nothing beyond its literal self: reading it gives it back unchanged.
  var isLiteral: Bool { link == nil && isDone == nil && priority == nil && due == nil }

  /// Logseq's workflow markers: the first word of a task block.
  static let markers: [String: Bool] = [
    "TODO": false, "DOING": false, "NOW": false, "LATER": false, "WAIT": false, "WAITING": false,
    "IN-PROGRESS": false, "DONE": true, "CANCELED": true, "CANCELLED": true,
  ]
  private static let priorities: [String: Priority] = ["[#A]": .high, "[#B]": .medium, "[#C]": .low]

  /// Removes `KEYWORD<date>` from `text` and returns the date; nil when there is none.
  private static func removePlanning(_ keyword: String, from text: inout String) -> DueDate? {
    let bytes = Array(text.utf8)
    let pattern = Array(keyword.utf8)
    guard let start = HTMLText.find(pattern, in: bytes[...], ignoringCase: false),
      let end = bytes[(start + pattern.count)...].firstIndex(of: UInt8(ascii: ">")),
      let value = planningDate(String(decoding: bytes[(start + pattern.count)..<end], as: UTF8.self))
    else { return nil }
    text = String(decoding: bytes[..<start] + bytes[(end + 1)...], as: UTF8.self)
    return value
  }

  /// `2026-11-30 Mon`, `2026-11-30 Mon 09:30`, with an optional repeater (`.+1w`) that remconv
  /// cannot carry and leaves in the original text.
  private static func planningDate(_ text: String) -> DueDate? {
    let parts = text.split(separator: " ")
    guard let first = parts.first, let date = LocalDate(iso: String(first)) else { return nil }
    for part in parts.dropFirst() where part.contains(":") {
      let clock = part.split(separator: ":").compactMap { Int($0) }
      guard clock.count == 2, let time = LocalDateTime(date: date, hour: clock[0], minute: clock[1], second: 0)
      else { return nil }
      return .floating(time)
    }
    return .date(date)
  }
}

/// HTML in outline text, reduced to plain text. Works on UTF-8 bytes: every byte of markup is
/// ASCII, so a multi-byte character is never split.
enum HTMLText {
  private static let lessThan = UInt8(ascii: "<")
  private static let greaterThan = UInt8(ascii: ">")
  private static let ampersand = UInt8(ascii: "&")

  /// The text with tags removed and character references decoded, and the `href` of every
  /// link. A `<` that does not open a tag, and an `&` that does not start a known reference,
  /// are text.
  static func plain(_ text: String) -> (text: String, links: [String]) {
    guard text.utf8.contains(where: { $0 == lessThan || $0 == ampersand }) else { return (text, []) }
    let bytes = Array(text.utf8)
    var output: [UInt8] = []
    output.reserveCapacity(bytes.count)
    var links: [String] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == lessThan, let tag = Tag(bytes, at: index) {
        if tag.name == "a", !tag.isClosing, let href = tag.attribute("href", in: bytes) { links.append(href) }
        if tag.name == "br" { output.append(UInt8(ascii: " ")) }
        index = tag.end + 1
        continue
      }
      if byte == ampersand, let (decoded, end) = reference(bytes, at: index) {
        output.append(contentsOf: decoded.utf8)
        index = end + 1
        continue
      }
      output.append(byte)
      index += 1
    }
    return (String(decoding: output, as: UTF8.self), links)
  }

  /// A tag or comment starting at `start`: `<name …>`, `</name>`, `<!-- … -->`.
  private struct Tag {
    /// Lower case; `!--` for a comment.
    var name: String
    var isClosing: Bool
    /// Where the tag's attributes start, and where its `>` is.
    var bodyStart: Int
    var end: Int

    init?(_ bytes: [UInt8], at start: Int) {
      var index = start + 1
      if bytes[index...].starts(with: "!--".utf8) {
        guard let close = HTMLText.find(Array("-->".utf8), in: bytes[(index + 3)...], ignoringCase: false) else {
          return nil
        }
        (name, isClosing, bodyStart, end) = ("!--", false, index, close + 2)
        return
      }
      isClosing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
      if isClosing { index += 1 }
      let nameStart = index
      while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
      guard index > nameStart, Self.isLetter(bytes[nameStart]), index < bytes.count,
        bytes[index] == HTMLText.greaterThan || bytes[index] == UInt8(ascii: "/") || Self.isSpace(bytes[index])
      else { return nil }
      name = String(decoding: bytes[nameStart..<index], as: UTF8.self).lowercased()
      bodyStart = index
      var quote: UInt8?
      while index < bytes.count {
        let byte = bytes[index]
        if let open = quote {
          if byte == open { quote = nil }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          quote = byte
        } else if byte == HTMLText.greaterThan {
          end = index
          return
        } else if byte == HTMLText.lessThan {
          return nil
        }
        index += 1
      }
      return nil
    }

    /// The value of attribute `wanted` (lower case), its references decoded.
    func attribute(_ wanted: String, in bytes: [UInt8]) -> String? {
      guard let found = HTMLText.find(Array((wanted + "=").utf8), in: bytes[bodyStart..<end], ignoringCase: true) else {
        return nil
      }
      var index = found + wanted.utf8.count + 1
      var value: [UInt8] = []
      if index < end, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") {
        let quote = bytes[index]
        index += 1
        while index < end, bytes[index] != quote {
          value.append(bytes[index])
          index += 1
        }
      } else {
        while index < end, !Self.isSpace(bytes[index]), bytes[index] != UInt8(ascii: "/") {
          value.append(bytes[index])
          index += 1
        }
      }
      return HTMLText.plain(String(decoding: value, as: UTF8.self)).text
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
      (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
      isLetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
  }

  /// Where `pattern` starts in `bytes`; with `ignoringCase`, ASCII letters match either case
  /// (`pattern` is then lower case).
  static func find(_ pattern: [UInt8], in bytes: ArraySlice<UInt8>, ignoringCase: Bool) -> Int? {
    guard let first = pattern.first, bytes.count >= pattern.count else { return nil }
    func folded(_ byte: UInt8) -> UInt8 {
      ignoringCase && byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }
    var index = bytes.startIndex
    let last = bytes.endIndex - pattern.count
    while index <= last {
      if folded(bytes[index]) == first {
        var offset = 1
        while offset < pattern.count, folded(bytes[index + offset]) == pattern[offset] { offset += 1 }
        if offset == pattern.count { return index }
      }
      index += 1
    }
    return nil
  }

  private static let namedReferences: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
  ]

  /// A character reference starting at `start` (`&amp;`, `&#39;`, `&#x27;`) and where it ends.
  private static func reference(_ bytes: [UInt8], at start: Int) -> (String, Int)? {
    var index = start + 1
    while index < bytes.count, index - start <= 10, bytes[index] != UInt8(ascii: ";") { index += 1 }
    guard index < bytes.count, bytes[index] == UInt8(ascii: ";"), index > start + 1 else { return nil }
    let name = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
    if let named = namedReferences[name] { return (named, index) }
    guard name.hasPrefix("#") else { return nil }
    let digits = name.dropFirst()
    let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
    guard let value, value != 0, let decoded = Unicode.Scalar(value) else { return nil }
    return (String(decoded), index)
  }
}

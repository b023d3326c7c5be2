import Foundation

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
      var words = rest.split(separator: " ", omittingEmptySubsequences: false)
      if words.count > 1, let done = Self.markers[String(words[0])] {
        isDone = done
        words.removeFirst()
      }
      if words.count > 1, let value = Self.priorities[String(words[0])] {
        priority = value
        words.removeFirst()
      }
      rest = words.joined(separator: " ")
      let deadline = Self.removePlanning("DEADLINE: <", from: &rest)
      let scheduled = Self.removePlanning("SCHEDULED: <", from: &rest)
      due = deadline ?? scheduled
      if isDone != nil || priority != nil || due != nil { rest = rest.split(separator: " ").joined(separator: " ") }
    }
    let html = HTMLText.plain(rest)
    title = html.text
    if html.links.count == 1 { link = html.links[0] }
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
    guard let start = text.range(of: keyword), let end = text[start.upperBound...].firstIndex(of: ">"),
      let value = planningDate(String(text[start.upperBound..<end]))
    else { return nil }
    text.removeSubrange(start.lowerBound...end)
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

/// HTML in outline text, reduced to plain text.
enum HTMLText {
  /// The text with tags removed and character references decoded, and the `href` of every
  /// link. A `<` that does not open a tag, and an `&` that does not start a known reference,
  /// are text.
  static func plain(_ text: String) -> (text: String, links: [String]) {
    guard text.contains("<") || text.contains("&") else { return (text, []) }
    let scalars = Array(text.unicodeScalars)
    var output = String.UnicodeScalarView()
    var links: [String] = []
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<", let tag = Tag(scalars, at: index) {
        if tag.name == "a", !tag.isClosing, let href = tag.attribute("href", in: scalars) { links.append(href) }
        if tag.name == "br" { output.append(" ") }
        index = tag.end + 1
        continue
      }
      if scalar == "&", let (decoded, end) = reference(scalars, at: index) {
        output.append(contentsOf: decoded.unicodeScalars)
        index = end + 1
        continue
      }
      output.append(scalar)
      index += 1
    }
    return (String(output), links)
  }

  /// A tag or comment starting at `start`: `<name …>`, `</name>`, `<!-- … -->`.
  private struct Tag {
    var name: String
    var isClosing: Bool
    /// Where the tag's own text starts (after `<` and `/`) and ends (at `>`).
    var bodyStart: Int
    var end: Int

    init?(_ scalars: [Unicode.Scalar], at start: Int) {
      var index = start + 1
      if scalars[index...].starts(with: "!--".unicodeScalars) {
        var close = index + 3
        while close + 2 < scalars.count {
          if scalars[close] == "-", scalars[close + 1] == "-", scalars[close + 2] == ">" {
            name = "!--"
            isClosing = false
            bodyStart = index
            end = close + 2
            return
          }
          close += 1
        }
        return nil
      }
      isClosing = index < scalars.count && scalars[index] == "/"
      if isClosing { index += 1 }
      let nameStart = index
      while index < scalars.count, Self.isNameScalar(scalars[index]) {
        index += 1
      }
      guard index > nameStart, Self.isLetter(scalars[nameStart]), index < scalars.count,
        scalars[index] == ">" || scalars[index] == "/" || scalars[index].properties.isWhitespace
      else { return nil }
      name = String(String.UnicodeScalarView(scalars[nameStart..<index])).lowercased()
      bodyStart = index
      var quote: Unicode.Scalar?
      while index < scalars.count {
        let scalar = scalars[index]
        if let open = quote {
          if scalar == open { quote = nil }
        } else if scalar == "\"" || scalar == "'" {
          quote = scalar
        } else if scalar == ">" {
          end = index
          return
        } else if scalar == "<" {
          return nil
        }
        index += 1
      }
      return nil
    }

    /// The value of attribute `wanted`, its references decoded.
    func attribute(_ wanted: String, in scalars: [Unicode.Scalar]) -> String? {
      let body = String(String.UnicodeScalarView(scalars[bodyStart..<end]))
      guard let nameRange = body.range(of: wanted + "=", options: .caseInsensitive) else { return nil }
      var rest = body[nameRange.upperBound...]
      let value: Substring
      if let quote = rest.first, quote == "\"" || quote == "'" {
        rest = rest.dropFirst()
        value = rest.prefix { $0 != quote }
      } else {
        value = rest.prefix { !$0.isWhitespace && $0 != "/" }
      }
      return HTMLText.plain(String(value)).text
    }

    private static func isLetter(_ scalar: Unicode.Scalar) -> Bool {
      (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
    }

    private static func isNameScalar(_ scalar: Unicode.Scalar) -> Bool {
      isLetter(scalar) || (scalar >= "0" && scalar <= "9") || scalar == "-"
    }
  }

  private static let namedReferences: [String: String] = [
    "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
  ]

  /// A character reference starting at `start` (`&amp;`, `&#39;`, `&#x27;`) and where it ends.
  private static func reference(_ scalars: [Unicode.Scalar], at start: Int) -> (String, Int)? {
    var index = start + 1
    var name = ""
    while index < scalars.count, index - start <= 10, scalars[index] != ";" {
      name.unicodeScalars.append(scalars[index])
      index += 1
    }
    guard index < scalars.count, scalars[index] == ";", !name.isEmpty else { return nil }
    if let named = namedReferences[name] { return (named, index) }
    guard name.hasPrefix("#") else { return nil }
    let digits = name.dropFirst()
    let value = digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
    guard let value, let decoded = Unicode.Scalar(value), value != 0 else { return nil }
    return (String(decoded), index)
  }
}

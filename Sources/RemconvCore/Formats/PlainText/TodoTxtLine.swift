import Foundation

/// One line of a todo.txt file, as the format's spec (`todotxt/todo.txt` README) reads it.
///
/// ```
/// x 2026-11-28 2026-11-20 Call Mom +Family @phone due:2026-11-30
/// (A) 2026-11-20 Call Mom +Family @phone due:2026-11-30
/// ```
///
/// - A done task starts with `x ` and may give its completion date, then its creation date.
/// - An open task may start with a priority `(A)`–`(Z)` and a space, then its creation date.
/// - `+project` and `@context` words may stand anywhere in the text; `key:value` words (key and
///   value without spaces or colons) are extensions.
///
/// The title is the text without the extensions remconv knows (wherever they stand) and
/// without the run of `+project`, `@context` and `key:value` words that ends the line: a
/// project or context inside the text stays in the title (and is a tag too), so that
/// `Email +Bob about it` keeps its words.
struct TodoTxtLine: Equatable {
  var isDone = false
  var completionDate: LocalDate?
  var creationDate: LocalDate?
  /// `A`–`Z`.
  var priority: Character?
  var title = ""
  /// Projects and contexts in the order they stand, each once.
  var tags: [Tag] = []
  /// The `key:value` extensions, in the order they stand: the known ones (wherever they stand)
  /// and the others of the trailing run.
  var extensions: [(key: String, value: String)] = []

  struct Tag: Equatable {
    var name: String
    var isProject: Bool
  }

  static func == (lhs: TodoTxtLine, rhs: TodoTxtLine) -> Bool {
    lhs.isDone == rhs.isDone && lhs.completionDate == rhs.completionDate && lhs.creationDate == rhs.creationDate
      && lhs.priority == rhs.priority && lhs.title == rhs.title && lhs.tags == rhs.tags
      && lhs.extensions.elementsEqual(rhs.extensions) { $0.key == $1.key && $0.value == $1.value }
  }

  /// The extension keys remconv reads wherever they stand: the ecosystem's (`due`, `t`
  /// threshold, `rec` recurrence, `pri` the priority of a done task) and remconv's own.
  static let knownKeys: Set<String> = [
    "due", "t", "rec", "pri", TodoTxtKey.time, TodoTxtKey.zone, TodoTxtKey.uid, TodoTxtKey.parent,
    TodoTxtKey.list, TodoTxtKey.flag, TodoTxtKey.url,
  ]

  init() {}

  init(parsing line: String) {
    var rest = Substring(line)
    if rest.hasPrefix("x ") {
      isDone = true
      rest = rest.dropFirst(2)
      if let date = Self.leadingDate(&rest) {
        completionDate = date
        creationDate = Self.leadingDate(&rest)
      }
    } else {
      if rest.count >= 4, rest.first == "(", let letter = rest.dropFirst().first, letter.isASCII, letter.isUppercase,
        rest.dropFirst(2).hasPrefix(") ")
      {
        priority = letter
        rest = rest.dropFirst(4)
      }
      creationDate = Self.leadingDate(&rest)
    }
    var words = rest.split(separator: " ", omittingEmptySubsequences: false)
    // Known extensions, wherever they stand.
    words.removeAll { word in
      guard let pair = Self.extensionPair(word), Self.knownKeys.contains(pair.key) else { return false }
      extensions.append(pair)
      return true
    }
    // The trailing run of metadata words (and the spaces between them).
    var titleEnd = words.count
    while titleEnd > 0, words[titleEnd - 1].isEmpty || Self.isMetadataWord(words[titleEnd - 1]) { titleEnd -= 1 }
    for word in words[titleEnd...] {
      if let pair = Self.extensionPair(word), !Self.isTagWord(word) { extensions.append(pair) }
    }
    for word in words where Self.isTagWord(word) {
      let tag = Tag(name: String(word.dropFirst()), isProject: word.first == "+")
      if !tags.contains(where: { $0.name == tag.name }) { tags.append(tag) }
    }
    title = words[..<titleEnd].joined(separator: " ")
  }

  /// The line, as `init(parsing:)` reads it back.
  var text: String {
    var parts: [String] = []
    if isDone {
      parts.append("x")
      if let completionDate {
        parts.append(completionDate.description)
        if let creationDate { parts.append(creationDate.description) }
      }
    } else {
      if let priority { parts.append("(\(priority))") }
      if let creationDate { parts.append(creationDate.description) }
    }
    if !title.isEmpty { parts.append(title) }
    let titleWords = Set(title.split(separator: " ").map(String.init))
    for tag in tags {
      let word = (tag.isProject ? "+" : "@") + tag.name
      if !titleWords.contains(word) { parts.append(word) }
    }
    for (key, value) in extensions { parts.append(key + ":" + value) }
    return parts.joined(separator: " ")
  }

  /// A `YYYY-MM-DD` date and the space after it (or the end) at the start of `text`, consumed.
  private static func leadingDate(_ text: inout Substring) -> LocalDate? {
    let candidate = text.prefix(10)
    guard candidate.count == 10, let date = LocalDate(iso: String(candidate)) else { return nil }
    let after = text.dropFirst(10)
    guard after.isEmpty || after.first == " " else { return nil }
    text = after.dropFirst()
    return date
  }

  /// `+project` or `@context`: the sign and at least one more character.
  static func isTagWord(_ word: Substring) -> Bool {
    word.count > 1 && (word.first == "+" || word.first == "@")
  }

  /// A word that is metadata at the end of a line: a tag or an extension.
  static func isMetadataWord(_ word: Substring) -> Bool {
    isTagWord(word) || extensionPair(word) != nil
  }

  /// `key:value`, key and value not empty and without colons; a URL (`https://…`) is text.
  static func extensionPair(_ word: Substring) -> (key: String, value: String)? {
    guard let colon = word.firstIndex(of: ":") else { return nil }
    let key = word[..<colon]
    let value = word[word.index(after: colon)...]
    guard !key.isEmpty, !value.isEmpty, !value.contains(":"), !value.hasPrefix("//") else { return nil }
    return (String(key), String(value))
  }
}

/// remconv's own extension keys, for what the todo.txt spec has no place for.
enum TodoTxtKey {
  static let uid = "uid"
  static let parent = "parent"
  static let list = "list"
  static let flag = "flag"
  static let url = "url"
  /// The time of a due date with a time: `0900`, `090030`, `0900Z` (UTC).
  static let time = "time"
  /// The IANA zone of a zoned due time.
  static let zone = "tz"
}

/// Percent-encoding for the values of remconv's own `key:value` words, which may hold neither
/// spaces nor colons: `%`, `:`, space and the other ASCII controls become `%XX`.
enum KeyValueText {
  static func encode(_ text: String) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    for byte in text.utf8 {
      if byte <= 0x20 || byte == 0x7F || byte == UInt8(ascii: "%") || byte == UInt8(ascii: ":") {
        bytes.append(UInt8(ascii: "%"))
        bytes.append(contentsOf: Array(String(byte >> 4, radix: 16, uppercase: true).utf8))
        bytes.append(contentsOf: Array(String(byte & 0xF, radix: 16, uppercase: true).utf8))
      } else {
        bytes.append(byte)
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The decoded text; a `%` not followed by two hex digits is itself.
  static func decode(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
    let source = Array(text.utf8)
    var bytes: [UInt8] = []
    var index = 0
    while index < source.count {
      if source[index] == UInt8(ascii: "%"), index + 2 < source.count,
        let high = hexValue(source[index + 1]), let low = hexValue(source[index + 2])
      {
        bytes.append(high << 4 | low)
        index += 3
      } else {
        bytes.append(source[index])
        index += 1
      }
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    default: nil
    }
  }
}

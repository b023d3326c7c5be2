import Foundation

/// The text of a Markdown task-list item (after `- [ ] `), with the metadata the Obsidian Tasks
/// plugin puts at its end: `#tags`, priority signs, `🔁 every …`, dated fields (`➕` created,
/// `🛫` start, `⏳` scheduled, `📅` due, `❌` cancelled, `✅` done) and a trailing `^block-id`.
///
/// As the plugin does, metadata is read from the end of the line back to the first word that
/// is none: what comes before is the title (a `#tag` inside it stays in the title and is a tag
/// too).
struct TaskLineText: Equatable {
  var title = ""
  var tags: [String] = []
  /// The priority sign: 🔺 highest, ⏫ high, 🔼 medium, 🔽 low, ⏬ lowest.
  var prioritySign: String?
  /// The text after `🔁` (`every week on Monday`).
  var recurrence: String?
  /// Dated fields by sign, in the order `TaskLineText.dateSigns` gives.
  var dates: [String: LocalDate] = [:]
  /// The `^block-id` ending the line, without the caret.
  var blockID: String?
  /// Dated fields whose value has a date's shape but is no date (`📅 2026-02-30`), by sign.
  var invalidDates: [String: String] = [:]

  enum Sign {
    static let created = "➕"
    static let start = "🛫"
    static let scheduled = "⏳"
    static let due = "📅"
    static let cancelled = "❌"
    static let done = "✅"
    static let recurrence = "🔁"
  }

  /// The dated fields in the order the plugin writes them.
  static let dateSigns = [Sign.created, Sign.start, Sign.scheduled, Sign.due, Sign.cancelled, Sign.done]
  static let prioritySigns = ["🔺", "⏫", "🔼", "🔽", "⏬"]

  init() {}

  init(parsing text: String) {
    var words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
    func dropEmptyTail() { while words.last?.isEmpty == true { words.removeLast() } }
    dropEmptyTail()
    if let last = words.last, last.count > 1, last.first == "^", Self.isBlockID(last.dropFirst()) {
      blockID = String(last.dropFirst())
      words.removeLast()
    }
    var reversedTags: [String] = []
    while true {
      dropEmptyTail()
      guard let last = words.last else { break }
      let bare = Self.bare(last)
      if words.count >= 2, let date = LocalDate(iso: last), Self.dateSigns.contains(Self.bare(words[words.count - 2])),
        dates[Self.bare(words[words.count - 2])] == nil
      {
        dates[Self.bare(words[words.count - 2])] = date
        words.removeLast(2)
      } else if words.count >= 2, Self.hasDateShape(last), Self.dateSigns.contains(Self.bare(words[words.count - 2])),
        invalidDates[Self.bare(words[words.count - 2])] == nil
      {
        invalidDates[Self.bare(words[words.count - 2])] = last
        words.removeLast(2)
      } else if Self.prioritySigns.contains(bare), prioritySign == nil {
        prioritySign = bare
        words.removeLast()
      } else if Self.isTagWord(last) {
        reversedTags.append(String(last.dropFirst()))
        words.removeLast()
      } else if recurrence == nil, let sign = words.lastIndex(where: { Self.bare($0) == Sign.recurrence }),
        words[(sign + 1)...].allSatisfy({ !Self.isSign($0) && !Self.isTagWord($0) })
      {
        recurrence = words[(sign + 1)...].joined(separator: " ")
        words.removeSubrange(sign...)
      } else {
        break
      }
    }
    title = words.joined(separator: " ")
    for word in words where Self.isTagWord(word) {
      let tag = String(word.dropFirst())
      if !tags.contains(tag) { tags.append(tag) }
    }
    for tag in reversedTags.reversed() where !tags.contains(tag) { tags.append(tag) }
  }

  /// The item's text, as `init(parsing:)` reads it back.
  var text: String {
    var parts: [String] = title.isEmpty ? [] : [title]
    let titleWords = Set(title.split(separator: " ").map(String.init))
    for tag in tags where !titleWords.contains("#" + tag) { parts.append("#" + tag) }
    if let prioritySign { parts.append(prioritySign) }
    if let recurrence { parts.append(Sign.recurrence + " " + recurrence) }
    for sign in Self.dateSigns {
      if let date = dates[sign] { parts.append(sign + " " + date.description) }
    }
    if let blockID { parts.append("^" + blockID) }
    return parts.joined(separator: " ")
  }

  /// Digits, a dash, two digits, a dash, two digits: what a date looks like, valid or not.
  static func hasDateShape(_ word: String) -> Bool {
    let parts = word.split(separator: "-", omittingEmptySubsequences: false)
    return parts.count == 3 && parts[0].count >= 4 && parts[1].count == 2 && parts[2].count == 2
      && parts.allSatisfy { $0.allSatisfy { $0.isASCII && $0.isNumber } }
  }

  /// A word without the emoji presentation selector some editors add.
  static func bare(_ word: String) -> String {
    word.unicodeScalars.contains("\u{FE0F}")
      ? String(String.UnicodeScalarView(word.unicodeScalars.filter { $0 != "\u{FE0F}" })) : word
  }

  static func isSign(_ word: String) -> Bool {
    let bare = bare(word)
    return dateSigns.contains(bare) || prioritySigns.contains(bare) || bare == Sign.recurrence
  }

  /// `#tag`: a word after `#`, not only digits (`#1` is an issue number). Obsidian allows
  /// fewer characters in a tag (letters, digits, `_`, `-`, `/`); remconv reads any word, so
  /// that a tag such as `a,b` from another app comes back.
  static func isTagWord(_ word: String) -> Bool {
    guard word.count > 1, word.first == "#" else { return false }
    let name = word.dropFirst()
    return !name.contains("#") && !name.allSatisfy(\.isNumber)
  }

  /// Obsidian's block ids: ASCII letters, digits and `-`.
  static func isBlockID(_ text: Substring) -> Bool {
    !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
  }
}

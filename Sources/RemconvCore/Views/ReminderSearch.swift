import Foundation

/// A search across titles and notes, as a reminders app's search field does it: case-,
/// diacritic- and width-insensitive, so "forecast" finds "Forecast", "cafe" finds "Café" and
/// "ＡＢＣ" finds "ABC".
public struct ReminderSearch: Sendable {
  /// Where a reminder matched.
  public enum Field: String, Sendable {
    case title, notes
  }

  public let query: String
  /// The query's bytes with ASCII letters lower-cased when it is printable ASCII (most are),
  /// for `contains` to compare with ASCII text without Foundation.
  private let asciiQuery: [UInt8]?

  static let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]

  /// A search for `query`, trimmed; nil when nothing is left to search for.
  public init?(_ query: String) {
    let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    guard !trimmed.isEmpty else { return nil }
    self.query = trimmed
    asciiQuery = trimmed.utf8.allSatisfy { (0x20...0x7E).contains($0) } ? trimmed.utf8.map(Self.asciiLowercased) : nil
  }

  /// The fields of `reminder` that contain the query (empty when it does not match).
  public func matchedFields(_ reminder: Reminder) -> [Field] {
    var fields: [Field] = []
    if contains(reminder.title) { fields.append(.title) }
    if contains(reminder.notes) { fields.append(.notes) }
    return fields
  }

  public func matches(_ reminder: Reminder) -> Bool {
    matches(title: reminder.title, notes: reminder.notes)
  }

  public func matches(title: String, notes: String) -> Bool {
    contains(title) || contains(notes)
  }

  /// Whether `text` contains the query. Both sides are compared in NFC, so a title stored
  /// decomposed (`Cafe` + U+0301) matches as its composed form does.
  public func contains(_ text: String) -> Bool {
    if let asciiQuery, let found = Self.asciiText(text, contains: asciiQuery) { return found }
    return foundationContains(text)
  }

  /// `contains` as Foundation answers it, for any text: the definition the ASCII comparison
  /// keeps to.
  func foundationContains(_ text: String) -> Bool {
    guard !text.isEmpty else { return false }
    if text.range(of: query, options: Self.options) != nil { return true }
    let composed = text.precomposedStringWithCanonicalMapping
    return composed != text && composed.range(of: query, options: Self.options) != nil
  }

  /// Whether `text` contains `query` (printable ASCII, lower-cased) ignoring ASCII case, when
  /// `text` is printable ASCII, tabs and line feeds; nil for any other text. On such text
  /// Foundation's case-, diacritic- and width-insensitive search is ASCII case-insensitive
  /// search: ASCII has no diacritics nor wide forms, and none of these characters joins
  /// another into one character (`ReminderSearchASCIITests` compares the two).
  static func asciiText(_ text: String, contains query: [UInt8]) -> Bool? {
    var text = text
    return text.withUTF8 { bytes in
      var found = false
      var start = 0
      while start < bytes.count {
        let byte = bytes[start]
        guard (0x20...0x7E).contains(byte) || byte == 0x09 || byte == 0x0A else { return nil }
        if !found, start + query.count <= bytes.count, asciiLowercased(byte) == query[0] {
          var matched = 1
          while matched < query.count, asciiLowercased(bytes[start + matched]) == query[matched] { matched += 1 }
          found = matched == query.count
        }
        start += 1
      }
      return found
    }
  }

  private static func asciiLowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

  /// The line of `text` holding the first match, for showing where a note matched.
  public func matchingLine(in text: String) -> String? {
    text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
      .map(String.init)
      .first(where: contains)
  }
}

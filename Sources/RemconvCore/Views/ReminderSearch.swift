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

  static let options: String.CompareOptions = [.caseInsensitive, .diacriticInsensitive, .widthInsensitive]

  /// A search for `query`, trimmed; nil when nothing is left to search for.
  public init?(_ query: String) {
    let trimmed = query.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
    guard !trimmed.isEmpty else { return nil }
    self.query = trimmed
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
    guard !text.isEmpty else { return false }
    if text.range(of: query, options: Self.options) != nil { return true }
    let composed = text.precomposedStringWithCanonicalMapping
    return composed != text && composed.range(of: query, options: Self.options) != nil
  }

  /// The line of `text` holding the first match, for showing where a note matched.
  public func matchingLine(in text: String) -> String? {
    text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline)
      .map(String.init)
      .first(where: contains)
  }
}

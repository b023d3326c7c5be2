import Foundation

/// The one rule for control characters in the model's text, applied where records enter the
/// model (`TextRuleReader`, for every reader) and where they leave it (`Exporter`): C0
/// control characters other than tab, LF and CR are removed, with a warning naming the field.
///
/// No format remconv writes carries them the same way (iCalendar and CSV have no escape for
/// them, XML 1.0 none at all, JSON only as `\u0000`), and readers took them differently
/// (the JSON reader kept a NUL that the `.ics` writer then wrote raw and its reader refused):
/// one rule at the boundary makes every format see the same text.
enum TextRule {
  /// Whether `byte` is a control character the rule removes.
  private static func isRemoved(_ byte: UInt8) -> Bool {
    byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D
  }

  /// The text without the control characters the rule removes; nil when it has none.
  static func cleaned(_ text: String) -> String? {
    guard text.utf8.contains(where: isRemoved) else { return nil }
    return String(decoding: text.utf8.filter { !isRemoved($0) }, as: UTF8.self)
  }

  /// Cleans `text`, adding `name` to `fields` when it changed.
  private static func clean(_ text: inout String, _ name: String, into fields: inout [String]) {
    guard let cleaned = cleaned(text) else { return }
    text = cleaned
    if !fields.contains(name) { fields.append(name) }
  }

  /// The reminder with its text fields cleaned, and the names of the fields that changed.
  static func cleaned(_ reminder: Reminder) -> (Reminder, fields: [String]) {
    var reminder = reminder
    var fields: [String] = []
    clean(&reminder.title, "title", into: &fields)
    clean(&reminder.notes, "notes", into: &fields)
    for index in reminder.tags.indices { clean(&reminder.tags[index], "tags", into: &fields) }
    if var url = reminder.url {
      clean(&url, "url", into: &fields)
      reminder.url = url
    }
    return (reminder, fields)
  }

  /// The list with its name and symbol cleaned, and the names of the fields that changed.
  static func cleaned(_ list: ReminderList) -> (ReminderList, fields: [String]) {
    var list = list
    var fields: [String] = []
    clean(&list.name, "name", into: &fields)
    clean(&list.symbol, "symbol", into: &fields)
    return (list, fields)
  }

  static func message(_ fields: [String], of what: String, _ outcome: String) -> String {
    "the \(what)'s \(fields.joined(separator: ", ")) held control characters (C0 other than tab, LF and CR); they are \(outcome)"
  }
}

/// Applies `TextRule` to every record a reader gives, and reports a list name the model
/// trims: the model boundary of every import and conversion.
final class TextRuleReader: ReminderReader {
  private let base: any ReminderReader
  private let diagnostics: DiagnosticLog

  init(_ base: any ReminderReader, diagnostics: DiagnosticLog) {
    self.base = base
    self.diagnostics = diagnostics
  }

  func next() throws -> SourceRecord? {
    guard let record = try base.next() else { return nil }
    switch record {
    case .reminder(let reminder, let location):
      let (cleaned, fields) = TextRule.cleaned(reminder)
      if !fields.isEmpty {
        diagnostics.warning(
          "control-character", TextRule.message(fields, of: "reminder", "removed"), at: location, uid: reminder.id)
      }
      return .reminder(cleaned, location)
    case .list(let list):
      let (cleaned, fields) = TextRule.cleaned(list)
      if !fields.isEmpty {
        diagnostics.warning("control-character", TextRule.message(fields, of: "list", "removed"), uid: list.id)
      }
      // The store keeps a list name trimmed (`ListName.normalized`): said, not done silently.
      let trimmed = cleaned.name.trimmingCharacters(in: .whitespacesAndNewlines)
      if !trimmed.isEmpty, !ListName.sameScalars(trimmed, cleaned.name) {
        diagnostics.warning(
          "list-name",
          "the list name \(JSONText.quoted(cleaned.name)) has white space at an end; it is stored trimmed, as \(JSONText.quoted(trimmed))",
          uid: list.id)
      }
      return .list(cleaned)
    case .skipped, .rejected, .unchanged:
      return record
    }
  }
}

import Foundation

/// The one rule for control characters in the model's text, applied where records enter the
/// model (`ModelBoundaryReader`, for every reader) and where they leave it (`Exporter`): C0
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

  /// Whether `text` holds a control character the rule removes: one pass over its UTF-8
  /// bytes, in place when the string is stored contiguously (as read text is).
  private static func holdsRemoved(_ text: String) -> Bool {
    let found = text.utf8.withContiguousStorageIfAvailable(holdsRemoved)
    return found ?? text.utf8.contains(where: isRemoved)
  }

  /// Whether `bytes` hold a control character the rule removes. Eight bytes at a time: a word
  /// with no byte below 0x20 (nearly every word of text) is passed at once; only a word with
  /// one (a tab, a line break, or a character the rule removes) is looked at byte by byte.
  private static func holdsRemoved(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    let words = UnsafeRawBufferPointer(bytes)
    let ones: UInt64 = 0x0101_0101_0101_0101
    var offset = 0
    while offset + 8 <= words.count {
      let word = words.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
      // Not zero when a byte of the word is below 0x20 (it borrows, and its high bit is clear);
      // a false alarm (a borrow passed on) only costs the look at the word's bytes.
      if (word &- ones &* 0x20) & ~word & (ones &* 0x80) != 0,
        bytes[offset..<offset + 8].contains(where: isRemoved)
      {
        return true
      }
      offset += 8
    }
    return bytes[offset...].contains(where: isRemoved)
  }

  /// The text without the control characters the rule removes; nil when it has none.
  static func cleaned(_ text: String) -> String? {
    guard holdsRemoved(text) else { return nil }
    return String(decoding: text.utf8.filter { !isRemoved($0) }, as: UTF8.self)
  }

  /// Cleans `text`, adding `name` to `fields` when it changed.
  private static func clean(_ text: inout String, _ name: String, into fields: inout [String]) {
    guard let cleaned = cleaned(text) else { return }
    text = cleaned
    if !fields.contains(name) { fields.append(name) }
  }

  /// The reminder with its text fields cleaned, and the names of the fields that changed; nil
  /// when it has nothing to clean. Clean text, nearly every record, is only read: one pass
  /// over each field's bytes, nothing copied or written.
  static func cleaned(_ reminder: Reminder) -> (Reminder, fields: [String])? {
    guard
      holdsRemoved(reminder.title) || holdsRemoved(reminder.notes) || reminder.tags.contains(where: holdsRemoved)
        || reminder.url.map(holdsRemoved) == true
        || reminder.alarms.contains(where: { $0.text.map(holdsRemoved) == true })
    else { return nil }
    var reminder = reminder
    var fields: [String] = []
    clean(&reminder.title, "title", into: &fields)
    clean(&reminder.notes, "notes", into: &fields)
    for index in reminder.tags.indices { clean(&reminder.tags[index], "tags", into: &fields) }
    if var url = reminder.url {
      clean(&url, "url", into: &fields)
      reminder.url = url
    }
    for index in reminder.alarms.indices {
      guard var text = reminder.alarms[index].text else { continue }
      clean(&text, "alarms", into: &fields)
      reminder.alarms[index].text = text
    }
    return (reminder, fields)
  }

  /// The list with its name and symbol cleaned, and the names of the fields that changed; nil
  /// when it has nothing to clean.
  static func cleaned(_ list: ReminderList) -> (ReminderList, fields: [String])? {
    guard holdsRemoved(list.name) || holdsRemoved(list.symbol) else { return nil }
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

extension String {
  /// Empty or only white space (newlines included), as `allSatisfy(\.isWhitespace)` says.
  /// Stops at the first other character: this runs for every reminder an import merges and
  /// checks, and trimming would copy every string through NSString. A first byte that is
  /// printable ASCII other than a space answers at once: a Character is white space by its
  /// first scalar, and walking Characters costs hundreds of instructions.
  var isBlank: Bool {
    if let first = utf8.first, first > 0x20, first < 0x7F { return false }
    return allSatisfy(\.isWhitespace)
  }
}

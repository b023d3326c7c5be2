import Foundation

/// The columns the store derives from a reminder so that SQLite can answer views, counts and
/// searches from indexes: written with every insert and update of a reminder, filled for
/// older rows by migration 0008 (through the SQL functions of the same names).
///
/// They only narrow: a view keeps the rows SQLite finds and then applies `ReminderScope` and
/// `ReminderSearch` to them, so a value here decides what is read, never what is shown.
public enum ReminderIndexValues {
  /// The date of a due's wall time (its date, or the date part of its time in its own zone
  /// or UTC) in days since 1970-01-01; nil when there is no due or it does not parse, as
  /// `decodeReminder` reads it. A timed due's local day is within two days of it in any zone
  /// (offsets run from -12:00 to +14:00), which is what `todayCandidateDays` relies on.
  public static func dueDay(due: String?, timeZone: String?) -> Int64? {
    guard let due, let parsed = try? DueDate(isoText: due, timeZone: timeZone) else { return nil }
    switch parsed {
    case .date(let date): return Int64(date.daysSinceEpoch)
    case .floating(let time), .utc(let time), .zoned(let time, _): return Int64(time.date.daysSinceEpoch)
    }
  }

  /// The wall-time days whose dues may fall on `today`'s local day.
  public static func todayCandidateDays(_ today: Today) -> ClosedRange<Int64> {
    let day = Int64(today.date.daysSinceEpoch)
    return (day - 2)...(day + 2)
  }

  /// The separator between the folded title and notes: a control character that folding
  /// never produces from text.
  static let searchFieldSeparator = "\u{1F}"

  /// Title and notes folded as `ReminderSearch` compares them (case, diacritics and width
  /// ignored, NFC), so that a search finds its candidates with `instr` on this column.
  public static func searchText(title: String?, notes: String?) -> String {
    fold(title ?? "") + searchFieldSeparator + fold(notes ?? "")
  }

  /// `text` folded as the search column holds it.
  public static func fold(_ text: String) -> String {
    asciiFolded(text)
      ?? text.precomposedStringWithCanonicalMapping.folding(options: ReminderSearch.options, locale: nil)
  }

  /// ASCII text folded, nil for any other: with no diacritics, wide forms or compositions,
  /// folding ASCII only lowers A to Z, which Foundation's folding (a bridge to `NSString` and
  /// two normalisations, about 30,000 instructions for a short title) would do at length.
  static func asciiFolded(_ text: String) -> String? {
    let folded = text.utf8.withContiguousStorageIfAvailable { bytes -> String? in
      var hasUppercase = false
      for byte in bytes {
        if byte >= 0x80 { return nil }
        if byte &- UInt8(ascii: "A") < 26 { hasUppercase = true }
      }
      guard hasUppercase else { return text }
      return String(unsafeUninitializedCapacity: bytes.count) { lowered in
        for (index, byte) in bytes.enumerated() {
          lowered[index] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
        }
        return bytes.count
      }
    }
    return folded ?? nil
  }
}

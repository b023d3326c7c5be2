import Foundation
import Synchronization

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
    return wallDay(of: parsed)
  }

  /// `dueDay(due:timeZone:)` of the texts `due` is stored as, from the value when those texts
  /// read back as it (a writer has the value and need not parse what it just wrote).
  static func dueDay(of due: DueDate?) -> Int64? {
    guard let due else { return nil }
    guard due.readsBackFromText(zoneIsKnown: TimeZoneNames.isKnown) else {
      return dueDay(due: due.isoText, timeZone: due.timeZoneIdentifier)
    }
    return wallDay(of: due)
  }

  private static func wallDay(of due: DueDate) -> Int64 {
    switch due {
    case .date(let date): Int64(date.daysSinceEpoch)
    case .floating(let time), .utc(let time), .zoned(let time, _): Int64(time.date.daysSinceEpoch)
    }
  }

  /// The wall-time days whose dues may fall on `today`'s local day.
  public static func todayCandidateDays(_ today: Today) -> ClosedRange<Int64> {
    let day = Int64(today.date.daysSinceEpoch)
    return (day - 2)...(day + 2)
  }

  /// The separator between the folded title and notes: a control character that folding
  /// never produces from text.
  static let searchFieldSeparator = UInt8(0x1F)

  /// Title and notes folded as `ReminderSearch` compares them (case, diacritics and width
  /// ignored, NFC), so that a search finds its candidates with `instr` on this column.
  public static func searchText(title: String?, notes: String?) -> String {
    folder.withLock { $0.fold(title ?? "", notes ?? "", separatedBy: searchFieldSeparator) }
  }

  /// Appends the UTF-8 of `searchText(title:notes:)` to `bytes`, as a statement binds it.
  static func appendSearchText(title: String, notes: String, to bytes: inout [UInt8]) {
    folder.withLock { $0.appendFold(title, notes, separatedBy: searchFieldSeparator, to: &bytes) }
  }

  /// `text` folded as the search column holds it: a search folds its query with this too.
  public static func fold(_ text: String) -> String {
    folder.withLock { $0.fold(text) }
  }

  /// One folder for the process: what it learns of a script serves every later text.
  private static let folder = Mutex(SearchTextFolder())
}

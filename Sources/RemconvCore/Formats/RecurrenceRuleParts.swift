import Foundation

/// An RRULE value as its `NAME=VALUE` parts, for the app dialects that build a rule from their
/// own words or take one apart to say it in them (To Do's patterns, Todoist's `every` phrases,
/// TickTick's `Repeat`). Only the spelling is handled here; what a rule means is libical's.
struct RecurrenceRuleParts: Equatable {
  /// By upper-case name.
  private(set) var values: [String: String] = [:]

  init(_ parts: [String: String] = [:]) { values = parts }

  /// `FREQ=WEEKLY;BYDAY=TU` (names in any case; a part given twice, or without `=`, is nil).
  init?(text: String) {
    for part in text.split(separator: ";", omittingEmptySubsequences: true) {
      let pair = part.split(separator: "=", maxSplits: 1)
      guard pair.count == 2, !pair[1].isEmpty else { return nil }
      let name = pair[0].trimmingCharacters(in: .whitespaces).uppercased()
      guard values[name] == nil else { return nil }
      values[name] = pair[1].trimmingCharacters(in: .whitespaces)
    }
    guard values["FREQ"] != nil else { return nil }
  }

  subscript(name: String) -> String? {
    get { values[name] }
    set { values[name] = newValue }
  }

  /// `INTERVAL`, 1 when absent.
  var interval: Int? { values["INTERVAL"].map { Int($0) } ?? 1 }

  /// `text` without `INTERVAL=1` (the default): how the app dialects give a rule, so that
  /// one rule spelt two ways by two apps is one value.
  var canonicalText: String {
    var parts = self
    if parts["INTERVAL"] == "1" { parts["INTERVAL"] = nil }
    return parts.text
  }

  /// RFC 5545's order (`FREQ`, `UNTIL`, `COUNT`, `INTERVAL`, the `BY` parts from the smallest
  /// unit, `WKST`), then any other part by name: the order the iCalendar writers give.
  var text: String {
    values.sorted { left, right in
      let leftRank = Self.partNames.firstIndex(of: left.key) ?? Self.partNames.count
      let rightRank = Self.partNames.firstIndex(of: right.key) ?? Self.partNames.count
      return leftRank == rightRank ? left.key < right.key : leftRank < rightRank
    }.map { "\($0.key)=\($0.value)" }.joined(separator: ";")
  }

  /// The parts RFC 5545 defines, in its order.
  static let partNames = [
    "FREQ", "UNTIL", "COUNT", "INTERVAL", "BYSECOND", "BYMINUTE", "BYHOUR", "BYDAY", "BYMONTHDAY", "BYYEARDAY",
    "BYWEEKNO", "BYMONTH", "BYSETPOS", "WKST",
  ]

  /// RFC 5545's weekdays, Sunday first.
  static let weekdays = ["SU", "MO", "TU", "WE", "TH", "FR", "SA"]
}

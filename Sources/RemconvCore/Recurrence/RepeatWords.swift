import Foundation

extension RecurrenceRule {
  /// The words `--repeat` takes: an RRULE (`FREQ=WEEKLY;BYDAY=TU`, with or without `RRULE:`),
  /// `daily`, `weekly`, `monthly`, `yearly`, `weekdays`, or `every N days` (weeks, months,
  /// years; `every day` and `every week` for N = 1), case-insensitively. Nil for other words;
  /// an RRULE libical refuses throws its reason.
  public init?(repeatWords words: String) throws(RecurrenceRuleError) {
    let trimmed = words.trimmingCharacters(in: .whitespaces)
    let lowered = trimmed.lowercased()
    if lowered.hasPrefix("freq=") || lowered.hasPrefix("rrule:") {
      let value = lowered.hasPrefix("rrule:") ? String(trimmed.dropFirst("rrule:".count)) : trimmed
      // RFC 5545 names are case-insensitive; libical reads them in capitals.
      try self.init(value.uppercased())
      return
    }
    guard let text = Self.ruleText(ofWords: lowered.split(separator: " ").map(String.init)) else { return nil }
    try self.init(text)
  }

  private static let frequencies = [
    "daily": "DAILY", "weekly": "WEEKLY", "monthly": "MONTHLY", "yearly": "YEARLY", "annually": "YEARLY",
  ]
  private static let units = [
    "day": "DAILY", "days": "DAILY", "week": "WEEKLY", "weeks": "WEEKLY", "month": "MONTHLY", "months": "MONTHLY",
    "year": "YEARLY", "years": "YEARLY",
  ]

  private static func ruleText(ofWords words: [String]) -> String? {
    switch words.count {
    case 1:
      if words[0] == "weekdays" { return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR" }
      return frequencies[words[0]].map { "FREQ=" + $0 }
    case 2 where words[0] == "every":
      guard let unit = units[words[1]], !words[1].hasSuffix("s") else { return nil }
      return "FREQ=" + unit
    case 3 where words[0] == "every":
      guard let interval = Int(words[1]), (1...1000).contains(interval), let unit = units[words[2]] else { return nil }
      return "FREQ=\(unit)" + (interval == 1 ? "" : ";INTERVAL=\(interval)")
    default:
      return nil
    }
  }
}

import Foundation

/// Todoist's English `every` phrases (in a task's `DATE`) as RRULEs, and back.
///
/// Read: `every day`, `every 3 days`, `every other day`, the same with week, month and year
/// (and `daily`, `weekly`, `monthly`, `yearly`); `every weekday` / `every workday`; named days
/// (`every monday`, `every mon, fri`, `every tue and thu`, `every other monday`); a day of the
/// month (`every 15th`, `every month on the 15th`, `every last day`); a weekday of the month
/// (`every 3rd friday`, `every last friday`); a day of the year (`every jan 5`, `every 5 jan`,
/// `every january 5th`). `every!` (and `every! 3 days`, …) repeats from completion. Upper and
/// lower case and repeated spaces are alike. Anything else (a time, `starting`, `until`,
/// `for`, another language) is not read here: the caller keeps the text and reports it.
///
/// Written: the same phrases, one per rule Todoist can say (`phrase(for:)`), so a rule read
/// from a phrase is written as a phrase that reads back to it.
enum TodoistRecurrence {
  /// A phrase read: the rule, and whether it repeats from completion (`every!`).
  struct Reading: Equatable {
    var rule: String
    var fromCompletion: Bool
  }

  static func reading(of phrase: String) -> Reading? {
    var words = phrase.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
    guard let first = words.first else { return nil }
    if words.count == 1,
      let unit = ["daily": "DAILY", "weekly": "WEEKLY", "monthly": "MONTHLY", "yearly": "YEARLY"][first]
    {
      return Reading(rule: "FREQ=" + unit, fromCompletion: false)
    }
    let fromCompletion: Bool
    switch first {
    case "every": fromCompletion = false
    case "every!": fromCompletion = true
    default: return nil
    }
    words.removeFirst()
    return rule(of: words).map { Reading(rule: $0.text, fromCompletion: fromCompletion) }
  }

  /// The phrase for a rule, or nil when Todoist has none for it.
  static func phrase(for rule: String, fromCompletion: Bool) -> String? {
    guard var parts = RecurrenceRuleParts(text: rule), let frequency = parts["FREQ"],
      let interval = parts.interval, interval >= 1
    else { return nil }
    parts["FREQ"] = nil
    parts["INTERVAL"] = nil
    let body: String?
    switch (frequency, parts.values.keys.sorted()) {
    case ("DAILY", []): body = every(interval, "day")
    case ("WEEKLY", []): body = every(interval, "week")
    case ("MONTHLY", []): body = every(interval, "month")
    case ("YEARLY", []): body = every(interval, "year")
    case ("WEEKLY", ["BYDAY"]): body = weekdaysPhrase(parts["BYDAY"] ?? "", interval: interval)
    case ("MONTHLY", ["BYMONTHDAY"]) where interval == 1:
      body = Int(parts["BYMONTHDAY"] ?? "").flatMap(monthDayPhrase)
    case ("MONTHLY", ["BYDAY"]) where interval == 1:
      body = parts["BYDAY"].flatMap(nthWeekdayPhrase)
    case ("YEARLY", ["BYMONTH", "BYMONTHDAY"]) where interval == 1:
      guard let month = Int(parts["BYMONTH"] ?? ""), (1...12).contains(month),
        let day = Int(parts["BYMONTHDAY"] ?? ""), (1...31).contains(day)
      else { return nil }
      body = monthNames[month - 1] + " " + String(day)
    default: body = nil
    }
    return body.map { (fromCompletion ? "every! " : "every ") + $0 }
  }

  // MARK: Reading

  private static func rule(of words: [String]) -> RecurrenceRuleParts? {
    guard let head = words.first else { return nil }
    if let unit = frequency(ofUnit: head), words.count == 1 { return RecurrenceRuleParts(["FREQ": unit]) }
    if words == ["last", "day"] { return RecurrenceRuleParts(["FREQ": "MONTHLY", "BYMONTHDAY": "-1"]) }
    if words.count == 2, let unit = frequency(ofUnit: words[1]) {
      let interval = head == "other" ? 2 : Int(head)
      guard let interval, interval >= 1, interval <= 9999 else { return nil }
      return RecurrenceRuleParts(interval == 1 ? ["FREQ": unit] : ["FREQ": unit, "INTERVAL": String(interval)])
    }
    if words == ["weekday"] || words == ["workday"] {
      return RecurrenceRuleParts(["FREQ": "WEEKLY", "BYDAY": "MO,TU,WE,TH,FR"])
    }
    if words.count == 4, words[0] == "month", words[1] == "on", words[2] == "the", let day = monthDay(words[3]) {
      return RecurrenceRuleParts(["FREQ": "MONTHLY", "BYMONTHDAY": String(day)])
    }
    if words.count == 1, let day = monthDay(head) {
      return RecurrenceRuleParts(["FREQ": "MONTHLY", "BYMONTHDAY": String(day)])
    }
    if words.count == 2, let position = position(head), let day = weekday(words[1]) {
      return RecurrenceRuleParts(["FREQ": "MONTHLY", "BYDAY": String(position) + day])
    }
    if words.count == 2, let yearly = dayOfYear(words[0], words[1]) ?? dayOfYear(words[1], words[0]) {
      return RecurrenceRuleParts(["FREQ": "YEARLY", "BYMONTH": String(yearly.month), "BYMONTHDAY": String(yearly.day)])
    }
    if words.count == 2, head == "other", let day = weekday(words[1]) {
      return RecurrenceRuleParts(["FREQ": "WEEKLY", "INTERVAL": "2", "BYDAY": day])
    }
    return namedDays(words).map { RecurrenceRuleParts(["FREQ": "WEEKLY", "BYDAY": $0]) }
  }

  private static func frequency(ofUnit word: String) -> String? {
    [
      "day": "DAILY", "days": "DAILY", "week": "WEEKLY", "weeks": "WEEKLY", "month": "MONTHLY", "months": "MONTHLY",
      "year": "YEARLY", "years": "YEARLY",
    ][word]
  }

  /// `mon, wed and fri`: the days in the week's order (Monday first), each once.
  private static func namedDays(_ words: [String]) -> String? {
    var days: Set<String> = []
    for word in words where word != "and" && word != "," {
      let name = word.hasSuffix(",") ? String(word.dropLast()) : word
      guard let day = weekday(name) else { return nil }
      days.insert(day)
    }
    guard !days.isEmpty else { return nil }
    return weekOrder.filter(days.contains).joined(separator: ",")
  }

  private static func weekday(_ word: String) -> String? {
    let name = word.hasSuffix("s") && word.count > 3 ? String(word.dropLast()) : word
    for (index, full) in dayNames.enumerated() where name == full || name == String(full.prefix(3)) {
      return RecurrenceRuleParts.weekdays[index]
    }
    return ["tues": "TU", "weds": "WE", "thur": "TH", "thurs": "TH"][name]
  }

  /// `15th`, `1st`, `22nd` (a day of the month).
  private static func monthDay(_ word: String) -> Int? {
    guard let day = ordinal(word), (1...31).contains(day) else { return nil }
    return day
  }

  /// `first`…`fourth`, `1st`…`5th`, `last`: a weekday's position in the month.
  private static func position(_ word: String) -> Int? {
    if word == "last" { return -1 }
    if let index = ["first", "second", "third", "fourth", "fifth"].firstIndex(of: word) { return index + 1 }
    guard let number = ordinal(word), (1...5).contains(number) else { return nil }
    return number
  }

  private static func ordinal(_ word: String) -> Int? {
    for suffix in ["st", "nd", "rd", "th"] where word.hasSuffix(suffix) {
      let digits = word.dropLast(2)
      guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let number = Int(digits) else { return nil }
      return number
    }
    return nil
  }

  /// `jan 5`, `january 5th` (with the words in either order).
  private static func dayOfYear(_ monthWord: String, _ dayWord: String) -> (month: Int, day: Int)? {
    guard let month = monthNames.firstIndex(of: monthWord) ?? fullMonthNames.firstIndex(of: monthWord) else {
      return nil
    }
    let day = Int(dayWord) ?? ordinal(dayWord)
    guard let day, (1...31).contains(day) else { return nil }
    return (month + 1, day)
  }

  // MARK: Writing

  private static func every(_ interval: Int, _ unit: String) -> String {
    interval == 1 ? unit : "\(interval) \(unit)s"
  }

  private static func weekdaysPhrase(_ list: String, interval: Int) -> String? {
    let days = list.split(separator: ",").map(String.init)
    guard !days.isEmpty, Set(days).count == days.count else { return nil }
    var names: [String] = []
    for day in weekOrder where days.contains(day) {
      guard let index = RecurrenceRuleParts.weekdays.firstIndex(of: day) else { return nil }
      names.append(dayNames[index])
    }
    guard names.count == days.count else { return nil }
    if interval == 1 {
      return days.count == 5 && !days.contains("SA") && !days.contains("SU") ? "weekday" : names.joined(separator: ", ")
    }
    return interval == 2 && names.count == 1 ? "other " + names[0] : nil
  }

  private static func monthDayPhrase(_ day: Int) -> String? {
    if day == -1 { return "last day" }
    guard (1...31).contains(day) else { return nil }
    return ordinalText(day)
  }

  /// `3FR` → `3rd friday`, `-1FR` → `last friday`.
  private static func nthWeekdayPhrase(_ value: String) -> String? {
    let day = String(value.suffix(2))
    guard let index = RecurrenceRuleParts.weekdays.firstIndex(of: day), let position = Int(value.dropLast(2)) else {
      return nil
    }
    let name = dayNames[index]
    if position == -1 { return "last " + name }
    return (1...5).contains(position) ? ordinalText(position) + " " + name : nil
  }

  private static func ordinalText(_ number: Int) -> String {
    let suffix: String
    switch (number % 10, number % 100) {
    case (_, 11...13): suffix = "th"
    case (1, _): suffix = "st"
    case (2, _): suffix = "nd"
    case (3, _): suffix = "rd"
    default: suffix = "th"
    }
    return String(number) + suffix
  }

  /// Sunday first, as `RecurrenceRuleParts.weekdays`.
  private static let dayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
  /// Monday first: the order days are listed in.
  private static let weekOrder = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
  private static let monthNames = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
  private static let fullMonthNames = [
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november",
    "december",
  ]
}

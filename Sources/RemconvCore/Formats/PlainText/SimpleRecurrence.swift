import Foundation

/// The recurrence rules plain-text formats can spell: every N days, weeks, months or years,
/// weekly on some weekdays. `todo.txt`'s `rec:` and Obsidian Tasks' `🔁 every …` name only
/// these; a rule with anything more (`BYMONTHDAY`, `COUNT`, `UNTIL`, exceptions) is reported
/// where it is written and kept as the source wrote it where it is read.
struct SimpleRecurrence: Equatable {
  enum Frequency: String, CaseIterable {
    case daily = "DAILY"
    case weekly = "WEEKLY"
    case monthly = "MONTHLY"
    case yearly = "YEARLY"
  }

  var frequency: Frequency
  var interval = 1
  /// RFC 5545 weekday codes (`MO` … `SU`) of a weekly rule, in week order.
  var weekdays: [String] = []
  var basis = Recurrence.Basis.dueDate

  static let weekdayCodes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
  static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
  static let workWeek = Array(weekdayCodes.prefix(5))

  init(frequency: Frequency, interval: Int = 1, weekdays: [String] = [], basis: Recurrence.Basis = .dueDate) {
    self.frequency = frequency
    self.interval = interval
    self.weekdays = weekdays
    self.basis = basis
  }

  /// The simple form of a recurrence, nil when it has more than this form says.
  init?(_ recurrence: Recurrence) {
    guard recurrence.exceptionDates.isEmpty, recurrence.additionalDates.isEmpty else { return nil }
    var frequency: Frequency?
    var interval = 1
    var weekdays: [String] = []
    for part in recurrence.rule.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1).map { String($0).uppercased() }
      guard pair.count == 2 else { return nil }
      switch pair[0] {
      case "FREQ": frequency = Frequency(rawValue: pair[1])
      case "INTERVAL":
        guard let value = Int(pair[1]), value >= 1 else { return nil }
        interval = value
      case "BYDAY":
        weekdays = pair[1].split(separator: ",").map(String.init)
        guard weekdays.allSatisfy(Self.weekdayCodes.contains) else { return nil }
        weekdays = Self.weekdayCodes.filter(weekdays.contains)
      default: return nil
      }
    }
    guard let frequency, weekdays.isEmpty || frequency == .weekly else { return nil }
    self.init(frequency: frequency, interval: interval, weekdays: weekdays, basis: recurrence.basis)
  }

  var recurrence: Recurrence {
    var rule = "FREQ=" + frequency.rawValue
    if interval != 1 { rule += ";INTERVAL=\(interval)" }
    if !weekdays.isEmpty { rule += ";BYDAY=" + weekdays.joined(separator: ",") }
    return Recurrence(rule: rule, basis: basis)
  }

  // MARK: todo.txt `rec:`

  /// `rec:` as topydo and SimpleTask spell it: `[+]N[dbwmy]` (days by default); `+` counts
  /// from the due date (strict), without it from completion. `1b`, one business day, is every
  /// weekday; more business days have no rule.
  init?(todoTxt value: String) {
    var text = Substring(value)
    let strict = text.first == "+"
    if strict { text = text.dropFirst() }
    var unit: Character = "d"
    if let last = text.last, !last.isNumber {
      unit = last
      text = text.dropLast()
    }
    guard !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(text), count >= 1 else {
      return nil
    }
    let basis: Recurrence.Basis = strict ? .dueDate : .completion
    switch unit {
    case "d": self.init(frequency: .daily, interval: count, basis: basis)
    case "w": self.init(frequency: .weekly, interval: count, basis: basis)
    case "m": self.init(frequency: .monthly, interval: count, basis: basis)
    case "y": self.init(frequency: .yearly, interval: count, basis: basis)
    case "b" where count == 1: self.init(frequency: .weekly, weekdays: Self.workWeek, basis: basis)
    default: return nil
    }
  }

  /// The `rec:` value, nil for a rule `rec:` cannot say.
  var todoTxtValue: String? {
    let prefix = basis == .dueDate ? "+" : ""
    if frequency == .weekly, weekdays == Self.workWeek, interval == 1 { return prefix + "1b" }
    guard weekdays.isEmpty else { return nil }
    let unit: String
    switch frequency {
    case .daily: unit = "d"
    case .weekly: unit = "w"
    case .monthly: unit = "m"
    case .yearly: unit = "y"
    }
    return prefix + String(interval) + unit
  }

  // MARK: Obsidian Tasks `🔁 every …`

  /// The common phrases: `every day`, `every 3 weeks`, `every weekday`, `every Sunday`,
  /// `every week on Monday, Wednesday`, each with an optional `when done` (from completion).
  init?(obsidianPhrase phrase: String) {
    var words = phrase.lowercased().replacingOccurrences(of: ",", with: " ").split(separator: " ").map(String.init)
    var basis = Recurrence.Basis.dueDate
    if words.suffix(2) == ["when", "done"] {
      basis = .completion
      words.removeLast(2)
    }
    guard words.first == "every" else { return nil }
    words.removeFirst()
    var interval = 1
    if let first = words.first, let number = Int(first), number >= 1 {
      interval = number
      words.removeFirst()
    }
    guard let unit = words.first else { return nil }
    words.removeFirst()
    let frequencies: [String: Frequency] = [
      "day": .daily, "days": .daily, "week": .weekly, "weeks": .weekly, "month": .monthly, "months": .monthly,
      "year": .yearly, "years": .yearly,
    ]
    func weekday(_ word: String) -> String? {
      Self.weekdayNames.firstIndex { $0.lowercased() == word }.map { Self.weekdayCodes[$0] }
    }
    if unit == "weekday", interval == 1, words.isEmpty {
      self.init(frequency: .weekly, weekdays: Self.workWeek, basis: basis)
    } else if let day = weekday(unit), interval == 1 {
      // `every Monday and Thursday` names more days after the first.
      let more = words.filter { $0 != "and" }.map(weekday)
      guard more.allSatisfy({ $0 != nil }) else { return nil }
      let days = [day] + more.compactMap { $0 }
      self.init(frequency: .weekly, weekdays: Self.weekdayCodes.filter(days.contains), basis: basis)
    } else if let frequency = frequencies[unit] {
      // `every day`, `every 3 days`: the plural with a number, the singular without.
      guard (interval == 1) != unit.hasSuffix("s") else { return nil }
      var days: [String] = []
      if frequency == .weekly, words.first == "on" {
        let named = words.dropFirst().filter { $0 != "and" }.map(weekday)
        guard !named.isEmpty, named.allSatisfy({ $0 != nil }) else { return nil }
        days = named.compactMap { $0 }
      } else if !words.isEmpty {
        return nil
      }
      self.init(
        frequency: frequency, interval: interval, weekdays: Self.weekdayCodes.filter(days.contains), basis: basis)
    } else {
      return nil
    }
  }

  /// The phrase Obsidian Tasks reads back as this rule.
  var obsidianPhrase: String {
    let when = basis == .completion ? " when done" : ""
    if frequency == .weekly, interval == 1, weekdays == Self.workWeek { return "every weekday" + when }
    let units: [Frequency: String] = [.daily: "day", .weekly: "week", .monthly: "month", .yearly: "year"]
    let unit = units[frequency] ?? "day"
    var phrase = interval == 1 ? "every " + unit : "every \(interval) \(unit)s"
    if !weekdays.isEmpty {
      let names = weekdays.compactMap { code in Self.weekdayCodes.firstIndex(of: code).map { Self.weekdayNames[$0] } }
      phrase += " on " + names.joined(separator: ", ")
    }
    return phrase + when
  }
}

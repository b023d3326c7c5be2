import Foundation

/// Taskwarrior's `recur` periods and RFC 5545 rules, both ways, as `task` 2.6 steps them.
///
/// `task` has two kinds of period. Calendar periods keep the day of the month (`monthly`,
/// `bimonthly`, `quarterly`, `semiannual`, `annual`/`yearly`, `biannual`/`biyearly`, `Nm`,
/// `Nq`, `Ny`, `PnM`, `PnY`) and `weekdays` skips Saturday and Sunday; every other period is
/// a duration added to the due in seconds (`daily`, `weekly`, `3d`, `2w`, `P1D`, `PT1H`, but
/// also `2mo` and `year`, which are 60 and 365 days, not months and years). Each maps to the
/// rule whose occurrences `task` generates; a duration in whole days is `FREQ=DAILY`, in whole
/// weeks `FREQ=WEEKLY` (measured in UTC: across a change of daylight saving time `task`'s local
/// time moves by an hour where the rule's does not).
enum TaskwarriorRecur {
  /// The RRULE value for a `recur` value (`FREQ=WEEKLY;INTERVAL=2`), nil for a period `task`
  /// 2.6 does not take.
  static func rule(forRecur recur: String) -> String? {
    let text = recur.trimmingCharacters(in: .whitespaces).lowercased()
    if let (frequency, interval) = calendarPeriods[text] { return rule(frequency, interval) }
    if text == "weekdays" { return "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR" }
    // `Nm`, `Nq`, `Ny` and the one-part ISO periods `PnM`, `PnY` are calendar periods.
    if let (number, unit) = numberAndUnit(text), number > 0 {
      switch unit {
      case "m": return rule("MONTHLY", number)
      case "q": return rule("MONTHLY", number * 3)
      case "y": return rule("YEARLY", number)
      default: break
      }
    }
    if text.hasPrefix("p"), let (number, unit) = numberAndUnit(String(text.dropFirst())), number > 0 {
      if unit == "m" { return rule("MONTHLY", number) }
      if unit == "y" { return rule("YEARLY", number) }
    }
    guard let seconds = durationSeconds(text), seconds > 0 else { return nil }
    for (frequency, length) in [("WEEKLY", 604_800), ("DAILY", 86400), ("HOURLY", 3600), ("MINUTELY", 60)]
    where seconds % length == 0 {
      return rule(frequency, seconds / length)
    }
    return rule("SECONDLY", seconds)
  }

  /// How `task` holds a rule: the `recur` it is written as, the `until` its UNTIL is, and the
  /// rule's parts `task` does not follow (reported; the occurrences `task` makes are those of
  /// the rule without them).
  struct Written: Equatable {
    var recur: String
    var until: Until?
    var unfollowed: [String]
  }

  /// A rule's UNTIL: a date, a UTC instant or a floating wall time.
  enum Until: Equatable {
    case date(LocalDate)
    case instant(Timestamp)
    case floating(LocalDateTime)
  }

  /// Why a rule cannot be a recurring task at all: its occurrences are not any `task` period's.
  struct Unwritable: Error, Equatable {
    var reason: String
  }

  /// The `recur` for a rule whose first occurrence is `firstDay`, or why none will do: a
  /// weekly rule on another day, several days (other than Monday to Friday), a day by its
  /// position in the month (`2TU`), `BYSETPOS`, `BYYEARDAY`, `BYWEEKNO` and times of day are
  /// not `task`'s. `COUNT` is followed by no period: reported, and the task repeats until its
  /// `until` (if any).
  static func written(rule: String, firstDay: LocalDate) -> Result<Written, Unwritable> {
    var parts: [String: String] = [:]
    for part in rule.split(separator: ";") {
      let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
      guard pair.count == 2 else { return .failure(Unwritable(reason: "'\(part)' is no rule part")) }
      parts[pair[0].uppercased()] = pair[1].uppercased()
    }
    guard let frequency = parts.removeValue(forKey: "FREQ") else {
      return .failure(Unwritable(reason: "the rule has no FREQ"))
    }
    var interval = 1
    if let text = parts.removeValue(forKey: "INTERVAL") {
      guard let number = Int(text), number > 0 else {
        return .failure(Unwritable(reason: "INTERVAL=\(text) is not a positive number"))
      }
      interval = number
    }
    var until: Until?
    if let text = parts.removeValue(forKey: "UNTIL") {
      guard let value = Self.until(text) else { return .failure(Unwritable(reason: "UNTIL=\(text) is no date")) }
      until = value
    }
    var unfollowed: [String] = []
    if let count = parts.removeValue(forKey: "COUNT") { unfollowed.append("COUNT=\(count)") }
    parts["WKST"] = nil  // The week's first day changes nothing for the rules `task` follows.

    var recur: String
    if let days = parts.removeValue(forKey: "BYDAY") {
      let weekdays = ["MO", "TU", "WE", "TH", "FR"]
      let listed = days.split(separator: ",").map(String.init)
      if Set(listed) == Set(weekdays), listed.count == 5, interval == 1, frequency == "WEEKLY" || frequency == "DAILY" {
        recur = "weekdays"
      } else if frequency == "WEEKLY", listed == [weekdayCode(of: firstDay)] {
        recur = interval == 1 ? "weekly" : "\(interval)w"
      } else {
        return .failure(Unwritable(reason: "BYDAY=\(days) (with FREQ=\(frequency)) is no period of task's"))
      }
    } else {
      switch frequency {
      case "DAILY": recur = interval == 1 ? "daily" : "\(interval)d"
      case "WEEKLY": recur = interval == 1 ? "weekly" : "\(interval)w"
      case "MONTHLY": recur = interval == 1 ? "monthly" : "\(interval)m"
      case "YEARLY": recur = interval == 1 ? "yearly" : "\(interval)y"
      case "HOURLY": recur = "\(interval)h"
      case "MINUTELY": recur = "\(interval)min"
      case "SECONDLY": recur = "\(interval)s"
      default: return .failure(Unwritable(reason: "FREQ=\(frequency) is no frequency"))
      }
    }
    // A day of the month or a month that is the first occurrence's own is what `task` keeps.
    if let day = parts["BYMONTHDAY"], frequency == "MONTHLY" || frequency == "YEARLY", Int(day) == firstDay.day {
      parts["BYMONTHDAY"] = nil
    }
    if let month = parts["BYMONTH"], frequency == "YEARLY", Int(month) == firstDay.month {
      parts["BYMONTH"] = nil
    }
    if let (name, value) = parts.sorted(by: { $0.key < $1.key }).first {
      return .failure(Unwritable(reason: "\(name)=\(value) is no period of task's"))
    }
    return .success(Written(recur: recur, until: until, unfollowed: unfollowed))
  }

  /// The RRULE `UNTIL` text of an instant `task` wrote.
  static func untilText(_ instant: Timestamp) -> String {
    instant.utcWallTime.basicString + "Z"
  }

  // MARK: Periods

  /// Calendar periods by name, as frequency and interval.
  private static let calendarPeriods: [String: (String, Int)] = [
    "monthly": ("MONTHLY", 1), "bimonthly": ("MONTHLY", 2), "quarterly": ("MONTHLY", 3),
    "semiannual": ("MONTHLY", 6), "annual": ("YEARLY", 1), "yearly": ("YEARLY", 1), "biannual": ("YEARLY", 2),
    "biyearly": ("YEARLY", 2),
  ]

  /// Named durations and duration units (`task` 2.6's), in seconds.
  private static let durations: [String: Int] = {
    var table: [String: Int] = ["daily": 86400, "weekly": 604_800, "biweekly": 1_209_600, "fortnight": 1_209_600]
    let units: [([String], Int)] = [
      (["s", "sec", "secs", "second", "seconds"], 1), (["min", "mins", "minute", "minutes"], 60),
      (["h", "hr", "hrs", "hour", "hours"], 3600), (["d", "day", "days"], 86400),
      (["w", "wk", "wks", "week", "weeks", "sennight"], 604_800),
      (["mo", "mos", "mth", "mths", "mnths", "month", "months"], 30 * 86400),
      (["yr", "yrs", "year", "years"], 365 * 86400),
    ]
    for (names, seconds) in units { for name in names { table[name] = seconds } }
    return table
  }()

  private static let namedOnly: Set<String> = ["daily", "weekly", "biweekly", "fortnight"]

  /// The seconds of a duration: `3d`, `2 weeks`, `daily`, or ISO 8601 `P2W`, `P1DT12H`.
  private static func durationSeconds(_ text: String) -> Int? {
    if text.hasPrefix("p") { return isoDurationSeconds(text.dropFirst()) }
    if let seconds = durations[text] { return seconds }
    guard let (number, unit) = numberAndUnit(text), !namedOnly.contains(unit), let seconds = durations[unit] else {
      return nil
    }
    return number.multipliedReportingOverflow(by: seconds).overflow ? nil : number * seconds
  }

  /// `1DT12H` (after the `P`): weeks, days, and hours, minutes, seconds after `T`. Months and
  /// years in a longer period have no fixed length: not taken.
  private static func isoDurationSeconds(_ text: Substring) -> Int? {
    var total = 0
    var number = ""
    var inTime = false
    var sawPart = false
    for character in text {
      if character.isASCII, character.isNumber {
        number.append(character)
        continue
      }
      if character == "t", !inTime, number.isEmpty {
        inTime = true
        continue
      }
      let unit: Int?
      switch (character, inTime) {
      case ("w", false): unit = 604_800
      case ("d", false): unit = 86400
      case ("h", true): unit = 3600
      case ("m", true): unit = 60
      case ("s", true): unit = 1
      default: unit = nil
      }
      guard let unit, let value = Int(number), case (let part, false) = value.multipliedReportingOverflow(by: unit)
      else { return nil }
      total += part
      number = ""
      sawPart = true
    }
    return sawPart && number.isEmpty ? total : nil
  }

  /// `3m` as (3, "m"), `2 weeks` as (2, "weeks"): a number, then letters. A bare unit is 1.
  private static func numberAndUnit(_ text: String) -> (Int, String)? {
    let digits = text.prefix { $0.isASCII && $0.isNumber }
    let unit = text.dropFirst(digits.count).trimmingCharacters(in: .whitespaces)
    guard !unit.isEmpty, unit.allSatisfy({ $0.isASCII && $0.isLetter }) else { return nil }
    if digits.isEmpty { return (1, unit) }
    guard digits.count <= 6, let number = Int(digits) else { return nil }
    return (number, unit)
  }

  private static func rule(_ frequency: String, _ interval: Int) -> String {
    interval == 1 ? "FREQ=\(frequency)" : "FREQ=\(frequency);INTERVAL=\(interval)"
  }

  // MARK: Days

  /// RFC 5545's two-letter code of a day of the week (1970-01-01 was a Thursday).
  static func weekdayCode(of date: LocalDate) -> String {
    let codes = ["TH", "FR", "SA", "SU", "MO", "TU", "WE"]
    let index = ((date.daysSinceEpoch % 7) + 7) % 7
    return codes[index]
  }

  /// An UNTIL value: `20261231`, `20261231T090000Z` or `20261231T090000`.
  private static func until(_ text: String) -> Until? {
    let bytes = Array(text.utf8)
    func digits(_ range: Range<Int>) -> Int? {
      guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
      return Int(String(decoding: bytes[range], as: UTF8.self))
    }
    guard let year = digits(0..<4), let month = digits(4..<6), let day = digits(6..<8),
      let date = LocalDate(year: year, month: month, day: day)
    else { return nil }
    if bytes.count == 8 { return .date(date) }
    guard bytes.count >= 15, bytes[8] == UInt8(ascii: "T"), let hour = digits(9..<11), let minute = digits(11..<13),
      let second = digits(13..<15), let time = LocalDateTime(date: date, hour: hour, minute: minute, second: second)
    else { return nil }
    if bytes.count == 15 { return .floating(time) }
    guard bytes.count == 16, bytes[15] == UInt8(ascii: "Z") else { return nil }
    return .instant(Timestamp(utc: time))
  }
}

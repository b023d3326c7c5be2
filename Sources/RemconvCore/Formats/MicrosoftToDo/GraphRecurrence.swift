import Foundation

/// Graph's `patternedRecurrence` (`{"pattern":{…},"range":{…}}`) as an RFC 5545 RRULE.
///
/// Every pattern type Graph defines has one rule: `daily`, `weekly` (`daysOfWeek`, and
/// `firstDayOfWeek` as `WKST` where it changes which days count), `absoluteMonthly`
/// (`dayOfMonth`), `relativeMonthly` (`index` and `daysOfWeek`), `absoluteYearly` (`month`,
/// `dayOfMonth`) and `relativeYearly`; `interval` is `INTERVAL`. The range: `noEnd` nothing,
/// `endDate` `UNTIL` (a date, as To Do's due is a day), `numbered` `COUNT`. Graph fills the
/// members a type does not use with placeholders (`dayOfMonth: 0`, `endDate: "0001-01-01"`),
/// which are not read.
enum GraphRecurrence {
  /// Why a `recurrence` has no rule.
  enum Failure: Error, Equatable, CustomStringConvertible {
    case shape(String)
    case unknownType(String)
    case missing(String, type: String)
    case invalid(member: String, value: String)

    var description: String {
      switch self {
      case .shape(let what): "\(what) should be an object"
      case .unknownType(let type): "the pattern type '\(type)' is not one Graph defines"
      case .missing(let member, let type): "a \(type) pattern needs \(member)"
      case .invalid(let member, let value): "\(member) '\(value)' is not valid"
      }
    }
  }

  /// The rule of `recurrence`, and the day the range says the series starts (`startDate`).
  static func rule(of recurrence: JSONValue) -> Result<(rule: String, seriesStart: LocalDate?), Failure> {
    do {
      guard let pattern = recurrence["pattern"], pattern.objectValue != nil else {
        throw Failure.shape("recurrence.pattern")
      }
      var parts = try patternParts(pattern)
      var seriesStart: LocalDate?
      if let range = recurrence["range"] {
        guard range.objectValue != nil else { throw Failure.shape("recurrence.range") }
        parts += try rangeParts(range)
        if let text = range["startDate"]?.stringValue {
          guard let day = LocalDate(iso: text) else { throw Failure.invalid(member: "range.startDate", value: text) }
          seriesStart = day
        }
      }
      return .success((RecurrenceRuleParts(Dictionary(parts) { _, last in last }).text, seriesStart))
    } catch let failure as Failure {
      return .failure(failure)
    } catch {
      return .failure(.shape("recurrence"))
    }
  }

  /// The rule as a Graph pattern would give it back, or nil when no pattern says it: a
  /// frequency of a day or more with the parts a pattern type has, and an end that is a day.
  static func carried(rule: String) -> String? {
    guard var parts = RecurrenceRuleParts(text: rule), let frequency = parts["FREQ"], let interval = parts.interval,
      interval >= 1, parts["UNTIL"] == nil || parts["COUNT"] == nil
    else { return nil }
    let names = Set(parts.values.keys).subtracting(["FREQ", "INTERVAL", "UNTIL", "COUNT", "WKST"])
    let days = (parts["BYDAY"] ?? "").split(separator: ",").map(String.init)
    let plainDays = !days.isEmpty && days.allSatisfy(RecurrenceRuleParts.weekdays.contains)
    let positions = Set(weekIndexes.values)
    let nthDay =
      days.count == 1 && RecurrenceRuleParts.weekdays.contains(String(days[0].suffix(2)))
      && Int(days[0].dropLast(2)).map(positions.contains) == true
    let relative =
      names.isSuperset(of: ["BYDAY"])
      && (names.contains("BYSETPOS")
        ? plainDays && Int(parts["BYSETPOS"] ?? "").map(positions.contains) == true : nthDay)
    let monthDay = Int(parts["BYMONTHDAY"] ?? "").map { (1...31).contains($0) } == true
    let carried: Bool
    switch frequency {
    case "DAILY": carried = names.isEmpty
    case "WEEKLY": carried = names == ["BYDAY"] && plainDays
    case "MONTHLY":
      carried = names == ["BYMONTHDAY"] && monthDay || names.subtracting(["BYSETPOS"]) == ["BYDAY"] && relative
    case "YEARLY":
      let month = Int(parts["BYMONTH"] ?? "").map { (1...12).contains($0) } == true
      carried =
        month
        && (names == ["BYMONTH", "BYMONTHDAY"] && monthDay
          || names.subtracting(["BYSETPOS"]) == ["BYMONTH", "BYDAY"] && relative)
    default: carried = false
    }
    guard carried else { return nil }
    if let until = parts["UNTIL"] { parts["UNTIL"] = String(until.prefix(8)) }
    if frequency != "WEEKLY" || !weekStartMatters(parts["WKST"] ?? "MO", interval: interval, days: days) {
      parts["WKST"] = nil
    }
    return parts.canonicalText
  }

  /// Whether a week starting on `weekStart` instead of RFC 5545's Monday changes which days
  /// an interval of weeks gives: only with an interval, and only for the days from that start
  /// to Sunday, which the two weeks count differently.
  static func weekStartMatters(_ weekStart: String, interval: Int, days: [String]) -> Bool {
    let mondayFirst = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    guard interval > 1, let start = mondayFirst.firstIndex(of: weekStart), start > 0 else { return false }
    return days.contains { mondayFirst.firstIndex(of: $0).map { $0 >= start } == true }
  }

  /// Graph's day names as RFC 5545 weekdays.
  static let weekdays: [String: String] = [
    "sunday": "SU", "monday": "MO", "tuesday": "TU", "wednesday": "WE", "thursday": "TH", "friday": "FR",
    "saturday": "SA",
  ]

  /// Graph's `weekIndex` as a position in the month.
  static let weekIndexes: [String: Int] = ["first": 1, "second": 2, "third": 3, "fourth": 4, "last": -1]

  private static func patternParts(_ pattern: JSONValue) throws -> [(String, String)] {
    guard let type = pattern["type"]?.stringValue else { throw Failure.missing("a type", type: "recurrence") }
    let interval = try number(pattern, "interval", in: 1...9999, type: type) ?? 1
    var parts: [(String, String)] = []
    func days() throws -> [String] {
      guard let names = pattern["daysOfWeek"]?.arrayValue, !names.isEmpty else {
        throw Failure.missing("daysOfWeek", type: type)
      }
      return try names.map { name in
        guard let text = name.stringValue, let day = weekdays[text.lowercased()] else {
          throw Failure.invalid(member: "daysOfWeek", value: name.stringValue ?? JSONText.encode(name))
        }
        return day
      }
    }
    func relativeDays() throws {
      let days = try days()
      let indexText = pattern["index"]?.stringValue ?? "first"
      guard let index = weekIndexes[indexText.lowercased()] else {
        throw Failure.invalid(member: "index", value: indexText)
      }
      // One day: the Nth of it (`3TU`); several: the Nth of those days in the month (`BYSETPOS`).
      if days.count == 1 {
        parts.append(("BYDAY", String(index) + days[0]))
      } else {
        parts.append(("BYDAY", days.joined(separator: ",")))
        parts.append(("BYSETPOS", String(index)))
      }
    }
    switch type {
    case "daily":
      parts.append(("FREQ", "DAILY"))
    case "weekly":
      parts.append(("FREQ", "WEEKLY"))
      let days = try days()
      parts.append(("BYDAY", days.joined(separator: ",")))
      if let first = pattern["firstDayOfWeek"]?.stringValue {
        guard let day = weekdays[first.lowercased()] else {
          throw Failure.invalid(member: "firstDayOfWeek", value: first)
        }
        if weekStartMatters(day, interval: interval, days: days) { parts.append(("WKST", day)) }
      }
    case "absoluteMonthly":
      parts.append(("FREQ", "MONTHLY"))
      parts.append(("BYMONTHDAY", String(try required(pattern, "dayOfMonth", in: 1...31, type: type))))
    case "relativeMonthly":
      parts.append(("FREQ", "MONTHLY"))
      try relativeDays()
    case "absoluteYearly":
      parts.append(("FREQ", "YEARLY"))
      parts.append(("BYMONTH", String(try required(pattern, "month", in: 1...12, type: type))))
      parts.append(("BYMONTHDAY", String(try required(pattern, "dayOfMonth", in: 1...31, type: type))))
    case "relativeYearly":
      parts.append(("FREQ", "YEARLY"))
      parts.append(("BYMONTH", String(try required(pattern, "month", in: 1...12, type: type))))
      try relativeDays()
    default:
      throw Failure.unknownType(type)
    }
    if interval > 1 { parts.append(("INTERVAL", String(interval))) }
    return parts
  }

  private static func rangeParts(_ range: JSONValue) throws -> [(String, String)] {
    let type = range["type"]?.stringValue ?? "noEnd"
    switch type {
    case "noEnd":
      return []
    case "endDate":
      guard let text = range["endDate"]?.stringValue else { throw Failure.missing("range.endDate", type: type) }
      guard let day = LocalDate(iso: text) else { throw Failure.invalid(member: "range.endDate", value: text) }
      return [("UNTIL", day.description.replacingOccurrences(of: "-", with: ""))]
    case "numbered":
      return [("COUNT", String(try required(range, "numberOfOccurrences", in: 1...999_999, type: type)))]
    default:
      throw Failure.invalid(member: "range.type", value: type)
    }
  }

  private static func required(_ object: JSONValue, _ member: String, in bounds: ClosedRange<Int>, type: String) throws
    -> Int
  {
    guard let value = try number(object, member, in: bounds, type: type) else {
      throw Failure.missing(member, type: type)
    }
    return value
  }

  private static func number(_ object: JSONValue, _ member: String, in bounds: ClosedRange<Int>, type: String) throws
    -> Int?
  {
    guard let value = object[member] else { return nil }
    guard let number = value.intValue, bounds.contains(number) else {
      throw Failure.invalid(member: member, value: value.stringValue ?? JSONText.encode(value))
    }
    return number
  }
}

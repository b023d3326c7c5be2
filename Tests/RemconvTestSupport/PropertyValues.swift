import Foundation
import RemconvCore

/// Random values of every declared field of a reminder (`Reminder.fields`), of every kind a
/// user's data holds: all-day, floating, zoned and UTC dates; rules with BYDAY, BYSETPOS, UNTIL,
/// COUNT and EXDATE; several alarms of each kind; tags; URLs; text with the characters formats
/// escape; `extra` from several formats. The cross-path property tests draw from it.
///
/// A reminder's dates are what iCalendar can state (RFC 5545, 3.8.2.3 and 3.3.10): its start,
/// due date and a rule's UNTIL are all days, all floating times, or all instants (UTC or zoned),
/// one of the three per reminder (servers refuse an item that mixes them), and the start comes
/// before the due date.
public enum PropertyValues {
  /// Not "UTC": Radicale stores `TZID=UTC` as a UTC time and answers with the ETag of what it
  /// stored, so the next change there reads as a change of the date too (issue 44).
  static let zones = ["Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe", "Pacific/Chatham"]
  static let titles = [
    "Call Anna, re: lease; \"urgent\"", "Back\\slash and: colon", "Café crème (NFC)", "Cafe\u{301} cre\u{300}me (NFD)",
    "日本語のタスク", "שלום עולם", "Emoji 🧪🏳️‍🌈 tasks", "Tab\there", "  leading and trailing  ",
  ]
  static let noteLines = [
    "first line", "second, with commas; and semicolons", "a \\ backslash", "tab\tin the middle", "", "日本語 ✓",
    "<b>not html</b> & ampersand", "quote \" and 'apostrophe'", "trailing space ",
  ]
  static let tagWords = ["home", "a,b", "x;y", "Ünïcode", "two words", "#hash", "back\\slash"]
  static let rules = [
    "FREQ=WEEKLY;BYDAY=MO,WE", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=DAILY;COUNT=10",
    "FREQ=YEARLY;UNTIL=", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=15", "FREQ=WEEKLY;INTERVAL=3",
  ]

  /// The three forms a reminder's dates take together.
  enum DateForm: CaseIterable {
    case day, floating, instant

    init(_ date: DueDate) {
      switch date {
      case .date: self = .day
      case .floating: self = .floating
      case .utc, .zoned: self = .instant
      }
    }

    /// A rule's UNTIL in this form.
    var until: String {
      switch self {
      case .day: "20351231"
      case .floating: "20351231T235959"
      case .instant: "20351231T235959Z"
      }
    }
  }

  static func dateForm(of reminder: Reminder, _ random: inout SeededGenerator) -> DateForm {
    if let date = reminder.startDate ?? reminder.dueDate { return DateForm(date) }
    return pick(DateForm.allCases, &random)
  }

  /// A reminder with every field set.
  public static func reminder(id: String, list: String, _ random: inout SeededGenerator) -> Reminder {
    var reminder = Reminder(id: id, listID: list, title: "")
    for field in Reminder.fields.map(\.name) { change(field, of: &reminder, &random) }
    return reminder
  }

  /// Gives `field` of `reminder` another value; `field` is one of `Reminder.fields`.
  public static func change(_ field: String, of reminder: inout Reminder, _ random: inout SeededGenerator) {
    precondition(Reminder.fields.contains { $0.name == field }, "\(field) is not a declared field")
    let before = reminder
    repeat {
      draw(field, into: &reminder, &random)
    } while reminder == before
  }

  private static func draw(_ field: String, into reminder: inout Reminder, _ random: inout SeededGenerator) {
    switch field {
    case "title": reminder.title = pick(titles, &random) + " \(Int.random(in: 1...9999, using: &random))"
    case "notes":
      reminder.notes = (0..<Int.random(in: 1...5, using: &random)).map { _ in pick(noteLines, &random) }.joined(
        separator: "\n")
    case "isDone": reminder.isDone.toggle()
    case "completedAt": reminder.completedAt = timestamp(&random)
    case "flagged": reminder.flagged.toggle()
    // A start comes before the due date, as RFC 5545 and every app want it.
    case "dueDate":
      if let start = reminder.startDate {
        reminder.dueDate = shifted(start, days: Int.random(in: 1...60, using: &random))
      } else {
        reminder.dueDate = dueDate(dateForm(of: reminder, &random), &random)
      }
    case "startDate":
      if let due = reminder.dueDate {
        reminder.startDate = shifted(due, days: -Int.random(in: 1...60, using: &random))
      } else {
        reminder.startDate = dueDate(dateForm(of: reminder, &random), &random)
      }
    case "recurrence":
      let form = dateForm(of: reminder, &random)
      let first = reminder.startDate ?? reminder.dueDate ?? dueDate(form, &random)
      var rule = pick(rules, &random)
      if rule.hasSuffix("UNTIL=") { rule += form.until }
      reminder.recurrence = Recurrence(
        rule: rule,
        exceptionDates: (0..<Int.random(in: 0...2, using: &random)).map { _ in
          shifted(first, days: Int.random(in: 7...90, using: &random))
        }, basis: Bool.random(using: &random) ? .dueDate : .completion)
    case "alarms": reminder.alarms = (0..<Int.random(in: 1...3, using: &random)).map { _ in alarm(&random) }
    case "priority": reminder.priority = pick(Priority.allCases, &random)
    case "tags":
      reminder.tags = Array(Set((0..<Int.random(in: 1...3, using: &random)).map { _ in pick(tagWords, &random) }))
        .sorted()
    case "url": reminder.url = "https://example.org/t/\(Int.random(in: 1...99999, using: &random))?q=a&b=c#frag"
    case "createdAt": reminder.createdAt = timestamp(&random)
    case "editedAt": reminder.editedAt = timestamp(&random)
    case "extra":
      let number = Int.random(in: 1...99999, using: &random)
      reminder.extra = [
        "taskwarrior": .object(["estimate": .string("PT\(number % 9 + 1)H")]),
        "ical": .object(["lines": .array([.string("X-OTHER-APP-RANK:\(number)")])]),
      ]
    default: break
    }
  }

  /// A remconv JSON document of these lists and their reminders (parents before subtasks).
  public static func document(_ lists: [(ReminderList, [Reminder])]) -> String {
    func object(_ members: [(String, String)]) -> String {
      "{" + members.map { JSONText.quoted($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }
    let listTexts = lists.map { list, reminders in
      object(
        ReminderJSON.listMembers(list) + [
          ("reminders", "[" + reminders.map { object(ReminderJSON.reminderMembers($0)) }.joined(separator: ",") + "]")
        ])
    }
    return #"{"format":"remconv","version":1,"lists":["# + listTexts.joined(separator: ",") + "]}"
  }

  /// `extra` as the user's data: the iCalendar reader's empty objects aside.
  public static func userExtra(_ reminder: Reminder) -> [String: JSONValue] {
    reminder.extra.filter { $0.value != .object([:]) }
  }

  static func pick<T>(_ values: [T], _ random: inout SeededGenerator) -> T {
    values[Int.random(in: 0..<values.count, using: &random)]
  }

  /// A whole second between 2020 and 2035.
  static func timestamp(_ random: inout SeededGenerator) -> Timestamp {
    Timestamp(millisecondsSinceEpoch: Int64.random(in: 1_577_836_800...2_051_222_400, using: &random) * 1000)
  }

  static func dueDate(_ form: DateForm, _ random: inout SeededGenerator) -> DueDate {
    let day = LocalDate(
      year: Int.random(in: 2026...2032, using: &random), month: Int.random(in: 1...12, using: &random),
      day: Int.random(in: 1...28, using: &random))!
    let time = LocalDateTime(
      date: day, hour: Int.random(in: 0...23, using: &random), minute: pick([0, 15, 30, 45], &random),
      second: 0)!
    switch form {
    case .day: return .date(day)
    case .floating: return .floating(time)
    case .instant: return Bool.random(using: &random) ? .utc(time) : .zoned(time, timeZone: pick(zones, &random))
    }
  }

  /// A date of the same kind as `date`, `days` later.
  static func shifted(_ date: DueDate, days: Int) -> DueDate {
    func later(_ day: LocalDate) -> LocalDate {
      let start = Calendar(identifier: .gregorian).date(
        from: DateComponents(timeZone: TimeZone(identifier: "UTC"), year: day.year, month: day.month, day: day.day))!
      let moved = Calendar(identifier: .gregorian).dateComponents(
        in: TimeZone(identifier: "UTC")!, from: start.addingTimeInterval(Double(days) * 86_400))
      return LocalDate(year: moved.year!, month: moved.month!, day: moved.day!)!
    }
    func later(_ time: LocalDateTime) -> LocalDateTime {
      LocalDateTime(date: later(time.date), hour: time.hour, minute: time.minute, second: time.second)!
    }
    switch date {
    case .date(let day): return .date(later(day))
    case .floating(let time): return .floating(later(time))
    case .utc(let time): return .utc(later(time))
    case .zoned(let time, let zone): return .zoned(later(time), timeZone: zone)
    }
  }

  static func alarm(_ random: inout SeededGenerator) -> Alarm {
    let action = pick(["DISPLAY", "AUDIO"], &random)
    let text = action == "DISPLAY" ? "Reminder \(Int.random(in: 1...999, using: &random))" : nil
    switch Int.random(in: 0..<3, using: &random) {
    case 0: return Alarm(trigger: .absolute(timestamp(&random)), action: action, text: text)
    case 1:
      return Alarm(
        trigger: .relative(seconds: -60 * pick([5, 15, 30, 60, 1440], &random), to: .due), action: action, text: text)
    default:
      return Alarm(
        trigger: .relative(seconds: 60 * pick([0, 10, 120], &random), to: .start), action: action, text: text)
    }
  }
}

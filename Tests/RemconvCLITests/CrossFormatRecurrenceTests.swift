import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// Issue 22's proof: a weekly-on-Tuesday reminder with one exception, a 15-minute alarm and a
/// start date goes .ics → store → Taskwarrior → store → (a TickTick backup, jCal, CSV, JSON
/// Lines) → store → .ics, and arrives with the same rule, exception, alarm and start wherever
/// the formats on its way carry them, with a report where one cannot.
@Suite struct CrossFormatRecurrenceTests {
  static let calendar = """
    BEGIN:VCALENDAR\r
    VERSION:2.0\r
    PRODID:-//remconv tests//EN\r
    X-WR-CALNAME:Work\r
    BEGIN:VTODO\r
    UID:standup-0001\r
    DTSTAMP:20261101T000000Z\r
    SUMMARY:Standup notes\r
    DTSTART;TZID=Europe/Berlin:20261201T090000\r
    DUE;TZID=Europe/Berlin:20261201T100000\r
    RRULE:FREQ=WEEKLY;BYDAY=TU\r
    EXDATE;TZID=Europe/Berlin:20261215T100000\r
    BEGIN:VALARM\r
    ACTION:DISPLAY\r
    DESCRIPTION:Standup notes\r
    TRIGGER:-PT15M\r
    END:VALARM\r
    END:VTODO\r
    END:VCALENDAR\r

    """

  static let rule = "RRULE:FREQ=WEEKLY;BYDAY=TU"
  static let exception = "EXDATE;TZID=Europe/Berlin:20261215T100000"
  static let start = "DTSTART;TZID=Europe/Berlin:20261201T090000"
  static let due = "DUE;TZID=Europe/Berlin:20261201T100000"
  static let alarm = "TRIGGER:-PT15M"

  /// What a leg carries of the four, in the final .ics.
  struct Carried: Equatable, CustomStringConvertible {
    var rule = false
    var exception = false
    var alarm = false
    var start = false

    init(ics text: String) {
      let lines = text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
      rule = lines.contains(CrossFormatRecurrenceTests.rule)
      exception = lines.contains(CrossFormatRecurrenceTests.exception)
      alarm = lines.contains(CrossFormatRecurrenceTests.alarm)
      start = lines.contains(CrossFormatRecurrenceTests.start) && lines.contains(CrossFormatRecurrenceTests.due)
    }

    init(rule: Bool, exception: Bool, alarm: Bool, start: Bool) {
      (self.rule, self.exception, self.alarm, self.start) = (rule, exception, alarm, start)
    }

    static let all = Carried(rule: true, exception: true, alarm: true, start: true)

    var description: String { "rule \(rule), exception \(exception), alarm \(alarm), start \(start)" }
  }

  @discardableResult
  static func run(_ bench: TestBench, _ arguments: [String]) -> CLIResult {
    let result = bench.run(arguments)
    #expect(result.status == .ok, "\(arguments): \(result.errors)")
    return result
  }

  /// The .ics of a store.
  static func ics(of bench: TestBench) -> String {
    run(bench, ["export", "--format", "ics"]).output
  }

  /// The one reminder of a store, as JSON Lines has it.
  static func stored(in bench: TestBench) throws -> JSONValue {
    let lines = run(bench, ["export", "--format", "jsonl"]).output.split(separator: "\n")
    try #require(lines.count == 1, "\(lines)")
    return try JSONParser.parse(String(lines[0]))
  }

  /// .ics → store → Taskwarrior → store: the store the legs start from, and the reports of
  /// the Taskwarrior export.
  static func throughTaskwarrior() throws -> (bench: TestBench, reports: String) {
    let first = TestBench()
    run(first, ["import", first.directory.write("work.ics", calendar)])
    #expect(Carried(ics: ics(of: first)) == .all, "the store holds all four: \(ics(of: first))")
    let file = first.directory.file("work.taskwarrior.json")
    let exported = run(first, ["export", "--format", "taskwarrior", "--output", file])
    let second = TestBench()
    run(second, ["import", file, "--format", "taskwarrior"])
    return (second, exported.errors)
  }

  @Test func theTaskwarriorLegCarriesWhatTaskwarriorCanAndReportsTheRest() throws {
    let (bench, reports) = try Self.throughTaskwarrior()
    let carried = Carried(ics: Self.ics(of: bench))
    #expect(carried == Self.afterTaskwarrior, "\(Self.ics(of: bench))")
    if !Self.afterTaskwarrior.exception { #expect(reports.contains("cannot-carry"), "\(reports)") }
  }

  /// What survives Taskwarrior (`recur`, `scheduled` and `wait`, no exceptions of its own).
  static let afterTaskwarrior = Carried.all

  @Test(arguments: ["jcal", "csv", "jsonl"])
  func aRemconvFormatLegCarriesAllThatReachedIt(format: String) throws {
    let (bench, _) = try Self.throughTaskwarrior()
    let file = bench.directory.file("work.\(format)")
    Self.run(bench, ["export", "--format", format, "--output", file])
    let next = TestBench()
    Self.run(next, ["import", file, "--format", format])
    let final = Self.ics(of: next)
    #expect(Carried(ics: final) == Self.afterTaskwarrior, "\(format): \(final)")
  }

  /// TickTick is read only: the leg is the backup TickTick would write of the store's
  /// reminder. It has no exception dates (a `Repeat` is one rule), so the exception is what
  /// it cannot carry; rule, alarm (relative to the start, as TickTick reminds) and start cross.
  @Test func aTickTickBackupLegCarriesRuleAlarmAndStart() throws {
    let (bench, _) = try Self.throughTaskwarrior()
    let reminder = try Self.stored(in: bench)
    let backup = try Self.tickTickBackup(of: reminder)
    let next = TestBench()
    let imported = Self.run(next, ["import", next.directory.write("backup.csv", backup)])
    #expect(!imported.errors.contains("unmapped"), "\(imported.errors)")
    var expected = Self.afterTaskwarrior
    expected.exception = false
    #expect(Carried(ics: Self.ics(of: next)) == expected, "\(Self.ics(of: next))")
  }

  /// A backup as TickTick writes it, of a reminder as the JSON contract has it: instants in
  /// UTC with the task's zone, the rule with TickTick's `RRULE:` prefix and `INTERVAL=1`, the
  /// alarms as `TRIGGER:` durations from the start.
  static func tickTickBackup(of reminder: JSONValue) throws -> String {
    let zoneName = try #require(reminder["dueTimeZone"]?.stringValue)
    let zone = try #require(TimeZone(identifier: zoneName))
    // TickTick's instants: `2026-12-01T08:00:00+0000`.
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ssZ"
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    func instant(_ wall: String?) throws -> String {
      let time = try #require(wall.flatMap(LocalDateTime.init(iso:)), "\(String(describing: wall))")
      let components = DateComponents(
        year: time.date.year, month: time.date.month, day: time.date.day, hour: time.hour, minute: time.minute,
        second: time.second)
      return formatter.string(from: try #require(calendar.date(from: components)))
    }
    let rule = try #require(reminder["recurrence"]?["rule"]?.stringValue)
    let parts = rule.split(separator: ";").map(String.init)
    let tickTickRule = "RRULE:" + ([parts[0], "INTERVAL=1"] + parts.dropFirst()).joined(separator: ";")
    let triggers = try (reminder["alarms"]?.arrayValue ?? []).map { alarm in
      #expect(alarm["relatedTo"] == .string("start"), "TickTick reminds from the start")
      let offset = try #require(alarm["offset"]?.intValue, "\(alarm)")
      return "TRIGGER:" + (offset < 0 ? "-" : "") + "PT\(abs(offset) / 60)M"
    }
    let header = """
      "Folder Name","List Name","Title","Kind","Tags","Content","Is Check list","Start Date","Due Date","Reminder",\
      "Repeat","Priority","Status","Created Time","Completed Time","Order","Timezone","Is All Day","Is Floating",\
      "Column Name","Column Order","View Mode","taskId","parentId"
      """
    let cells = [
      "", "Work", reminder["title"]?.stringValue ?? "", "TEXT", "", "", "N",
      try instant(reminder["startDate"]?.stringValue), try instant(reminder["dueDate"]?.stringValue),
      triggers.joined(separator: ","), tickTickRule, "0", "0", "", "", "0", zoneName, "false", "false", "", "", "list",
      "standup", "",
    ]
    return "\u{FEFF}\"Date: 2026-12-01+0000\"\n\"Version: 7.1\"\n" + header + "\n"
      + cells.map { "\"\($0)\"" }.joined(separator: ",") + "\n"
  }
}

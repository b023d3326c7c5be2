import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// Issue 22: an app that holds less of a repeat, its alarms or its start than the store never
/// overwrites the store's richer values when its file is imported again; what it really
/// changed is taken.
@Suite struct AppRecurrenceReimportTests {
  static let tickTick = """
    "Folder Name","List Name","Title","Kind","Tags","Content","Is Check list","Start Date","Due Date","Reminder",\
    "Repeat","Priority","Status","Created Time","Completed Time","Order","Timezone","Is All Day","Is Floating",\
    "Column Name","Column Order","View Mode","taskId","parentId"
    "","Work","Standup","TEXT","","","N","2026-12-01T08:00:00+0000","2026-12-01T09:00:00+0000","TRIGGER:-PT15M",\
    "RRULE:FREQ=WEEKLY;INTERVAL=1;BYDAY=TU","0","0","","","0","Europe/Berlin","false","false",,,"list","t1",""

    """

  static let toDo = #"""
    {"value":[{"id":"T1","title":"Standup","importance":"normal","isReminderOn":true,
     "reminderDateTime":{"dateTime":"2026-12-01T08:45:00.0000000","timeZone":"UTC"},
     "dueDateTime":{"dateTime":"2026-12-01T00:00:00.0000000","timeZone":"Europe/Berlin"},
     "recurrence":{"pattern":{"type":"weekly","interval":1,"daysOfWeek":["tuesday"],"firstDayOfWeek":"sunday"},
      "range":{"type":"noEnd","startDate":"2026-12-01"}}}]}
    """#

  static let todoist = """
    TYPE,CONTENT,DESCRIPTION,PRIORITY,INDENT,AUTHOR,RESPONSIBLE,DATE,DATE_LANG,TIMEZONE
    task,Standup,,4,1,,,every tuesday,en,

    """

  static let googleTasks = #"""
    {"kind":"tasks#tasks","items":[{"kind":"tasks#task","id":"G1","title":"Standup","due":"2026-12-01T00:00:00.000Z"}]}
    """#

  /// The store's one reminder as JSON Lines has it.
  static func stored(_ bench: TestBench) throws -> JSONValue {
    let lines = bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n")
    try #require(lines.count == 1, "\(lines)")
    return try JSONParser.parse(String(lines[0]))
  }

  /// Makes the stored reminder richer than the app can say (an exception, a second alarm
  /// with a text, from completion where the app has no such thing) through a JSON Lines
  /// import, as another source would.
  static func enrich(_ bench: TestBench, _ change: (inout [String: JSONValue]) -> Void) throws -> JSONValue {
    var members = try #require(try stored(bench).objectValue)
    change(&members)
    let file = bench.directory.write("richer.jsonl", JSONText.encode(.object(members)) + "\n")
    let result = bench.run(["import", file, "--format", "jsonl"])
    #expect(result.status == .ok, "\(result.errors)")
    let richer = try stored(bench)
    #expect(richer["recurrence"] == members["recurrence"] && richer["alarms"] == members["alarms"], "\(richer)")
    return richer
  }

  static let exception: JSONValue = .object(["date": .string("2026-12-15")])
  static let secondAlarm: JSONValue = .object([
    "action": .string("AUDIO"), "text": .string("Go"), "at": .string("2026-12-01T07:30:00Z"),
  ])

  @Test(arguments: [
    ("backup.csv", tickTick), ("tasks.json", toDo), ("Work.csv", todoist), ("Tasks.json", googleTasks),
  ])
  func aReimportOfAPoorerSourceKeepsTheRicherStore(name: String, source: String) throws {
    let bench = TestBench()
    let file = bench.directory.write(name, source)
    let first = bench.run(["import", file, "--list", "Work"])
    #expect(first.status == .ok, "\(first.errors)")
    let richer = try Self.enrich(bench) { members in
      var recurrence = members["recurrence"]?.objectValue ?? ["rule": .string("FREQ=WEEKLY;BYDAY=TU")]
      recurrence["exceptionDates"] = .array([Self.exception])
      recurrence["additionalDates"] = recurrence["additionalDates"] ?? .array([])
      recurrence["basis"] = recurrence["basis"] ?? .string("due")
      members["recurrence"] = .object(recurrence)
      members["alarms"] = .array((members["alarms"]?.arrayValue ?? []) + [Self.secondAlarm])
    }
    let again = bench.run(["import", file, "--list", "Work", "--report", "json"])
    #expect(again.status == .ok, "\(again.errors)")
    let report = try JSONParser.parse(again.output)
    #expect(report["updated"] == .number(0), "\(name): \(again.output)")
    #expect(try Self.stored(bench) == richer, "\(name): the store keeps what the app cannot say")
  }

  @Test func aRuleChangedInTheAppIsTaken() throws {
    let bench = TestBench()
    #expect(bench.run(["import", bench.directory.write("backup.csv", Self.tickTick)]).status == .ok)
    _ = try Self.enrich(bench) { members in
      var recurrence = members["recurrence"]?.objectValue ?? [:]
      recurrence["exceptionDates"] = .array([Self.exception])
      members["recurrence"] = .object(recurrence)
    }
    let changed = Self.tickTick.replacingOccurrences(of: "BYDAY=TU", with: "BYDAY=WE")
    let again = bench.run(["import", bench.directory.write("backup.csv", changed)])
    #expect(again.status == .ok, "\(again.errors)")
    #expect(try Self.stored(bench)["recurrence"]?["rule"] == .string("FREQ=WEEKLY;BYDAY=WE"))
  }
}

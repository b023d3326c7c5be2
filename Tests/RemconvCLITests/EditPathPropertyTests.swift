import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// `edit` and `done` on seeded random reminders with every declared field set (issue 40): the
/// field an edit names changes, `done` changes what completing changes, and every other
/// declared field comes back as it was. `REMCONV_PROPERTY_SEED` replays a run.
@Suite struct EditPathPropertyTests {
  static let seed: UInt64 = ProcessInfo.processInfo.environment["REMCONV_PROPERTY_SEED"].flatMap(UInt64.init) ?? 40

  /// An edit, and the declared fields it may change besides the edit time.
  static let edits: [(arguments: [String], fields: Set<String>)] = [
    (["--title", "Renamed, with; marks"], ["title"]),
    (["--notes", "new\nnotes\twith a tab"], ["notes"]),
    (["--priority", "high"], ["priority"]),
    (["--flag"], ["flagged"]),
    (["--unflag"], ["flagged"]),
    (["--due", "2039-03-04T05:06", "--tz", "Asia/Kolkata"], ["dueDate"]),
    (["--no-start"], ["startDate", "alarms"]),
    (["--repeat", "FREQ=MONTHLY;BYDAY=-1FR"], ["recurrence"]),
    (["--alarm", "-10m"], ["alarms"]),
  ]

  @Test func anEditChangesItsFieldAndNothingElse() throws {
    var random = SeededGenerator(seed: Self.seed)
    let bench = TestBench()
    let list = ReminderList(id: "list-\(Self.seed)", name: "Fields", symbol: "star", color: "#34C759")
    let reminders = Self.edits.indices.map {
      PropertyValues.reminder(id: "edit-\($0)-\(Self.seed)", list: list.id, &random)
    }
    #expect(
      bench.run(["import", "-", "--format", "json"], input: PropertyValues.document([(list, reminders)])).status == .ok)
    let before = try Self.exported(bench)
    for ((arguments, fields), reminder) in zip(Self.edits, reminders) {
      let result = bench.run(["edit", reminder.id] + arguments)
      let after = try Self.exported(bench)
      let old = try #require(before[reminder.id])
      let new = try #require(after[reminder.id])
      if arguments == ["--no-start"], reminder.alarms.contains(where: { $0.trigger.isRelativeToStart }) {
        // An alarm counted from the start needs one: refused, and nothing changes.
        #expect(result.status == .dataError && old == new, "\(arguments): \(result.errors)")
        continue
      }
      #expect(result.status == .ok, "\(arguments): \(result.errors)")
      for name in Reminder.fields.map(\.name) where !fields.contains(name) && name != "editedAt" {
        #expect(Self.value(name, of: old) == Self.value(name, of: new), "edit \(arguments) changed \(name)")
      }
      switch arguments {
      case ["--flag"]: #expect(new["flagged"] == .bool(true))
      case ["--unflag"]: #expect(new["flagged"] == .bool(false))
      case ["--priority", "high"]: #expect(new["priority"] == .string("high"))
      default:
        #expect(fields.contains { Self.value($0, of: old) != Self.value($0, of: new) }, "edit \(arguments)")
      }
    }
  }

  @Test func doneChangesWhatCompletingChangesAndNothingElse() throws {
    var random = SeededGenerator(seed: Self.seed)
    let bench = TestBench()
    let list = ReminderList(id: "list-\(Self.seed)", name: "Fields")
    let reminders = (0..<12).map { index in
      var reminder = PropertyValues.reminder(id: "done-\(index)-\(Self.seed)", list: list.id, &random)
      reminder.isDone = false
      reminder.completedAt = nil
      if index % 2 == 0 { reminder.recurrence = nil }
      return reminder
    }
    #expect(
      bench.run(["import", "-", "--format", "json"], input: PropertyValues.document([(list, reminders)])).status == .ok)
    let before = try Self.exported(bench)
    for reminder in reminders {
      let result = bench.run(["done", reminder.id])
      #expect(result.status == .ok, "\(reminder.id): \(result.errors)")
    }
    let after = try Self.exported(bench)
    for reminder in reminders {
      let old = try #require(before[reminder.id])
      let new = try #require(after[reminder.id])
      // A repeating reminder moves to its next occurrence; a one-off is completed.
      let completing: Set<String> =
        reminder.recurrence == nil
        ? ["isDone", "completedAt", "editedAt"]
        // An alarm at an instant moves with the occurrence; a COUNT counts what is left.
        : ["dueDate", "startDate", "recurrence", "alarms", "completedAt", "editedAt"]
      for name in Reminder.fields.map(\.name) where !completing.contains(name) {
        #expect(Self.value(name, of: old) == Self.value(name, of: new), "done \(reminder.id) changed \(name)")
      }
      if reminder.recurrence == nil {
        #expect(new["isDone"] == .bool(true) && new["completedAt"] != .null, "done \(reminder.id): \(new)")
      } else {
        let frequency = { (rule: JSONValue?) in
          rule?.stringValue?.split(separator: ";").filter { !$0.hasPrefix("COUNT=") }
        }
        #expect(
          frequency(new["recurrence"]?["rule"]) == frequency(old["recurrence"]?["rule"]),
          "done \(reminder.id) lost its rule")
        #expect(new["alarms"]?.arrayValue?.count == old["alarms"]?.arrayValue?.count, "done \(reminder.id)")
      }
    }
  }

  /// Every reminder of the store, by UID, as `export --format jsonl` writes it.
  static func exported(_ bench: TestBench) throws -> [String: JSONValue] {
    var reminders: [String: JSONValue] = [:]
    for line in bench.run(["export", "--format", "jsonl"]).output.split(separator: "\n") {
      let value = try JSONParser.parse(String(line))
      if let id = value["id"]?.stringValue { reminders[id] = value }
    }
    return reminders
  }

  static func value(_ field: String, of reminder: JSONValue) -> JSONValue? {
    FormatCarriageTests.value(field, of: reminder)
  }
}

extension Alarm.Trigger {
  var isRelativeToStart: Bool {
    if case .relative(_, .start) = self { return true }
    return false
  }
}

import Foundation
import RemconvCLI
import RemconvCore
import RemconvTestSupport
import Testing

/// Helpers for the command-line tests of the app dialects (Taskwarrior, To Do, Google Tasks, jCal).
enum DialectCLI {
  static func fixture(_ format: String, _ name: String) -> String {
    Repository.path("Tests/RemconvCoreTests/Fixtures/\(format)/\(name)")
  }

  /// Runs `import` of a bad file and checks the contract: exit 65, a message located in the
  /// file, and a store left as it was.
  static func expectRefused(
    _ path: String, format: String?, located expected: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) {
    let bench = TestBench()
    #expect(bench.run(["import", Repository.path("Samples/json/reminders.json")]).status == .ok)
    let before = bench.snapshot()
    var arguments = ["import", path]
    if let format { arguments += ["--format", format] }
    let result = bench.run(arguments)
    #expect(result.status == .dataError, "\(result.errors)", sourceLocation: sourceLocation)
    #expect(
      result.errors.contains(expected), "expected '\(expected)' in: \(result.errors)", sourceLocation: sourceLocation)
    #expect(bench.snapshot() == before, "the store changed", sourceLocation: sourceLocation)
  }

  /// The reminders of a remconv JSON snapshot by UID: their list's name and their members
  /// (without `extra`, which records where a reminder has been).
  static func reminders(of snapshot: String) throws -> [String: (list: String, members: [String: JSONValue])] {
    var result: [String: (list: String, members: [String: JSONValue])] = [:]
    for list in try #require(try JSONParser.parse(snapshot)["lists"]?.arrayValue) {
      let name = try #require(list["name"]?.stringValue)
      for reminder in list["reminders"]?.arrayValue ?? [] {
        var members = try #require(reminder.objectValue)
        members["extra"] = nil
        result[try #require(members["id"]?.stringValue)] = (name, members)
      }
    }
    return result
  }

  /// Every reminder of `expected` is in `actual`, in a list of the same name, with the same fields.
  static func expectSameReminders(
    _ expected: String, _ actual: String, sourceLocation: Testing.SourceLocation = #_sourceLocation
  ) throws {
    let before = try reminders(of: expected)
    let after = try reminders(of: actual)
    #expect(before.count == after.count, sourceLocation: sourceLocation)
    for (id, reminder) in before {
      let counterpart = try #require(after[id], "\(id) is missing", sourceLocation: sourceLocation)
      #expect(counterpart.list == reminder.list, sourceLocation: sourceLocation)
      #expect(counterpart.members == reminder.members, sourceLocation: sourceLocation)
    }
  }

  /// The numbers of an import report printed with `--report json`.
  static func reportCounts(_ output: String) throws -> (added: Int, updated: Int, unchanged: Int) {
    let report = try JSONParser.parse(output.trimmingCharacters(in: .whitespacesAndNewlines))
    return (
      try #require(report["added"]?.intValue), try #require(report["updated"]?.intValue),
      try #require(report["unchanged"]?.intValue)
    )
  }
}
